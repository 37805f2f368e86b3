"""A single-agent gymnasium view of any bidbluff env, for stable-baselines3.

One *learner* seat plays; the other seats are opponents (agents from
``bidbluff.agents.make``) that act inside ``step`` until it is the learner's turn again
or the game is over.  The learner's seat rotates every episode, so one policy
learns every seat.  The observation is the env's flat ``observation`` vector;
``action_masks()`` gives the legal actions (what sb3-contrib's MaskablePPO
asks for).  The reward is the learner's env reward (zero until the end in
every bidbluff env).

Opponents come from a ``bidbluff.training.league.League``: each episode, every
opponent seat draws one (``league.sample(rng)``; uniformly among agent specs
given as a list), and the league hears the result of every episode
(``league.record_game``).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from bidbluff import envs
from bidbluff.agents.base import bind_all
from bidbluff.training.league import League
from bidbluff.training.tables import LEARNER, outcome, play_baselines

MAX_EMPTY_GAMES = 1000  # games in a row in which the learner never had to decide: a configuration error
MAX_EPISODE_STEPS = 5_000  # learner decisions; past this the episode is truncated (a policy looping)


class SingleAgentView(gym.Env):
    """The learner's view of a bidbluff env; opponents act inside ``step``.

    Args:
        env_name: a registered env (``envs.ENVS``).
        opponents: agent specs (``["random", "heuristic"]``, drawn uniformly) or a ``League`` (shared by
            several views, e.g. the self-play league).
        num_players: seats (the game's default when omitted).
        env_options: extra env constructor options (``{"preset": "classic"}``).
        reward_mode: the env's reward mode.
        learner_seat: ``"rotate"`` (one seat further every episode) or a fixed seat.
        seed: seeds the deals and the seat rotation's start (``reset(seed=...)`` too).
        max_episode_steps: learner decisions after which an episode is truncated (an env that lets a
            policy undo its own moves can otherwise loop forever).
    """

    metadata = {"render_modes": []}  # noqa: RUF012 - gymnasium's class attribute

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
        super().__init__()
        self.env_name = env_name
        self.aec = envs.make(
            env_name, raw=True, num_players=num_players, reward_mode=reward_mode, **(env_options or {})
        )
        self.num_players = self.aec.num_players
        if learner_seat != "rotate" and learner_seat not in range(self.num_players):
            raise ValueError(f"learner_seat must be 'rotate' or 0..{self.num_players - 1}, not {learner_seat!r}")
        self.learner_seat = learner_seat
        if not isinstance(opponents, League):
            opponents = League.of_specs(list(opponents), env_name, seed=0 if seed is None else seed)
        self.league = opponents
        game = self.aec.game
        self.observation_space = spaces.Box(0.0, 1.0, (game.observation_size,), np.float32)
        self.action_space = spaces.Discrete(game.codec.n)
        self.episodes = 0
        self.learner = self.aec.possible_agents[0]
        self.seated: list[Any] = []
        self._pending_reward = 0.0
        self._seed = seed
        self._seeded = False
        self._first_seat: int | None = None
        self.max_episode_steps = max_episode_steps
        self.episode_steps = 0
        self._opponent_steps = 0
        self._truncated = False

    # -- gymnasium API -----------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        if seed is None and not self._seeded:
            seed = self._seed
        super().reset(seed=seed)
        self._seeded = True
        for _ in range(MAX_EMPTY_GAMES):
            self._start_game()
            if not self._over() and not self._truncated:
                return self._observe(), {"learner_seat": self._learner_index()}
        raise RuntimeError(f"{self.env_name}: the learner never had a decision in {MAX_EMPTY_GAMES} games")

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict]:
        if self._over() or self._truncated:
            raise RuntimeError("step() after the game ended: call reset()")
        self._pending_reward = 0.0
        self._step(int(action))
        self._play_opponents()
        self.episode_steps += 1
        reward, self._pending_reward = self._pending_reward, 0.0
        done = self._over()
        truncated = not done and (self._truncated or self.episode_steps >= self.max_episode_steps)
        self._truncated = truncated
        info: dict[str, Any] = {"learner_seat": self._learner_index()}
        if done:
            scores = list(self.aec.game_state.scores())
            seats = ["opponent"] * self.num_players
            seats[self._learner_index()] = LEARNER
            info["scores"] = scores
            info["won"] = outcome(scores, seats).learner_won
        if done or truncated:
            self.league.record_game([a for a in self.seated if a is not None], info.get("won", 0.5))
        return self._observe(), reward, done, truncated, info

    def action_masks(self) -> np.ndarray:
        """Legal actions of the learner now (all False once the game is over)."""
        return self.aec.action_masks().astype(bool)

    # -- inside -------------------------------------------------------------------
    def _learner_index(self) -> int:
        return self.aec.possible_agents.index(self.learner)

    def _start_game(self) -> None:
        n = self.num_players
        if self.learner_seat == "rotate":
            if self._first_seat is None:  # vectorised copies start at different seats
                self._first_seat = int(self.np_random.integers(n))
            seat = (self._first_seat + self.episodes) % n
        else:
            seat = int(self.learner_seat)
        self.episodes += 1
        self.learner = self.aec.possible_agents[seat]
        self.seated = [None if s == seat else self.league.sample(self.np_random) for s in range(n)]
        self.aec.reset(seed=int(self.np_random.integers(2**31 - 1)))
        bind_all([a for a in self.seated if a is not None], self.aec)
        self._pending_reward = 0.0
        self.episode_steps = 0
        self._opponent_steps = 0
        self._truncated = False
        self._play_opponents()

    def _over(self) -> bool:
        return bool(self.aec.terminations[self.learner] or self.aec.truncations[self.learner])

    def _step(self, action: int) -> None:
        self.aec.step(action)
        self._pending_reward += float(self.aec.rewards[self.learner])

    def _play_opponents(self) -> None:
        aec, cap = self.aec, self.max_episode_steps * self.num_players
        before = self._opponent_steps
        self._opponent_steps = play_baselines(aec, self.seated, before, cap)
        if self._over():
            if self._opponent_steps > before:  # an opponent's move ended the game: the learner's reward is in it
                self._pending_reward += float(aec.rewards[self.learner])
        elif aec.agent_selection != self.learner:
            self._truncated = True  # the opponents are looping among themselves

    def _observe(self) -> np.ndarray:
        return self.aec.observe(self.learner)["observation"]
