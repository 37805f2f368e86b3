"""Hand-written agents that play like a sensible human, one per game, registered by env name.

Each reads only its observation (decoded with the layout in the env's
``codec.py``), so it plays from a plain PettingZoo loop without a bind.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bidbluff.agents.heuristic.liars_dice import LiarsDiceHeuristic
from bidbluff.agents.heuristic.libertalia import LibertaliaHeuristic
from bidbluff.agents.heuristic.lying_pirates import LyingPiratesHeuristic
from bidbluff.agents.heuristic.spytails import SpytailsHeuristic

HEURISTICS: dict[str, Callable[..., Any]] = {
    "liars_dice_v0": LiarsDiceHeuristic,
    "libertalia_v0": LibertaliaHeuristic,
    "lying_pirates_v0": LyingPiratesHeuristic,
    "spytails_v0": SpytailsHeuristic,
}


def make_heuristic(env_name: str | None, seed: int | None = None) -> Any:
    """The heuristic agent of ``env_name``; a clear error for an env that has none yet."""
    if env_name is None:
        raise ValueError(f"the heuristic agent is per game: pass env_name (one of {', '.join(HEURISTICS)})")
    try:
        cls = HEURISTICS[env_name]
    except KeyError:
        raise ValueError(
            f"no heuristic agent for {env_name!r} yet; envs with one: {', '.join(sorted(HEURISTICS))}"
        ) from None
    return cls(seed=seed)


__all__ = [
    "HEURISTICS",
    "LiarsDiceHeuristic",
    "LibertaliaHeuristic",
    "LyingPiratesHeuristic",
    "SpytailsHeuristic",
    "make_heuristic",
]
