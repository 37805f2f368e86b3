"""``gymnasium.make_vec`` on the registered ids, sync and async, under Gymnasium's default next-step
autoreset: masks batched in ``infos["action_mask"]`` (and through ``call("action_masks")``), zeros on the
step that ends a game, the new game's first mask on the autoreset step after it."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

from bidbluff.gym import env_ids


def legal(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """One legal action per env; 0 where no action is legal (the step after a game's end ignores it)."""
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])


def run(mode: str, env_id: str, steps: int, **kwargs) -> list:
    vec = gymnasium.make_vec(env_id, num_envs=3, vectorization_mode=mode, **kwargs)
    assert vec.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    rng = np.random.default_rng(0)
    obs, infos = vec.reset(seed=0)
    assert obs.shape == (3, *vec.single_observation_space.shape)
    masks = infos["action_mask"]
    assert masks.shape == (3, vec.single_action_space.n) and masks.dtype == np.int8 and masks.any(axis=1).all()
    assert np.array_equal(np.stack(vec.call("action_masks")), masks.astype(bool))
    history, ended = [], np.zeros(3, bool)
    for _ in range(steps):
        actions = legal(rng, infos["action_mask"])
        obs, rewards, terminated, truncated, infos = vec.step(actions)
        masks = infos["action_mask"]
        assert np.array_equal(np.stack(vec.call("action_masks")), masks.astype(bool))
        for i in range(3):
            if terminated[i]:
                assert not masks[i].any(), "no action is legal once the game is over"
                assert infos["_won"][i] and infos["won"][i] in (0.0, 1.0)
            elif ended[i]:  # the autoreset step: the action was ignored, a new game began
                assert rewards[i] == 0.0 and masks[i].any()
            else:
                assert masks[i].any()
        ended = terminated | truncated
        history.append((obs.copy(), rewards.copy(), terminated.copy(), masks.copy()))
    vec.close()
    return history


@pytest.mark.parametrize("env_id", env_ids())
def test_sync_vector_env_plays_and_autoresets(env_id):
    history = run("sync", env_id, 40 if "LiarsDice" in env_id else 15, num_players=2)
    if "LiarsDice" in env_id:
        assert any(t.any() for _, _, t, _ in history), "40 steps of 2-player Liar's dice end some game"


def test_async_matches_sync_step_for_step():
    sync = run("sync", "bidbluff/LiarsDice-v0", 30, num_players=3, opponents="heuristic")
    asynchronous = run("async", "bidbluff/LiarsDice-v0", 30, num_players=3, opponents="heuristic")
    for a, b in zip(sync, asynchronous, strict=True):
        for x, y in zip(a, b, strict=True):
            assert np.array_equal(x, y)


def test_dict_observations_batch_too():
    vec = gymnasium.make_vec("bidbluff/Spytails-v0", num_envs=2, vectorization_mode="sync", obs_type="dict")
    obs, infos = vec.reset(seed=0)
    assert obs["observation"].shape[0] == 2 and np.array_equal(obs["action_mask"], infos["action_mask"])
    vec.close()
