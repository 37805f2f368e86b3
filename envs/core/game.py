"""The contract between a game's pure engine and the shared AEC env.

Modelled on OpenSpiel's game/state split: a ``Game`` declares the facts once
(name, player counts, action codec, observation size) and builds states; a
``GameState`` knows who decides next, its legal actions, how an action changes
it, and prints itself.  Engines import nothing from gymnasium or pettingzoo.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from typing import Any, ClassVar

import numpy as np

from bidbluff.envs.core.codec import Action, ActionCodec
from bidbluff.envs.core.rewards import final_rewards

TERMINAL = -1  # current_player() once the game is over


class EngineLoopError(RuntimeError):
    """An automatic loop ran past its bound: an engine bug (or a state that validation let through)."""


def bounded(state: GameState, limit: int, what: str) -> Iterator[int]:
    """``for _ in bounded(state, limit, "the automatic flow"): ...`` - at most ``limit`` rounds; one more
    raises ``EngineLoopError`` naming the loop and the state it was stuck in (break out before that)."""
    yield from range(limit)
    raise EngineLoopError(f"{what} ran past {limit} steps without stopping; the state: {state}")


def plain(value: Any) -> Any:
    """A deep copy in JSON's own types (tuples become lists, dict keys strings): what ``to_dict`` returns."""
    if isinstance(value, dict):
        return {k if isinstance(k, str) else str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, np.integer):
        return int(value)
    return value


def copied(value: Any) -> Any:
    """A deep copy of a position's plain data (lists and dicts of numbers, strings and tuples of them), without
    ``copy.deepcopy``'s memo: a position shares no part, so none is needed, and clones come 5-10x faster."""
    if type(value) is list:
        return [copied(v) for v in value]
    if type(value) is dict:
        return {k: copied(v) for k, v in value.items()}
    return value


class GameState(ABC):
    """One position of a game.  Chance is drawn from the ``rng`` given to ``apply``."""

    num_players: int
    # ``from_dict`` refuses every position the rules cannot reach the way ``tests/test_state_fuzz.py``
    # checks (types, ranges, conservation, the open decision); a game sets it once its check is complete.
    validated: ClassVar[bool] = False

    @abstractmethod
    def current_player(self) -> int:
        """Seat that must decide next, or ``TERMINAL``."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Structured actions open to ``current_player()``; never empty before the end."""

    @abstractmethod
    def apply(self, action: Action, rng: np.random.Generator) -> None:
        """Carry out ``action`` (assumed legal) and every automatic step after it."""

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    @abstractmethod
    def scores(self) -> list[float]:
        """Each seat's score as the game counts it (final once terminal)."""

    @abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """JSON-safe, complete: ``from_dict(to_dict())`` is the same position."""

    @classmethod
    @abstractmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState: ...

    def clone(self) -> GameState:
        return type(self).from_dict(self.to_dict())

    @abstractmethod
    def resample_hidden(self, seat: int, rng: np.random.Generator) -> GameState:
        """A full state consistent with everything ``seat`` knows, drawn at random."""

    def __str__(self) -> str:
        """The whole position as data (the board is drawn by its game: ``Game.render``)."""
        return json.dumps(self.to_dict(), separators=(",", ":"))

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.to_dict() == other.to_dict()  # type: ignore[union-attr]

    __hash__ = None  # type: ignore[assignment]


def play_randomly(state: GameState, rng: np.random.Generator, max_steps: int) -> int:
    """Play uniformly random legal actions on ``state`` until it ends or ``max_steps`` were taken (the
    fuzz tests' and rollouts' loop); returns the steps taken.  A live state without a legal action is an
    engine bug: ``ValueError``."""
    for step in range(max_steps):
        if state.is_terminal():
            return step
        legal = state.legal_actions()
        if not legal:
            raise ValueError(f"no legal action for seat {state.current_player()} in a live state")
        state.apply(legal[rng.integers(len(legal))], rng)
    return max_steps


# Legal sets repeat (a window's "pass or play", a hand played card by card): a mask looked up by its ids costs a
# tenth of building one.  Shared by every table, read-only, and bounded (about 0.5 KB a mask).
_MASKS: dict[tuple[int, tuple[int, ...]], np.ndarray] = {}
_MASKS_KEPT = 4096


class Game(ABC):
    """Facts about a game and its codec: what the env needs beyond the engine."""

    name: ClassVar[str]  # e.g. "libertalia_v0"
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_players: ClassVar[int]
    codec: ClassVar[ActionCodec]
    observation_size: ClassVar[int]
    score_scale: ClassVar[float]  # typical score spread, for reward_mode="score"
    zero_sum: ClassVar[bool] = True  # every reward mode sums to zero (see ``is_zero_sum``)
    # Extra env constructor options the generic tests also cover, each with its
    # "num_players" (e.g. a partnership mode, or a variant preset); "slow": True
    # leaves a table to the slow suite.
    test_configs: ClassVar[tuple[dict[str, Any], ...]] = ()
    # Decisions in one game past which the env stops with ``EngineLoopError``: far beyond any real game
    # (OpenSpiel's max_game_length), so that an engine that never ends cannot hang a training run.
    max_decisions: ClassVar[int] = 100_000
    state_class: ClassVar[type[GameState]]

    def __init__(self, **defaults: Any) -> None:
        """``defaults``: setup options (``setup_options()``) every new game of this env uses."""
        unknown = sorted(set(defaults) - set(self.setup_options()))
        if unknown:
            known = ", ".join(self.setup_options()) or "none"
            raise ValueError(f"{self.name} has no option {', '.join(unknown)}; its options: {known}")
        self.defaults = defaults

    def options(self, **overrides: Any) -> dict[str, Any]:
        """The setup options of a new game: the env's defaults, then ``reset(options=...)``'s."""
        return {**self.defaults, **overrides}

    def check(self, num_players: int) -> None:
        """Refuse bad setup options now, not at the first reset (a throwaway setup does it)."""
        self.new_state(num_players, np.random.default_rng(0), **self.options())

    def is_zero_sum(self, num_players: int) -> bool:
        return self.zero_sum

    @abstractmethod
    def new_state(self, num_players: int, rng: np.random.Generator, **options: Any) -> GameState:
        """Initial position after setup chance (deals, bag draws); ``options`` as ``self.options()`` gives."""

    @abstractmethod
    def encode(self, state: GameState, seat: int) -> np.ndarray:
        """float32 vector of ``observation_size``: ``seat``'s information only."""

    def action_to_id(self, state: GameState, action: Action, seat: int) -> int:
        """Seat-relative id of an engine action; games with seat arguments override."""
        return self.codec.encode(action)

    def legal_action_ids(self, state: GameState, seat: int) -> list[int]:
        """Sorted ids of ``state.legal_actions()`` for ``seat`` (the acting seat).

        The env asks this once per decision.  A game may override it with a
        faster route to the same list (``tests/test_core.py`` checks that it agrees).
        """
        return sorted(self.action_to_id(state, a, seat) for a in state.legal_actions())

    def id_to_action(self, state: GameState, action_id: int, seat: int) -> Action:
        return self.codec.decode(action_id)

    def legal_mask(self, state: GameState, seat: int) -> tuple[Sequence[int], np.ndarray]:
        """``legal_action_ids`` and the int8 mask of ``codec.n`` that marks them: what the env keeps at
        every decision.  A game whose legal sets repeat may return cached masks (made read-only: the env
        only reads them and hands out copies); ``tests/test_core.py`` checks that they agree."""
        ids = self.legal_action_ids(state, seat)
        key = (self.codec.n, tuple(ids))
        mask = _MASKS.get(key)
        if mask is None:
            if len(_MASKS) >= _MASKS_KEPT:
                _MASKS.clear()
            mask = np.zeros(self.codec.n, dtype=np.int8)
            mask.put(ids, 1)  # from a list: half the time of mask[ids] = 1
            mask.flags.writeable = False
            _MASKS[key] = mask
        return ids, mask

    def action_to_str(self, action: Action) -> str:
        return " ".join(str(a) for a in action)

    def final_rewards(self, state: GameState, mode: str) -> list[float]:
        """Rewards at the end; games with their own payoffs override ``"win"``."""
        return final_rewards(state.scores(), mode, self.score_scale)

    def setup_options(self) -> tuple[str, ...]:
        """Names ``reset(options=...)`` accepts besides ``state``."""
        return ()

    def narrow(self, observation: np.ndarray) -> np.ndarray:
        """``observation``, made by this game at its default layout or by one configured like this game, in
        this game's layout: what a policy trained under an observation option reads at a table of the default
        layout.  Games without such an option have one layout, and ``observation`` as it is."""
        return observation

    @abstractmethod
    def render(self, state: GameState, seat: int | None = None) -> str:
        """Text board of ``state`` from ``seat``'s view; ``None`` shows everything.  The drawing lives
        beside the engine (``render.py``), which imports the rules, never the other way round."""

    def state_from_dict(self, data: dict[str, Any]) -> GameState:
        return self.state_class.from_dict(data)
