"""PettingZoo's SB3 action-masking tutorial (``tutorials/SB3/connect_four/sb3_connect_four_action_mask.py``),
in its own shape, on a bidbluff AEC env: only ``env_fn`` changed (``connect_four_v3`` -> ``liars_dice_v0``).

MaskablePPO trains one model for every seat through the tutorial's ``SB3ActionMaskWrapper`` and sb3-contrib's
``ActionMasker``, then plays against a random agent with the tutorial's evaluation loop.  The one line that
differs from the tutorial's current text besides the env: the wrapper also subclasses ``gymnasium.Env``
(as the tutorial's earlier text did), because Gymnasium 1.x's ``ActionMasker`` accepts only a
``gymnasium.Env`` (the tutorial's own guard refuses Gymnasium > 0.29.1, for connect four alike).

    python examples/sb3_action_mask.py
"""

from __future__ import annotations

import glob
import os
import time

import gymnasium as gym
import pettingzoo.utils
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from sb3_contrib.common.wrappers import ActionMasker

from bidbluff.envs import liars_dice_v0


class SB3ActionMaskWrapper(pettingzoo.utils.BaseWrapper, gym.Env):
    """The tutorial's wrapper: a PettingZoo AEC env as a Gymnasium-like env for SB3's action masking."""

    def reset(self, seed=None, options=None):
        super().reset(seed, options)
        # the spaces without the mask, as attributes (SB3 does not expect them to be functions)
        self.observation_space = super().observation_space(self.possible_agents[0])["observation"]
        self.action_space = super().action_space(self.possible_agents[0])
        return self.observe(self.agent_selection), {}

    def step(self, action):
        # the observation is the next agent's; reward, termination, truncation and info the one who acted
        current_agent = self.agent_selection
        super().step(action)
        next_agent = self.agent_selection
        return (
            self.observe(next_agent),
            self._cumulative_rewards[current_agent],
            self.terminations[current_agent],
            self.truncations[current_agent],
            self.infos[current_agent],
        )

    def observe(self, agent):
        return super().observe(agent)["observation"]

    def action_mask(self):
        return super().observe(self.agent_selection)["action_mask"]


def mask_fn(env):
    return env.action_mask()


def train_action_mask(env_fn, steps=10_000, seed=0, **env_kwargs):
    """One model for every seat of a zero-sum game, with invalid action masking (the tutorial's function)."""
    env = env_fn.env(**env_kwargs)
    print(f"Starting training on {env.metadata['name']}.")
    env = SB3ActionMaskWrapper(env)
    env.reset(seed=seed)  # defines the spaces
    env = ActionMasker(env, mask_fn)
    model = MaskablePPO(MaskableActorCriticPolicy, env, verbose=1)
    model.set_random_seed(seed)
    model.learn(total_timesteps=steps)
    model.save(f"{env.unwrapped.metadata.get('name')}_{time.strftime('%Y%m%d-%H%M%S')}")
    print("Model has been saved.")
    print(f"Finished training on {env.unwrapped.metadata['name']}.\n")
    env.close()


def eval_action_mask(env_fn, num_games=100, render_mode=None, **env_kwargs):
    """The trained model (as the second seat) against a random agent (the tutorial's function)."""
    env = env_fn.env(render_mode=render_mode, **env_kwargs)
    print(f"Starting evaluation vs a random agent. Trained agent will play as {env.possible_agents[1]}.")
    try:
        latest_policy = max(glob.glob(f"{env.metadata['name']}*.zip"), key=os.path.getctime)
    except ValueError:
        print("Policy not found.")
        exit(0)
    model = MaskablePPO.load(latest_policy)
    scores = {agent: 0 for agent in env.possible_agents}
    total_rewards = {agent: 0 for agent in env.possible_agents}
    round_rewards = []
    for i in range(num_games):
        env.reset(seed=i)
        env.action_space(env.possible_agents[0]).seed(i)
        for agent in env.agent_iter():
            obs, _reward, termination, truncation, _info = env.last()
            observation, action_mask = obs.values()
            if termination or truncation:
                if env.rewards[env.possible_agents[0]] != env.rewards[env.possible_agents[1]]:
                    winner = max(env.rewards, key=env.rewards.get)
                    scores[winner] += env.rewards[winner]
                for a in env.possible_agents:
                    total_rewards[a] += env.rewards[a]
                round_rewards.append(env.rewards)
                break
            if agent == env.possible_agents[0]:
                act = env.action_space(agent).sample(action_mask)
            else:
                act = int(model.predict(observation, action_masks=action_mask, deterministic=True)[0])
            env.step(act)
    env.close()
    winrate = 0 if sum(scores.values()) == 0 else scores[env.possible_agents[1]] / sum(scores.values())
    print("Total rewards (incl. negative rewards): ", total_rewards)
    print("Winrate: ", winrate)
    print("Final scores: ", scores)
    return round_rewards, total_rewards, winrate, scores


if __name__ == "__main__":
    env_fn = liars_dice_v0
    env_kwargs = {}
    train_action_mask(env_fn, steps=20_480, seed=0, **env_kwargs)
    eval_action_mask(env_fn, num_games=100, render_mode=None, **env_kwargs)
    eval_action_mask(env_fn, num_games=2, render_mode="human", **env_kwargs)
