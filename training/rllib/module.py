"""``MaskedActorCritic``: an RLlib RLModule around the project's ``ActorCritic``, illegal actions masked.

As RLlib's ``action_masking_rlm.py`` example does, the observation is the env's ``Dict`` (``observation``,
``action_mask``) and the mask is applied to the logits in the forward pass (``masked_logits``: an illegal
action's probability is exactly 0, so it is never sampled and adds nothing to the entropy).  Unlike that
example, the network is not RLlib's default encoder but ``bidbluff.agents.networks.ActorCritic`` itself (state
dict keys ``net.<ActorCritic key>``): a trained module is exported to the project's checkpoint format,
and a shipped network is loaded into a module, by copying one state dict.  ``_forward_train`` hands the
trunk's features to ``compute_values`` as the embeddings, so training runs the shared trunk once.
"""

from __future__ import annotations

from typing import Any

import torch
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
from ray.rllib.core.rl_module.torch import TorchRLModule

from bidbluff.agents.networks import ActorCritic, masked_logits

PREFIX = "net."


class MaskedActorCritic(TorchRLModule, ValueFunctionAPI):
    """``model_config``: ``trunk`` and ``net_arch`` (``ActorCritic``'s)."""

    def setup(self) -> None:
        size = self.observation_space["observation"].shape[0]
        sizes = {"trunk": self.model_config["trunk"], "net_arch": self.model_config["net_arch"]}
        self.net = ActorCritic(
            size, self.action_space.n, **sizes, activation=self.model_config.get("activation", "tanh")
        )

    def _logits(self, batch: dict[str, Any]) -> tuple[torch.Tensor, torch.Tensor]:
        obs = batch[Columns.OBS]
        features = self.net.features(obs["observation"])
        return masked_logits(self.net.policy_logits(features), obs["action_mask"].bool()), features

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return {Columns.ACTION_DIST_INPUTS: self._logits(batch)[0]}

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        logits, features = self._logits(batch)
        return {Columns.ACTION_DIST_INPUTS: logits, Columns.EMBEDDINGS: features}

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        features = self.net.features(batch[Columns.OBS]["observation"]) if embeddings is None else embeddings
        return self.net.value_of(features)


def module_state(net: ActorCritic) -> dict[str, Any]:
    """``net``'s weights as a ``MaskedActorCritic``'s state."""
    return {PREFIX + key: value.detach().cpu().numpy() for key, value in net.state_dict().items()}


def network_of(state: dict[str, Any], sizes: dict[str, Any]) -> ActorCritic:
    """The ``ActorCritic`` (``sizes``: its ``.sizes``) holding a ``MaskedActorCritic``'s state."""
    net = ActorCritic(**sizes)
    net.load_state_dict(
        {key[len(PREFIX) :]: torch.as_tensor(value) for key, value in state.items() if key.startswith(PREFIX)}
    )
    return net
