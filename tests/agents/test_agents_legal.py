"""Every agent picks only legal actions, over many random states of every registered env and table."""

from __future__ import annotations

import numpy as np
import pytest

from bidbluff import agents, envs
from bidbluff.agents.base import observation_for
from bidbluff.agents.heuristic import HEURISTICS

MAX_STEPS = 20_000


def random_states(env_name: str, num_players: int, env_options: dict, games: int, seed: int):
    """Yield ``(env, agent, observation)`` at every decision of ``games`` random games."""
    rng = np.random.default_rng(seed)
    env = envs.make(env_name, raw=True, num_players=num_players, **env_options)
    for game in range(games):
        env.reset(seed=seed * 100 + game)
        for name in env.agent_iter(MAX_STEPS):
            obs, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            yield env, name, obs
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_random_and_heuristic_pick_legal_actions(env_name, num_players, env_options):
    players = [agents.make("random", seed=1)]
    if env_name in HEURISTICS:
        players.append(agents.make("heuristic", env_name=env_name, seed=1))
    checked = 0
    games = 3 if num_players <= 3 else 2
    for _, name, obs in random_states(env_name, num_players, env_options, games=games, seed=num_players):
        for agent in players:
            action = agent.act(obs, name)
            assert isinstance(action, int)
            assert obs["action_mask"][action] == 1, f"{agent.name} picked illegal action {action}"
        checked += 1
    assert checked > 0


@pytest.mark.parametrize("env_name", envs.ENVS)
def test_ismcts_picks_legal_actions(env_name):
    agent = agents.make("ismcts:3", env_name=env_name, seed=0)
    rng = np.random.default_rng(0)
    checked = 0
    for env, name, obs in random_states(env_name, envs.game(env_name).default_players, {}, 2, 5):
        if rng.random() < 0.15:
            agent.bind(env)
            action = agent.act(obs, name)
            assert obs["action_mask"][action] == 1
            checked += 1
    assert checked > 0


def test_heuristic_without_one_is_a_clear_error():
    missing = [name for name in envs.ENVS if name not in HEURISTICS]
    for name in missing or ["no_such_env_v0"]:
        with pytest.raises(ValueError, match="no heuristic agent") as err:
            agents.make("heuristic", env_name=name)
        for known in HEURISTICS:
            assert known in str(err.value)
    with pytest.raises(ValueError, match="env_name"):
        agents.make("heuristic")


def test_unknown_specs_are_refused():
    with pytest.raises(ValueError, match="unknown agent"):
        agents.make("genius")
    with pytest.raises(ValueError, match="ismcts"):
        agents.make("ismcts:lots")
    with pytest.raises(ValueError, match="argument"):
        agents.make("random:3")
    assert agents.make("ismcts:40ms").time_ms == 40
    assert agents.make("ismcts:7").simulations == 7


@pytest.mark.parametrize("env_name", envs.ENVS)
def test_mask_only_agents_get_the_mask_and_act_the_same(env_name):
    """``observation_for`` skips the observation for agents that say they do not read it (random), and
    such an agent picks the same actions from the mask alone as from the full observation."""
    full_pick, mask_pick = agents.make("random", seed=3), agents.make("random", seed=3)
    heuristic = agents.make("heuristic", env_name=env_name, seed=0) if env_name in HEURISTICS else None
    for env, name, obs in random_states(env_name, 3, {}, 2, seed=8):
        given = observation_for(mask_pick, env, name)
        assert given["observation"] is None
        np.testing.assert_array_equal(given["action_mask"], obs["action_mask"])
        assert mask_pick.act(given, name) == full_pick.act(obs, name)
        if heuristic is not None:
            np.testing.assert_array_equal(observation_for(heuristic, env, name)["observation"], obs["observation"])
