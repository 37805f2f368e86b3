"""Three campaigns of six days: deals, money, booty layout, the end and the winner."""

from __future__ import annotations

import numpy as np
import pytest

from bidbluff.envs import libertalia_v0
from bidbluff.envs.libertalia.codec import action_to_id
from bidbluff.envs.libertalia.content import BAG, DAYS, DEAL_SIZES, NUM_RANKS, START_DOUBLOONS
from bidbluff.envs.libertalia.rules import OVER, new_game

from .conftest import make_state, rng


def check_campaign_start(state, n, campaign):
    assert state.campaign == campaign and state.day == 0
    assert state.doubloons == [START_DOUBLOONS] * n
    assert state.dens == [[] for _ in range(n)]
    assert state.discards == [[] for _ in range(n)]
    assert state.den_booty == [[0] * len(BAG) for _ in range(n)]
    assert len(state.booty_days) == DAYS and all(sum(row) == n for row in state.booty_days)
    laid_out = [sum(row[t] for row in state.booty_days) for t in range(len(BAG))]
    assert [b + lay for b, lay in zip(state.bag, laid_out, strict=True)] == list(BAG)
    assert len(state.undealt) == NUM_RANKS - sum(DEAL_SIZES[: campaign + 1])
    assert state.pending == ["play", 0]


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_new_game_deals_nine_shared_ranks(n):
    s = new_game(n, rng(n))
    check_campaign_start(s, n, 0)
    assert all(len(h) == 9 and h == s.hands[0] for h in s.hands)
    assert not set(s.hands[0]) & set(s.undealt)
    assert sorted(s.hands[0] + s.undealt) == list(range(1, NUM_RANKS + 1))
    assert s.score == [0] * n and s.campaign_totals == []


@pytest.mark.parametrize("n", [2, 3, 4, 6])
def test_random_game_runs_three_campaigns_of_six_days(n):
    g = np.random.default_rng(100 + n)
    s = new_game(n, g)
    ever_dealt = set(s.hands[0])
    days = 0
    last_day = (0, 0)
    while s.pending:
        before_hands = [list(h) for h in s.hands]
        before_chosen = list(s.chosen)
        actor = s.pending[1]
        before_undealt = list(s.undealt)
        before_campaign = s.campaign
        legal = s.legal_actions()
        action = legal[int(g.integers(len(legal)))]
        s.apply(action, g)
        if (s.campaign, s.day) != last_day:
            days += 1
            last_day = (s.campaign, s.day)
        if s.pending and s.campaign != before_campaign:
            check_campaign_start(s, n, s.campaign)
            deal = set(before_undealt) - set(s.undealt)
            assert len(deal) == DEAL_SIZES[s.campaign] == 6
            assert not deal & ever_dealt  # only ranks never dealt before
            ever_dealt |= deal
            for seat in range(n):
                assert deal <= set(s.hands[seat])
                # Unplayed cards stay in hand: the hand before this last action,
                # less the cards it put on the ship, plus a card it took back.
                mine = seat == actor
                returned = {action[1]} if mine and action[0] in ("recruit", "surgeon") else set()
                played = {before_chosen[seat]} | ({action[1]} if mine and action[0] in ("play", "parrot") else set())
                leftover = set(s.hands[seat]) - deal
                assert leftover == (set(before_hands[seat]) - played) | returned
            assert len(s.campaign_totals) == s.campaign
    assert s.phase == OVER and s.legal_actions() == [] and s.is_terminal()
    assert days == 3 * DAYS
    assert len(s.campaign_totals) == 3
    assert all(t >= 0 for totals in s.campaign_totals for t in totals)
    assert s.score == [sum(t[seat] for t in s.campaign_totals) for seat in range(n)]
    assert len(ever_dealt) == sum(DEAL_SIZES) and len(s.undealt) == NUM_RANKS - sum(DEAL_SIZES)


def test_without_recruiter_or_surgeon_hands_are_three_plus_six():
    # No Recruiter, Surgeon or Parrot: six days of play leave 3 cards, then 6 are dealt.
    hand = [5, 7, 8, 12, 16, 18, 20, 23, 27]
    s = make_state(hands=[hand, hand, hand])
    g = rng(5)
    for day in range(DAYS):
        for _seat in range(3):
            s.apply(("play", hand[day]), g)
        while s.pending and s.pending[0] != "play":
            s.apply(s.legal_actions()[0], g)
    assert s.campaign == 1
    assert [len(h) for h in s.hands] == [9, 9, 9]
    assert all(set(hand[6:]) <= set(h) for h in s.hands)


def final_day_state(score):
    """Campaign 3, day 6: each seat holds only a Cabin Boy and 10 doubloons."""
    return make_state(
        campaign=2,
        day=5,
        hands=[[5], [5], [5]],
        score=score,
        campaign_totals=[[s // 2 for s in score], [s - s // 2 for s in score]],
        undealt=[1, 2, 3, 4, 6, 9, 11, 13, 17],
    )


def test_the_game_ends_after_the_third_campaign():
    s = final_day_state([50, 50, 40])
    g = rng(0)
    for _ in range(3):
        s.apply(("play", 5), g)
    assert s.phase == OVER and s.pending == [] and s.legal_actions() == []
    assert s.campaign == 2
    assert s.campaign_totals[-1] == [10, 10, 10]
    assert s.score == [60, 60, 50]
    assert s.scores() == [60.0, 60.0, 50.0]
    assert len(s.undealt) == 9  # no fourth deal


@pytest.mark.parametrize(
    ("score", "rewards"),
    [
        ([50, 50, 40], [0.25, 0.25, -0.5]),  # tied winners share
        ([50, 40, 40], [1.0, -0.5, -0.5]),
        ([40, 40, 40], [0.0, 0.0, 0.0]),
    ],
)
def test_env_rewards_the_highest_score_track(score, rewards):
    env = libertalia_v0.raw_env(num_players=3)
    env.reset(seed=0, options={"state": final_day_state(score).to_dict()})
    for seat in range(3):
        assert env.agent_selection == f"player_{seat}"
        env.step(action_to_id(("play", 5), seat, 3))
    assert all(env.terminations.values())
    assert [env.rewards[f"player_{i}"] for i in range(3)] == pytest.approx(rewards)
    assert env.infos["player_0"]["scores"] == [s + 10 for s in score]
