"""Merchant Ships (``merchant_ships=True``), as the rulebook's fan-inspired variant gives them."""

from __future__ import annotations

import numpy as np
import pytest

from bidbluff.envs.lying_pirates.setup import new_game

from .conftest import DAGGER, SKULL, SWORDS, Script, load, play, set_crew, skip, window
from .optionkit import ready

ANNE, BOB, CHRIS = 0, 1, 2


def test_one_merchant_and_one_navy_ship_on_random_tiles_never_the_base():
    seen = set()
    for seed in range(30):
        x = new_game(3, np.random.default_rng(seed), merchant_ships=True).ext
        assert x["merchant"] != x["navy"] and 0 not in (x["merchant"], x["navy"])
        seen.add(x["merchant"])
    assert len(seen) > 5


def meet(ship: str, coins: int = 2, *rolls: int):
    """Anne sails alone onto slot 1 (Recruit Crew: +2 crew) where ``ship`` waits; the other ship is on slot 6."""
    d = ready(3, merchant_ships=True)
    d["ext"]["merchant"], d["ext"]["navy"] = (1, 6) if ship == "merchant" else (6, 1)
    d["coins"] = [coins, 2, 2]
    set_crew(d, ANNE, 5)
    state = load(window(d, "sail", token=ANNE, winner=ANNE))
    rng = Script(*rolls)
    skip(state, rng, "window", phase="sail")
    return state, rng


def test_the_merchant_is_met_after_the_tile_event_and_is_optional():
    state, rng = meet("merchant")
    assert state.crews.crew[ANNE] == 7  # the tile event came first
    assert state.pending == ["merchant", ANNE]
    assert sorted(state.legal_actions()) == [("barter",), ("pass",), ("raid",)]
    play(state, rng, ("pass",))
    assert state.phase == "action" and state.coins[ANNE] == 2


def test_barter_buys_a_card_for_one_coin():
    state, rng = meet("merchant")
    size = len(state.hands[ANNE])
    play(state, rng, ("barter",))
    assert state.coins[ANNE] == 1 and len(state.hands[ANNE]) == size + 1


def test_no_barter_without_a_coin():
    state, _ = meet("merchant", 0)
    assert ("barter",) not in state.legal_actions()


@pytest.mark.parametrize(("loot", "coins", "cards"), [("loot_coins", 5, 0), ("loot_card", 3, 1)])
def test_raid_won_gives_a_card_and_a_coin_or_three_coins(loot, coins, cards):
    state, rng = meet("merchant", 2, SWORDS)
    size = len(state.hands[ANNE])
    play(state, rng, ("raid",), ("keep",))
    assert state.pending == ["loot", ANNE]
    play(state, rng, (loot,))
    assert state.coins[ANNE] == coins and len(state.hands[ANNE]) == size + cards


def test_raid_dagger_the_merchant_escapes():
    state, rng = meet("merchant", 2, DAGGER)
    play(state, rng, ("raid",), ("keep",))
    assert state.coins[ANNE] == 2 and state.phase == "action"


def test_raid_skull_loses_all_coins():
    state, rng = meet("merchant", 3, SKULL)
    play(state, rng, ("raid",), ("keep",))
    assert state.coins[ANNE] == 0


def test_a_raid_roll_may_be_rerolled_for_a_coin():
    state, rng = meet("merchant", 3, SKULL, SWORDS)
    play(state, rng, ("raid",), ("reroll",), ("loot_coins",))
    assert state.coins[ANNE] == 3 - 1 + 3


@pytest.mark.parametrize(("roll", "coins", "crew"), [(SWORDS, 6, 7), (DAGGER, 2, 7), (SKULL, 2, 5)])
def test_the_navy_is_mandatory(roll, coins, crew):
    state, rng = meet("navy", 2, roll)
    assert state.pending == ["reroll", ANNE]  # no choice to avoid it: only the usual reroll
    play(state, rng, ("keep",))
    assert state.coins[ANNE] == coins and state.crews.crew[ANNE] == crew


def test_only_the_captain_who_resolved_the_tile_meets_the_ship():
    d = ready(3, merchant_ships=True)
    d["ext"]["merchant"], d["ext"]["navy"] = 3, 6
    d["progress"] = [0, 3, 6]  # Bob and Chris wait on the ships' tiles; Anne sails to slot 1
    state = load(window(d, "sail", token=ANNE, winner=ANNE))
    skip(state, Script(then=0), "window", phase="sail")
    assert state.phase == "action"
