"""Where the shipped agents lie: the package data of ``bidbluff.checkpoints`` (the checkout's ``checkpoints/``
folder, or the installed copy of it), each game's ``<game>/selfplay.zip``, the Liar's dice CFR+ table, and the
equilibrium recipe's networks for the small Liar's dice tables."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

CHECKPOINTS = Path(str(resources.files("bidbluff.checkpoints")))
CFR_TABLE = CHECKPOINTS / "liars_dice" / "cfr_2p1d.json"
# The equilibrium recipe's last iterates at 2 players x 1 die (``bidbluff selfplay --recipe equilibrium``), one per
# rules preset; they are played as they sample, which is what their exploitability measures.
EQUILIBRIUM = {
    "ppo-2p1d": CHECKPOINTS / "liars_dice" / "ppo_2p1d.zip",
    "ppo-2p1d-classic": CHECKPOINTS / "liars_dice" / "ppo_2p1d_classic.zip",
}


def shipped_path(env_name: str) -> Path:
    """Where the shipped checkpoint of ``env_name`` lies (``checkpoints/<game>/selfplay.zip``)."""
    game = env_name.rsplit("_v", 1)[0]
    return CHECKPOINTS / game / "selfplay.zip"


def has_shipped(env_name: str) -> bool:
    return shipped_path(env_name).is_file()


def retired_path(env_name: str, version: str) -> Path:
    """Where the network shipped until ``version`` lies once a newer one replaced it
    (``python -m bidbluff.training.ship NEW --retire VERSION``): ``checkpoints/<game>/shipped@VERSION.zip``,
    played by the spec ``shipped@VERSION``."""
    if not version or not all(c.isalnum() or c in "._-" for c in version):
        raise ValueError(f"shipped@{version}: a version is letters, digits, '.', '_' and '-' (e.g. 2026-12)")
    return shipped_path(env_name).with_name(f"shipped@{version}.zip")


def names_shipped(path: str) -> bool:
    """``path`` is ``shipped`` or ``shipped@VERSION``: a name the env resolves, not a file."""
    return path == "shipped" or path.startswith("shipped@")


def network_path(path: str, env_name: str) -> str:
    """The checkpoint a network spec's path names: ``shipped`` the env's shipped network, ``shipped@VERSION`` the
    one retired as VERSION; any other path as given."""
    if path == "shipped":
        return str(shipped_path(env_name))
    if path.startswith("shipped@"):
        return str(retired_path(env_name, path.removeprefix("shipped@")))
    return path


def shipped_network(path: str, env_name: str) -> str:
    """``network_path``, where the checkpoint that ``shipped`` or ``shipped@VERSION`` names must exist: a missing
    one is named with the versions that are kept."""
    resolved = network_path(path, env_name)
    if names_shipped(path) and not Path(resolved).is_file():
        kept = ", ".join(f"shipped@{v}" for v in retired_versions(env_name)) or "none"
        raise ValueError(f"{env_name} has no checkpoint {path} ({resolved} does not exist; retired versions: {kept})")
    return resolved


def retired_versions(env_name: str) -> list[str]:
    """The versions of ``env_name``'s retired networks, oldest name first."""
    folder = shipped_path(env_name).parent
    return sorted(p.stem.partition("@")[2] for p in folder.glob("shipped@*.zip"))
