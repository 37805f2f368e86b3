"""Seeding as Gymnasium has it: ``reset(seed=...)`` fixes the learner's seat, the deal and the opponents'
play, so the same seed and the same actions replay the same episode; ``reset()`` goes on from there."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence

from bidbluff.gym import env_ids


def episode(env: gymnasium.Env, seed: int | None, action_seed: int) -> list:
    """One whole episode: the learner picks among its legal actions with its own seeded generator."""
    rng = np.random.default_rng(action_seed)
    obs, info = env.reset(seed=seed)
    steps = [(obs, info)]
    done = False
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        steps.append((action, obs, reward, terminated, truncated, info))
        done = terminated or truncated
    return steps


@pytest.mark.parametrize("env_id", env_ids())
@pytest.mark.parametrize("opponents", ["random", "heuristic"])
def test_the_same_seed_replays_the_same_episode(env_id, opponents):
    env = gymnasium.make(env_id, opponents=opponents, seat="random")
    first = episode(env, 7, 0)
    episode(env, None, 1)  # anything in between
    again = episode(env, 7, 0)
    assert len(first) == len(again)
    assert data_equivalence(first, again, exact=True)


def test_a_fresh_env_with_the_same_seed_replays_it_too():
    runs = [episode(gymnasium.make("bidbluff/LiarsDice-v0", num_players=4, opponents="heuristic*3"), 3, 0)]
    runs.append(episode(gymnasium.make("bidbluff/LiarsDice-v0", num_players=4, opponents="heuristic*3"), 3, 0))
    assert data_equivalence(runs[0], runs[1], exact=True)


def test_without_reseeding_the_opponents_would_not_replay():
    """The check above has teeth: the heuristic draws (its bluffs), and its generators are reseeded."""
    env = gymnasium.make("bidbluff/LiarsDice-v0", num_players=4, opponents="heuristic*3", seat=0)
    env.reset(seed=1)
    states = [a.rng.bit_generator.state for a in env.unwrapped._slots]
    episode(env, None, 0)
    env.reset(seed=1)
    assert [a.rng.bit_generator.state for a in env.unwrapped._slots] == states
    env.reset(seed=2)
    assert [a.rng.bit_generator.state for a in env.unwrapped._slots] != states


def test_different_seeds_deal_different_games():
    env = gymnasium.make("bidbluff/LiarsDice-v0", num_players=3)
    firsts = {env.reset(seed=seed)[0].tobytes() for seed in range(20)}
    assert len(firsts) > 1
