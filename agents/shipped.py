"""Where the shipped agents lie: the package data of ``bidbluff.checkpoints`` (the checkout's ``checkpoints/``
folder, or the installed copy of it), each game's ``<game>/selfplay.zip`` and the Liar's dice CFR+ table."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

CHECKPOINTS = Path(str(resources.files("bidbluff.checkpoints")))
CFR_TABLE = CHECKPOINTS / "liars_dice" / "cfr_2p1d.json"


def shipped_path(env_name: str) -> Path:
    """Where the shipped checkpoint of ``env_name`` lies (``checkpoints/<game>/selfplay.zip``)."""
    game = env_name.rsplit("_v", 1)[0]
    return CHECKPOINTS / game / "selfplay.zip"


def has_shipped(env_name: str) -> bool:
    return shipped_path(env_name).is_file()
