"""Sabres, Spanish officers, booty scoring, the zero floor and ship order."""

from __future__ import annotations

import pytest

from bidbluff.envs.libertalia.content import COLOURS, NUM_RANKS, Rank, tie_break
from bidbluff.envs.libertalia.rules import booty_total

from .conftest import CHEST, GOODS, OFFICER, SABRE, act, booty_of, make_state, play, tokens

SPARE = Rank.SPANISH_GOVERNOR


# -- Sabre --------------------------------------------------------------------------------
def test_sabre_targets_both_neighbours_but_not_the_far_seat():
    s = make_state(
        n=4,
        hands=[[16, SPARE], [], [], []],
        dens=[[5], [7], [18], [20]],
        booty_days={0: tokens(sabre=1)},
    )
    play(s, 16)
    act(s, ("booty", SABRE))
    assert s.pending == ["sabre", 0]
    assert s.legal_actions() == [("sabre", 1, 7), ("sabre", 3, 20)]
    act(s, ("sabre", 3, 20))
    assert s.discards == [[], [], [], [20]]
    assert s.dens == [[5, 16], [7], [18], []]
    assert booty_of(s, 0) == {"sabre": 1}


def test_sabre_with_two_players_hits_the_one_opponent():
    s = make_state(n=2, hands=[[16, SPARE], []], dens=[[5], [7, 20]], booty_days={0: tokens(sabre=1)})
    play(s, 16)
    act(s, ("booty", SABRE))
    assert s.legal_actions() == [("sabre", 1, 7), ("sabre", 1, 20)]
    act(s, ("sabre", 1, 7))
    assert s.dens == [[5, 16], [20]]
    assert s.discards == [[], [7]]


def test_sabre_without_a_target_opens_no_decision():
    # Only the far seat and the taker's own den hold characters.
    s = make_state(n=4, hands=[[16, SPARE], [], [], []], dens=[[5], [], [18], []], booty_days={0: tokens(sabre=1)})
    play(s, 16)
    act(s, ("booty", SABRE))
    assert s.pending == ["play", 0] and s.day == 1
    assert s.dens == [[5, 16], [], [18], []]
    assert booty_of(s, 0) == {"sabre": 1}


def test_sabre_can_hit_a_card_that_arrived_this_dusk():
    s = make_state(hands=[[16, SPARE], [20], []], booty_days={0: tokens(chest=1, sabre=1)})
    play(s, 16, 20)
    act(s, ("booty", CHEST))
    assert s.dens[1] == [20]  # in the den at once, before the next claim
    act(s, ("booty", SABRE))
    assert s.legal_actions() == [("sabre", 1, 20)]
    act(s, ("sabre", 1, 20))
    assert s.dens == [[16], [], []]
    assert s.discards[1] == [20]
    assert booty_of(s, 1) == {"chest": 1}  # the booty stays


# -- Spanish officer ------------------------------------------------------------------------
def test_spanish_officer_discards_the_character_and_the_token_stays():
    s = make_state(hands=[[16, SPARE], [5], []], booty_days={0: tokens(officer=1, chest=1)})
    play(s, 16, 5)
    act(s, ("booty", OFFICER))
    assert s.pending == ["play", 0]  # the Cabin Boy claims nothing
    assert s.discards[0] == [16]
    assert s.dens == [[], [5], []]
    assert booty_of(s, 0) == {"officer": 1}
    assert s.booty_days[0] == tokens(chest=1)


# -- Scoring ------------------------------------------------------------------------------
@pytest.mark.parametrize(("maps", "value"), [(0, 0), (1, 0), (2, 0), (3, 12), (4, 12), (5, 12), (6, 24), (7, 24)])
def test_treasure_map_sets(maps, value):
    assert booty_total(tokens(map=maps)) == value


def test_booty_values():
    assert booty_total(tokens(chest=1)) == 5
    assert booty_total(tokens(jewels=1)) == 3
    assert booty_total(tokens(goods=1)) == 1
    assert booty_total(tokens(relic=1)) == -3
    assert booty_total(tokens(sabre=2, officer=2)) == 0
    assert booty_total(tokens(chest=1, jewels=1, goods=2, map=4, relic=2, sabre=1)) == 5 + 3 + 2 + 12 - 6


def test_map_sets_in_the_campaign_score():
    s = make_state(
        n=2,
        day=5,
        hands=[[5], []],
        den_booty=[tokens(map=2), tokens(map=6)],  # all eight maps
    )
    play(s, 5)
    assert s.campaign_totals[0] == [10, 34]
    assert s.score == [10, 34]


def test_cursed_relics_and_the_captains_extra_penalty():
    s = make_state(
        day=5,
        hands=[[5], [], []],
        dens=[[], [29], []],
        den_booty=[tokens(relic=3), tokens(relic=2), None],
        doubloons=[10, 20, 10],
    )
    play(s, 5)
    # Seat 0: 10 - 9 = 1.  Seat 1: 20 - 6 (relics) - 6 (Captain) = 8.
    assert s.campaign_totals[0] == [1, 8, 10]


def test_a_negative_campaign_total_scores_zero():
    s = make_state(
        campaign=1,
        day=5,
        hands=[[5, SPARE], [SPARE], [SPARE]],
        den_booty=[tokens(relic=5), None, None],
        doubloons=[3, 10, 10],
        score=[20, 20, 20],
        campaign_totals=[[20, 20, 20]],
    )
    play(s, 5, SPARE, SPARE)
    assert s.campaign_totals == [[20, 20, 20], [0, 10, 10]]
    assert s.score == [20, 30, 30]


# -- Ship order ------------------------------------------------------------------------------
# Rulings §7, copied row by row: rank -> numbers for Yellow, Red, Blue, Green, Black, Grey.
TIE_TABLE = {
    1: (1, 2, 3, 4, 5, 6), 2: (2, 3, 4, 5, 6, 1), 3: (3, 4, 5, 6, 1, 2), 4: (4, 5, 6, 1, 2, 3),
    5: (5, 6, 1, 2, 3, 4), 6: (6, 1, 2, 3, 4, 5), 7: (6, 1, 2, 3, 4, 5), 8: (1, 2, 3, 4, 5, 6),
    9: (2, 3, 4, 5, 6, 1), 10: (3, 4, 5, 6, 1, 2), 11: (4, 5, 6, 1, 2, 3), 12: (5, 6, 1, 2, 3, 4),
    13: (5, 6, 1, 2, 3, 4), 14: (6, 1, 2, 3, 4, 5), 15: (1, 2, 3, 4, 5, 6), 16: (2, 3, 4, 5, 6, 1),
    17: (3, 4, 5, 6, 1, 2), 18: (4, 5, 6, 1, 2, 3), 19: (4, 5, 6, 1, 2, 3), 20: (5, 6, 1, 2, 3, 4),
    21: (6, 1, 2, 3, 4, 5), 22: (1, 2, 3, 4, 5, 6), 23: (2, 3, 4, 5, 6, 1), 24: (3, 4, 5, 6, 1, 2),
    25: (3, 4, 5, 6, 1, 2), 26: (4, 5, 6, 1, 2, 3), 27: (5, 6, 1, 2, 3, 4), 28: (6, 1, 2, 3, 4, 5),
    29: (1, 2, 3, 4, 5, 6), 30: (2, 3, 4, 5, 6, 1),
}  # fmt: skip


def test_tie_break_table_matches_the_rulings():
    assert len(COLOURS) == 6 and COLOURS[0] == "Yellow" and COLOURS[5] == "Grey"
    for rank in range(1, NUM_RANKS + 1):
        assert tuple(tie_break(c, rank) for c in range(6)) == TIE_TABLE[rank], rank
    # The two rows where one public transcription differs (§7): Cabin Boy and Barkeep.
    assert [tie_break(c, Rank.CABIN_BOY) for c in range(6)] == [5, 6, 1, 2, 3, 4]
    assert [tie_break(c, Rank.BARKEEP) for c in range(6)] == [6, 1, 2, 3, 4, 5]


def test_equal_ranks_sit_by_tie_break_and_claim_right_to_left():
    # Barkeep: Yellow 6, Red 1, Blue 2, Green 3, Black 4, Grey 5.
    s = make_state(n=6, hands=[[7, SPARE]] + [[7]] * 5, booty_days={0: tokens(goods=6)})
    play(s, 7, 7, 7, 7, 7, 7)
    assert s.ship == [[1, 7], [2, 7], [3, 7], [4, 7], [5, 7], [0, 7]]
    order = []
    while s.pending[0] == "booty":
        order.append(s.pending[1])
        act(s, ("booty", GOODS))
    assert order == [0, 5, 4, 3, 2, 1]


def test_cabin_boys_sit_by_tie_break_on_the_ship():
    # Cabin Boy: Yellow 5, Red 6, Blue 1, Green 2, Black 3; Grey's Gunner stops the day.
    s = make_state(n=6, hands=[[5, SPARE], [5], [5], [5], [5], [15]], dens=[[], [], [], [], [], [16]])
    play(s, 5, 5, 5, 5, 5, 15)
    assert s.pending == ["gunner", 5]
    assert s.ship == [[2, 5], [3, 5], [4, 5], [0, 5], [1, 5], [5, 15]]


def test_rank_beats_tie_break():
    # Yellow's Barkeep (7, tie 6) still sits left of Red's Waitress (8, tie 2).
    s = make_state(hands=[[7, SPARE], [8], []], booty_days={0: tokens(goods=2)})
    play(s, 7, 8)
    assert s.ship == [[0, 7], [1, 8]]
    assert s.pending == ["booty", 1]
