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

from typing import Any

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
from bidbluff.envs.lying_pirates.frames import (
    CaptainChoice,
    Frame,
    InfluenceSetup,
    Placing,
    TownChoosing,
    TownPlacing,
)
from bidbluff.envs.lying_pirates.hooks import Hooks
from bidbluff.envs.lying_pirates.stages import ASK, done, stage
from bidbluff.envs.lying_pirates.table import Table

EXPANSION = "cities_of_greed"


def new_cities(state: Table, rng: np.random.Generator) -> dict[str, Any]:
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


# -- setup: town cards under the tiles, designated towns, the first influence cards -------------------------
def _town_cards_for(state: Table, seat: int) -> tuple[int, list[int]]:
    """Whose set ``seat`` places from: its own, or (two players, own set used up) the Phantom's."""
    cards = state.ext["town_cards"]
    if cards[seat]:
        return seat, cards[seat]
    if state.phantom >= 0 and cards[state.phantom]:
        return state.phantom, cards[state.phantom]
    return seat, []


def _towns_to_place(state: Table) -> bool:
    return any(t < 0 for s, t in enumerate(state.ext["towns"]) if s > 0)


def _town_placer(state: Table) -> int:
    order = state.ext["town_order"]
    return order[state.ext["town_turn"] % len(order)]


@stage(TownPlacing, asks=lambda state, frame: ("town_place", _town_placer(state)), awaits=(Placing, CaptainChoice))
def town_place(state: Table, frame: TownPlacing, rng: np.random.Generator) -> bool | None:
    x = state.ext
    if not _towns_to_place(state):
        done(state)
        return None
    for _ in range(len(x["town_order"])):
        if _town_cards_for(state, _town_placer(state))[1]:
            return ASK
        x["town_turn"] += 1
    raise AssertionError("empty slots and no town card left")


@town_place.legal("town_place")
def legal_town_place(state: Table, frame: TownPlacing, seat: int) -> list[Action]:
    towns = state.ext["towns"]
    cards = _town_cards_for(state, seat)[1]
    return [("town_place", t, s) for t in cards for s in range(1, len(towns)) if towns[s] < 0]


@town_place.on("town_place")
def on_town_place(state: Table, frame: TownPlacing, seat: int, action: Action, rng: np.random.Generator) -> None:
    _, town, slot = action
    owner = _town_cards_for(state, seat)[0]
    state.ext["town_cards"][owner].remove(town)
    state.ext["towns"][slot] = town
    state.ext["town_turn"] += 1
    state.say(f"C{seat} slots {TOWNS[town]} under slot {slot}")
    if not _towns_to_place(state):
        state.ext["town_turn"] = 0  # choosing towns starts again from the first placer (video)


def _choosing(state: Table) -> list[int]:
    """The players still to choose their town, in turn."""
    return [p for p in state.ext["town_order"] if state.ext["designated"][p] < 0]


def _asks_town(state: Table, frame: TownChoosing) -> tuple[str, int] | None:
    waiting = _choosing(state)
    return ("town_choose", waiting[0]) if waiting else None


@stage(TownChoosing, asks=_asks_town, awaits=(TownPlacing,))
def town_choose(state: Table, frame: TownChoosing, rng: np.random.Generator) -> bool | None:
    if _choosing(state):
        return ASK
    done(state)
    return None


@town_choose.legal("town_choose")
def legal_town_choose(state: Table, frame: TownChoosing, seat: int) -> list[Action]:
    taken = set(state.ext["designated"])  # one shield per town: a town has at most one captain
    return [("town_choose", t) for t in range(len(TOWNS)) if t not in taken]


@town_choose.on("town_choose")
def on_town_choose(state: Table, frame: TownChoosing, seat: int, action: Action, rng: np.random.Generator) -> None:
    state.ext["designated"][seat] = action[1]
    state.say(f"C{seat} takes {TOWNS[action[1]]} as their town")


def _asks_first_return(state: Table, frame: InfluenceSetup) -> tuple[str, int] | None:
    queue = state.ext["influence_setup"]
    return ("influence_return", queue[0]) if queue else None


@stage(InfluenceSetup, asks=_asks_first_return, awaits=(TownChoosing,))
def influence_setup(state: Table, frame: InfluenceSetup, rng: np.random.Generator) -> bool | None:
    if state.ext["influence_setup"]:
        return ASK
    done(state)
    return None


@influence_setup.legal("influence_return")
def legal_first_return(state: Table, frame: InfluenceSetup, seat: int) -> list[Action]:
    return [("return_influence", k) for k in sorted(set(state.ext["influence"][seat]))]


@influence_setup.on("influence_return")
def on_first_return(state: Table, frame: InfluenceSetup, seat: int, action: Action, rng: np.random.Generator) -> None:
    x = state.ext
    kind = action[1]
    x["influence_discard"].append(kind)  # face up: what was given back is public
    x["influence"][seat].remove(kind)
    x["influence_setup"].pop(0)
    assert len(x["influence"][seat]) == INFLUENCE_KEEP


def register(hooks: Hooks) -> None:
    """The expansion's hooks: its influence cards, cargo and Mayor die."""
    influence.register(hooks)
    cargo.register(hooks)
