"""``observation="compact"``: the default observation cut to the values a table can set.  Nothing the full
vector says is lost, the spaces follow the table's dice, and the default observation is untouched."""

from __future__ import annotations

import numpy as np
import pytest

from bidbluff import envs
from bidbluff.envs.liars_dice import codec

TABLES = [
    {"dice": 1},
    {"dice": 1, "preset": "classic"},
    {"dice": 2},
    {"dice": 3, "specials": ("mermaid", "ghost")},
    {"dice": 5, "specials": ("pirate king", "mermaid", "cursed", "ghost")},
]


def positions(options: dict, players: int, games: int = 30, seed: int = 0):
    """Every seat's full and compact observation along random games."""
    full = envs.make("liars_dice_v0", raw=True, num_players=players, **options)
    compact = envs.make("liars_dice_v0", raw=True, num_players=players, observation="compact", **options)
    rng = np.random.default_rng(seed)
    for game in range(games):
        full.reset(seed=seed + game)
        compact.reset(seed=seed + game)
        while not full.game_state.is_terminal():
            for agent in full.possible_agents:
                yield full.observe(agent)["observation"], compact.observe(agent)["observation"]
            legal = np.flatnonzero(full.action_masks())
            action = int(rng.choice(legal))
            full.step(action)
            compact.step(action)


@pytest.mark.parametrize("options", TABLES, ids=str)
@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_compact_vector_is_the_full_one_cut_losing_nothing(options, players):
    columns = codec.compact_columns(options["dice"], bool(options.get("specials")))
    outside = np.ones(codec.OBSERVATION_SIZE, dtype=bool)
    outside[columns] = False
    seen = 0
    for full, compact in positions(options, players, games=20):
        assert np.array_equal(compact, full[columns])
        assert np.array_equal(codec.full(compact), full) and codec.full(full) is full
        assert not full[outside].any(), "the full observation set a value the compact one drops"
        seen += 1
    assert seen > 50


def test_the_spaces_follow_the_table():
    assert envs.game("liars_dice_v0", dice=1, observation="compact").observation_size == 248
    assert envs.game("liars_dice_v0", dice=1, preset="classic", observation="compact").observation_size == 248
    assert envs.game("liars_dice_v0", dice=2, observation="compact").observation_size == 464
    env = envs.make("liars_dice_v0", num_players=2, dice=1, observation="compact")
    assert env.observation_space("player_0")["observation"].shape == (248,)
    assert envs.game("liars_dice_v0").observation_size == envs.game("liars_dice_v0", dice=1).observation_size == 1308


def test_each_compact_table_has_a_size_of_its_own():
    sizes = [len(codec.compact_columns(d, s)) for d in range(1, 6) for s in (False, True)]
    assert len(set(sizes)) == len(sizes)
    assert sizes[-1] == codec.OBSERVATION_SIZE, "five dice with special dice: nothing to cut"
    with pytest.raises(ValueError, match="neither"):
        codec.full(np.zeros(7, dtype=np.float32))


def test_the_compact_table_is_fixed_when_made():
    env = envs.make("liars_dice_v0", num_players=2, dice=1, observation="compact")
    env.reset(seed=0, options={"preset": "classic"})  # the rules may change; the dice may not
    with pytest.raises(ValueError, match="cannot change them"):
        env.reset(seed=0, options={"dice": 2})
    with pytest.raises(ValueError, match="chosen when the env is made"):
        env.reset(seed=0, options={"observation": "full"})
    with pytest.raises(ValueError, match="observation must be one of full, compact"):
        envs.make("liars_dice_v0", observation="tiny")


def test_a_compact_game_narrows_a_full_observation_of_its_table_and_refuses_a_larger_one():
    game = envs.game("liars_dice_v0", dice=1, observation="compact")
    columns = codec.compact_columns(1)
    for full, compact in positions({"dice": 1}, 2, games=5):
        assert np.array_equal(game.narrow(full), compact) and game.narrow(compact) is compact
    larger = full.copy()
    larger[np.setdiff1d(np.arange(len(full)), columns)[-1]] = 1.0  # a bet no table of 1 die can make
    with pytest.raises(ValueError, match="cannot read this table"):
        game.narrow(larger)
    with pytest.raises(ValueError, match="not liars_dice_v0's"):
        game.narrow(np.zeros(17, dtype=np.float32))
    plain = envs.game("liars_dice_v0", dice=1)
    assert plain.narrow(larger) is larger


def test_a_policy_trained_on_the_compact_observation_plays_the_default_one_alike(tmp_path):
    torch = pytest.importorskip("torch")
    from bidbluff.agents.networks import ActorCritic
    from bidbluff.agents.policy import PolicyAgent, env_signature

    options = {"dice": 1, "observation": "compact"}
    game = envs.game("liars_dice_v0", **options)
    torch.manual_seed(0)
    net = ActorCritic(game.observation_size, game.codec.n, 16, [8])
    with torch.no_grad():
        net.action_head.weight.mul_(300.0)  # far from uniform, so that a wrong input shows
    meta = {**env_signature("liars_dice_v0", options), "env_options": options}
    agent = PolicyAgent(net, meta, deterministic=False, seed=0)
    full_env = envs.make("liars_dice_v0", num_players=2, dice=1)
    compact_env = envs.make("liars_dice_v0", num_players=2, **options)
    full_env.reset(seed=4)
    compact_env.reset(seed=4)
    one, other = full_env.observe("player_0"), compact_env.observe("player_0")
    assert len(one["observation"]) == 1308 and len(other["observation"]) == 248
    assert np.allclose(agent.probabilities(one), agent.probabilities(other))
