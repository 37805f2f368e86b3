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
from bidbluff.agents.heuristic.spytails_2026_11 import FirstSpytailsHeuristic

HEURISTICS: dict[str, Callable[..., Any]] = {
    "liars_dice_v0": LiarsDiceHeuristic,
    "libertalia_v0": LibertaliaHeuristic,
    "lying_pirates_v0": LyingPiratesHeuristic,
    "spytails_v0": SpytailsHeuristic,
}

# Earlier heuristics, kept loadable as ``heuristic@<date>`` because figures were measured against them.
EARLIER_HEURISTICS: dict[str, dict[str, Callable[..., Any]]] = {
    "2026-11": {"spytails_v0": FirstSpytailsHeuristic},
}


def make_heuristic(env_name: str | None, seed: int | None = None, version: str = "") -> Any:
    """The heuristic agent of ``env_name`` (``version``: an earlier one, e.g. ``"2026-11"``); a clear error
    for an env that has none yet."""
    if version:
        kept = EARLIER_HEURISTICS.get(version, {})
        if env_name not in kept:
            where = ", ".join(f"heuristic@{v} ({', '.join(games)})" for v, games in EARLIER_HEURISTICS.items())
            raise ValueError(f"no heuristic@{version} for {env_name!r}; earlier heuristics kept: {where}")
        return kept[env_name](seed=seed)
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
    "EARLIER_HEURISTICS",
    "HEURISTICS",
    "FirstSpytailsHeuristic",
    "LiarsDiceHeuristic",
    "LibertaliaHeuristic",
    "LyingPiratesHeuristic",
    "SpytailsHeuristic",
    "make_heuristic",
]
