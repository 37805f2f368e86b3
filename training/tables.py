"""The table loop every self-play trainer shares: seat a game from the league, let the baseline seats play
until a network must decide, and score the game's end for the league.

A seat holds the learner (``LEARNER``), a snapshot of it (a network that acts frozen) or a baseline (an agent
that acts from its observation, ``bidbluff.agents``).  The batched trainer, the RLlib env and the gym view
differ in who decides for a network seat; what happens between those decisions is here, once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from bidbluff.agents.base import observation_for, seat_of

LEARNER = "learner"


def seat_table(rng: np.random.Generator, n: int, pool_fraction: float, draw: Callable[[], str] | None) -> list[str]:
    """Who sits in each of ``n`` seats: each goes to the league (``draw()``) with ``pool_fraction``, else to the
    learner, and one seat drawn at random is the learner's where none came to it."""
    seats = [draw() if draw is not None and rng.random() < pool_fraction else LEARNER for _ in range(n)]
    if LEARNER not in seats:
        seats[int(rng.integers(n))] = LEARNER
    return seats


def play_baselines(env: Any, players: Sequence[Any], steps: int, max_steps: int) -> int:
    """The seats ``players`` holds an agent for (``None``: a network's seat) play until a network seat must
    decide, the game ends, or its ``steps`` (decisions so far) reach ``max_steps``; returns the steps now."""
    while steps < max_steps:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            break
        player = players[seat_of(agent)]
        if player is None:
            break
        if getattr(player, "needs_env", False):
            player.bind(env)  # a baseline shared by several tables may have been bound to another
        env.step(player.act(observation_for(player, env, agent), agent))
        steps += 1
    return steps


def game_over(env: Any) -> bool:
    agent = env.agent_selection
    return bool(env.terminations[agent] or env.truncations[agent])


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
