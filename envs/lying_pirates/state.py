"""Lying Pirates' state: plain data, and the stack of work in progress that ``engine`` runs.

A round is a Betting phase, a Sail phase and an Action phase (``engine`` lists their steps).  The state
answers the open decision (``pending``: its kind and the seat that decides) with ``apply``, which hands
it to the decision's function in ``engine.STAGES`` and then runs every automatic step until the next
decision.  Chance (dice, shuffles) comes from the Generator handed to ``apply``.

Options (all off by default) keep their data in ``ext`` (None in a base game) and hook into the steps
through ``hooks`` (``options.hooks_for``).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar, overload

import numpy as np

from bidbluff.envs.core.codec import Action
from bidbluff.envs.core.game import TERMINAL, GameState, copied, plain
from bidbluff.envs.lying_pirates import engine, old_saves, state_shapes, validation
from bidbluff.envs.lying_pirates.betting import BettingRound
from bidbluff.envs.lying_pirates.content import ALL_TILES, CARDS, MAP_WATERS, SAFE, SILVER, TREACHEROUS, UNCHARTED
from bidbluff.envs.lying_pirates.crew import Crews
from bidbluff.envs.lying_pirates.frames import (
    Battle,
    Draft,
    Effect,
    FinalBattle,
    Frame,
    Placing,
    Reroll,
    TileRoll,
    Window,
)
from bidbluff.envs.lying_pirates.hooks import Hooks
from bidbluff.envs.lying_pirates.options import hooks_for
from bidbluff.envs.lying_pirates.rules import SUNK_PENALTY, roll_die
from bidbluff.envs.lying_pirates.variant_cards import KeepOne

FORMAT = 1  # to_dict's layout: 0 (no "format" key) kept work records as dicts resumed by "then" names
F = TypeVar("F", bound=Frame)


class _Topmost(Generic[F]):
    """A state's topmost frame of one kind, read as an attribute (``state.battle``), or None."""

    def __init__(self, kind: type[F]) -> None:
        self.kind = kind

    @overload
    def __get__(self, state: None, owner: type) -> _Topmost[F]: ...
    @overload
    def __get__(self, state: LyingPiratesState, owner: type | None = None) -> F | None: ...
    def __get__(self, state: LyingPiratesState | None, owner: type | None = None) -> _Topmost[F] | F | None:
        return self if state is None else state.find(self.kind)


@dataclass(eq=False)
class LyingPiratesState(GameState):
    num_players: int
    captains: int = 0  # players, plus the Phantom in a two-player game
    phantom: int = -1
    map_name: str = "base"
    slots: list[int] = field(default_factory=list)  # tile index per slot; -1 while the map is built
    progress: list[int] = field(default_factory=list)  # tiles sailed; a full lap is len(slots)
    coins: list[int] = field(default_factory=list)
    crews: Crews = field(default_factory=lambda: Crews([]))
    hands: list[list[int]] = field(default_factory=list)  # card kinds, sorted
    deck: list[int] = field(default_factory=list)  # top is the end of the list
    discard: list[int] = field(default_factory=list)
    phantom_pile: list[int] = field(default_factory=list)
    known: list[list[list[int]]] = field(default_factory=list)  # [observer][holder][card kind] count
    token: int = 0
    direction: int = 1  # +1 clockwise, -1 counterclockwise
    round_no: int = 0
    excluded: list[int] = field(default_factory=list)  # out of this round's Betting phase
    next_excluded: list[int] = field(default_factory=list)
    betting: BettingRound | None = None
    reveal: dict[str, Any] | None = None  # the last Betting phase's cups and outcome, as the table saw them
    result: dict[str, Any] = field(default_factory=dict)  # this round's winner, losers, survivors
    used: list[list[bool]] = field(default_factory=list)  # per captain: gold, silver, reroll this round
    phase: str = "betting"  # betting, sail, action, final or over: what the rulebook calls the phase
    sail_die: int = 0
    finished: list[int] = field(default_factory=list)  # back on the Base this Sail phase
    resolver: int = -1  # the captain resolving this Sail phase's tile
    pt: TileRoll | None = None
    played: list[list[int]] = field(default_factory=list)  # [captain, card kind] played this round
    pending: list[Any] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    ext: dict[str, Any] | None = None  # the options' data (cities.py, captains.py, merchants.py); None: base game
    # the work in progress, the step being taken on top; what was in progress when the game ended stays
    stack: list[Frame] = field(default_factory=list)
    hooks: Hooks = field(default_factory=Hooks)
    validated: ClassVar[bool] = True  # from_dict refuses every position the rules cannot reach (validation.py)

    # -- the GameState contract -------------------------------------------------
    def current_player(self) -> int:
        return self.pending[1] if self.pending else TERMINAL

    def legal_actions(self) -> list[Action]:
        if not self.pending:
            return []
        frame = self.stack[-1]
        return engine.STAGES[frame.stage].decisions[self.pending[0]].legal(self, frame, self.pending[1])

    def apply(self, action: Action, rng: np.random.Generator) -> None:
        frame = self.stack[-1]
        engine.STAGES[frame.stage].decisions[self.pending[0]].on(self, frame, self.pending[1], action, rng)
        engine.advance(self, rng)

    def scores(self) -> list[float]:
        """Tiles sailed, plus 100 for the winner (the Phantom's win gives no player the bonus)."""
        out = self.crews.out
        return [
            float(self.progress[s] + (100 if s in self.winners else 0) - (SUNK_PENALTY if s in out else 0))
            for s in range(self.num_players)
        ]

    # -- the stack --------------------------------------------------------------------
    @property
    def stage(self) -> str:
        """The step the engine is at: the top frame's stage, or "over"."""
        return "over" if self.phase == "over" else self.stack[-1].stage

    def push(self, frame: Frame) -> None:
        self.stack.append(frame)

    def pop(self) -> None:
        """The top frame's work is done: the frame under it goes on."""
        self.stack.pop()

    def replace(self, frame: Frame) -> None:
        """The top frame's work is done and ``frame`` comes next (a phase after a phase)."""
        self.stack[-1] = frame

    def find(self, kind: type[F]) -> F | None:
        """The topmost frame of ``kind`` on the stack, if any."""
        for frame in reversed(self.stack):
            if type(frame) is kind:
                return frame
        return None

    # the work in progress the observation, the board and the tests look at: the topmost of each kind
    battle = _Topmost(Battle)
    final = _Topmost(FinalBattle)
    effect = _Topmost(Effect)
    reroll = _Topmost(Reroll)
    window = _Topmost(Window)
    draft = _Topmost(Draft)
    placing = _Topmost(Placing)

    # -- geometry -----------------------------------------------------------------
    @property
    def lap(self) -> int:
        return len(self.slots)

    def position(self, c: int) -> int:
        return self.progress[c] % self.lap

    def on_base(self, c: int) -> bool:
        return self.position(c) == 0

    def players(self) -> list[int]:
        if self.crews.out:
            return [p for p in range(self.num_players) if p not in self.crews.out]
        return list(range(self.num_players))

    def turn_order(self, start: int, who: list[int]) -> list[int]:
        """``who`` in the token's direction, starting from ``start`` (or the next one after it)."""
        order = [(start + self.direction * i) % self.captains for i in range(self.captains)]
        return [c for c in order if c in who]

    def water(self, c: int) -> str:
        return MAP_WATERS[self.map_name][self.position(c)]

    # -- sunk captains ("Instant Death") ------------------------------------------------
    def is_out(self, c: int) -> bool:
        return c in self.crews.out

    def alive_captains(self) -> list[int]:
        return [c for c in range(self.captains) if c not in self.crews.out]

    # -- the end and the log ------------------------------------------------------------
    def end(self, winners: list[int]) -> None:
        self.winners = winners
        self.pending = []
        self.phase = "over"

    def say(self, text: str) -> None:
        self.log.append(text)
        del self.log[:-30]

    # -- saving, copying, hidden information -------------------------------------------------
    _FIELDS = (
        "num_players",
        "captains",
        "phantom",
        "map_name",
        "slots",
        "progress",
        "coins",
        "hands",
        "deck",
        "discard",
        "phantom_pile",
        "known",
        "token",
        "direction",
        "round_no",
        "excluded",
        "next_excluded",
        "reveal",
        "result",
        "used",
        "phase",
        "sail_die",
        "finished",
        "resolver",
        "played",
        "pending",
        "winners",
        "log",
    )

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"game": "lying_pirates", "format": FORMAT}
        for name in self._FIELDS:
            data[name] = plain(getattr(self, name))
        data["crews"] = self.crews.to_dict()
        data["betting"] = self.betting.to_dict() if self.betting else None
        data["pt"] = plain(vars(self.pt)) if self.pt else None
        data["stack"] = [frame.to_dict() for frame in self.stack]
        if self.ext is not None:
            data["ext"] = plain(self.ext)  # only games with options: a base game's dict has no "ext"
        return data

    def clone(self) -> LyingPiratesState:
        """A deep copy, without ``from_dict``'s validation: the position is already valid, and searches clone at
        every simulation (restoring through ``from_dict`` costs about ten times as much).  The hooks follow from
        the options, which a game never changes: shared."""
        new = copy.copy(self)
        for name in self._FIELDS:
            setattr(new, name, copied(getattr(self, name)))
        crews = self.crews
        new.crews = Crews(
            list(crews.crew),
            dict(crews.holder),
            crews.bag,
            copied(crews.limits),
            list(crews.cursed_spare),
            crews.mortal,
            list(crews.out),
        )
        new.betting = self.betting.copy() if self.betting else None
        new.pt = copy.copy(self.pt)
        new.stack = [frame.copy() for frame in self.stack]
        new.ext = copied(self.ext)
        return new

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> LyingPiratesState:
        """Read ``to_dict``'s output (or format 0's) and refuse, with a ``ValueError`` naming the field by its
        path, every position the rules cannot reach (``validation``)."""
        if type(data) is not dict or data.get("game") != "lying_pirates":
            game = data.get("game") if type(data) is dict else data
            raise ValueError(f"not a Lying Pirates state (game={game!r})")
        if "format" not in data or (type(data["format"]) is int and data["format"] == 0):
            try:
                data = old_saves.upgrade(data)
            except (LookupError, TypeError, AttributeError, RecursionError) as bad:
                raise ValueError(f"a Lying Pirates state of format 0 that cannot be read: {bad!r}") from None
        if type(data["format"]) is not int or data["format"] != FORMAT:
            raise ValueError(f"format: Lying Pirates state format {data['format']!r} is not {FORMAT} (or 0)")
        fields = state_shapes.read_state(data)
        state = cls(**{name: fields[name] for name in cls._FIELDS})
        reveal = fields["reveal"]
        if reveal is not None:  # JSON's keys, and the outcome as to_dict writes it
            state.reveal = {
                "cups": {str(c): cup for c, cup in reveal["cups"].items()},
                "outcome": reveal["outcome"].to_dict(),
                "bids": reveal["bids"],
            }
        state.crews = Crews.from_dict(fields["crews"])
        state.betting = fields["betting"]
        state.pt = TileRoll(**fields["pt"]) if fields["pt"] else None
        state.stack = fields["stack"]
        state.ext = fields.get("ext")
        state.hooks = hooks_for(state.ext)
        state.validate()
        return state

    def validate(self) -> None:
        """Refuse a position the rules cannot reach (``validation.check_state``): conservation, the stack, the
        open decision.  Run on restore only, never while a game is played."""
        validation.check_state(self)

    def drawn(self, what: str) -> KeepOne | None:
        """The "draw two, keep one" cards of pile ``what`` waiting for the keep decision, if any."""
        keep = self.find(KeepOne)
        return keep if keep is not None and keep.what == what else None

    def resample_hidden(self, seat: int, rng: np.random.Generator) -> LyingPiratesState:
        """Redraw what ``seat`` cannot see: other cups while betting, others' unknown
        cards, the Phantom's pile and the deck order, others' draft picks and unplaced tiles."""
        state = self.clone()
        if state.betting is not None:
            for c, cup in state.betting.cups.items():
                if c != seat:
                    for die in cup:
                        die[1] = roll_die(die[0], rng)
        others = [c for c in range(state.captains) if c != seat]
        kept = {c: _counts_list(state.known[seat][c]) for c in others} if seat < state.num_players else {}
        pool = list(state.deck) + list(state.phantom_pile)
        drawn = state.drawn("card")
        drawn_cards = 0  # "draw two, keep one": another captain's two drawn action cards are hidden too
        if drawn is not None and drawn.seat != seat:
            drawn_cards = len(drawn.cards)
            pool += drawn.cards
        sizes = {}
        for c in others:
            hand = list(state.hands[c])
            for card in kept.get(c, []):
                hand.remove(card)
            pool += hand
            sizes[c] = len(hand)
        pool.sort()  # what the seat knows fixes the pool, not the order it lies in
        order = [int(i) for i in rng.permutation(len(pool))]
        pool = [pool[i] for i in order]
        silver = [i for i, k in enumerate(pool) if CARDS[k].metal == SILVER]
        pile_at = set(silver[: len(state.phantom_pile)])
        state.phantom_pile = [pool[i] for i in sorted(pile_at)]
        rest = [k for i, k in enumerate(pool) if i not in pile_at]
        if drawn_cards:
            drawn.cards, rest = rest[:drawn_cards], rest[drawn_cards:]
        for c in others:
            state.hands[c] = sorted(kept.get(c, []) + rest[: sizes[c]])
            rest = rest[sizes[c] :]
        state.deck = rest
        # What another captain privately knows of a redrawn hand is hidden from ``seat`` as well (it sees its own
        # row of ``known`` only), and carried over it could name a card the new hand lacks: drawn as nothing.
        for o, rows in enumerate(state.known):
            if o != seat:
                for c in others:
                    rows[c] = [0] * len(rows[c])
        for hook in state.hooks.resample_hidden:
            hook(state, seat, rng)
        draft = state.draft
        if draft is not None:
            for c in others:
                if c < state.num_players:
                    k = len(draft.picked[c])
                    draft.picked[c] = [int(x) for x in rng.choice(state.hands[c], k, replace=False)]
        placing = state.placing
        if placing is not None:
            # A tile's water shows on its back (stand-in): only tiles of the same water trade places.
            hands = placing.tiles
            holders = [c for c in others if c < state.num_players]
            for water in (SAFE, UNCHARTED, TREACHEROUS):
                tiles = sorted(t for c in holders for t in hands[c] if ALL_TILES[t].water == water)
                rng.shuffle(tiles)
                for c in holders:
                    k = sum(ALL_TILES[t].water == water for t in hands[c])
                    hands[c] = [t for t in hands[c] if ALL_TILES[t].water != water] + [int(t) for t in tiles[:k]]
                    tiles = tiles[k:]
            for c in holders:
                hands[c].sort()
        return state


def _counts_list(counts: list[int]) -> list[int]:
    return [k for k, n in enumerate(counts) for _ in range(n)]


def resample_hidden(state: LyingPiratesState, seat: int, rng: np.random.Generator) -> LyingPiratesState:
    return state.resample_hidden(seat, rng)
