"""The policy network of bidbluff checkpoints, and the stable-baselines3 pieces old checkpoints refer to.

``ActorCritic`` is a plain ``torch.nn.Module``: an optional shared trunk (one
hidden layer the policy and value heads share: our observations are wide,
1,000-3,500 inputs, and the first layer is most of a forward pass), then a
policy MLP and a value MLP of the same widths (``trunk=0``: a separate actor
and critic), Tanh (or ReLU) throughout.  One
``get_action_and_value(obs, mask, action=None)`` serves acting and learning
alike, as in CleanRL's ``ppo.py``.  The forward pass is written once, as the
stages ``POLICY`` and ``VALUE`` name; ``NumpyActorCritic`` runs the same stages
on numpy copies of the module's weights (a search's one-row calls).  Its layers are registered in the order
stable-baselines3's ``MaskableActorCriticPolicy`` registers them, so that
policy's weights and Adam state map onto it one to one (``from_sb3``).

stable-baselines3 pickles a policy's ``features_extractor_class`` by reference:
an old-format checkpoint (a ``MaskablePPO`` zip) trained with ``SharedTrunk``
loads in stable-baselines3 only where ``bidbluff.agents.networks.SharedTrunk`` exists,
so it stays here.  One saved before the package moved under ``bidbluff`` names it
``agents.networks.SharedTrunk``: ``sb3_custom_objects`` reads such entries under
the namespace for ``MaskablePPO.load``.
"""

from __future__ import annotations

import base64
import contextlib
import io
import json
import math
import pickle
import zipfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import torch
from torch import nn
from torch.nn import functional

MASKED = -1e8  # an illegal action's logit: exp() of it is exactly 0 in float32


def layer(n_in: int, n_out: int, gain: float) -> nn.Linear:
    """A linear layer with orthogonal weights and zero bias (CleanRL's ``layer_init``, SB3's ortho_init)."""
    linear = nn.Linear(n_in, n_out)
    nn.init.orthogonal_(linear.weight, gain)
    nn.init.zeros_(linear.bias)
    return linear


ACTIVATIONS: dict[str, type[nn.Module]] = {"tanh": nn.Tanh, "relu": nn.ReLU}


def mlp(n_in: int, widths: Sequence[int], activation: str = "tanh") -> nn.Sequential:
    if activation not in ACTIVATIONS:
        raise ValueError(f"activation {activation!r}: one of {', '.join(ACTIVATIONS)}")
    layers: list[nn.Module] = []
    for width in widths:
        layers += [layer(n_in, width, math.sqrt(2)), ACTIVATIONS[activation]()]
        n_in = width
    return nn.Sequential(*layers)


class ActionAndValue(NamedTuple):
    action: torch.Tensor  # (B,) the given or sampled action
    log_prob: torch.Tensor  # (B,) its log-probability
    entropy: torch.Tensor  # (B,) of the masked distribution
    value: torch.Tensor  # (B,)
    log_probs: torch.Tensor  # (B, n_actions) every action's log-probability (illegal ones: about -1e8)


def masked_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Illegal actions get a logit whose probability is exactly zero."""
    return torch.where(mask, logits, torch.full_like(logits, MASKED))


class ActorCritic(nn.Module):
    """Trunk (``trunk`` wide, or none when 0), then policy and value MLPs (``net_arch``) and their heads."""

    TRUNK = "trunk"
    POLICY = ("policy_net", "action_head")  # the stages after the trunk to the action logits ...
    VALUE = ("value_net", "value_head")  # ... and to the value

    def __init__(
        self,
        obs_size: int,
        n_actions: int,
        trunk: int = 256,
        net_arch: Sequence[int] = (128,),
        activation: str = "tanh",
    ) -> None:
        super().__init__()
        self.sizes = {
            "obs_size": int(obs_size),
            "n_actions": int(n_actions),
            "trunk": int(trunk),
            "net_arch": [int(w) for w in net_arch],
        }
        if activation != "tanh":  # (the sidecars of tanh networks, every one before ReLU, stay as they were)
            self.sizes["activation"] = activation
        self.trunk = mlp(obs_size, [trunk], activation) if trunk else nn.Sequential()
        features = trunk or obs_size
        self.policy_net = mlp(features, net_arch, activation)
        self.value_net = mlp(features, net_arch, activation)
        last = net_arch[-1] if net_arch else features
        self.action_head = layer(last, n_actions, 0.01)
        self.value_head = layer(last, 1, 1.0)

    def _through(self, stages: Sequence[str], rows: torch.Tensor) -> torch.Tensor:
        for stage in stages:
            rows = getattr(self, stage)(rows)
        return rows

    def features(self, obs: torch.Tensor) -> torch.Tensor:
        """The trunk's output (the observation itself without a trunk): what both heads read."""
        return self.trunk(obs)

    def policy_logits(self, features: torch.Tensor) -> torch.Tensor:
        return self._through(self.POLICY, features)

    def value_of(self, features: torch.Tensor) -> torch.Tensor:
        return self._through(self.VALUE, features).squeeze(-1)

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """``(logits, values)`` of observation rows, the trunk run once."""
        features = self.features(obs)
        return self.policy_logits(features), self.value_of(features)

    def logits(self, obs: torch.Tensor) -> torch.Tensor:
        return self.policy_logits(self.features(obs))

    def value(self, obs: torch.Tensor) -> torch.Tensor:
        return self.value_of(self.features(obs))

    def get_action_and_value(
        self,
        obs: torch.Tensor,
        mask: torch.Tensor,
        action: torch.Tensor | None = None,
        generator: torch.Generator | None = None,
        columns: torch.Tensor | None = None,
        rows: torch.Tensor | None = None,
    ) -> ActionAndValue:
        """The masked policy at ``obs``: ``action`` (sampled when None, never an illegal one), its log-probability,
        the entropy, the value, and every action's log-probability.

        ``columns``: action ids among which every row's legal actions lie; ``mask``, ``action`` and the result's
        ``action`` and ``log_probs`` then count within them.  The distribution is the same, but the softmax skips
        the ids no row can take, whose exp() underflows to 0 at about ten times the cost of a normal one: on a
        small table, where a dozen of several hundred ids are ever legal, that was most of an update.

        ``rows``: result row i is row ``rows[i]`` of ``obs`` and ``mask`` (``action`` counts the result's rows),
        which then hold each distinct observation and mask once: the network and the softmax run once for each.
        A small game's rollout repeats a few thousand information states over and over."""
        if columns is None:
            logits, value = self(obs)
        else:  # the head's rows for those ids only: on a small table the full head is half the forward pass
            features = self.features(obs)
            head = self.action_head
            logits = functional.linear(self.policy_net(features), head.weight[columns], head.bias[columns])
            value = self.value_of(features)
        log_probs = torch.log_softmax(masked_logits(logits, mask), dim=-1)
        probs = log_probs.exp()
        entropy = -(probs * log_probs).sum(-1)
        if rows is not None:
            log_probs, probs, entropy, value = log_probs[rows], probs[rows], entropy[rows], value[rows]
        if action is None:
            action = torch.multinomial(probs, 1, generator=generator).squeeze(1)
        return ActionAndValue(action, log_probs.gather(1, action[:, None]).squeeze(1), entropy, value, log_probs)


# -- the same forward pass in numpy ------------------------------------------------------
Dense = tuple[np.ndarray, np.ndarray, Any]  # (weight (out, in), bias, the activation after it or None)
NUMPY_ACTIVATIONS = {nn.Tanh: np.tanh, nn.ReLU: lambda rows: np.maximum(rows, 0.0)}


def dense_layers(modules: Sequence[nn.Module]) -> list[Dense]:
    """The linear layers of ``modules`` (``nn.Sequential`` or ``nn.Linear``, in order) as float32 numpy copies,
    each with the activation that follows it."""
    flat: list[nn.Module] = []
    for module in modules:
        flat += list(module) if isinstance(module, nn.Sequential) else [module]
    out: list[Dense] = []
    for i, part in enumerate(flat):
        if isinstance(part, nn.Linear):
            after = type(flat[i + 1]) if i + 1 < len(flat) else None
            activation = NUMPY_ACTIVATIONS.get(after) if after is not None else None
            out.append((part.weight.detach().numpy().copy(), part.bias.detach().numpy().copy(), activation))
        elif type(part) not in NUMPY_ACTIVATIONS:
            raise TypeError(f"a network layer {type(part).__name__} has no numpy forward pass")
    return out


def run_dense(layers: Sequence[Dense], rows: np.ndarray, sparse_first: bool = False) -> np.ndarray:
    """``rows`` through ``layers``.  ``sparse_first``: the first layer reads only the columns in use (our
    observations are mostly zeros, one-hot fields), which a few rows make much cheaper."""
    for i, (weight, bias, activation) in enumerate(layers):
        if i == 0 and sparse_first:
            used = np.flatnonzero(rows.any(axis=0))
            rows = rows[:, used] @ weight[:, used].T + bias
        else:
            rows = rows @ weight.T + bias  # BLAS reads the (out, in) weight rows as stored, as torch does
        if activation is not None:
            rows = activation(rows)
    return rows


class NumpyActorCritic:
    """``net``'s forward pass in numpy, through the same stages, on copies of its weights taken now: a call on a
    few rows costs less than torch's overhead.  Matches ``net`` to float32 rounding (tested)."""

    def __init__(self, net: ActorCritic) -> None:
        self.trunk = dense_layers([getattr(net, net.TRUNK)])
        self.policy = dense_layers([getattr(net, stage) for stage in net.POLICY])
        self.value = dense_layers([getattr(net, stage) for stage in net.VALUE])

    def features(self, rows: np.ndarray) -> tuple[np.ndarray, bool]:
        """The trunk's output, and whether the heads' first layers still read raw (sparse) observations."""
        if not self.trunk:
            return rows, True
        return run_dense(self.trunk, rows, sparse_first=True), False

    def logits(self, rows: np.ndarray) -> np.ndarray:
        features, raw = self.features(rows)
        return run_dense(self.policy, features, sparse_first=raw)

    def forward(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        features, raw = self.features(rows)
        return run_dense(self.policy, features, sparse_first=raw), run_dense(self.value, features, raw)[:, 0]


# -- stable-baselines3's layout ----------------------------------------------------------
SB3_NAMES = (
    ("features_extractor.net.", "trunk."),
    ("mlp_extractor.policy_net.", "policy_net."),
    ("mlp_extractor.value_net.", "value_net."),
    ("action_net.", "action_head."),
    ("value_net.", "value_head."),
)
SB3_ALIASES = ("pi_features_extractor.", "vf_features_extractor.")  # the shared extractor, saved three times


def from_sb3(state: Mapping[str, torch.Tensor]) -> ActorCritic:
    """The ``ActorCritic`` holding a ``MaskableActorCriticPolicy``'s weights (a ``SharedTrunk`` or a flat
    features extractor; equal policy and value widths); ``ValueError`` for anything else."""
    ours: dict[str, torch.Tensor] = {}
    for key, tensor in state.items():
        if key.startswith(SB3_ALIASES):
            continue
        new = next((to + key[len(frm) :] for frm, to in SB3_NAMES if key.startswith(frm)), None)
        if new is None:
            raise ValueError(f"a stable-baselines3 policy with a layer {key!r} is not an ActorCritic")
        ours[new] = tensor
    hidden = [t for k, t in ours.items() if k.startswith("policy_net.") and k.endswith(".weight")]
    value_hidden = [t for k, t in ours.items() if k.startswith("value_net.") and k.endswith(".weight")]
    if [t.shape[0] for t in hidden] != [t.shape[0] for t in value_hidden]:
        raise ValueError("a stable-baselines3 policy whose policy and value layers differ is not an ActorCritic")
    trunk = ours.get("trunk.0.weight")
    head = ours.get("action_head.weight")
    if head is None:
        raise ValueError("a stable-baselines3 policy without an action layer is not an ActorCritic")
    obs_size = (trunk if trunk is not None else (hidden[0] if hidden else head)).shape[1]
    net = ActorCritic(obs_size, head.shape[0], trunk.shape[0] if trunk is not None else 0, [t.shape[0] for t in hidden])
    net.load_state_dict(ours)  # a shape that does not fit raises here
    return net


PRE_NAMESPACE = ("envs", "agents", "training", "arena")  # the top-level packages before ``bidbluff``


class _NamespaceUnpickler(pickle.Unpickler):
    """Reads a class pickled under a pre-namespace module path (``agents.networks``) from ``bidbluff``, and
    notes that it did (a checkout on ``sys.path`` could otherwise import a second copy under the old name)."""

    renamed = False

    def find_class(self, module: str, name: str) -> Any:
        if module.split(".")[0] in PRE_NAMESPACE:
            module, self.renamed = f"bidbluff.{module}", True
        return super().find_class(module, name)


def sb3_custom_objects(path: str | Path) -> dict[str, Any]:
    """``custom_objects`` for ``MaskablePPO.load(path)``: each entry of the zip's data that pickles a class
    under its pre-namespace module path, unpickled under ``bidbluff`` (empty for a save made after the move).
    An entry that cannot be read at all is left to stable-baselines3, which reports it."""
    with zipfile.ZipFile(path) as archive:
        data = json.loads(archive.read("data"))
    found: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, dict) and ":serialized:" in value:
            reader = _NamespaceUnpickler(io.BytesIO(base64.b64decode(value[":serialized:"])))
            with contextlib.suppress(Exception):
                loaded = reader.load()
                if reader.renamed:
                    found[key] = loaded
    return found


try:  # old checkpoints' features extractor, where stable-baselines3 is installed (the train extra)
    from gymnasium import spaces
    from stable_baselines3.common.torch_layers import BaseFeaturesExtractor

    class SharedTrunk(BaseFeaturesExtractor):
        """One hidden layer that the policy and value heads share (old-format checkpoints' trunk)."""

        def __init__(self, observation_space: spaces.Box, features_dim: int = 256) -> None:
            super().__init__(observation_space, features_dim)
            self.net = nn.Sequential(nn.Linear(int(np.prod(observation_space.shape)), features_dim), nn.Tanh())

        def forward(self, observations: torch.Tensor) -> torch.Tensor:
            return self.net(observations)

except ImportError:  # pragma: no cover - playing new-format checkpoints needs torch only
    pass


def describe(net: ActorCritic) -> dict[str, Any]:
    """The sidecar's ``network`` block: enough to rebuild ``net`` before loading its state dict."""
    return {"class": "ActorCritic", **net.sizes}
