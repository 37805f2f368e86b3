"""The shared pieces: action codec and reward modes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from envs.core.codec import ActionCodec, ActionKind
from envs.core.rewards import final_rewards

CODEC = ActionCodec([ActionKind("pass"), ActionKind("bet", (5, 6)), ActionKind("card", (30,))])


def test_codec_lays_kinds_out_in_order():
    assert CODEC.n == 1 + 30 + 30
    assert CODEC.encode(("pass",)) == 0
    assert CODEC.encode(("bet", 0, 0)) == 1
    assert CODEC.encode(("bet", 1, 0)) == 7
    assert CODEC.encode(("card", 0)) == 31
    assert CODEC.decode(60) == ("card", 29)
    assert "bet" in CODEC.describe()


@given(st.integers(0, CODEC.n - 1))
def test_codec_round_trips(action_id):
    assert CODEC.encode(CODEC.decode(action_id)) == action_id


def test_codec_refuses_what_it_does_not_know():
    with pytest.raises(ValueError, match="outside"):
        CODEC.decode(CODEC.n)
    with pytest.raises(ValueError, match="not an action"):
        CODEC.encode(("bet", 5, 0))
    with pytest.raises(ValueError, match="duplicate"):
        ActionCodec([ActionKind("a"), ActionKind("a")])


def test_mask_marks_exactly_the_given_ids():
    mask = CODEC.mask([0, 7, 60])
    assert mask.dtype.name == "int8"
    assert list(mask.nonzero()[0]) == [0, 7, 60]


scores = st.lists(st.integers(-20, 200), min_size=2, max_size=6)


@given(scores, st.sampled_from(["win", "rank", "score"]))
def test_every_reward_mode_is_zero_sum(values, mode):
    assert sum(final_rewards(values, mode, 50.0)) == pytest.approx(0.0, abs=1e-9)


@given(scores, st.sampled_from(["win", "rank", "score"]))
def test_more_score_never_means_less_reward(values, mode):
    rewards = final_rewards(values, mode, 50.0)
    for a in range(len(values)):
        for b in range(len(values)):
            if values[a] > values[b]:
                assert rewards[a] >= rewards[b]
            if values[a] == values[b]:
                assert rewards[a] == pytest.approx(rewards[b])


def test_win_mode_values():
    assert final_rewards([10, 5, 3, 1], "win") == pytest.approx([1, -1 / 3, -1 / 3, -1 / 3])
    # two tied winners share what the two losers lose
    assert final_rewards([10, 10, 3, 1], "win") == pytest.approx([1 / 3, 1 / 3, -1 / 3, -1 / 3])
    assert final_rewards([4, 4], "win") == [0.0, 0.0]


def test_rank_and_score_mode_values():
    assert final_rewards([30, 20, 10], "rank") == pytest.approx([1, 0, -1])
    assert final_rewards([30, 30, 10], "rank") == pytest.approx([0.5, 0.5, -1])
    assert final_rewards([60, 20, 10], "score", 10.0) == pytest.approx([4.5, -1.5, -3.0])
    with pytest.raises(ValueError, match="reward_mode"):
        final_rewards([1, 2], "money")
