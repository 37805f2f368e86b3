"""Gymnasium's own checker on every registered id, at several table sizes and options, both observation
types, with Gymnasium's warnings taken as failures."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from bidbluff import envs
from bidbluff.gym import IDS, NAMESPACE

ID_OF = {env_name: f"{NAMESPACE}/{name}" for name, env_name in IDS.items()}


def tables() -> list[tuple[str, dict]]:
    """Each env at its fewest and most seats, and every quick configuration its game lists for tests."""
    out = []
    for env_name in envs.ENVS:
        game = envs.game(env_name)
        out += [(env_name, {"num_players": game.min_players}), (env_name, {"num_players": game.max_players})]
        for config in game.test_configs:
            if not config.get("slow", False):
                out.append((env_name, {k: v for k, v in config.items() if k != "slow"}))
    return out


def checked(env_id: str, **kwargs) -> gymnasium.Env:
    env = gymnasium.make(env_id, **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)
    return env


@pytest.mark.parametrize(("env_name", "options"), tables(), ids=lambda v: str(v))
def test_check_env_passes(env_name, options, capsys):
    env = checked(ID_OF[env_name], **options)
    assert isinstance(env.observation_space, gymnasium.spaces.Box)
    env.close()


@pytest.mark.parametrize("env_name", envs.ENVS)
def test_check_env_passes_with_dict_observations_heuristic_opponents_and_ansi(env_name, capsys):
    env = checked(ID_OF[env_name], obs_type="dict", opponents="heuristic", render_mode="ansi", seat="rotate")
    obs, info = env.reset(seed=1)
    assert set(obs) == {"observation", "action_mask"}
    assert np.array_equal(obs["action_mask"], info["action_mask"])
    assert np.array_equal(obs["action_mask"].astype(bool), env.unwrapped.action_masks())
    text = env.render()
    assert isinstance(text, str) and text.strip()
    env.close()


@pytest.mark.parametrize("reward_mode", ["win", "rank", "score"])
def test_rewards_are_the_envs_reward_mode(reward_mode):
    env = gymnasium.make("bidbluff/LiarsDice-v0", num_players=3, reward_mode=reward_mode)
    aec = env.unwrapped.aec
    rng = np.random.default_rng(0)
    for episode in range(10):
        _, info = env.reset(seed=episode)
        total, done = 0.0, False
        while not done:
            _, reward, done, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            total += reward
            assert not truncated
        final = aec.game.final_rewards(aec.game_state, reward_mode)
        assert total == pytest.approx(final[info["learner_seat"]])
        assert info["won"] == float(info["scores"][info["learner_seat"]] == max(info["scores"]))
