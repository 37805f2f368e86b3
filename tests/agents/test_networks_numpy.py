"""The forward pass is written once: ``NumpyActorCritic`` runs ``ActorCritic``'s stages on numpy copies of its
weights, and must give the module's logits and values for every shape the trainers build."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from bidbluff.agents.networks import ActorCritic, NumpyActorCritic


@pytest.mark.parametrize(
    ("trunk", "net_arch", "activation"),
    [(32, [16], "tanh"), (0, [24, 24, 24], "tanh"), (16, [], "tanh"), (0, [20, 10], "relu"), (8, [8], "relu")],
)
def test_numpy_matches_the_module(trunk, net_arch, activation):
    torch.manual_seed(0)
    net = ActorCritic(60, 9, trunk, net_arch, activation)
    rng = np.random.default_rng(1)
    rows = (rng.random((7, 60)) < 0.2).astype(np.float32) * rng.random((7, 60)).astype(np.float32)
    with torch.no_grad():
        logits, values = net(torch.from_numpy(rows))
    fast_logits, fast_values = NumpyActorCritic(net).forward(rows)
    assert np.allclose(fast_logits, logits.numpy(), atol=1e-5)
    assert np.allclose(fast_values, values.numpy(), atol=1e-5)
    assert np.allclose(NumpyActorCritic(net).logits(rows[:1]), logits.numpy()[:1], atol=1e-5)


def test_the_activation_is_part_of_the_network():
    relu = ActorCritic(10, 3, 0, [4], "relu")
    assert relu.sizes["activation"] == "relu" and isinstance(relu.policy_net[1], torch.nn.ReLU)
    assert "activation" not in ActorCritic(10, 3).sizes, "a tanh network's sidecar is as before"
    with pytest.raises(ValueError, match="activation 'gelu'"):
        ActorCritic(10, 3, 0, [4], "gelu")


def test_the_numpy_copy_is_of_the_weights_when_made():
    net = ActorCritic(12, 4, 8, [8])
    fast = NumpyActorCritic(net)
    rows = np.ones((1, 12), dtype=np.float32)
    before = fast.logits(rows)
    with torch.no_grad():
        net.action_head.bias += 1.0
    assert np.array_equal(fast.logits(rows), before)
    assert np.allclose(NumpyActorCritic(net).logits(rows), before + 1.0, atol=1e-5)
