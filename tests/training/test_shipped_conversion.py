"""The shipped checkpoints, converted from the stable-baselines3 format, play exactly as before.

``data/shipped_<env>.npz`` holds 2,000 positions each shipped checkpoint met in self-play and what
stable-baselines3 computed there from the checkpoint before its conversion (see ``data/record_shipped.py``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from bidbluff import agents
from bidbluff.agents.networks import masked_logits

DATA = Path(__file__).with_name("data")
FAST = "libertalia_v0"
# the shipped checkpoints that were converted (liars_dice_v0's was replaced by one trained in the new format;
# lying_pirates_v0's converted one is kept as shipped@2026-12)
CONVERTED = sorted(path.stem.removeprefix("shipped_") for path in DATA.glob("shipped_*.npz"))


def reference(env_name: str) -> dict[str, np.ndarray]:
    with np.load(DATA / f"shipped_{env_name}.npz") as data:
        ref = dict(data)
    ref["mask"] = np.unpackbits(ref["mask"], axis=1, count=int(ref["n_actions"])).astype(bool)
    ref["obs"] = ref["obs"].astype(np.float32)
    return ref


def converted(env_name: str, sha256: str):
    """The shipped network converted from that stable-baselines3 zip: the one shipped now, or one kept under
    its version (``shipped@VERSION``) since a newer one replaced it."""
    from bidbluff.agents.shipped import retired_versions

    for spec in ["shipped", *(f"shipped@{v}" for v in retired_versions(env_name))]:
        agent = agents.make(spec, env_name=env_name)
        if (agent.meta.get("converted_from") or {}).get("zip_sha256") == sha256:
            return agent
    raise AssertionError(f"no shipped {env_name} network was converted from the zip {sha256[:12]}...")


@pytest.mark.parametrize(
    "env_name", [pytest.param(e, marks=[] if e == FAST else [pytest.mark.slow]) for e in CONVERTED]
)
def test_the_converted_checkpoint_plays_as_the_old_one_did(env_name):
    ref = reference(env_name)
    agent = converted(env_name, str(ref["zip_sha256"]))
    net = agent.network
    obs, mask = torch.from_numpy(ref["obs"]), torch.from_numpy(ref["mask"])
    with torch.no_grad():
        log_probs = torch.log_softmax(masked_logits(net.logits(obs), mask), dim=-1).numpy()
        values = net.value(obs).numpy()
    rows = np.arange(len(obs))[:, None]
    assert np.allclose(log_probs[rows, ref["top_ids"]], ref["top_log_probs"], atol=1e-5)
    assert np.allclose(values, ref["values"], atol=1e-5)
    assert np.array_equal(log_probs.argmax(-1), ref["greedy"])
    for i in range(0, len(obs), 97):  # the agent, one position at a time, plays the same greedy action
        seen = {"observation": ref["obs"][i], "action_mask": ref["mask"][i].astype(np.int8)}
        assert agent.act(seen, "player_0") == ref["greedy"][i]
