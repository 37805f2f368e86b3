"""A bidbluff game as a single-agent Gymnasium env: one learner seat, the other seats played by agents.

``import bidbluff`` registers one id per env (``bidbluff.gym``); ``gymnasium.make`` builds this class::

    env = gymnasium.make("bidbluff/LiarsDice-v0", num_players=4, opponents="heuristic*3", seat="random")

The opponents act inside ``step`` until it is the learner's turn again or the game is over.  Everything the
episode draws (the learner's seat, the deal, every opponent's randomness) comes from the env's ``np_random``,
so ``reset(seed=s)`` fixes the whole episode and the same seed with the same actions replays it.

Observation (``obs_type``): ``"vector"`` (default) is the env's flat float32 vector, ``Box(0, 1, (size,))``;
the legal actions are ``action_masks()`` (bool, as sb3-contrib asks) and ``info["action_mask"]`` (int8, as
``Discrete.sample(mask=...)`` takes it).  ``"dict"`` is PettingZoo's ``{"observation", "action_mask"}``.
Every ``info`` carries ``action_mask`` and ``learner_seat``; the info of the step that ends a game adds
``scores`` (every seat's final score) and ``won`` (1.0 when the learner's score is the table's best).  Once
the game is over the mask is all zeros: no action is legal.

Action: ``Discrete(n)``, the env's action ids.  Any id may be sent (Gymnasium's convention: every element
of the action space is a valid input); an illegal one ends the episode with reward -1 (PettingZoo's
``TerminateIllegalWrapper`` convention, ``illegal_action="terminate"``), or raises ``ValueError`` with
``illegal_action="raise"``.

Reward: the learner's reward in the env's ``reward_mode`` (zero until the game's end).  ``terminated`` when
the game ends; ``truncated`` after ``max_learner_steps`` learner decisions or when the opponents stop
handing the turn back (a safety net; ``gymnasium.make(..., max_episode_steps=k)`` adds Gymnasium's own
``TimeLimit`` as usual).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import gymnasium as gym
import numpy as np

from bidbluff import envs
from bidbluff.agents.base import bind_all
from bidbluff.arena.turns import play_baselines

SEATS = ("random", "rotate")  # besides a fixed seat number
OBS_TYPES = ("vector", "dict")
MAX_EMPTY_GAMES = 1000  # games in a row in which the learner never had to decide: a configuration error
MAX_LEARNER_STEPS = 5_000  # learner decisions; past this the episode is truncated (a policy looping)


def opponent_specs(opponents: str | Sequence[str]) -> list[str]:
    """Agent specs, as the command line takes them: ``"heuristic*3"``, ``"heuristic,random"`` or a list."""
    from bidbluff import agents  # the agents load when an env is built, never at registration

    if isinstance(opponents, str):
        return agents.expand_specs(opponents)
    specs = [str(spec) for spec in opponents]
    if not specs:
        raise ValueError("opponents lists no agent spec")
    return specs


def reseed(agent: Any, seed: int, _depth: int = 0) -> None:
    """Give every ``numpy`` Generator an agent holds (its own ``rng`` and those of the parts it is built of,
    such as a heuristic's bettor or a search's rollout policy) a fresh stream from ``seed``."""
    children = np.random.SeedSequence(seed)
    for name, value in sorted(vars(agent).items()):
        if isinstance(value, np.random.Generator):
            setattr(agent, name, np.random.default_rng(children.spawn(1)[0]))
        elif _depth < 3 and type(value).__module__.startswith("bidbluff.agents") and hasattr(value, "__dict__"):
            reseed(value, int(children.spawn(1)[0].generate_state(1)[0]), _depth + 1)


class SingleAgentEnv(gym.Env):
    """One learner seat of a bidbluff env (see the module docstring).

    Args:
        env_name: a bidbluff env (``bidbluff.envs.ENVS``); the registered ids set it.
        opponents: agent specs for the other seats, taken in turn clockwise from the learner (``"random"``,
            ``"heuristic*3"``, ``"heuristic,random"``, ``["shipped", "random"]``); a checkpoint path plays it.
        seat: the learner's seat: ``"random"`` (drawn every episode), ``"rotate"`` (one seat further every
            episode, from a drawn start) or a fixed seat number.
        obs_type: ``"vector"`` (the flat vector) or ``"dict"`` (observation and mask).
        render_mode: ``"ansi"`` (``render()`` returns the board from the learner's view) or ``"human"``
            (printed after every reset and step).
        illegal_action: ``"terminate"`` (an illegal id ends the episode, reward -1) or ``"raise"``.
        max_learner_steps: learner decisions after which the episode is truncated.
        **options: the env's own options: ``num_players``, ``reward_mode`` and the game's setup options.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"], "render_fps": 4}

    def __init__(
        self,
        env_name: str,
        opponents: Any = "random",
        seat: int | str = "random",
        obs_type: str = "vector",
        render_mode: str | None = None,
        illegal_action: str = "terminate",
        max_learner_steps: int = MAX_LEARNER_STEPS,
        **options: Any,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']}")
        if obs_type not in OBS_TYPES:
            raise ValueError(f"obs_type {obs_type!r} is not one of {OBS_TYPES}")
        self.env_name = env_name
        self.aec = envs.make(env_name, raw=True, illegal_action=illegal_action, **options)
        self.num_players = n = self.aec.num_players
        if seat not in SEATS and not (isinstance(seat, (int, np.integer)) and 0 <= seat < n):
            raise ValueError(f"seat must be 'random', 'rotate' or 0..{n - 1}, not {seat!r}")
        self.seat = seat
        self.obs_type = obs_type
        self.render_mode = render_mode
        self.max_learner_steps = max_learner_steps
        self.opponents = opponents
        aec_space = self.aec.observation_space(self.aec.possible_agents[0])
        self.action_space = self.aec.action_space(self.aec.possible_agents[0])
        self.observation_space = aec_space if obs_type == "dict" else aec_space["observation"]
        self.learner = self.aec.possible_agents[0]
        self.seated: list[Any] = []  # this game's players by seat; None at the learner's
        self.episodes = 0
        self.episode_steps = 0
        self._slots: list[Any] | None = None  # the opponents' agents, clockwise from the learner
        self._first_seat: int | None = None
        self._rotation = 0  # games since the rotation started
        self._opponent_steps = 0
        self._pending_reward = 0.0
        self._truncated = False
        self._finished = True

    # -- Gymnasium API -----------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """A new game (``options`` go to the env's reset: setup options, ``{"state": ...}``)."""
        super().reset(seed=seed)
        if seed is not None:  # a seed fixes the episodes that follow it: the rotation starts again from a draw
            self._first_seat, self._rotation = None, 0
        for _ in range(MAX_EMPTY_GAMES):
            self._start_game(options)
            if not self._over() and not self._truncated:
                self._finished = False
                if self.render_mode == "human":
                    self.render()
                return self._observe(), self._info()
        raise RuntimeError(f"{self.env_name}: the learner never had a decision in {MAX_EMPTY_GAMES} games")

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if self._finished:
            raise RuntimeError("step() after the episode ended: call reset()")
        self._pending_reward = 0.0
        self.aec.step(int(action))
        self._pending_reward += float(self.aec.rewards[self.learner])
        self._play_opponents()
        self.episode_steps += 1
        reward, self._pending_reward = self._pending_reward, 0.0
        terminated = self._over()
        truncated = not terminated and (self._truncated or self.episode_steps >= self.max_learner_steps)
        info = self._info()
        if terminated:
            info.update(self._result())
        if terminated or truncated:
            self._finished = True
            self._episode_over(info.get("won", 0.5))
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, terminated, truncated, info

    def render(self) -> str | None:
        if self.render_mode is None:
            gym.logger.warn("render() called without a render_mode (pass render_mode='ansi' to gymnasium.make)")
            return None
        text = self.aec.game.render(self.aec.game_state, self._learner_index())
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions now, as bools (all False once the game is over)."""
        return self._mask().astype(bool)

    def action_to_str(self, action: int) -> str:
        """The learner's action ``action`` in words."""
        return self.aec.action_to_str(action)

    # -- what a subclass may change: who sits in the other seats ------------------------
    def _draw_opponents(self, seat: int, seeds: np.ndarray) -> list[Any]:
        """The players of a new game by seat (``None`` at the learner's ``seat``); ``seeds`` (one per seat,
        drawn from ``np_random``) reseed each opponent, so that ``reset(seed=...)`` fixes their play too."""
        n = self.num_players
        if self._slots is None:
            from bidbluff import agents

            specs = opponent_specs(self.opponents)
            self._slots = [
                agents.make(specs[i % len(specs)], env_name=self.env_name, seed=int(seeds[i])) for i in range(n - 1)
            ]
        seated: list[Any] = [None] * n
        for i, agent in enumerate(self._slots):
            reseed(agent, int(seeds[i]))
            seated[(seat + 1 + i) % n] = agent
        return seated

    def _episode_over(self, won: float) -> None:
        """Called once per finished or truncated episode with the learner's result (1/2 when truncated)."""

    # -- inside ----------------------------------------------------------------------------
    def _learner_index(self) -> int:
        return self.aec.possible_agents.index(self.learner)

    def _choose_seat(self) -> int:
        n = self.num_players
        if self.seat == "random":
            return int(self.np_random.integers(n))
        if self.seat == "rotate":
            if self._first_seat is None:  # vectorised copies start at different seats
                self._first_seat = int(self.np_random.integers(n))
            self._rotation += 1
            return (self._first_seat + self._rotation - 1) % n
        return int(self.seat)

    def _start_game(self, options: dict[str, Any] | None) -> None:
        seat = self._choose_seat()
        deal = int(self.np_random.integers(2**31 - 1))
        seeds = self.np_random.integers(2**63 - 1, size=self.num_players)  # drawn alike whoever sits there
        self.episodes += 1
        self.learner = self.aec.possible_agents[seat]
        self.seated = self._draw_opponents(seat, seeds)
        self.aec.reset(seed=deal, options=options)
        bind_all([a for a in self.seated if a is not None], self.aec)
        self._pending_reward = 0.0
        self.episode_steps = 0
        self._opponent_steps = 0
        self._truncated = False
        self._play_opponents()

    def _over(self) -> bool:
        return bool(self.aec.terminations[self.learner] or self.aec.truncations[self.learner])

    def _play_opponents(self) -> None:
        aec, cap = self.aec, self.max_learner_steps * self.num_players
        before = self._opponent_steps
        self._opponent_steps = play_baselines(aec, self.seated, before, cap)
        if self._over():
            if self._opponent_steps > before:  # an opponent's move ended the game: the learner's reward is in it
                self._pending_reward += float(aec.rewards[self.learner])
        elif aec.agent_selection != self.learner:
            self._truncated = True  # the opponents are looping among themselves

    def _observe(self) -> Any:
        seen = self.aec.observe(self.learner)  # the mask is all zeros unless the learner is to act
        return seen if self.obs_type == "dict" else seen["observation"]

    def _mask(self) -> np.ndarray:
        if self._over() or self.aec.agent_selection != self.learner:
            return np.zeros(self.action_space.n, np.int8)
        return self.aec.action_masks()

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._mask(), "learner_seat": self._learner_index()}

    def _result(self) -> dict[str, Any]:
        if "illegal_action" in self.aec.infos[self.learner]:  # only the learner can err: the agents act legally
            return {"won": 0.0, "illegal_action": True}
        scores = [float(s) for s in self.aec.game_state.scores()]
        return {"scores": scores, "won": float(scores[self._learner_index()] == max(scores))}
