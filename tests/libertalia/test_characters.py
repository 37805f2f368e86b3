"""One test (at least) per character, with exact numbers, in its own timing.

Seats in a 3-player game are Yellow (0), Red (1), Blue (2).  Unless a test
says otherwise every seat starts with 10 doubloons and the day's booty row is
empty, so that the day runs from the sunrise picks straight to the next
sunrise.  A spare card (30, never played) keeps the next sunrise open, so the
asserts read the position after that day's night.  Anchor abilities are
checked on the sixth day (index 5): its night ends the campaign, and
``campaign_totals[0]`` holds the totals.
"""

from __future__ import annotations

from bidbluff.envs.libertalia.content import Rank

from .conftest import CHEST, GOODS, JEWELS, MAP, RELIC, SABRE, act, booty_of, make_state, play, tokens

SPARE = Rank.SPANISH_GOVERNOR  # kept in hand, never played in these tests


def last_day(**kw):
    """The sixth day: seat 0 holds only a Cabin Boy (no day, night, anchor or booty effect)."""
    kw.setdefault("hands", [[Rank.CABIN_BOY], [], []])
    return make_state(day=5, **kw)


def end_with_cabin_boy(state):
    play(state, Rank.CABIN_BOY)
    assert state.campaign == 1 and state.day == 0, "the sixth night must end the campaign"
    return state.campaign_totals[0]


# -- 1 Parrot (sunrise) -------------------------------------------------------------
def test_parrot_is_discarded_and_replaced_from_hand():
    s = make_state(
        hands=[[1, 5, 20], [16], [23]],
        booty_days={0: tokens(chest=1, jewels=1, goods=1)},
    )
    play(s, 1, 16, 23)
    assert s.pending == ["parrot", 0]
    assert s.legal_actions() == [("parrot", 5), ("parrot", 20)]
    act(s, ("parrot", 20))
    # The Parrot is in the discard pile, the Armorer sits between 16 and 23.
    assert s.discards[0] == [1]
    assert s.hands[0] == [5]
    assert s.pending == ["booty", 2]
    assert s.ship == [[1, 16], [0, 20], [2, 23]]
    act(s, ("booty", CHEST), ("booty", JEWELS), ("booty", GOODS))
    assert s.dens == [[20], [16], [23]]
    assert booty_of(s, 0) == {"jewels": 1}
    assert s.discards[0] == [1]


# -- 2 Monkey (day) -----------------------------------------------------------------
def test_monkey_passes_all_relics_to_the_next_seat():
    s = make_state(
        hands=[[2, SPARE], [16], [20]],
        den_booty=[tokens(relic=2, chest=1), tokens(relic=1), tokens(goods=1)],
    )
    play(s, 2, 16, 20)
    # Left = next seat in seat order: seat 1, not seat 2.
    assert booty_of(s, 0) == {"chest": 1}
    assert booty_of(s, 1) == {"relic": 3}
    assert booty_of(s, 2) == {"goods": 1}
    assert s.dens[0] == [2]


def test_monkey_of_the_last_seat_passes_to_seat_zero():
    s = make_state(hands=[[16, SPARE], [20], [2]], den_booty=[None, None, tokens(relic=2)])
    play(s, 16, 20, 2)
    assert s.den_booty[0][RELIC] == 2 and s.den_booty[2][RELIC] == 0 and s.den_booty[1][RELIC] == 0


# -- 3 Beggar (day) -----------------------------------------------------------------
def test_beggar_takes_three_from_the_owner_of_the_rightmost_card():
    s = make_state(hands=[[3, SPARE], [16], [28]])
    play(s, 3, 16, 28)
    assert s.doubloons == [13, 10, 7]


def test_beggar_takes_what_the_giver_has_when_under_three():
    s = make_state(hands=[[3, SPARE], [16], [28]], doubloons=[10, 10, 2])
    play(s, 3, 16, 28)
    assert s.doubloons == [12, 10, 0]


def test_beggar_takes_nothing_when_its_own_card_is_rightmost():
    s = make_state(hands=[[3, SPARE], [], []])
    play(s, 3)
    assert s.doubloons == [10, 10, 10]


# -- 4 Recruiter (day) --------------------------------------------------------------
def test_recruiter_takes_a_den_card_back_to_hand():
    s = make_state(hands=[[4, SPARE], [20], []], dens=[[7, 16], [], []])
    play(s, 4, 20)
    assert s.pending == ["recruit", 0]
    assert s.legal_actions() == [("recruit", 7), ("recruit", 16)]
    act(s, ("recruit", 16))
    assert s.hands[0] == [16, SPARE]
    assert s.dens[0] == [4, 7]
    assert s.doubloons[0] == 11  # the Barkeep still in the den: +1 at night


def test_recruiter_with_an_empty_den_opens_no_decision():
    s = make_state(hands=[[4, SPARE], [20], []])
    play(s, 4, 20)
    assert s.pending == ["play", 0] and s.day == 1
    assert s.dens[0] == [4] and s.hands[0] == [SPARE]


# -- 5 Cabin Boy (dusk) -------------------------------------------------------------
def test_cabin_boy_takes_no_booty_and_still_enters_the_den():
    s = make_state(hands=[[5, SPARE], [7], []], booty_days={0: tokens(chest=1, goods=1)})
    play(s, 5, 7)
    assert s.pending == ["booty", 1]
    act(s, ("booty", CHEST))
    # No decision for the Cabin Boy: the day is over.
    assert s.pending == ["play", 0] and s.day == 1
    assert s.den_booty[0] == [0] * 7
    assert s.dens[0] == [5]
    assert s.booty_days[0] == tokens(goods=1)  # unclaimed, stays on day 1


# -- 6 Preacher (day + anchor) ------------------------------------------------------
def test_preacher_day_keeps_one_token_of_choice_and_returns_the_rest():
    s = make_state(hands=[[6, SPARE], [16], []], den_booty=[tokens(chest=1, goods=2, relic=1), None, None])
    bag = list(s.bag)
    play(s, 6, 16)
    assert s.pending == ["keep", 0]
    assert s.legal_actions() == [("keep", CHEST), ("keep", GOODS), ("keep", RELIC)]
    act(s, ("keep", GOODS))
    assert booty_of(s, 0) == {"goods": 1}
    assert s.bag[CHEST] == bag[CHEST] + 1 and s.bag[GOODS] == bag[GOODS] + 1 and s.bag[RELIC] == bag[RELIC] + 1


def test_preacher_day_with_one_token_opens_no_decision():
    s = make_state(hands=[[6, SPARE], [16], []], den_booty=[tokens(map=1), None, None])
    play(s, 6, 16)
    assert s.pending == ["play", 0]
    assert booty_of(s, 0) == {"map": 1}


def test_preacher_anchor_plus_five():
    s = last_day(dens=[[6], [], []])
    assert end_with_cabin_boy(s) == [15, 10, 10]


# -- 7 Barkeep (night) --------------------------------------------------------------
def test_barkeep_pays_one_every_night_from_the_den():
    s = make_state(hands=[[7, 5, SPARE], [16, 20], []])
    play(s, 7, 16)  # the Barkeep enters the den at dusk and works the same night
    assert s.doubloons == [11, 10, 10]
    play(s, 5, 20)
    assert s.doubloons == [12, 10, 10]


# -- 8 Waitress (night) -------------------------------------------------------------
def test_waitress_sells_one_map_every_night_while_maps_last():
    s = make_state(hands=[[5, 18, 20, SPARE], [], []], dens=[[8], [], []], den_booty=[tokens(map=2), None, None])
    bag_maps = s.bag[MAP]
    play(s, 5)
    assert s.doubloons[0] == 13 and s.den_booty[0][MAP] == 1 and s.bag[MAP] == bag_maps + 1
    play(s, 18)
    assert s.doubloons[0] == 16 and s.den_booty[0][MAP] == 0 and s.bag[MAP] == bag_maps + 2
    play(s, 20)
    assert s.doubloons[0] == 16


# -- 9 Carpenter (day + anchor) -----------------------------------------------------
def test_carpenter_day_halves_the_doubloons():
    s = make_state(hands=[[9, SPARE], [16], []])
    play(s, 9, 16)
    assert s.doubloons == [5, 10, 10]


def test_carpenter_anchor_plus_ten():
    s = last_day(dens=[[9], [], []])
    assert end_with_cabin_boy(s) == [20, 10, 10]


# -- 10 French Officer (day) --------------------------------------------------------
def test_french_officer_gains_five_below_nine():
    s = make_state(hands=[[10, SPARE], [16], []], doubloons=[8, 8, 10])
    play(s, 10, 16)
    assert s.doubloons == [13, 8, 10]


# -- 11 Voodoo Witch (day) ----------------------------------------------------------
def test_voodoo_witch_two_per_discarded_character():
    s = make_state(hands=[[11, SPARE], [16], []], discards=[[1, 2, 14], [3], []])
    play(s, 11, 16)
    assert s.doubloons == [16, 10, 10]


# -- 12 Freed Slave (night) ---------------------------------------------------------
def test_freed_slave_two_per_den_character_above_twelve_every_night():
    s = make_state(hands=[[5, 20, SPARE], [], []], dens=[[4, 12, 16, 23], [], []])
    play(s, 5)  # den 4 5 12 16 23: two above 12 -> +4
    assert s.doubloons[0] == 14
    play(s, 20)  # den 4 5 12 16 20 23: three above 12 -> +6
    assert s.doubloons[0] == 20


# -- 13 Mutineer (night) ------------------------------------------------------------
def test_mutineer_discards_the_lowest_other_den_character_for_two():
    s = make_state(hands=[[20, SPARE], [], []], dens=[[4, 13, 16], [], []])
    play(s, 20)
    assert s.dens[0] == [13, 16, 20]
    assert s.discards[0] == [4]
    assert s.doubloons[0] == 12


# -- 14 Brute (day) -----------------------------------------------------------------
def test_brute_discards_the_highest_card_on_the_ship():
    s = make_state(hands=[[14, SPARE], [28], [20]], booty_days={0: tokens(chest=1, goods=1, jewels=1)})
    play(s, 14, 28, 20)
    # Red's First Mate is thrown overboard before dusk: it claims nothing.
    assert s.discards == [[], [28], []]
    assert s.ship == [[0, 14], [2, 20]]
    assert s.pending == ["booty", 2]
    act(s, ("booty", CHEST), ("booty", GOODS))
    assert s.dens == [[14], [], [20]]
    assert booty_of(s, 1) == {}
    assert s.booty_days[0] == tokens(jewels=1)


# -- 15 Gunner (day) ----------------------------------------------------------------
def test_gunner_pays_three_and_discards_from_any_den():
    s = make_state(hands=[[15, SPARE], [], [5]], dens=[[18], [16], [20]])
    play(s, 15, None, 5)
    assert s.pending == ["gunner", 0]
    assert s.doubloons[0] == 7
    assert s.legal_actions() == [("gunner", 0, 18), ("gunner", 1, 16), ("gunner", 2, 20)]
    act(s, ("gunner", 2, 20))
    assert s.discards == [[], [], [20]]
    assert s.dens == [[15, 18], [16], [5]]
    assert s.doubloons == [7, 10, 10]


# -- 16 Topman (anchor) -------------------------------------------------------------
def test_topman_plus_five_for_the_fewest_characters_ties_included():
    s = last_day(dens=[[16], [16, 18], [16, 18, 20]])
    # Den sizes after the Cabin Boy joins seat 0: 2, 2, 3.  Seats 0 and 1 tie for fewest.
    assert end_with_cabin_boy(s) == [15, 15, 10]


# -- 17 Spanish Spy (day) -----------------------------------------------------------
def test_spanish_spy_returns_officers_then_draws_one_per_officer():
    # The bag is empty: the two draws can only be the two officers put back first.
    s = make_state(hands=[[17, SPARE], [16], []], den_booty=[tokens(officer=2), None, None], bag=[0] * 7)
    play(s, 17, 16)
    assert booty_of(s, 0) == {"officer": 2}
    assert s.bag == [0] * 7
    assert s.dens[0] == [17]  # drawn officers have no effect: the Spy is not arrested
    assert s.discards[0] == []


def test_spanish_spy_draws_replace_the_officers():
    s = make_state(
        hands=[[17, SPARE], [16], []], den_booty=[tokens(officer=3, relic=1), None, None], bag=[4, 0, 0, 0, 0, 0, 0]
    )
    play(s, 17, 16)
    b = s.den_booty[0]
    assert b[RELIC] == 1
    assert sum(b) == 4  # one token drawn per officer
    assert sum(s.bag) == 4 and s.bag[CHEST] + b[CHEST] == 4


# -- 18 Cook (dusk) -----------------------------------------------------------------
def test_cook_takes_two_tokens_one_after_the_other():
    s = make_state(hands=[[18, SPARE], [16], []], booty_days={0: tokens(chest=1, jewels=1, goods=1)})
    play(s, 18, 16)
    assert s.pending == ["booty", 0]
    act(s, ("booty", CHEST))
    assert s.pending == ["booty", 0]
    act(s, ("booty", JEWELS))
    assert s.pending == ["booty", 1]
    act(s, ("booty", GOODS))
    assert booty_of(s, 0) == {"chest": 1, "jewels": 1}
    assert booty_of(s, 1) == {"goods": 1}
    assert s.dens == [[18], [16], []]


def test_cook_takes_one_when_only_one_is_left():
    s = make_state(hands=[[18, SPARE], [16], []], booty_days={0: tokens(chest=1)})
    play(s, 18, 16)
    act(s, ("booty", CHEST))
    assert s.pending == ["play", 0]
    assert booty_of(s, 0) == {"chest": 1} and booty_of(s, 1) == {}


# -- 19 Bosun (night, per the German seed) ------------------------------------------
def test_bosun_two_per_den_character_below_nineteen_every_night():
    s = make_state(hands=[[20, 5, SPARE], [], []], dens=[[4, 16, 19, 23], [], []])
    play(s, 20)  # den 4 16 19 20 23: two below 19 -> +4
    assert s.doubloons[0] == 14
    play(s, 5)  # den 4 5 16 19 20 23: three below 19 -> +6
    assert s.doubloons[0] == 20


def test_bosun_counts_the_den_at_night_not_at_day():
    # Red's Treasurer (23) claims first at dusk and its sabre throws out Yellow's
    # Recruiter (4) before night.  At night the Bosun counts only the Barkeep
    # (7): +2, and the Barkeep +1.  A day-time Bosun would have counted 4 and 7.
    s = make_state(hands=[[19, SPARE], [23], []], dens=[[4, 7], [], []], booty_days={0: tokens(sabre=1)})
    play(s, 19, 23)
    act(s, ("booty", SABRE), ("sabre", 0, 4))
    assert s.dens[0] == [7, 19]
    assert s.doubloons == [13, 10, 10]


# -- 20 Armorer (night) -------------------------------------------------------------
def test_armorer_one_per_sabre_every_night():
    s = make_state(hands=[[5, 8, SPARE], [], []], dens=[[20], [], []], den_booty=[tokens(sabre=2), None, None])
    play(s, 5)
    assert s.doubloons[0] == 12
    play(s, 8)
    assert s.doubloons[0] == 14


# -- 21 Merchant (day) --------------------------------------------------------------
def test_merchant_sells_three_of_a_kind_for_five():
    s = make_state(hands=[[21, SPARE], [16], []], den_booty=[tokens(goods=3, jewels=2, relic=1), None, None])
    bag = list(s.bag)
    play(s, 21, 16)
    assert s.pending == ["trade", 0]
    assert s.legal_actions() == [("trade", JEWELS, 2), ("trade", GOODS, 2), ("trade", GOODS, 3)]
    act(s, ("trade", GOODS, 3))
    assert s.doubloons[0] == 15
    assert booty_of(s, 0) == {"jewels": 2, "relic": 1}
    assert s.bag[GOODS] == bag[GOODS] + 3


# -- 22 Surgeon (day) ---------------------------------------------------------------
def test_surgeon_takes_a_discarded_character_back_to_hand():
    s = make_state(hands=[[22, SPARE], [16], []], discards=[[4, 7], [], []])
    play(s, 22, 16)
    assert s.pending == ["surgeon", 0]
    assert s.legal_actions() == [("surgeon", 4), ("surgeon", 7)]
    act(s, ("surgeon", 7))
    assert s.hands[0] == [7, SPARE]
    assert s.discards[0] == [4]
    assert s.dens[0] == [22]


# -- 23 Treasurer (anchor) ----------------------------------------------------------
def test_treasurer_one_per_chest_jewels_and_goods():
    s = last_day(dens=[[23], [], []], den_booty=[tokens(chest=1, jewels=2, goods=3, relic=1, map=1), None, None])
    # 10 + booty (5 + 6 + 3 - 3 + 0) = 21, Treasurer +6 (1 + 2 + 3).
    assert end_with_cabin_boy(s) == [27, 10, 10]


# -- 24 Gambler (day + anchor) ------------------------------------------------------
def test_gambler_day_pays_one_per_token():
    s = make_state(hands=[[24, SPARE], [16], []], den_booty=[tokens(chest=1, goods=2, relic=1), None, None])
    play(s, 24, 16)
    assert s.doubloons == [6, 10, 10]


def test_gambler_day_pays_only_what_it_has():
    s = make_state(hands=[[24, SPARE], [16], []], den_booty=[tokens(goods=4), None, None], doubloons=[2, 10, 10])
    play(s, 24, 16)
    assert s.doubloons == [0, 10, 10]


def test_gambler_anchor_plus_eight():
    s = last_day(dens=[[24], [], []])
    assert end_with_cabin_boy(s) == [18, 10, 10]


# -- 25 Governor's Daughter (anchor) ------------------------------------------------
def test_single_governors_daughter_plus_six():
    s = last_day(dens=[[25], [], []])
    assert end_with_cabin_boy(s) == [16, 10, 10]


# -- 26 Quartermaster (day + anchor) ------------------------------------------------
def test_quartermaster_day_one_per_token():
    s = make_state(hands=[[26, SPARE], [16], []], den_booty=[tokens(chest=1, goods=2, officer=1), None, None])
    play(s, 26, 16)
    assert s.doubloons == [14, 10, 10]


def test_quartermaster_anchor_minus_eight():
    s = last_day(dens=[[26], [], []])
    assert end_with_cabin_boy(s) == [2, 10, 10]


# -- 27 Granny Wata (night) ---------------------------------------------------------
def test_single_granny_wata_plus_two_every_night():
    s = make_state(hands=[[5, 8, SPARE], [], []], dens=[[27], [], []])
    play(s, 5)
    assert s.doubloons[0] == 12
    play(s, 8)
    assert s.doubloons[0] == 14
    assert s.dens[0] == [5, 8, 27]


# -- 28 First Mate (anchor) ---------------------------------------------------------
def test_first_mate_one_per_den_character_itself_included():
    s = last_day(dens=[[18, 20, 28], [], []])
    # Den after the Cabin Boy joins: 5 18 20 28 -> +4.
    assert end_with_cabin_boy(s) == [14, 10, 10]


# -- 29 Captain (day + anchor) ------------------------------------------------------
def test_captain_day_plus_three():
    s = make_state(hands=[[29, SPARE], [16], []])
    play(s, 29, 16)
    assert s.doubloons == [13, 10, 10]


def test_captain_anchor_minus_three_per_relic_on_top_of_the_relic():
    s = last_day(dens=[[29], [], []], den_booty=[tokens(relic=1), None, None])
    # 10 - 3 (relic) - 3 (Captain) = 4.
    assert end_with_cabin_boy(s) == [4, 10, 10]


# -- 30 Spanish Governor (day) ------------------------------------------------------
def test_spanish_governor_discards_the_whole_den_but_survives():
    s = make_state(hands=[[30, 5], [16], []], dens=[[7, 16, 20], [], []], den_booty=[tokens(sabre=1), None, None])
    play(s, 30, 16)
    assert sorted(s.discards[0]) == [7, 16, 20]
    assert s.dens[0] == [30]
    assert s.doubloons[0] == 10  # Barkeep and Armorer were discarded before night
    assert booty_of(s, 0) == {"sabre": 1}


# -- timing ---------------------------------------------------------------------------
def test_day_abilities_resolve_in_ascending_order():
    # Beggar (3) acts before the French Officer (10): Yellow drops to 7 first,
    # so the French Officer then pays +5.  Descending order would give 7.
    s = make_state(hands=[[10, SPARE], [3], []])
    play(s, 10, 3)
    assert s.doubloons == [12, 13, 10]


def test_dusk_claims_in_descending_order():
    s = make_state(hands=[[16, SPARE], [20], [10]], booty_days={0: tokens(chest=1, jewels=1, goods=1)})
    play(s, 16, 20, 10)
    order = []
    for token in (CHEST, JEWELS, GOODS):
        order.append(s.pending[1])
        act(s, ("booty", token))
    assert order == [1, 0, 2]
    assert booty_of(s, 1) == {"chest": 1} and booty_of(s, 0) == {"jewels": 1} and booty_of(s, 2) == {"goods": 1}


def test_anchor_abilities_do_nothing_before_the_campaign_ends():
    den = [6, 9, 16, 23, 24, 25, 26, 28, 29]
    s = make_state(hands=[[5, SPARE], [], []], dens=[den, [], []], den_booty=[tokens(relic=1, chest=1), None, None])
    play(s, 5)
    assert s.doubloons == [10, 10, 10]
    assert s.campaign_totals == []
