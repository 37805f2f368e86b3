"""The table loop every self-play trainer shares: seat a game from the league, let the baseline seats play
until a network must decide, and score the game's end for the league.

A seat holds the learner (``LEARNER``), a snapshot of it (a network that acts frozen) or a baseline (an agent
that acts from its observation, ``bidbluff.agents``).  The batched trainer, the RLlib env and the gym view
differ in who decides for a network seat; what happens between those decisions is here, once (the turn loop
itself, ``play_baselines``, lives in ``bidbluff.arena.turns``, where the Gymnasium env shares it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from bidbluff.arena.turns import game_over, play_baselines

LEARNER = "learner"
__all__ = ["LEARNER", "Outcome", "game_over", "outcome", "play_baselines", "seat_table"]


def seat_table(rng: np.random.Generator, n: int, pool_fraction: float, draw: Callable[[], str] | None) -> list[str]:
    """Who sits in each of ``n`` seats: each goes to the league (``draw()``) with ``pool_fraction``, else to the
    learner, and one seat drawn at random is the learner's where none came to it."""
    league = draw is not None and pool_fraction > 0
    seats = [draw() if league and rng.random() < pool_fraction else LEARNER for _ in range(n)]
    if LEARNER not in seats:
        seats[int(rng.integers(n))] = LEARNER
    return seats


@dataclass(frozen=True)
class Outcome:
    """A finished game from the learner's side: whether its best seat won the table, and for every other seat
    who sat there and the learner's result against it (1 it scored higher, 1/2 the same, 0 lower)."""

    learner_won: float
    against: list[tuple[str, float]]


def outcome(scores: Sequence[float], seats: Sequence[str]) -> Outcome:
    best = max(scores[s] for s, who in enumerate(seats) if who == LEARNER)
    against = [
        (who, 1.0 if best > scores[s] else 0.5 if best == scores[s] else 0.0)
        for s, who in enumerate(seats)
        if who != LEARNER
    ]
    return Outcome(float(best == max(scores)), against)
