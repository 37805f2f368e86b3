"""Forecasts (order, revision, stakes, leverage when broke, simultaneous mode) and their payout.

Three seats unless a test says otherwise; influence is the supply in front of
a seat: a stake leaves it when made and comes back doubled when met.  The row
``EVENTS_ONLY`` (Radio Silence, Frozen Assets, Blackout) pays no mission.
"""

from __future__ import annotations

from bidbluff.envs.spytails.codec import SEAT_AT, SEAT_SIZE, encode
from bidbluff.envs.spytails.rules import FORECAST, OPERATIONS_PHASE

from .conftest import act, make_state, play

EVENTS_ONLY = [12, 13, 14]


def test_sequential_forecasts_from_the_start_player_then_one_revision_pass():
    s = make_state(phase=FORECAST, start=1, hands=["4S", "5S", "6S"])
    assert s.pending == ["bid", 1]
    assert [a for a in s.legal_actions() if a[0] == "bid"] == [("bid", b) for b in range(6)]
    act(s, ("bid", 2))
    assert s.pending == ["stake", 1]
    assert s.legal_actions() == [("stake", k) for k in range(1, 11)]
    act(s, ("stake", 3))
    assert s.influence[1] == 7 and s.stakes[1] == 3
    act(s, ("bid", 0), ("stake", 1), ("bid", 5), ("stake", 10))
    assert s.influence == [0, 7, 9]
    # One revision pass in the same order: keep, or take the stake back and forecast again.
    assert s.pending == ["revise", 1] and s.forecast_pass == 1
    assert {a[0] for a in s.legal_actions()} == {"keep_forecast", "change_forecast", "regroup"}
    act(s, ("keep_forecast",))
    assert s.pending == ["revise", 2]
    act(s, ("change_forecast",))
    assert s.influence[2] == 10 and s.bids[2] == -1 and s.pending == ["bid", 2]
    act(s, ("bid", 1), ("stake", 4), ("keep_forecast",))
    assert s.phase == OPERATIONS_PHASE and s.pending == ["play", 1], "locked; the start player leads"
    assert s.bids == [5, 2, 1] and s.stakes == [10, 3, 4] and s.influence == [0, 7, 6]


def test_the_stake_is_at_most_the_influence_held_and_ten():
    s = make_state(phase=FORECAST, hands=["4S", "5S", "6S"], influence=[4, 25, 10])
    act(s, ("bid", 1))
    assert s.legal_actions() == [("stake", k) for k in range(1, 5)]
    act(s, ("stake", 4), ("bid", 1))
    assert s.legal_actions() == [("stake", k) for k in range(1, 11)]


def test_a_broke_seat_takes_leverage_before_staking():
    s = make_state(phase=FORECAST, hands=["4S", "5S", "6S"], influence=[0, 10, 10])
    assert s.leverage == [0, 0, 0], "nothing is paid yet: no leverage at the bid"
    act(s, ("bid", 2))
    assert s.leverage == [1, 0, 0] and s.leverage_supply == 5 and s.influence[0] == 5
    assert s.legal_actions() == [("stake", k) for k in range(1, 6)]


def test_a_broke_seat_with_no_leverage_left_forecasts_without_a_stake():
    s = make_state(phase=FORECAST, hands=["4S", "5S", "6S"], influence=[0, 10, 10], leverage=[0, 3, 3])
    assert s.leverage_supply == 0
    act(s, ("bid", 2))
    assert s.stakes[0] == 0 and s.pending == ["bid", 1]


def test_simultaneous_forecasts_are_hidden_until_all_are_made():
    s = make_state(phase=FORECAST, forecast_mode="simultaneous", hands=["4S", "5S", "6S"])
    act(s, ("bid", 3), ("stake", 4))
    seat0_seen_by_1 = 2 * SEAT_SIZE  # seat 0 is two seats on from seat 1
    seen = encode(s, 1)
    assert not seen[seat0_seen_by_1 + SEAT_AT["bid"] : seat0_seen_by_1 + SEAT_AT["bid"] + 6].any()
    assert seen[seat0_seen_by_1 + SEAT_AT["influence"]] == 10 / 40, "the stake is counted back in"
    assert seen[seat0_seen_by_1 + SEAT_AT["stake"]] == 0
    assert seen[seat0_seen_by_1 + SEAT_AT["forecast_made"]] == 1
    own = encode(s, 0)
    assert own[SEAT_AT["bid"] + 3] == 1 and own[SEAT_AT["influence"]] == 6 / 40
    act(s, ("bid", 0), ("stake", 1), ("bid", 1), ("stake", 2))
    assert s.revealed and s.phase == OPERATIONS_PHASE, "no revision pass in simultaneous mode"
    assert encode(s, 1)[seat0_seen_by_1 + SEAT_AT["bid"] + 3] == 1


def test_forecasts_pay_the_stake_both_ways():
    s = make_state(
        hands=["4S", "5S", "6S"],
        operation=6,
        row=EVENTS_ONLY,
        won=[0, 2, 3],
        bids=[0, 2, 1],
        stakes=[3, 4, 5],
        influence=[7, 6, 5],
    )
    play(s, "4S", "5S", "6S")
    assert s.won == [0, 2, 4]
    # met 0: stake back and as much again; met 2: the same; missed 1 with 4: the stake is lost
    assert s.influence == [7 + 6, 6 + 8, 5]
    assert s.scores() == [13.0, 14.0, 5.0]


def test_missions_split_their_pool_and_the_remainder_is_lost():
    # Lie Low over the 2 token, Double Agent over 3, Mastermind over 4.
    s = make_state(
        n=4,
        hands=["4S", "5S", "9S", "7S"],
        operation=6,
        row=[2, 0, 3],
        won=[2, 2, 2, 0],
        bids=[5, 5, 5, 5],
        stakes=[1, 1, 1, 1],
    )
    play(s, "4S", "5S", "9S", "7S")
    assert s.won == [2, 2, 3, 0]
    # Double Agent: seats 0 and 1 share 3 -> 1 each, 1 lost; Lie Low: seat 3 alone gets 2; Mastermind: nobody.
    assert s.influence == [11, 11, 10, 12]


def test_a_pool_smaller_than_its_winners_pays_nothing():
    # Doppelganger over the 2 token: three seats with two operations each share 2 -> 0 each.
    s = make_state(
        n=4,
        hands=["4S", "5S", "9S", "7S"],
        operation=6,
        row=[1, 12, 13],
        won=[2, 2, 1, 1],
        bids=[5, 5, 5, 5],
        stakes=[1, 1, 1, 1],
    )
    play(s, "4S", "5S", "9S", "7S")
    assert s.won == [2, 2, 2, 1]
    assert s.influence == [10, 10, 10, 10]


def test_leverage_is_repaid_at_the_round_end_by_choice():
    s = make_state(
        hands=["4S", "5S", "6S"],
        operation=6,
        row=EVENTS_ONLY,
        won=[2, 2, 2],
        bids=[5, 5, 5],
        leverage=[1, 1, 2],
        influence=[9, 4, 12],
    )
    assert s.leverage_supply == 2
    play(s, "4S", "5S", "6S")
    assert s.pending == ["repay", 0]
    act(s, ("repay",))
    assert s.influence[0] == 4 and s.leverage[0] == 0 and s.leverage_supply == 3
    assert s.pending == ["repay", 2], "seat 1 has less than 5 influence: not asked"
    act(s, ("repay",))
    assert s.pending == ["repay", 2], "asked again while it still can"
    act(s, ("keep_leverage",))
    assert s.influence == [4, 4, 7] and s.leverage == [0, 1, 1] and s.leverage_supply == 4
    assert s.pending == ["reinforce", 2]


def test_each_leverage_token_still_held_costs_eight_at_the_end():
    s = make_state(
        hands=["4S", "5S", "6S"],
        operation=6,
        row=EVENTS_ONLY,
        won=[2, 2, 2],
        round=5,
        last_round=5,
        bids=[5, 5, 5],
        leverage=[1, 0, 2],
        influence=[20, 3, 4],
    )
    play(s, "4S", "5S", "6S")
    act(s, ("keep_leverage",))
    assert s.is_terminal()
    assert s.scores() == [12.0, 3.0, 4.0 - 16]
