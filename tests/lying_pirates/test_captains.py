"""Captain abilities (``abilities="dealt"`` or ``"chosen"``): the coasters and each ability's rule."""

from __future__ import annotations

import numpy as np
import pytest

from bidbluff.envs.lying_pirates.battle import Icon, battle_resolve, start_battle
from bidbluff.envs.lying_pirates.content import CAPTAINS
from bidbluff.envs.lying_pirates.crew import Crews
from bidbluff.envs.lying_pirates.setup import new_game

from .conftest import CURSED, P_X, SAIL1, SWORDS, Script, betting, give_special, load, play, set_crew, skip, window
from .optionkit import coaster, ready

ANNE, BOB, CHRIS = 0, 1, 2


def test_eight_coasters_with_one_ability_each():
    assert len(CAPTAINS) == 8 and len({c.ability for c in CAPTAINS}) == 8


def test_chosen_coasters_are_picked_in_turn_from_the_token():
    rng = np.random.default_rng(0)
    state = new_game(4, rng, abilities="chosen")
    token = state.token
    for i in range(4):
        assert state.pending == ["captain", (token + i) % 4]
        assert len(state.legal_actions()) == 8 - i
        state.apply(("captain", i), rng)
    assert [state.ext["captain"][(token + i) % 4] for i in range(4)] == [0, 1, 2, 3]
    assert state.pending[0] == "bet"


def test_dealt_coasters_differ_and_the_phantom_has_none():
    state = new_game(2, np.random.default_rng(1), abilities="dealt")
    a, b, phantom = state.ext["captain"]
    assert a != b and a >= 0 and b >= 0 and phantom == -1
    assert state.pending[0] == "bet"


def with_ability(ability: str, seat: int = ANNE, **options):
    d = ready(3, abilities="dealt", **options)
    d["ext"]["captain"] = [-1, -1, -1]
    coaster(d, seat, ability)
    return d


def test_quartermaster_lifts_the_ten_dice_limit_to_twelve():
    d = with_ability("big_cup")
    set_crew(d, ANNE, 9)
    set_crew(d, BOB, 9)
    state = load(d)
    state.crews.gain(ANNE, 5)
    state.crews.gain(BOB, 5)
    assert state.crews.dice(ANNE) == 12 and state.crews.dice(BOB) == 10


def test_old_salt_may_give_up_the_cursed_die_for_his_last_crew_die():
    d = with_ability("cursed_spare")
    for seat in (ANNE, BOB):
        set_crew(d, seat, 1)
    give_special(d, ANNE, CURSED)
    state = load(d)
    state.crews.lose(ANNE, 1)
    assert state.crews.crew[ANNE] == 1 and state.crews.holder[CURSED] == -1
    crews = Crews([1, 1], {CURSED: 1})
    crews.lose(1, 1)
    assert crews.holder[CURSED] == 1  # without the ability the Cursed die never goes in place of the last die


def test_navigator_rerolls_the_sail_die_for_free():
    d = with_ability("free_sail_reroll", CHRIS)
    d["coins"] = [0, 0, 0]
    betting(d, {0: [3, 4], 1: [2, 5], 2: [3, 6]}, bids=[[ANNE, 1, 3], [BOB, 2, 2]], token=ANNE)
    state = load(d)
    rng = Script(SAIL1, 3)
    play(state, rng, ("exact", 2, 3))
    assert state.pending == ["reroll", CHRIS]  # +1 coin for winning; the reroll would still be free
    play(state, rng, ("reroll",))
    assert state.sail_die == 2 and state.coins[CHRIS] == 1


def test_other_rerolls_still_cost_the_navigator_a_coin():
    d = with_ability("free_sail_reroll")
    d["coins"] = [0, 0, 0]
    d["progress"] = [3, 0, 0]  # onto slot 4: Caught by the Navy, a Pirate die roll
    state = load(window(d, "sail", token=ANNE, winner=ANNE))
    rng = Script(P_X, then=0)
    skip(state, rng, "window", phase="sail")
    assert state.pending[0] != "reroll"


def test_smuggler_buys_cards_for_one_coin():
    d = with_ability("cheap_cards")
    d["coins"] = [1, 1, 1]
    state = load(window(d, "action", token=ANNE, winner=ANNE))
    assert ("buy",) in state.legal_actions()
    size = len(state.hands[ANNE])
    play(state, Script(), ("buy",))
    assert state.coins[ANNE] == 0 and len(state.hands[ANNE]) == size + 1
    assert ("buy",) not in state.legal_actions()  # Bob pays 2 as usual


@pytest.mark.parametrize("bess", [ANNE, BOB])
def test_brawler_wins_a_tie(bess):
    d = with_ability("wins_ties", bess)
    d["coins"] = [0, 0, 0]
    d["slots"][1] = 5  # Treasure Cove: no choices
    state = load(window(d, "sail", token=ANNE, winner=ANNE, survivors=(BOB,)))
    rng = Script(SWORDS, SWORDS, then=0)
    skip(state, rng, "window", phase="sail")
    assert state.resolver == bess and len(rng.drawn) == 2  # no reroll of the tie


def test_brawler_is_spared_in_a_tie_for_a_loser():
    d = with_ability("wins_ties", BOB)
    state = load(d)
    start_battle(state, [ANNE, BOB, CHRIS], "loser")
    battle = state.battle
    battle.rolls = [Icon.DAGGER, Icon.DAGGER, Icon.SWORDS]
    battle_resolve(state, battle, None)
    assert battle.rolling == [ANNE]


def test_treasurer_gains_a_coin_more_for_winning_a_betting_phase():
    d = with_ability("betting_bonus", CHRIS)
    d["coins"] = [2, 2, 2]
    betting(d, {0: [3, 4], 1: [2, 5], 2: [3, 6]}, bids=[[ANNE, 1, 3], [BOB, 2, 2]], token=ANNE)
    state = load(d)
    play(state, Script(SAIL1), ("exact", 2, 3))
    assert state.coins[CHRIS] == 4


def test_recruiter_gains_a_crew_die_more_from_a_tile():
    d = with_ability("extra_recruit")
    set_crew(d, ANNE, 5)
    state = load(window(d, "sail", token=ANNE, winner=ANNE))  # onto slot 1: Recruit Crew (+2)
    skip(state, Script(then=0), "window", phase="sail")
    assert state.crews.crew[ANNE] == 8


def test_saboteur_once_per_game_pays_two_coins_to_hit_a_captain():
    d = with_ability("sabotage")
    d["coins"] = [4, 2, 2]
    d["progress"] = [1, 2, 0]  # Chris is on the Base: protected
    crew = d["crews"]["crew"][BOB]
    state = load(window(d, "action", token=ANNE, winner=ANNE))
    assert ("ability",) in state.legal_actions()
    play(state, Script(), ("ability",))
    assert state.legal_actions() == [("target", BOB)]
    play(state, Script(), ("target", BOB))
    assert state.crews.crew[BOB] == crew - 1 and state.coins[ANNE] == 2
    play(state, Script(), ("pass",), ("pass",))
    assert state.pending == ["window", ANNE] and ("ability",) not in state.legal_actions()
