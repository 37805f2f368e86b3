"""The single-agent gymnasium view: learner seat rotation, masks, opponents inside step, rewards."""

from __future__ import annotations

import numpy as np
import pytest

from bidbluff import envs
from bidbluff.training.gym_env import SingleAgentView


@pytest.mark.parametrize("env_name", envs.ENVS)
def test_plays_whole_games_with_legal_masks(env_name):
    view = SingleAgentView(env_name, ["random"], seed=0)
    n = view.num_players
    obs, info = view.reset()
    rng = np.random.default_rng(0)
    seats, episodes, steps = [info["learner_seat"]], 0, 0
    while episodes < n:
        assert view.observation_space.contains(obs)
        mask = view.action_masks()
        assert mask.dtype == bool and mask.any()
        assert view.aec.agent_selection == view.learner
        obs, reward, done, truncated, info = view.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
        assert not truncated
        if done:
            episodes += 1
            assert "scores" in info and info["won"] in (0.0, 1.0)
            assert not view.action_masks().any()
            with pytest.raises(RuntimeError, match="reset"):
                view.step(0)
            obs, info = view.reset()
            seats.append(info["learner_seat"])
        else:
            assert reward == 0.0
    assert len(set(seats)) == n, "the learner should sit in every seat over n episodes"


def test_reward_is_the_learners_final_reward():
    view = SingleAgentView("liars_dice_v0", ["random"], num_players=3, seed=3)
    rng = np.random.default_rng(3)
    for _ in range(30):
        view.reset()
        total = 0.0
        done = False
        while not done:
            _, reward, done, _, info = view.step(int(rng.choice(np.flatnonzero(view.action_masks()))))
            total += reward
        scores = info["scores"]
        assert total == scores[info["learner_seat"]]  # liars_dice "win" rewards are the payoffs


def test_a_bad_learner_seat_is_refused():
    with pytest.raises(ValueError, match="learner_seat"):
        SingleAgentView("liars_dice_v0", ["random"], learner_seat=5)


def test_opponents_that_need_the_env_are_bound():
    view = SingleAgentView("liars_dice_v0", ["ismcts:4"], num_players=2, seed=1)
    view.reset()
    assert view.league.player("baseline:ismcts:4").env is view.aec


def test_the_league_hears_every_episode():
    view = SingleAgentView("liars_dice_v0", ["random"], num_players=2, seed=2)
    rng = np.random.default_rng(2)
    for _ in range(3):
        view.reset()
        done = False
        while not done:
            _, _, done, _, _ = view.step(int(rng.choice(np.flatnonzero(view.action_masks()))))
    assert view.league.results["baseline:random"][1] == 3


def test_a_looping_episode_is_truncated():
    view = SingleAgentView("libertalia_v0", ["random"], num_players=2, seed=0, max_episode_steps=3)
    view.reset()
    truncated = False
    for _ in range(3):
        _, _, done, truncated, _ = view.step(int(np.flatnonzero(view.action_masks())[0]))
        assert not done
    assert truncated
    with pytest.raises(RuntimeError, match="reset"):
        view.step(0)
    view.reset()
    assert view.episode_steps == 0
