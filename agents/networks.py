"""Network pieces that checkpoints refer to by name (so this module must stay importable as is).

stable-baselines3 pickles a policy's ``features_extractor_class`` by reference:
a checkpoint trained with ``SharedTrunk`` loads only where
``agents.networks.SharedTrunk`` exists.
"""

from __future__ import annotations

import numpy as np
import torch
from gymnasium import spaces
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn


class SharedTrunk(BaseFeaturesExtractor):
    """One hidden layer that the policy and value heads share.

    Our observations are wide (1,000-3,000 inputs) and the first layer is most
    of a forward pass; sharing it halves the cost of every step and update
    against stable-baselines3's separate policy and value networks.
    """

    def __init__(self, observation_space: spaces.Box, features_dim: int = 256) -> None:
        super().__init__(observation_space, features_dim)
        self.net = nn.Sequential(nn.Linear(int(np.prod(observation_space.shape)), features_dim), nn.Tanh())

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        return self.net(observations)
