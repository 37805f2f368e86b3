"""The trainers' single-agent view: the Gymnasium env (``bidbluff.arena.gym_env.SingleAgentEnv``) with its
opponents drawn from a league.

``bidbluff train`` and the stable-baselines3 self-play build it directly.  It differs from the registered env
in two things only: every opponent seat draws its player from a ``bidbluff.training.league.League`` each
episode (uniformly among agent specs given as a list; the self-play league adds snapshots and the live
policy), and the league hears the result of every episode (``league.record_game``).  The learner's seat
rotates (one policy learns every seat), illegal actions raise (a masked policy never takes one), and a
``seed`` given here seeds the first reset.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bidbluff.arena.gym_env import MAX_LEARNER_STEPS, SingleAgentEnv
from bidbluff.training.league import League

MAX_EPISODE_STEPS = MAX_LEARNER_STEPS


class SingleAgentView(SingleAgentEnv):
    """The learner's view of a bidbluff env, opponents from a league.

    Args:
        env_name: a registered env (``envs.ENVS``).
        opponents: agent specs (``["random", "heuristic"]``, drawn uniformly) or a ``League`` (shared by
            several views, e.g. the self-play league).
        num_players: seats (the game's default when omitted).
        env_options: extra env constructor options (``{"preset": "classic"}``).
        reward_mode: the env's reward mode.
        learner_seat: ``"rotate"`` (one seat further every episode), ``"random"`` or a fixed seat.
        seed: seeds the first reset (``reset(seed=...)`` still reseeds).
        max_episode_steps: learner decisions after which an episode is truncated (an env that lets a
            policy undo its own moves can otherwise loop forever).
    """

    def __init__(
        self,
        env_name: str,
        opponents: Any,
        num_players: int | None = None,
        env_options: dict[str, Any] | None = None,
        reward_mode: str = "win",
        learner_seat: int | str = "rotate",
        seed: int | None = None,
        max_episode_steps: int = MAX_EPISODE_STEPS,
    ) -> None:
        try:
            super().__init__(
                env_name,
                seat=learner_seat,
                illegal_action="raise",
                max_learner_steps=max_episode_steps,
                num_players=num_players,
                reward_mode=reward_mode,
                **(env_options or {}),
            )
        except ValueError as bad:
            if str(bad).startswith("seat must be"):
                raise ValueError(f"learner_seat {learner_seat!r}: {bad}") from None
            raise
        self.learner_seat = learner_seat
        if not isinstance(opponents, League):
            opponents = League.of_specs(list(opponents), env_name, seed=0 if seed is None else seed)
        self.league = opponents
        self._seed = seed
        self._seeded = False

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        if seed is None and not self._seeded:
            seed = self._seed
        self._seeded = True
        return super().reset(seed=seed, options=options)

    def _draw_opponents(self, seat: int, seeds: np.ndarray) -> list[Any]:
        # the league's agents are shared by every view of a run: drawn, never reseeded here
        return [None if s == seat else self.league.sample(self.np_random) for s in range(self.num_players)]

    def _episode_over(self, won: float) -> None:
        self.league.record_game([a for a in self.seated if a is not None], won)
