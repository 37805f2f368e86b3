"""Positions with options on (expansion, abilities, variants, Merchant Ships) for the option tests.

``ready(...)`` plays a new game's setup decisions with their first legal action
and returns the state's dict at the first Betting phase, to be edited like
``conftest.fresh``'s.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bidbluff.envs.lying_pirates.content import CAPTAIN_INDEX, CARD_INDEX
from bidbluff.envs.lying_pirates.setup import new_game

SETUP = ("captain", "place", "town_place", "town_choose", "influence_return", "draft")
CITIES = {"expansion": "cities_of_greed"}
# towns under the base map's slots: slot s (1-11) has town (s - 1) % 7; the Base has none
TOWNS_BY_SLOT = [-1, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3]


def ready(num_players: int = 3, seed: int = 0, **options: Any) -> dict[str, Any]:
    """A game with ``options`` past its setup (first legal choices), as a dict at its first Betting phase."""
    rng = np.random.default_rng(seed)
    state = new_game(num_players, rng, **options)
    while state.pending and state.pending[0] in SETUP:
        state.apply(state.legal_actions()[0], rng)
    return state.to_dict()


def city(num_players: int = 3, seed: int = 0, **options: Any) -> dict[str, Any]:
    """An expansion game past setup, its towns laid as ``TOWNS_BY_SLOT``, no Mayor die holder."""
    d = ready(num_players, seed, **CITIES, **options)
    d["ext"]["towns"] = list(TOWNS_BY_SLOT)
    return d


def set_influence(d: dict[str, Any], seat: int, *kinds: int) -> None:
    """Give ``seat`` exactly these influence cards (its old ones back on the deck, the new from anywhere)."""
    x = d["ext"]
    x["influence_deck"] = x["influence"][seat] + x["influence_deck"]
    x["influence"][seat] = []
    for k in kinds:
        for pile in [x["influence_deck"], x["influence_discard"], *x["influence"]]:
            if k in pile:
                pile.remove(k)
                break
        else:
            raise AssertionError(f"no influence card {k} left")
        x["influence"][seat].append(k)
    x["influence"][seat].sort()


def coaster(d: dict[str, Any], seat: int, ability: str) -> None:
    """Seat ``seat``'s captain has ``ability`` (the crew rules it bends are set as setup would)."""
    d["ext"]["captain"][seat] = CAPTAIN_INDEX[ability]
    crews = d["crews"]
    crews["limits"] = [12 if d["ext"]["captain"][c] == CAPTAIN_INDEX["big_cup"] else 10 for c in range(d["captains"])]
    crews["cursed_spare"] = [c for c in range(d["captains"]) if d["ext"]["captain"][c] == CAPTAIN_INDEX["cursed_spare"]]
    crews.setdefault("mortal", False)
    crews.setdefault("out", [])


def card(name: str) -> int:
    return CARD_INDEX[name]
