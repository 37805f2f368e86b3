"""The work in progress, one typed frame per piece of work, kept on the table's stack: plain data.

The frame on top is the work being done; its ``stage`` names the step it is at (a stage the engine
declares, ``stages.Stage``).  The frame at the bottom is a phase of the round (or the final battle); the
frames above it are work a step called and waits for (a reroll offer, a priority window, a battle, an
effect), each handing its result, if it has one, to the frame that called it (``outcome``).  The options'
frames are here too: the table holds every kind of work, the engine's modules say what each one does.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from bidbluff.envs.core.game import copied, plain


@dataclass
class Frame:
    """A piece of work on the stack.  ``first`` is the stage a new one starts at.

    ``phases`` (a phase's frame only) says, for each of its stages, the rulebook's phase while it is at that
    stage: the engine's stage declarations fill it (``stages.stage``), so the phase is read, never set."""

    first: ClassVar[str]
    phases: ClassVar[dict[str, str]]
    stage: str = field(default="", kw_only=True)
    outcome: int = field(default=-1, kw_only=True)  # what the last work it called handed back (a battle's captain)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.phases = {}

    def __post_init__(self) -> None:
        if not self.stage:
            self.stage = self.first

    def to_dict(self) -> dict[str, Any]:
        return {f.name: plain(getattr(self, f.name)) for f in fields(self)}

    def copy(self) -> Frame:
        """A deep copy (every field is plain data)."""
        new = copy.copy(self)
        for f in fields(self):
            setattr(new, f.name, copied(getattr(self, f.name)))
        return new


# -- the round: one phase frame at the bottom of the stack ------------------------------------------
@dataclass
class BettingPhase(Frame):
    """The Betting phase: the cups are rolled, then each bettor bets (``state.betting``) until a call."""

    first: ClassVar[str] = "betting"


@dataclass
class SailPhase(Frame):
    """The Sail phase: coin and sail die, reroll, window, the movers sail and battle, one tile resolved."""

    first: ClassVar[str] = "sail"


@dataclass
class ActionPhase(Frame):
    """The Action phase: the Phantom's card, the priority window; then the catch-up (``CatchUp``)."""

    first: ClassVar[str] = "action"


@dataclass
class CatchUp(Frame):
    """The last captains may each sacrifice a crew die to sail one tile, all of them or none."""

    first: ClassVar[str] = "catchup"
    group: list[int] | None = None  # the captains tied last (found when the step starts)
    asked: list[int] = field(default_factory=list)
    accepted: list[int] = field(default_factory=list)


@dataclass
class FinalBattle(Frame):
    """The final battle of the captains back on the Base: buy crew, then battles until one is left."""

    first: ClassVar[str] = "final_start"
    crew: list[int] = field(default_factory=list)  # each captain's dice in this battle
    rolling: list[int] = field(default_factory=list)
    battles: int = 0
    buying: list[int] = field(default_factory=list)  # captains still to be asked to buy crew
    rolls: list[int] = field(default_factory=list)
    used: list[list[bool]] = field(default_factory=list)  # per captain: rerolled, played a card (this battle)


@dataclass
class FinalAfterCard(Frame):
    """After a card of the final battle: who is knocked out, and whether the battle being fought is over."""

    first: ClassVar[str] = "final_after_card"


# -- work that a step pushes ------------------------------------------------------------------------
@dataclass
class Reroll(Frame):
    """Captains who may pay to reroll the die just rolled, in turn; ``die`` says which die."""

    first: ClassVar[str] = "reroll"
    queue: list[int]
    die: str  # sail, pt (Pirate / Treasure die), battle, encounter


@dataclass
class Window(Frame):
    """A priority window: the seats in ``order`` act or pass in turn until all have passed in a row.

    ``kind`` is the phase's ("sail", "action") or "final" (the final battle's window: its stage is
    ``final_window`` and its decision ``final``)."""

    first: ClassVar[str] = "window"
    kind: str
    order: list[int]
    turn: int = 0
    passes: int = 0

    @property
    def seat(self) -> int:
        return self.order[self.turn % len(self.order)]

    def took_turn(self, passed: bool) -> None:
        self.turn += 1
        self.passes = self.passes + 1 if passed else 0


@dataclass
class Battle(Frame):
    """Everyone in ``rolling`` rolls; the best (or worst) stay in until one is left: ``result``."""

    first: ClassVar[str] = "battle_roll"
    rolling: list[int]
    looking_for: str  # "winner" or "loser"
    rolls: list[int]
    result: int = -1


@dataclass
class Effect(Frame):
    """A tile's, card's or ability's effects, carried out one by one (a target or a reaction may be asked)."""

    first: ClassVar[str] = "effect"
    actor: int
    effects: list[list[Any]]
    source: str  # tile, card, ability, final
    card: int = -1
    index: int = 0
    target: int = -1
    reacted: bool = False
    after_battle: list[Any] | None = None  # duel or brawl: what the loser of the battle started loses


@dataclass
class Placing(Frame):
    """Collaborative map: the players place their dealt tiles in turn."""

    first: ClassVar[str] = "place"
    tiles: list[list[int]]
    order: list[int]
    turn: int = 1


@dataclass
class Draft(Frame):
    """The 3-2-1 card draft: each round every player passes cards to the next."""

    first: ClassVar[str] = "draft"
    round: int = 0
    picked: list[list[int]] = field(default_factory=list)


# -- the options' work --------------------------------------------------------------------------------------
@dataclass
class CaptainChoice(Frame):
    """With "chosen" abilities, each player takes a coaster, in turn (``ext["captain_order"]``)."""

    first: ClassVar[str] = "captain"


@dataclass
class TownPlacing(Frame):
    """Town cards slotted under every tile but the Base, the players in turn."""

    first: ClassVar[str] = "town_place"


@dataclass
class TownChoosing(Frame):
    """Each player takes a designated town."""

    first: ClassVar[str] = "town_choose"


@dataclass
class InfluenceSetup(Frame):
    """Each player gives back one of its three first influence cards."""

    first: ClassVar[str] = "influence_setup"


@dataclass
class Influence(Frame):
    """An influence card being played: its town, then attack or bonus."""

    first: ClassVar[str] = "influence"
    seat: int
    card: int
    town: int = -1


@dataclass
class Cargo(Frame):
    """Captains still to lose cargo, in order: [seat, how many]; each chooses a coin, a card or a crew die."""

    first: ClassVar[str] = "cargo"
    queue: list[list[int]]


@dataclass
class MayorReveal(Frame):
    """The Mayor die at the reveal: a coin, or a bomb (a cargo from a captain its holder chooses)."""

    first: ClassVar[str] = "mayor_reveal"


@dataclass
class KeepOne(Frame):
    """ "Draw Two, Keep One": the two cards a purchase drew (``what``: "card" or "influence"), one to give back."""

    first: ClassVar[str] = "keep_one"
    seat: int
    what: str
    cards: list[int]


@dataclass
class Encounter(Frame):
    """The ship being met (``ship``: "merchant" or "navy") and the battle die rolled for it."""

    first: ClassVar[str] = "encounter"
    ship: str
    roll: int = -1


# -- not a frame: the die rolled for the tile being resolved ----------------------------------------------
@dataclass
class TileRoll:
    """The Pirate or Treasure die rolled for the tile being resolved."""

    die: str  # "P" or "T"
    face: str  # "O" (the good outcome) or "X"
    roller: int
