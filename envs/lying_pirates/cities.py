"""Cities of Greed (``expansion="cities_of_greed"``): towns, influence cards, cargo and the Mayor die.

Here: its setup (town cards under the tiles, designated towns, the first influence cards); its influence
cards in play are ``influence.py``, its cargo and Mayor die ``cargo.py``.  Its data lives in
``state.ext`` (absent in a base game, so a base game's state and flow are untouched), its work in
progress in its frames; ``register`` hooks it into the base game's steps.  The keys in ``ext``:

    towns            town under each map slot (-1: the Base, or not placed yet)
    town_cards       each captain's town cards not placed yet (the Phantom's set too)
    town_turn        placement / choice turn; town_order: players from the one who starts
    designated       each captain's designated town (-1: none; the Phantom has none)
    influence        each captain's influence cards (kinds of ``INFLUENCE``), sorted
    influence_deck   face down, top at the end;  influence_discard: face up
    influence_setup  players still to give back one of their three first cards
    influence_used   played an influence card this round (one per Action phase)

Sources: the video's Cities of Greed segment; rulings in shared/rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from bidbluff.envs.core.codec import Action
from bidbluff.envs.lying_pirates import cargo, influence
from bidbluff.envs.lying_pirates.content import (
    INFLUENCE,
    INFLUENCE_DRAW,
    INFLUENCE_KEEP,
    TOWNS,
)
from bidbluff.envs.lying_pirates.dice import Die
from bidbluff.envs.lying_pirates.frames import Frame
from bidbluff.envs.lying_pirates.hooks import Hooks

if TYPE_CHECKING:
    from bidbluff.envs.lying_pirates.state import LyingPiratesState as State

EXPANSION = "cities_of_greed"


def new_cities(state: State, rng: np.random.Generator) -> dict[str, Any]:
    """The expansion's setup: town cards, the influence deal (three each, to keep two), the Mayor die."""
    c, n = state.captains, state.num_players
    # Who "last set foot in a boat" starts placing towns (video): the engine cannot know, so chance picks.
    start = int(rng.integers(n))
    deck = [k for k, card in enumerate(INFLUENCE) for _ in range(card.count)]
    rng.shuffle(deck)
    deck = [int(k) for k in deck]
    hands: list[list[int]] = [[] for _ in range(c)]
    for p in range(n):  # the Phantom plays no influence cards
        hands[p] = sorted(deck.pop() for _ in range(INFLUENCE_DRAW))
    state.crews.holder[int(Die.MAYOR)] = -1
    return {
        "towns": [-1] * len(state.slots),
        "town_cards": [list(range(len(TOWNS))) for _ in range(c)],
        "town_order": [(start + i) % n for i in range(n)],
        "town_turn": 0,
        "designated": [-1] * c,
        "influence": hands,
        "influence_deck": deck,
        "influence_discard": [],
        "influence_setup": [(state.token + i) % n for i in range(n)],
        "influence_used": [False] * c,
    }


def setup_frames() -> list[Frame]:
    """The expansion's setup steps, in the order they are taken."""
    return [TownPlacing(), TownChoosing(), InfluenceSetup()]


# -- frames ------------------------------------------------------------------------------------------------------
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


# -- setup: town cards under the tiles, designated towns, the first influence cards -------------------------
def _town_cards_for(state: State, seat: int) -> tuple[int, list[int]]:
    """Whose set ``seat`` places from: its own, or (two players, own set used up) the Phantom's."""
    cards = state.ext["town_cards"]
    if cards[seat]:
        return seat, cards[seat]
    if state.phantom >= 0 and cards[state.phantom]:
        return state.phantom, cards[state.phantom]
    return seat, []


def _towns_to_place(state: State) -> bool:
    return any(t < 0 for s, t in enumerate(state.ext["towns"]) if s > 0)


def next_town_placer(state: State, frame: TownPlacing, rng: np.random.Generator) -> None:
    x = state.ext
    if not _towns_to_place(state):
        state.pop()
        return
    order = x["town_order"]
    for _ in range(len(order)):
        seat = order[x["town_turn"] % len(order)]
        if _town_cards_for(state, seat)[1]:
            state.pending = ["town_place", seat]
            return
        x["town_turn"] += 1
    raise AssertionError("empty slots and no town card left")


def legal_town_place(state: State, frame: TownPlacing, seat: int) -> list[Action]:
    towns = state.ext["towns"]
    cards = _town_cards_for(state, seat)[1]
    return [("town_place", t, s) for t in cards for s in range(1, len(towns)) if towns[s] < 0]


def on_town_place(state: State, frame: TownPlacing, seat: int, action: Action, rng: np.random.Generator) -> None:
    _, town, slot = action
    owner = _town_cards_for(state, seat)[0]
    state.ext["town_cards"][owner].remove(town)
    state.ext["towns"][slot] = town
    state.ext["town_turn"] += 1
    state.say(f"C{seat} slots {TOWNS[town]} under slot {slot}")
    state.pending = []
    if not _towns_to_place(state):
        state.ext["town_turn"] = 0  # choosing towns starts again from the first placer (video)


def next_town_chooser(state: State, frame: TownChoosing, rng: np.random.Generator) -> None:
    x = state.ext
    waiting = [p for p in x["town_order"] if x["designated"][p] < 0]
    if not waiting:
        state.pop()
        return
    state.pending = ["town_choose", waiting[0]]


def legal_town_choose(state: State, frame: TownChoosing, seat: int) -> list[Action]:
    taken = set(state.ext["designated"])  # one shield per town: a town has at most one captain
    return [("town_choose", t) for t in range(len(TOWNS)) if t not in taken]


def on_town_choose(state: State, frame: TownChoosing, seat: int, action: Action, rng: np.random.Generator) -> None:
    state.ext["designated"][seat] = action[1]
    state.say(f"C{seat} takes {TOWNS[action[1]]} as their town")
    state.pending = []


def next_influence_return(state: State, frame: InfluenceSetup, rng: np.random.Generator) -> None:
    queue = state.ext["influence_setup"]
    if not queue:
        state.pop()
        return
    state.pending = ["influence_return", queue[0]]


def legal_first_return(state: State, frame: InfluenceSetup, seat: int) -> list[Action]:
    return [("return_influence", k) for k in sorted(set(state.ext["influence"][seat]))]


def on_first_return(state: State, frame: InfluenceSetup, seat: int, action: Action, rng: np.random.Generator) -> None:
    x = state.ext
    state.pending = []
    kind = action[1]
    x["influence_discard"].append(kind)  # face up: what was given back is public
    x["influence"][seat].remove(kind)
    x["influence_setup"].pop(0)
    assert len(x["influence"][seat]) == INFLUENCE_KEEP


def register(hooks: Hooks) -> None:
    """The expansion's hooks: its influence cards, cargo and Mayor die."""
    influence.register(hooks)
    cargo.register(hooks)


STAGES = {
    "town_place": (TownPlacing, next_town_placer, {"town_place": (legal_town_place, on_town_place)}),
    "town_choose": (TownChoosing, next_town_chooser, {"town_choose": (legal_town_choose, on_town_choose)}),
    "influence_setup": (
        InfluenceSetup,
        next_influence_return,
        {"influence_return": (legal_first_return, on_first_return)},
    ),
}
