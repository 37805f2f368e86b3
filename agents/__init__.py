"""Agents that play bidbluff envs.

``make(spec, env_name=..., seed=...)`` builds one from a spec string:

==================  ==========================================================
``random``          uniform over the legal actions
``heuristic``       the game's hand-written player (``agents.heuristic``)
``ismcts``          IS-MCTS, 200 simulations; ``ismcts:50`` for 50,
                    ``ismcts:100ms`` for a time budget (needs ``bind(env)``)
``cfr``             liars_dice_v0, 2 players x 1 die, Lying Pirates' rules:
                    CFR+'s equilibrium policy (``checkpoints/liars_dice/
                    cfr_2p1d.json``, sampled); ``cfr:<path>`` another
                    tabular policy (``agents.tabular``)
``shipped``         the env's shipped self-play checkpoint
                    (``checkpoints/<game>/selfplay.zip``); ``shipped:sample``
``<path>``          a trained checkpoint (``x.zip``, ``x.json`` or ``x``),
                    greedy; ``<path>:sample`` samples from the policy
==================  ==========================================================

Every agent has ``act(observation, agent) -> int`` and ``reset()``; see
``agents.base`` for the protocol and the engine bind.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from agents.base import Agent, RandomAgent, bind_all, seat_of
from agents.heuristic import HEURISTICS, make_heuristic
from agents.ismcts import ISMCTSAgent
from agents.policy import CheckpointError, PolicyAgent, load
from agents.tabular import TabularAgent, load_tabular

KINDS = ("random", "heuristic", "ismcts", "cfr", "shipped", "<checkpoint path>")
CHECKPOINTS = Path(__file__).resolve().parent.parent / "checkpoints"
CFR_TABLE = CHECKPOINTS / "liars_dice" / "cfr_2p1d.json"


def shipped_path(env_name: str) -> Path:
    """Where the shipped checkpoint of ``env_name`` lies (``checkpoints/<game>/selfplay.zip``)."""
    game = env_name.rsplit("_v", 1)[0]
    return CHECKPOINTS / game / "selfplay.zip"


def has_shipped(env_name: str) -> bool:
    return shipped_path(env_name).is_file()


def make(spec: str, env_name: str | None = None, seed: int | None = None, **options: Any) -> Any:
    """An agent from a spec (see the module docstring); ``options`` go to the agent's constructor."""
    kind, _, arg = spec.partition(":")
    if kind == "random":
        _no_arg(spec, arg)
        return RandomAgent(seed)
    if kind == "heuristic":
        _no_arg(spec, arg)
        return make_heuristic(env_name, seed)
    if kind == "ismcts":
        if arg:
            found = re.fullmatch(r"(\d+)(ms)?", arg)
            if not found:
                raise ValueError(f"agent spec {spec!r}: write ismcts:<simulations> or ismcts:<milliseconds>ms")
            if found.group(2):
                options = {"simulations": None, "time_ms": float(found.group(1)), **options}
            else:
                options = {"simulations": int(found.group(1)), **options}
        return ISMCTSAgent(seed=seed, **options)
    if kind == "cfr":
        if env_name not in (None, "liars_dice_v0"):
            raise ValueError(f"agent spec {spec!r}: tabular policies exist for liars_dice_v0 only, not {env_name}")
        return load_tabular(arg or CFR_TABLE, seed=seed)
    path, mode = spec, "greedy"
    if spec.endswith((":sample", ":greedy")):
        path, mode = spec.rsplit(":", 1)
    if path == "shipped":
        if env_name is None:
            raise ValueError("agent spec 'shipped' needs the env (agents.make('shipped', env_name=...))")
        path = str(shipped_path(env_name))
        if not Path(path).is_file():
            raise ValueError(f"{env_name} has no shipped checkpoint ({path} does not exist)")
    if path.endswith((".zip", ".json")) or Path(path + ".zip").exists() or Path(path).exists():
        return load(path, env_name=env_name, deterministic=mode == "greedy", seed=seed)
    raise ValueError(f"unknown agent {spec!r}; known: {', '.join(KINDS)}")


def _no_arg(spec: str, arg: str) -> None:
    if arg:
        raise ValueError(f"agent spec {spec!r}: this agent takes no ':' argument")


__all__ = [
    "HEURISTICS",
    "KINDS",
    "Agent",
    "CheckpointError",
    "ISMCTSAgent",
    "PolicyAgent",
    "RandomAgent",
    "TabularAgent",
    "bind_all",
    "has_shipped",
    "load",
    "make",
    "seat_of",
    "shipped_path",
]
