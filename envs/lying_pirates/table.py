"""The table: Lying Pirates' position as plain data, and the stack of work in progress on it.

Nothing here moves the game: the engine (``engine``, and one module per part of the round) does, and the
saves (``state``, ``state_shapes``, ``validation``, ``stack_rules``) read and check it.  The table knows its
seats, its map and its stack (push, pop, the topmost frame of a kind), and what a seat cannot see
(``resample_hidden``).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Generic, Self, TypeVar, overload

import numpy as np

from bidbluff.envs.core.game import copied
from bidbluff.envs.lying_pirates.betting import BettingRound
from bidbluff.envs.lying_pirates.content import (
    ALL_TILES,
    CARDS,
    MAP_WATERS,
    SAFE,
    SILVER,
    SUNK_PENALTY,
    TREACHEROUS,
    UNCHARTED,
)
from bidbluff.envs.lying_pirates.crew import Crews
from bidbluff.envs.lying_pirates.dice import roll_die
from bidbluff.envs.lying_pirates.frames import (
    Battle,
    Draft,
    Effect,
    FinalBattle,
    Frame,
    KeepOne,
    Placing,
    Reroll,
    TileRoll,
    Window,
)

BETTING, SAIL, ACTION, FINAL, OVER = "betting", "sail", "action", "final", "over"  # the rulebook's phases
GOLD_USED, SILVER_USED, REROLL_USED = 0, 1, 2  # a captain's ``used`` this round
# The decisions a captain can be asked (``pending``: [decision, seat]); the base observation's one-hot is laid
# out on DECISIONS, the options' decisions after it on EXT_DECISIONS.
DECISIONS = ("place", "draft", "bet", "reroll", "window", "target", "react", "catchup", "buy_crew", "final")
EXT_DECISIONS = (
    "captain",
    "town_place",
    "town_choose",
    "influence_return",
    "influence_town",
    "influence_mode",
    "cargo",
    "bomb",
    "card_return",
    "merchant",
    "loot",
)
ALL_DECISIONS = frozenset(DECISIONS + EXT_DECISIONS)
F = TypeVar("F", bound=Frame)


class _Topmost(Generic[F]):
    """A table's topmost frame of one kind, read as an attribute (``table.battle``), or None."""

    def __init__(self, kind: type[F]) -> None:
        self.kind = kind

    @overload
    def __get__(self, table: None, owner: type) -> _Topmost[F]: ...
    @overload
    def __get__(self, table: Table, owner: type | None = None) -> F | None: ...
    def __get__(self, table: Table | None, owner: type | None = None) -> _Topmost[F] | F | None:
        return self if table is None else table.find(self.kind)


@dataclass(eq=False)
class Table:
    """Everything on the table: seats, coins, crews, cards, the map and the ships on it, the bets, and the stack
    of work in progress (``frames``).  Plain data; what moves it is the engine's."""

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
    hooks: Any = None  # the options' hooks into the engine's steps (``hooks.Hooks``): the table only carries them
    over: bool = False  # the game has ended (saved as the phase "over")

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
        return "over" if self.over else self.stack[-1].stage

    @property
    def phase(self) -> str:
        """What the rulebook calls the phase (betting, sail, action, final, or over): read from the frame at the
        bottom of the stack, whose stages declare it."""
        if self.over:
            return OVER
        if not self.stack:
            return ""
        bottom = self.stack[0]
        return bottom.phases.get(bottom.stage, "")

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
        self.over = True

    def say(self, text: str) -> None:
        self.log.append(text)
        del self.log[:-30]

    # -- copying, hidden information ----------------------------------------------------------
    # the plain fields, as saved and copied (the crews, the bets, the tile's roll and the stack are copied apart)
    PLAIN_FIELDS = (
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
        "sail_die",
        "finished",
        "resolver",
        "played",
        "pending",
        "winners",
        "log",
    )

    def clone(self) -> Self:
        """A deep copy, without ``from_dict``'s validation: the position is already valid, and searches clone at
        every simulation (restoring through ``from_dict`` costs about ten times as much).  The hooks follow from
        the options, which a game never changes: shared."""
        new = copy.copy(self)
        for name in self.PLAIN_FIELDS:
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

    def drawn(self, what: str) -> KeepOne | None:
        """The "draw two, keep one" cards of pile ``what`` waiting for the keep decision, if any."""
        keep = self.find(KeepOne)
        return keep if keep is not None and keep.what == what else None

    def resample_hidden(self, seat: int, rng: np.random.Generator) -> Self:
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
