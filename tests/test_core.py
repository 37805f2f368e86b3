"""The shared pieces: action codec, reward modes and the env base's fast paths."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bidbluff import envs
from bidbluff.envs.core.codec import ActionCodec, ActionKind, positions
from bidbluff.envs.core.rewards import final_rewards

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


# -- the env base: fast paths must answer as the slow ones do --------------------------
@pytest.mark.parametrize(
    "env_name, options",
    [
        ("liars_dice_v0", {"num_players": 2, "dice": 1}),
        ("liars_dice_v0", {"num_players": 4, "dice": 3, "specials": ("pirate king", "cursed")}),
        ("liars_dice_v0", {"num_players": 3, "dice": 2, "preset": "classic"}),
        ("liars_dice_v0", {"num_players": 2, "dice": 1, "preset": "classic"}),
        ("libertalia_v0", {"num_players": 4}),
        ("lying_pirates_v0", {"num_players": 4}),
        ("spytails_v0", {"num_players": 4}),
    ],
)
def test_legal_action_ids_match_the_engine_actions(env_name, options):
    """A game's ``legal_action_ids`` (overridden for speed or not) is the sorted ids of ``legal_actions()``,
    and its ``legal_mask`` (a cached, read-only array in Liar's dice) marks exactly them; the env hands out
    copies, so a caller who writes to one leaves the env's mask alone."""
    env = envs.make(env_name, raw=True, **options)
    game = env.game
    rng = np.random.default_rng(0)
    for episode in range(20):
        env.reset(seed=episode)
        while not env.game_state.is_terminal():
            state, seat = env.game_state, env.game_state.current_player()
            expected = sorted(game.action_to_id(state, a, seat) for a in state.legal_actions())
            assert game.legal_action_ids(state, seat) == expected
            ids, mask = game.legal_mask(state, seat)
            assert list(ids) == expected and mask.dtype == np.int8 and np.flatnonzero(mask).tolist() == expected
            env.observe(env.agent_selection)["action_mask"][:] = 1
            assert np.flatnonzero(env.action_masks()).tolist() == expected
            env.step(int(rng.choice(expected)))


def test_positions_is_an_index_array():
    assert positions([3, 1, 4]).tolist() == [3, 1, 4]
    assert positions([]).shape == (0,)


def test_env_wrapper_keeps_the_order_checks_and_plays_as_the_raw_env():
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    wrapped = envs.make("liars_dice_v0", num_players=3)
    assert isinstance(wrapped, OrderEnforcingWrapper)
    for name in ("agent_selection", "agents", "rewards", "terminations", "truncations", "infos"):
        with pytest.raises(AttributeError, match="before reset"):
            getattr(wrapped, name)
    with pytest.raises(AssertionError):
        wrapped.step(0)
    raw = envs.make("liars_dice_v0", raw=True, num_players=3)
    rng = np.random.default_rng(1)
    for env in (wrapped, raw):
        env.reset(seed=5)
    for agent in wrapped.agent_iter():
        assert agent == raw.agent_selection
        got, want = wrapped.last(), raw.last()
        assert np.array_equal(got[0]["observation"], want[0]["observation"])
        assert np.array_equal(got[0]["action_mask"], want[0]["action_mask"])
        assert got[1:] == want[1:]
        action = None if got[2] else int(rng.choice(np.flatnonzero(got[0]["action_mask"])))
        wrapped.step(action)
        raw.step(action)
    assert wrapped.agents == raw.agents == []
    assert str(wrapped) == str(raw)


def test_env_wrapper_turns_need_a_step_between_them_as_the_stock_wrapper_does():
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    for env in (envs.make("liars_dice_v0", num_players=3), OrderEnforcingWrapper(envs.make("liars_dice_v0", raw=True))):
        env.reset(seed=5)
        turns = iter(env.agent_iter())
        assert next(turns) == env.agent_selection
        with pytest.raises(AssertionError, match="need to call step"):
            next(turns)
        env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
        assert next(turns) == env.agent_selection


def test_illegal_ids_are_refused_by_the_mask_check():
    env = envs.make("liars_dice_v0", raw=True, num_players=2)
    env.reset(seed=0)
    legal = env.legal_action_ids()
    for bad in (-1, env.game.codec.n, max(set(range(env.game.codec.n)) - set(legal)), None, "1"):
        with pytest.raises(ValueError, match="cannot take action"):
            env.step(bad)
    env.step(legal[0])


def test_envs_game_is_configured_by_its_options():
    """Sizes come from the configured game: the expansion's layout is larger than the base one."""
    base = envs.game("lying_pirates_v0")
    cities = envs.game("lying_pirates_v0", expansion="cities_of_greed")
    env = envs.make("lying_pirates_v0", raw=True, num_players=3, expansion="cities_of_greed")
    assert cities.observation_size == env.observation_space("player_0")["observation"].shape[0]
    assert cities.observation_size > base.observation_size
    assert cities.codec.n == env.action_space("player_0").n
    with pytest.raises(ValueError, match="no option"):
        envs.game("liars_dice_v0", expansion="cities_of_greed")


def test_winner_reward_is_zero_sum_where_the_game_pays_survivors_nothing():
    """liars_dice_v0's own "win" payoffs give survivors 0; "winner" makes every non-winner pay."""
    env = envs.make("liars_dice_v0", raw=True, num_players=4, dice=1, reward_mode="winner")
    env.reset(seed=0)
    env.step(env.unwrapped.str_to_action("bid 1x2"))
    env.step(env.unwrapped.str_to_action("liar"))
    rewards = [env.rewards[a] for a in env.possible_agents]
    assert sorted(rewards) == pytest.approx([-1 / 3] * 3 + [1.0])
    assert final_rewards([1.0, -1.0, 0.0, 0.0], "winner") == pytest.approx([1.0, -1 / 3, -1 / 3, -1 / 3])


def test_dead_steps_are_pettingzoos():
    """The env's own ``_was_dead_step`` walks the finished agents out exactly as PettingZoo's does."""
    from pettingzoo import AECEnv

    ours, theirs = (envs.make("liars_dice_v0", raw=True, num_players=4) for _ in range(2))
    for env in (ours, theirs):
        env.reset(seed=3)
        while not env.game_state.is_terminal():
            env.step(env.legal_action_ids()[-1])
    while ours.agents:
        ours.step(None)
        AECEnv._was_dead_step(theirs, None)
        seen = [
            (e.agent_selection, list(e.agents), dict(e.rewards), dict(e._cumulative_rewards)) for e in (ours, theirs)
        ]
        assert seen[0] == seen[1]
        assert getattr(theirs, "_skip_agent_selection", None) == ours._skip_agent_selection
    assert not theirs.agents
