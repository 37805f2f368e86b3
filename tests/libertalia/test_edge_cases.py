"""Edge cases the rulings decide: self-harm, short money, re-sorting, order at night."""

from __future__ import annotations

from bidbluff.envs.libertalia.content import Rank

from .conftest import CHEST, GOODS, JEWELS, OFFICER, RELIC, SABRE, act, booty_of, make_state, play, tokens

SPARE = Rank.SPANISH_GOVERNOR


# -- Brute ------------------------------------------------------------------------------
def test_brute_rightmost_discards_itself():
    s = make_state(hands=[[14, SPARE], [5], [8]], booty_days={0: tokens(goods=2)})
    play(s, 14, 5, 8)
    assert s.discards == [[14], [], []]
    assert s.ship == [[1, 5], [2, 8]]
    assert s.pending == ["booty", 2]
    act(s, ("booty", GOODS))
    # The Cabin Boy takes nothing: one goods stays on the day's space.
    assert s.dens == [[], [5], [8]]
    assert booty_of(s, 2) == {"goods": 1} and booty_of(s, 0) == {}
    assert s.booty_days[0] == tokens(goods=1)


def test_brute_alone_on_the_ship_discards_itself():
    s = make_state(hands=[[14, SPARE], [], []], booty_days={0: tokens(chest=1)})
    play(s, 14)
    assert s.discards[0] == [14] and s.dens[0] == []
    assert s.booty_days[0] == tokens(chest=1)
    assert s.pending == ["play", 0] and s.day == 1


# -- Gunner -----------------------------------------------------------------------------
def test_gunner_with_two_doubloons_pays_two_and_still_shoots():
    s = make_state(hands=[[15, SPARE], [16], []], dens=[[], [20], []], doubloons=[2, 10, 10])
    play(s, 15, 16)
    assert s.doubloons[0] == 0
    assert s.legal_actions() == [("gunner", 1, 20)]
    act(s, ("gunner", 1, 20))
    assert s.discards[1] == [20]
    assert s.dens == [[15], [16], []]
    assert s.doubloons == [0, 10, 10]


def test_gunner_with_only_its_owners_den_must_hit_its_own():
    s = make_state(hands=[[15, SPARE], [16], []], dens=[[7], [], []])
    play(s, 15, 16)
    assert s.pending == ["gunner", 0]
    assert s.legal_actions() == [("gunner", 0, 7)]
    act(s, ("gunner", 0, 7))
    assert s.discards[0] == [7]
    assert s.dens[0] == [15]
    assert s.doubloons[0] == 7  # paid 3; the Barkeep is gone before night


def test_gunner_with_no_den_anywhere_pays_and_opens_no_decision():
    s = make_state(hands=[[15, SPARE], [16], []])
    play(s, 15, 16)
    assert s.pending == ["play", 0] and s.day == 1
    assert s.doubloons == [7, 10, 10]


# -- Parrot -----------------------------------------------------------------------------
def test_parrot_replacement_takes_its_tie_break_place():
    # Armorer (20) tie-break numbers: Yellow 5, Red 6, Blue 1: Blue, Yellow, Red.
    s = make_state(hands=[[1, 20], [20], [20]], booty_days={0: tokens(goods=3)})
    play(s, 1, 20, 20)
    act(s, ("parrot", 20))
    assert s.pending == ["booty", 1]
    assert s.ship == [[2, 20], [0, 20], [1, 20]]
    assert s.discards[0] == [1]


def test_parrot_replacement_acts_in_the_day_from_its_place():
    # Brute (14) tie-break numbers: Yellow 6, Red 1, so Yellow's replacement
    # Brute lands right of Red's Brute: Red 14, Yellow 14, Blue 29.
    # Red's Brute throws out Blue's Captain (before its +3), then Yellow's Brute
    # is the rightmost card and throws out itself.
    s = make_state(hands=[[1, 14, SPARE], [14], [29]])
    play(s, 1, 14, 29)
    act(s, ("parrot", 14))
    assert s.discards == [[1, 14], [], [29]]
    assert s.dens == [[], [14], []]
    assert s.doubloons == [10, 10, 10]
    assert s.hands[0] == [SPARE]


def test_parrot_with_an_empty_hand_stays_a_plain_rank_one_card():
    s = make_state(hands=[[1], [16, SPARE], []], booty_days={0: tokens(chest=1, goods=1)})
    play(s, 1, 16)
    assert s.pending == ["booty", 1]  # no Parrot decision
    assert s.ship == [[0, 1], [1, 16]]
    act(s, ("booty", CHEST), ("booty", GOODS))
    assert s.dens == [[1], [16], []]
    assert s.discards[0] == []
    assert booty_of(s, 0) == {"goods": 1}


def test_two_parrots_resolve_left_to_right():
    # Parrot tie-breaks: Yellow 1, Red 2.
    s = make_state(n=2, hands=[[1, 5, SPARE], [1, 8]])
    play(s, 1, 1)
    assert s.pending == ["parrot", 0]
    act(s, ("parrot", 5))
    assert s.pending == ["parrot", 1]
    act(s, ("parrot", 8))
    assert s.discards == [[1], [1]]
    assert s.dens == [[5], [8]]


# -- Cook -------------------------------------------------------------------------------
def test_cook_taking_an_officer_first_still_takes_the_second_token():
    s = make_state(hands=[[18, SPARE], [16], []], booty_days={0: tokens(officer=1, chest=1, goods=1)})
    play(s, 18, 16)
    act(s, ("booty", OFFICER))
    assert s.pending == ["booty", 0]
    act(s, ("booty", CHEST))
    assert s.pending == ["booty", 1]
    act(s, ("booty", GOODS))
    assert s.discards[0] == [18]
    assert s.dens[0] == []
    assert booty_of(s, 0) == {"chest": 1, "officer": 1}
    assert s.dens[1] == [16] and booty_of(s, 1) == {"goods": 1}


# -- Granny Wata ------------------------------------------------------------------------
def test_two_granny_watas_are_both_discarded_and_nobody_gains():
    s = make_state(hands=[[5, 8, SPARE], [], []], dens=[[27], [27], [7]])
    play(s, 5)
    assert s.doubloons == [10, 10, 11]
    assert s.discards == [[27], [27], []]
    assert s.dens == [[5], [], [7]]
    play(s, 8)
    assert s.doubloons == [10, 10, 12]


def test_granny_wata_arriving_today_meets_the_one_in_a_den():
    s = make_state(hands=[[16, SPARE], [27], []], dens=[[27], [], []])
    play(s, 16, 27)
    assert s.discards == [[27], [27], []]
    assert s.doubloons == [10, 10, 10]


def test_one_granny_wata_pays_every_night():
    s = make_state(hands=[[5, 8, SPARE], [], []], dens=[[], [27], []])
    play(s, 5)
    play(s, 8)
    assert s.doubloons == [10, 14, 10]


# -- Mutineer ---------------------------------------------------------------------------
def test_mutineer_fires_last_after_the_victims_night_ability():
    # Night 1: Barkeep +1, then the Mutineer throws the Barkeep out, +2.
    # Night 2: the Mutineer is alone: no victim, no +2.
    s = make_state(hands=[[], [5, 8, SPARE], []], dens=[[7, 13], [], []])
    play(s, None, 5)
    assert s.doubloons[0] == 13
    assert s.dens[0] == [13] and s.discards[0] == [7]
    play(s, None, 8)
    assert s.doubloons[0] == 13
    assert s.dens[0] == [13] and s.discards[0] == [7]


def test_mutineer_night_with_freed_slave_in_the_den():
    # Night 1: Freed Slave +2 x (13, 16) = 4, then the Mutineer discards the
    #   Freed Slave (12, the lowest other) +2: 16.
    # Night 2: the Mutineer discards the Topman (16) +2: 18.
    # Night 3: nothing left but the Mutineer: 18.
    s = make_state(hands=[[], [5, 8, 20, SPARE], []], dens=[[12, 13, 16], [], []])
    play(s, None, 5)
    assert s.doubloons[0] == 16 and s.dens[0] == [13, 16]
    play(s, None, 8)
    assert s.doubloons[0] == 18 and s.dens[0] == [13]
    play(s, None, 20)
    assert s.doubloons[0] == 18
    assert s.discards[0] == [12, 16]


def test_mutineer_as_the_lowest_card_discards_the_next_one():
    # Armorer +1 for its sabre, then the Mutineer discards the Topman (16): +2.
    s = make_state(hands=[[], [5, SPARE], []], dens=[[13, 16, 20], [], []], den_booty=[tokens(sabre=1), None, None])
    play(s, None, 5)
    assert s.dens[0] == [13, 20]
    assert s.discards[0] == [16]
    assert s.doubloons[0] == 13


# -- Governor's Daughter ----------------------------------------------------------------
def test_two_governors_daughters_both_lose_three():
    s = make_state(day=5, hands=[[5], [], []], dens=[[25], [25], []])
    play(s, 5)
    assert s.campaign_totals[0] == [7, 7, 10]


def test_one_governors_daughter_gains_six():
    s = make_state(day=5, hands=[[5], [], []], dens=[[], [], [25]])
    play(s, 5)
    assert s.campaign_totals[0] == [10, 10, 16]


# -- Merchant ---------------------------------------------------------------------------
def test_merchant_may_choose_the_type_and_two_for_three():
    s = make_state(hands=[[21, SPARE], [16], []], den_booty=[tokens(jewels=2, goods=3), None, None])
    play(s, 21, 16)
    assert set(s.legal_actions()) == {("trade", JEWELS, 2), ("trade", GOODS, 2), ("trade", GOODS, 3)}
    act(s, ("trade", JEWELS, 2))
    assert s.doubloons[0] == 13
    assert booty_of(s, 0) == {"goods": 3}


def test_merchant_two_of_three_leaves_one():
    s = make_state(hands=[[21, SPARE], [16], []], den_booty=[tokens(goods=3), None, None])
    play(s, 21, 16)
    act(s, ("trade", GOODS, 2))
    assert s.doubloons[0] == 13
    assert booty_of(s, 0) == {"goods": 1}


def test_merchant_may_sell_any_type_even_relics():
    s = make_state(hands=[[21, SPARE], [16], []], den_booty=[tokens(relic=2, chest=1), None, None])
    play(s, 21, 16)
    assert s.legal_actions() == [("trade", RELIC, 2)]  # mandatory: no way to pass
    act(s, ("trade", RELIC, 2))
    assert s.doubloons[0] == 13
    assert booty_of(s, 0) == {"chest": 1}


def test_merchant_without_a_pair_opens_no_decision():
    s = make_state(hands=[[21, SPARE], [16], []], den_booty=[tokens(chest=1, goods=1, map=1), None, None])
    play(s, 21, 16)
    assert s.pending == ["play", 0]
    assert s.doubloons[0] == 10
    assert s.dens[0] == [21]


# -- Spanish Spy ------------------------------------------------------------------------
def test_spanish_spy_drawn_sabres_and_officers_have_no_effect():
    drew_sabre = False
    for seed in range(12):
        s = make_state(
            hands=[[17, SPARE], [16], []],
            dens=[[], [7], [20]],
            den_booty=[tokens(officer=1), None, None],
            bag=tokens(sabre=3),
        )
        play(s, 17, 16, seed=seed)
        b = s.den_booty[0]
        drew_sabre |= b[SABRE] == 1
        assert b[SABRE] + b[OFFICER] == 1
        assert s.bag[SABRE] + s.bag[OFFICER] == 3
        assert s.pending == ["play", 0]  # no sabre decision
        assert s.dens == [[17], [7, 16], [20]]  # the Spy is not arrested, no den is hit
        assert s.discards == [[], [], []]
    assert drew_sabre


def test_spanish_spy_without_officers_draws_nothing():
    s = make_state(hands=[[17, SPARE], [16], []], den_booty=[tokens(chest=1), None, None])
    bag = list(s.bag)
    play(s, 17, 16)
    assert booty_of(s, 0) == {"chest": 1}
    assert s.bag == bag


# -- Carpenter, French Officer ------------------------------------------------------------
def test_carpenter_rounds_the_loss_down():
    s = make_state(hands=[[9, SPARE], [9], [9]], doubloons=[7, 1, 0])
    play(s, 9, 9, 9)
    assert s.doubloons == [4, 1, 0]


def test_french_officer_at_eight_gains_and_at_nine_does_not():
    s = make_state(hands=[[10, SPARE], [10], [10]], doubloons=[8, 9, 10])
    play(s, 10, 10, 10)
    assert s.doubloons == [13, 9, 10]


def test_a_flow_that_never_reaches_a_decision_is_stopped_with_its_state(monkeypatch):
    import numpy as np
    import pytest

    from bidbluff.envs.core.game import EngineLoopError
    from bidbluff.envs.libertalia.rules import FLOW_STEPS, LibertaliaState, new_game

    state = new_game(3, np.random.default_rng(0))
    monkeypatch.setattr(LibertaliaState, "_sunrise", lambda self: None)  # a bug: sunrise never moves on
    state.pending = []
    stuck = f"Libertalia's automatic flow ran past {FLOW_STEPS} steps without stopping; the state: {{"
    stuck += r".*\"game\":\"libertalia\""
    with pytest.raises(EngineLoopError, match=stuck):
        state._advance(np.random.default_rng(0))
