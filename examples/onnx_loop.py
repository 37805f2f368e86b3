"""An exported policy (``bidbluff export CHECKPOINT policy.onnx``) playing every seat of a game, with numpy and
onnxruntime alone: the env is bidbluff's PettingZoo env, the policy is the graph, no torch and no bidbluff
agent code.  ``python examples/onnx_loop.py policy.onnx [SEED]``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import onnxruntime as ort

from bidbluff import envs

graph = Path(sys.argv[1])
seed = int(sys.argv[2]) if len(sys.argv) > 2 else 0
meta = json.loads(graph.with_suffix(".json").read_text())  # the sidecar: which env, its options, action names
policy = ort.InferenceSession(str(graph), providers=["CPUExecutionProvider"])

env = envs.make(meta["env"], **meta["env_options"])
env.reset(seed=seed)
for agent in env.agent_iter():
    observation, reward, termination, truncation, info = env.last()
    if termination or truncation:
        env.step(None)
        continue
    probabilities, value = policy.run(
        ["probabilities", "value"],
        {"observation": observation["observation"][None], "action_mask": observation["action_mask"][None]},
    )
    action = int(np.argmax(probabilities[0]))  # illegal moves have probability 0: the mask is in the graph
    print(f"{agent}: {meta['action_names'][action]:<24} p={probabilities[0, action]:.2f} value={value[0]:+.2f}")
    env.step(action)
print("scores", info["scores"])
print("torch imported:", "torch" in sys.modules)
