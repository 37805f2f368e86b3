"""The Agent protocol: anything that picks an action id from an observation."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Agent(Protocol):
    """Plays from PettingZoo observations: ``{"observation", "action_mask"}``.

    ``act`` must return an id whose mask entry is 1.  ``reset`` (optional)
    is called at the start of each game.
    """

    def act(self, observation: dict[str, np.ndarray], agent: str) -> int: ...


class RandomAgent:
    """Uniform over the legal actions; seeded for reproducible matches."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observation: dict[str, np.ndarray], agent: str) -> int:
        legal = np.flatnonzero(observation["action_mask"])
        if legal.size == 0:
            raise ValueError(f"{agent} was asked to act with no legal action")
        return int(self.rng.choice(legal))

    def reset(self) -> None:
        pass
