"""A checkpoint in the old stable-baselines3 format, as the batched trainer wrote them before ``ActorCritic``."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def old_checkpoint(tmp_path_factory):
    """A ``MaskablePPO`` with the old batched trainer's network (a ``SharedTrunk``), stepped so that its Adam
    state is in use, saved with its sidecar; and the live model beside it."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from bidbluff.agents.networks import SharedTrunk
    from bidbluff.agents.policy import write_sidecar
    from bidbluff.training.batched import BatchedConfig
    from bidbluff.training.gym_env import SingleAgentView
    from bidbluff.training.train import checkpoint_meta

    config = BatchedConfig("liars_dice_v0", trunk=32, net_arch=[16], opponents=["random"])
    view = DummyVecEnv([lambda: SingleAgentView(config.env, ["random"], 2, seed=0)])
    model = MaskablePPO(
        "MlpPolicy",
        view,
        n_steps=64,
        batch_size=32,
        n_epochs=1,
        seed=0,
        device="cpu",
        policy_kwargs={
            "features_extractor_class": SharedTrunk,
            "features_extractor_kwargs": {"features_dim": 32},
            "net_arch": {"pi": [16], "vf": [16]},
        },
    )
    model.learn(64)
    path = tmp_path_factory.mktemp("old") / "step_64.zip"
    model.save(path)
    meta = checkpoint_meta(config, model.num_timesteps, [], 2)  # type: ignore[arg-type]
    write_sidecar(path, {**meta, "trainer": "batched", "league": {"snapshots": [], "results": {}}})
    return path, model
