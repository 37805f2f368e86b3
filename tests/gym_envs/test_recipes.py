"""The field's recipes on our envs, unchanged but for the env: PettingZoo's SB3 action-masking tutorial
(examples/sb3_action_mask.py), the CleanRL-style masked PPO on ``gymnasium.make_vec`` (examples/
cleanrl_ppo_masked.py), RLlib's ``PettingZooEnv`` and Shimmy's OpenSpiel wrapper on the OpenSpiel bridge.
Training ones are slow (``make test-slow``); the optional ecosystems skip when they are not installed."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]


def example(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "examples" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_the_sb3_action_mask_tutorial_trains_on_liars_dice(tmp_path, monkeypatch):
    pytest.importorskip("sb3_contrib")
    from bidbluff.envs import liars_dice_v0

    tutorial = example("sb3_action_mask")
    monkeypatch.chdir(tmp_path)  # the tutorial saves and finds its model in the working folder
    tutorial.train_action_mask(liars_dice_v0, steps=2048, seed=0)
    _, total_rewards, winrate, _ = tutorial.eval_action_mask(liars_dice_v0, num_games=100)
    # the tutorial's own test: better than the random agent it plays
    assert winrate > 0.5 or total_rewards["player_1"] > total_rewards["player_0"]


@pytest.mark.slow
def test_the_cleanrl_script_trains_on_make_vec_and_saves_a_project_checkpoint(tmp_path):
    from bidbluff import agents

    script = example("cleanrl_ppo_masked")
    args = script.Args(
        env_id="bidbluff/LiarsDice-v0", num_players=3, total_timesteps=1024, num_envs=4, num_steps=128,
        trunk=32, net_arch=(16,), out=str(tmp_path),
    )  # fmt: skip
    path = script.main(args)
    player = agents.make(str(path), env_name="liars_dice_v0")
    assert player.act is not None


@pytest.mark.slow
def test_rllib_wraps_our_aec_env():
    pytest.importorskip("ray.rllib")
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    from bidbluff.envs import liars_dice_v0

    env = PettingZooEnv(liars_dice_v0.env(num_players=3))
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(200):
        ((agent, seen),) = obs.items()
        action = int(rng.choice(np.flatnonzero(seen["action_mask"])))
        obs, _, terminated, _, _ = env.step({agent: action})
        if terminated["__all__"]:
            obs, _ = env.reset()


def _shimmy():
    pytest.importorskip("shimmy")
    pytest.importorskip("pyspiel")
    from shimmy import OpenSpielCompatibilityV0

    from bidbluff.envs.liars_dice import openspiel as bridge

    return OpenSpielCompatibilityV0, bridge


@pytest.mark.parametrize(("players", "dice"), [(2, 1), (3, 2), (4, 1)])
def test_shimmys_openspiel_wrapper_passes_pettingzoos_api_test_on_the_bridge(players, dice):
    wrapper, bridge = _shimmy()
    from pettingzoo.test import api_test

    api_test(wrapper(env=bridge.load(num_players=players, dice=dice)), num_cycles=100)


def test_shimmys_openspiel_wrapper_at_three_seats():
    """Shimmy's reset rebuilds the game as ``pyspiel.load_game(game.get_type().short_name)``: the bridge's type
    names its setting, so the rebuilt game has 3 seats and 2 dice each, not the defaults (2 x 1)."""
    wrapper, bridge = _shimmy()
    env = wrapper(env=bridge.load(num_players=3, dice=2))
    env.reset(seed=0)
    assert env.possible_agents == ["player_0", "player_1", "player_2"]
    assert env._env.num_players() == 3 and env._env.setting.dice == 2
    assert len(env.game_state.history()) == 3  # the three cups dealt
    assert all(len(cup) == 2 for cup in env.game_state.engine.round.cups.values())
    rng = np.random.default_rng(0)
    for episode in range(20):
        env.reset(seed=episode)
        while env.agents:
            _, _, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
            else:
                env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        returns = env.game_state.returns()
        assert env.game_state.is_terminal() and len(returns) == 3 and set(returns) <= {-1, 0, 1} and any(returns)
