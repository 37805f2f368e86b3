"""Checkpoints in both formats (stable-baselines3's, ``bidbluff train``'s; ``ActorCritic``'s): save/load round
trip, conversion, and clear errors for anything that would give a wrong policy."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from bidbluff import agents, envs
from bidbluff.agents.policy import CheckpointError, PolicyAgent, checkpoint_paths, read_sidecar, write_sidecar
from bidbluff.training.train import LiveActor, TrainConfig, checkpoint_meta, make_vec_env, new_model

ENV = "liars_dice_v0"


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """A small untrained-but-stepped MaskablePPO saved as a checkpoint; the live model beside it."""
    config = TrainConfig(
        env=ENV, num_envs=1, n_steps=64, batch_size=32, n_epochs=1, net_arch=[16], total_steps=64, eval_games=0
    )
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
    live = PolicyAgent(LiveActor(model.policy), {"env": ENV})
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


@pytest.mark.parametrize(
    ("key", "value"), [("observation_shape", [99]), ("action_n", 7), ("layout", "0" * 16), ("env_version", 3)]
)
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
    write_sidecar(
        zip_path,
        {
            k: v
            for k, v in json.loads(sidecar.read_text()).items()
            if k not in ("zip_bytes", "zip_sha256", "format", "format_version")
        },
    )
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


# -- the ActorCritic format and the converter ---------------------------------------------------------------
def test_an_sb3_checkpoint_converts_and_plays_the_same(saved, tmp_path):
    from bidbluff.training.convert import main as convert

    path, _ = saved
    new = tmp_path / "new.zip"
    assert convert([str(path), str(new)]) == 0
    meta = read_sidecar(new, ENV)
    assert meta["network"] == {
        "class": "ActorCritic",
        "obs_size": meta["observation_shape"][0],
        "n_actions": meta["action_n"],
        "trunk": 0,
        "net_arch": [16],
    }
    assert meta["converted_from"]["zip_sha256"] == read_sidecar(path)["zip_sha256"]
    old, converted = agents.make(str(path)), agents.make(str(new))
    for obs in observations(60, seed=2):
        assert converted.act(obs, "player_0") == old.act(obs, "player_0")
        assert np.allclose(converted.probabilities(obs), old.probabilities(obs), atol=1e-7)


def test_the_old_batched_format_converts_with_its_adam_state(old_checkpoint, tmp_path):
    import torch

    from bidbluff.agents.policy import load_network
    from bidbluff.training.convert import convert

    path, model = old_checkpoint
    new = convert(path, tmp_path / "new.zip")
    net, meta, optimizer = load_network(new, ENV)
    assert meta["network"]["trunk"] == 32 and meta["trainer"] == "batched" and "league" in meta
    ours = torch.optim.Adam(net.parameters())
    ours.load_state_dict(optimizer)  # Adam's state maps one to one: the layers are in stable-baselines3's order
    theirs = model.policy.optimizer.state_dict()["state"]
    assert all(torch.equal(ours.state_dict()["state"][i]["exp_avg"], theirs[i]["exp_avg"]) for i in theirs)
    obs = torch.rand(16, net.sizes["obs_size"])
    with torch.no_grad():
        assert torch.allclose(net.value(obs), model.policy.predict_values(obs).squeeze(-1), atol=1e-6)


def test_a_bad_new_format_file_is_refused(tmp_path):
    from bidbluff.training.convert import main as convert

    source = agents.shipped_path(ENV)
    zip_path, sidecar = copy_checkpoint(source, tmp_path)
    zip_path.write_bytes(b"not a torch file")
    write_sidecar(
        zip_path,
        {
            k: v
            for k, v in json.loads(sidecar.read_text()).items()
            if k not in ("zip_bytes", "zip_sha256", "format", "format_version")
        },
    )
    with pytest.raises(CheckpointError, match="holds no network of the sidecar's shape"):
        agents.load(zip_path)
    with pytest.raises(SystemExit):
        convert([str(zip_path), str(tmp_path / "x.zip")])
    assert not (tmp_path / "x.zip").exists()


def test_an_sb3_save_that_is_no_actor_critic_names_the_converter(saved, tmp_path):
    zip_path, sidecar = copy_checkpoint(saved[0], tmp_path)
    zip_path.write_bytes(b"PK garbage")
    write_sidecar(
        zip_path,
        {
            k: v
            for k, v in json.loads(sidecar.read_text()).items()
            if k not in ("zip_bytes", "zip_sha256", "format", "format_version")
        },
    )
    with pytest.raises(CheckpointError, match=r"MaskablePPO save .*python -m bidbluff.training.convert"):
        agents.load(zip_path)


def test_a_save_from_before_the_namespace_resumes(tmp_path, monkeypatch):
    """A MaskablePPO zip pickles its features extractor by module path; one saved when the package was the
    top-level ``agents`` (``agents.networks.SharedTrunk``) is read under ``bidbluff`` for ``--resume``."""
    import base64
    import sys
    import types
    import zipfile

    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from bidbluff.agents import networks
    from bidbluff.agents.networks import SharedTrunk, sb3_custom_objects
    from bidbluff.training.gym_env import SingleAgentView

    old = types.ModuleType("agents.networks")
    old.SharedTrunk = SharedTrunk
    with monkeypatch.context() as before_the_move:
        before_the_move.setattr(SharedTrunk, "__module__", "agents.networks")
        before_the_move.setitem(sys.modules, "agents", types.ModuleType("agents"))
        before_the_move.setitem(sys.modules, "agents.networks", old)
        view = DummyVecEnv([lambda: SingleAgentView(ENV, ["random"], 2, seed=0)])
        model = MaskablePPO(
            "MlpPolicy",
            view,
            n_steps=32,
            batch_size=32,
            n_epochs=1,
            seed=0,
            device="cpu",
            policy_kwargs={
                "features_extractor_class": SharedTrunk,
                "features_extractor_kwargs": {"features_dim": 16},
                "net_arch": {"pi": [8], "vf": [8]},
            },
        )
        model.save(tmp_path / "old.zip")
    assert SharedTrunk.__module__ == "bidbluff.agents.networks" and "agents.networks" not in sys.modules
    with zipfile.ZipFile(tmp_path / "old.zip") as archive:
        blob = base64.b64decode(json.loads(archive.read("data"))["policy_kwargs"][":serialized:"])
    assert b"agents.networks" in blob and b"bidbluff" not in blob, "the save names the old module path"

    custom = sb3_custom_objects(tmp_path / "old.zip")
    assert custom["policy_kwargs"]["features_extractor_class"] is networks.SharedTrunk
    loaded = MaskablePPO.load(tmp_path / "old.zip", device="cpu", custom_objects=custom)
    assert isinstance(loaded.policy.features_extractor, SharedTrunk)
    for key, tensor in model.policy.state_dict().items():
        assert np.array_equal(tensor.numpy(), loaded.policy.state_dict()[key].numpy())
    assert sb3_custom_objects(checkpoint_paths(tmp_path / "old.zip")[0]) == custom
