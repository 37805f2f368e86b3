"""The AEC environment every game shares.

The env is thin: the engine decides who acts and what is legal; this class
keeps PettingZoo's bookkeeping (agents, rewards, terminations, truncations,
infos), builds the spaces once, checks each action once, and turns final
scores into rewards.  Game classes only point it at their ``Game``.
"""

from __future__ import annotations

import operator
import warnings
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable, AECOrderEnforcingIterator

from bidbluff.envs.core.game import TERMINAL, EngineLoopError, Game, GameState
from bidbluff.envs.core.rewards import REWARD_MODES

ILLEGAL_POLICIES = ("raise", "terminate")


class BoardGameEnv(AECEnv):
    """PettingZoo AEC env over any ``Game``.

    Args:
        num_players: seats at the table (the game's default when omitted).
        reward_mode: ``"win"`` (default), ``"rank"`` or ``"score"``; see
            ``bidbluff.envs.core.rewards``.
        illegal_action: ``"raise"`` (default) raises ``ValueError`` naming the
            legal actions; ``"terminate"`` ends the game with -1 for the
            offender and 0 for the others, as PettingZoo's
            ``TerminateIllegalWrapper`` does.
        render_mode: ``"ansi"`` returns the board as text, ``"human"`` prints it.
        render_view: seat whose view ``render`` shows; ``None`` follows the
            acting seat, ``"all"`` shows everything.
        **setup: the game's setup options (its ``Game.setup_options()``), the
            defaults of every game this env plays; ``reset(options=...)``
            can still override them for one game.
    """

    game: ClassVar[Game]
    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(
        self,
        num_players: int | None = None,
        reward_mode: str = "win",
        illegal_action: str = "raise",
        render_mode: str | None = None,
        render_view: int | str | None = None,
        **setup: Any,
    ) -> None:
        super().__init__()
        game = self.game = type(self.game)(**setup)
        num_players = game.default_players if num_players is None else int(num_players)
        if not game.min_players <= num_players <= game.max_players:
            raise ValueError(f"{game.name} is for {game.min_players}-{game.max_players} players, not {num_players}")
        if reward_mode not in REWARD_MODES:
            raise ValueError(f"reward_mode {reward_mode!r} is not one of {REWARD_MODES}")
        if illegal_action not in ILLEGAL_POLICIES:
            raise ValueError(f"illegal_action {illegal_action!r} is not one of {ILLEGAL_POLICIES}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']}")
        self.num_players = num_players
        self.reward_mode = reward_mode
        self.illegal_action = illegal_action
        if setup:
            game.check(num_players)
        if render_view not in (None, "all") and render_view not in range(num_players):
            raise ValueError(f"render_view must be None, 'all' or a seat 0..{num_players - 1}, not {render_view!r}")
        self.render_mode = render_mode
        self.render_view = render_view
        self.possible_agents = [f"player_{i}" for i in range(num_players)]
        self._seat_of = {a: i for i, a in enumerate(self.possible_agents)}
        self._fresh = (dict.fromkeys(self.possible_agents, 0.0), dict.fromkeys(self.possible_agents, False))
        n = self._num_actions = game.codec.n
        self._action_space = spaces.Discrete(n)
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (game.observation_size,), np.float32),
                "action_mask": spaces.Box(0, 1, (n,), np.int8),
            }
        )
        self._no_mask = np.zeros(n, dtype=np.int8)
        self._rng: np.random.Generator | None = None
        self.game_state: GameState | None = None
        self._legal_ids: Sequence[int] = ()
        self._mask = self._no_mask
        self._skip_agent_selection: str | None = None  # PettingZoo's _was_dead_step keeps it
        self._decisions = 0  # taken in this game; bounded by ``game.max_decisions``

    # -- spaces ---------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Dict:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._action_space

    # -- episode --------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None or self._rng is None:
            # for an int, default_rng(seed) is Generator(PCG64(seed)); built directly it costs a third less
            self._rng = np.random.Generator(np.random.PCG64(seed)) if type(seed) is int else np.random.default_rng(seed)
        saved = None
        setup: dict[str, Any] = {}
        if options:
            options = dict(options)
            saved = options.pop("state", None)
            setup = {k: options.pop(k) for k in list(options) if k in self.game.setup_options()}
            if options:
                warnings.warn(f"{self.game.name}: ignoring unknown reset options {sorted(options)}", stacklevel=2)
        if saved is not None:
            state = self.game.state_from_dict(saved)
            if state.num_players != self.num_players:
                raise ValueError(
                    f"the saved state is for {state.num_players} players; this env seats {self.num_players}"
                )
            if state.is_terminal():
                raise ValueError("the saved state is already over; nothing to play")
        else:
            state = self.game.new_state(self.num_players, self._rng, **self.game.options(**setup))
        self.game_state = state
        self.agents = self.possible_agents[:]
        zeros, falses = self._fresh  # copying a small dict costs a third of building it
        self.rewards = zeros.copy()
        self._cumulative_rewards = zeros.copy()
        self.terminations = falses.copy()
        self.truncations = falses.copy()
        self.infos = {a: {} for a in self.agents}
        self._decisions = 0
        self._after_transition()

    def _after_transition(self) -> None:
        """Point ``agent_selection`` at the engine's next decision, or finish the game."""
        state = self.game_state
        seat = state.current_player()
        if seat == TERMINAL:
            self._legal_ids = ()
            self._mask = self._no_mask
            scores = list(state.scores())
            rewards = self.game.final_rewards(state, self.reward_mode)
            for agent, reward in zip(self.possible_agents, rewards, strict=True):
                self.rewards[agent] = reward
                self.terminations[agent] = True
                self.infos[agent] = {"scores": scores[:]}
            self._accumulate_rewards()
            return
        # the mask may be a game's cached, read-only array: it is only read here and copied on the way out
        self._legal_ids, self._mask = self.game.legal_mask(state, seat)
        self.agent_selection = self.possible_agents[seat]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s view; also after the game (as PettingZoo's classic envs do), with an empty mask."""
        state = self.game_state
        seat = self._seat_of.get(agent) if type(agent) is str else None
        if seat is None or state is None:
            seat = self._seat(agent)  # raises the error that says what is wrong
        mask = self._mask if agent == self.agent_selection else self._no_mask  # _mask is empty once it is over
        return {"observation": self.game.encode(state, seat), "action_mask": mask.copy()}

    def _seat(self, agent: str) -> int:
        if self.game_state is None:
            raise ValueError("reset() the env before asking for an observation")
        try:
            return self._seat_of[agent]
        except (KeyError, TypeError):
            agents = ", ".join(self.possible_agents)
            raise ValueError(f"{agent!r} is not an agent of this table; agents: {agents}") from None

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last``, in one call (the AEC loop's every step)."""
        agent = self.agent_selection
        state = self.game_state
        if state is None:
            observation = self.observe(agent) if observe else None  # raises the error that says what is wrong
        elif agent not in self.agents:
            raise ValueError("the game is over and every agent has stepped out: nothing is last; reset() to play again")
        elif observe:  # ``observe(agent)`` for the acting agent, without its checks: a betting step is a few us
            observation = {
                "observation": self.game.encode(state, self._seat_of[agent]),
                "action_mask": self._mask.copy(),
            }
        else:
            observation = None
        return (
            observation,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def action_masks(self) -> np.ndarray:
        """Mask of the acting agent (what sb3-contrib's MaskablePPO asks for)."""
        return self._mask.copy()

    def legal_action_ids(self) -> list[int]:
        return list(self._legal_ids)

    def step(self, action: int | None) -> None:
        state = self.game_state
        if state is None:
            raise ValueError("reset() the env before stepping it")
        if not self.agents:  # PettingZoo's documented answer: a warning, and nothing happens
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0  # rewards stay 0 until the game ends (then every seat steps out)
        action_id = action if type(action) is int else _action_id(action)
        # the mask answers "is it legal?" in O(1); ids outside 0..n-1 never are
        if action_id is None or not (0 <= action_id < self._num_actions and self._mask[action_id]):
            self._illegal(agent, action)
        else:
            engine_action = self.game.id_to_action(state, action_id, self._seat_of[agent])
            self._decisions += 1
            if self._decisions > self.game.max_decisions:
                raise EngineLoopError(
                    f"{self.game.name} passed {self.game.max_decisions} decisions without ending; the state: {state}"
                )
            state.apply(engine_action, self._rng)
            self._after_transition()
        if self.render_mode == "human":
            self.render()

    def _was_dead_step(self, action: None) -> None:
        """PettingZoo's ``AECEnv._was_dead_step``, step for step, without its per-call ``getattr`` probes:
        the finished agent steps out, the next finished one (or the one skipped for them) is selected."""
        if action is not None:
            raise ValueError("when an agent is dead, the only valid action is None")
        agent = self.agent_selection
        terminations, truncations = self.terminations, self.truncations
        del terminations[agent], truncations[agent], self.rewards[agent], self._cumulative_rewards[agent]
        del self.infos[agent]
        agents = self.agents
        agents.remove(agent)
        for other in agents:
            if terminations[other] or truncations[other]:
                if self._skip_agent_selection is None:
                    self._skip_agent_selection = agent
                self.agent_selection = other
                break
        else:
            if self._skip_agent_selection is not None:
                self.agent_selection = self._skip_agent_selection
            self._skip_agent_selection = None
        for other in self.rewards:
            self.rewards[other] = 0

    def _illegal(self, agent: str, action: Any) -> None:
        legal = ", ".join(f"{i} ({self.action_to_str(i)})" for i in self._legal_ids)
        what = action if action is None else f"{action} ({self._describe_any(action)})"
        message = f"{agent} cannot take action {what} now; legal: {legal}"
        if self.illegal_action == "raise":
            raise ValueError(message)
        self._legal_ids, self._mask = (), self._no_mask
        for a in self.agents:
            self.rewards[a] = 0.0
            self.terminations[a] = True
            self.infos[a] = {"illegal_action": agent, "message": message}
        self.rewards[agent] = -1.0
        self._accumulate_rewards()

    def _describe_any(self, action: Any) -> str:
        try:
            return self.action_to_str(action)
        except ValueError:
            return "not an action id"

    # -- text -----------------------------------------------------------------
    def action_to_str(self, action_id: int) -> str:
        """The acting seat's action ``action_id`` in words (absolute seats)."""
        if self.game_state is None or self.game_state.is_terminal():
            raise ValueError("the game is over: no seat is acting")
        number = _action_id(action_id)
        if number is None:
            raise ValueError(f"{action_id!r} is not an action id (an integer 0..{self._num_actions - 1})")
        if not 0 <= number < self._num_actions:
            raise ValueError(f"action id {number} is outside this table's actions 0..{self._num_actions - 1}")
        seat = self._seat_of[self.agent_selection]
        return self.game.action_to_str(self.game.id_to_action(self.game_state, number, seat))

    def str_to_action(self, text: str) -> int:
        """Inverse of ``action_to_str`` among the acting seat's legal actions (case and spaces ignored)."""
        wanted = " ".join(text.lower().split())
        for action_id in self._legal_ids:
            if self.action_to_str(action_id).lower() == wanted:
                return action_id
        legal = "; ".join(self.action_to_str(i) for i in self._legal_ids)
        raise ValueError(f"{text!r} is not a legal action now; legal: {legal}")

    def render(self) -> str | None:
        if self.render_mode is None:
            warnings.warn("render() called without a render_mode", stacklevel=2)
            return None
        view = self.render_view
        if view is None:
            seat = None if self.game_state.is_terminal() else self._seat_of[self.agent_selection]
        elif view == "all":
            seat = None
        else:
            seat = int(view)
        text = self.game.render(self.game_state, seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def _action_id(action: Any) -> int | None:
    """``action`` as an id, or None: only integers (Python's or numpy's) are ids, never a bool or a float."""
    if isinstance(action, (bool, np.bool_)):
        return None
    try:
        return operator.index(action)
    except TypeError:
        return None


class OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper`` with the same checks, minus its per-step cost.

    The stock wrapper reaches every attribute of the env (``agent_selection``,
    ``rewards``, ...) through ``__getattr__`` and ``last()`` through three
    layers: about a quarter of a small env's step time.  Here the attributes
    that the AEC loop reads every step are properties (still refused before
    ``reset``), and ``last``/``observe``/``step`` and ``agent_iter``'s turns
    call the env directly once it has been reset; before that they behave as
    the stock wrapper does.
    """

    def _forward(name: str) -> property:  # noqa: N805 - a helper run in the class body
        def get(self: OrderEnforcing) -> Any:
            if not self._has_reset:
                raise AttributeError(f"{name} cannot be accessed before reset")
            return getattr(self.env, name)

        return property(get)

    agents = _forward("agents")
    agent_selection = _forward("agent_selection")
    rewards = _forward("rewards")
    terminations = _forward("terminations")
    truncations = _forward("truncations")
    infos = _forward("infos")
    num_agents = _forward("num_agents")
    del _forward

    @property
    def _cumulative_rewards(self) -> dict[str, float]:
        return self.env._cumulative_rewards

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            return super().last(observe)
        return self.env.last(observe)

    def observe(self, agent: str) -> Any:
        if not self._has_reset:
            return super().observe(agent)
        return self.env.observe(agent)

    def step(self, action: int | None) -> None:
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)

    def agent_iter(self, max_iter: int = 2**63) -> AECOrderEnforcingIterable:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _Turns(self, max_iter)

    def __str__(self) -> str:
        return str(self.env)


class _Turns(AECOrderEnforcingIterable):
    """``agent_iter()`` of ``OrderEnforcing``: the stock iterator's checks, reading the env directly."""

    def __iter__(self) -> _TurnIterator:
        return _TurnIterator(self.env, self.max_iter)


class _TurnIterator(AECOrderEnforcingIterator):
    def __next__(self) -> str:
        wrapper = self.env
        if not wrapper._has_reset:
            return super().__next__()
        env = wrapper.env
        if not env.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        if not wrapper._has_updated:
            raise AssertionError("need to call step() or reset() in a loop over `agent_iter`")  # the stock words
        wrapper._has_updated = False
        return env.agent_selection


def wrap(raw: BoardGameEnv) -> AECEnv:
    """What ``env()`` adds on top of ``raw_env``: only the order check earns its cost."""
    return OrderEnforcing(raw)
