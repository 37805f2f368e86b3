"""Checkpoints: save/load round trip, and clear errors for anything that would give a wrong policy."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

import agents
import envs
from agents.policy import CheckpointError, PolicyAgent, checkpoint_paths, read_sidecar, write_sidecar
from training.train import TrainConfig, checkpoint_meta, make_vec_env, new_model

ENV = "liars_dice_v0"


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """A small untrained-but-stepped MaskablePPO saved as a checkpoint; the live model beside it."""
    config = TrainConfig(env=ENV, num_envs=1, n_steps=64, batch_size=32, n_epochs=1, net_arch=[16],
                         total_steps=64, eval_games=0)  # fmt: skip
    vec_env = make_vec_env(config)
    model = new_model(config, vec_env, None)
    model.learn(64)  # the optimizer gets a state worth checking
    path = tmp_path_factory.mktemp("ckpt") / "tiny.zip"
    model.save(path)
    write_sidecar(path, checkpoint_meta(config, model.num_timesteps, [], 2))
    return path, model


def observations(n: int, seed: int = 0):
    env = envs.make(ENV, raw=True, num_players=3, dice=3)
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        env.reset(seed=int(rng.integers(1 << 30)))
        while not env.game_state.is_terminal():
            out.append(env.observe(env.agent_selection))
            env.step(int(rng.choice(env.legal_action_ids())))
    return out


def test_round_trip_gives_identical_actions(saved):
    path, model = saved
    live = PolicyAgent(model, {"env": ENV})
    for spec in (str(path), str(path.with_suffix(".json")), str(path.with_suffix(""))):
        loaded = agents.make(spec, env_name=ENV)
        for obs in observations(40):
            assert loaded.act(obs, "player_0") == live.act(obs, "player_0")
            assert np.allclose(loaded.probabilities(obs), live.probabilities(obs))
    sampled = agents.make(f"{path}:sample", seed=3)
    again = agents.make(f"{path}:sample", seed=3)
    for obs in observations(40, seed=1):
        action = sampled.act(obs, "player_0")
        assert obs["action_mask"][action] == 1
        assert action == again.act(obs, "player_0"), "a seeded sampled policy is reproducible"


def test_optimizer_state_and_steps_survive(saved):
    from sb3_contrib import MaskablePPO

    path, model = saved
    loaded = MaskablePPO.load(path, device="cpu")
    assert loaded.num_timesteps == model.num_timesteps == read_sidecar(path)["steps"]
    before, after = model.policy.optimizer.state_dict(), loaded.policy.optimizer.state_dict()
    assert before["state"].keys() == after["state"].keys() and before["state"]
    for key, state in before["state"].items():
        assert np.allclose(state["exp_avg"].numpy(), after["state"][key]["exp_avg"].numpy())


def copy_checkpoint(path, tmp_path):
    zip_path, sidecar = checkpoint_paths(path)
    shutil.copy(zip_path, tmp_path / "c.zip")
    shutil.copy(sidecar, tmp_path / "c.json")
    return tmp_path / "c.zip", tmp_path / "c.json"


def edit(sidecar, **changes):
    meta = json.loads(sidecar.read_text())
    meta.update(changes)
    sidecar.write_text(json.dumps(meta))


def test_wrong_env_is_refused(saved, tmp_path):
    path, _ = saved
    with pytest.raises(CheckpointError, match="trained on liars_dice_v0, not libertalia_v0"):
        agents.make(str(path), env_name="libertalia_v0")
    zip_path, sidecar = copy_checkpoint(path, tmp_path)
    edit(sidecar, env="no_such_game_v0")
    with pytest.raises(CheckpointError, match="not a registered env"):
        agents.load(zip_path)


@pytest.mark.parametrize(("key", "value"), [("observation_shape", [99]), ("action_n", 7), ("layout", "0" * 16),
                                            ("env_version", 3)])  # fmt: skip
def test_changed_spaces_are_refused(saved, tmp_path, key, value):
    zip_path, sidecar = copy_checkpoint(saved[0], tmp_path)
    edit(sidecar, **{key: value})
    with pytest.raises(CheckpointError, match=key):
        agents.load(zip_path)


def test_truncated_or_corrupt_files_are_refused(saved, tmp_path):
    zip_path, sidecar = copy_checkpoint(saved[0], tmp_path)
    data = zip_path.read_bytes()
    zip_path.write_bytes(data[: len(data) // 2])
    with pytest.raises(CheckpointError, match="corrupt, truncated"):
        agents.load(zip_path)
    # a zip that is garbage but matches a (forged) sidecar: stable-baselines3's error becomes ours
    zip_path.write_bytes(b"not a zip at all")
    write_sidecar(zip_path, {k: v for k, v in json.loads(sidecar.read_text()).items()
                             if k not in ("zip_bytes", "zip_sha256", "format", "format_version")})  # fmt: skip
    with pytest.raises(CheckpointError, match="cannot load"):
        agents.load(zip_path)
    zip_path, sidecar = copy_checkpoint(saved[0], tmp_path)
    sidecar.write_text(sidecar.read_text()[:40])
    with pytest.raises(CheckpointError, match="not valid JSON"):
        agents.load(zip_path)
    sidecar.unlink()
    with pytest.raises(CheckpointError, match="does not exist"):
        agents.load(zip_path)
    with pytest.raises(CheckpointError, match="does not exist"):
        agents.load(tmp_path / "nothing.zip")
