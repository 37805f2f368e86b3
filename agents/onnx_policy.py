"""Policies exported to ONNX (``bidbluff export``), played with onnxruntime alone: no torch anywhere.

``make("onnx:policy.onnx", env_name=...)`` plays the most likely legal action; ``onnx:policy.onnx:sample``
samples from the policy (seeded).  ``policy.json`` beside the graph is its sidecar (written by
``bidbluff.training.export``); ``load_onnx`` refuses, with a ``CheckpointError`` that says what is wrong, a
graph whose sidecar is missing or corrupt, a graph whose bytes differ from the sidecar's hash, or an env
that is not the one the policy was exported for (its spaces, version or action layout changed).

The graph's inputs are ``observation`` (float32 ``[batch, observation_size]``) and ``action_mask`` (int8
``[batch, action_n]``); its outputs ``probabilities`` (the mask applied: illegal actions exactly 0) and
``value``.  ``docs/onnx.md`` has an engine loop in numpy and onnxruntime only.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np

from bidbluff import envs
from bidbluff.agents.base import act_on_policy
from bidbluff.agents.policy import CheckpointError, env_signature

FORMAT = "bidbluff-onnx"
FORMAT_VERSION = 1
INPUTS = ("observation", "action_mask")
OUTPUTS = ("probabilities", "value")
CHECKED = ("env_version", "observation_shape", "action_n", "layout")


def sidecar_path(onnx_path: str | Path) -> Path:
    """``x.json`` beside ``x.onnx``."""
    return Path(onnx_path).with_suffix(".json")


def read_onnx_sidecar(path: str | Path, env_name: str | None = None) -> dict[str, Any]:
    """The sidecar of the exported graph ``path``, checked against the graph's bytes and the env as it is now."""
    path = Path(path)
    sidecar = sidecar_path(path)
    for p, what in ((path, "ONNX graph"), (sidecar, "sidecar")):
        if not p.is_file():
            raise CheckpointError(f"onnx policy {path}: the {what} {p} does not exist")
    try:
        meta = json.loads(sidecar.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as bad:
        raise CheckpointError(f"onnx policy {path}: the sidecar {sidecar} is not valid JSON ({bad})") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise CheckpointError(f"onnx policy {path}: {sidecar} is not a {FORMAT} sidecar (bidbluff export writes one)")
    if meta.get("format_version") != FORMAT_VERSION:
        raise CheckpointError(
            f"onnx policy {path}: sidecar format version {meta.get('format_version')} is not {FORMAT_VERSION}"
        )
    data = path.read_bytes()
    if len(data) != meta.get("onnx_bytes") or hashlib.sha256(data).hexdigest() != meta.get("onnx_sha256"):
        raise CheckpointError(
            f"onnx policy {path}: the graph is corrupt, truncated or replaced ({len(data)} bytes; the sidecar "
            f"recorded {meta.get('onnx_bytes')} bytes and a different SHA-256)"
        )
    exported_for = meta.get("env")
    if exported_for not in envs.ENVS:
        registered = ", ".join(envs.ENVS)
        raise CheckpointError(f"onnx policy {path} is for {exported_for!r}, not a registered env ({registered})")
    if env_name is not None and env_name != exported_for:
        raise CheckpointError(f"onnx policy {path} was exported for {exported_for}, not {env_name}")
    now = env_signature(exported_for, meta.get("env_options") or {})
    for key in CHECKED:
        if meta.get(key) != now[key]:
            raise CheckpointError(
                f"onnx policy {path} does not fit {exported_for} as it is now: {key} was {meta.get(key)!r} at "
                f"export and is {now[key]!r} now (the env changed; export a matching checkpoint)"
            )
    return meta


def session(path: str | Path) -> Any:
    """An onnxruntime session on the CPU, one thread: a tournament asks one row at a time, where a thread pool
    costs more than it gives (and the machine's cores are shared)."""
    try:
        import onnxruntime as ort
    except ImportError:
        raise CheckpointError("playing an ONNX policy needs onnxruntime: pip install 'bidbluff[onnx]'") from None
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


class OnnxAgent:
    """Plays an exported policy: the most likely legal action, or a sample (seeded)."""

    needs_env = False

    def __init__(
        self, path: str | Path, meta: dict[str, Any], deterministic: bool = True, seed: int | None = None
    ) -> None:
        self.path = Path(path)
        self.meta = meta
        self.deterministic = deterministic
        self.rng = np.random.default_rng(seed)
        self.session = session(path)
        self.name = f"onnx:{self.path.stem}"

    def reset(self) -> None:
        pass

    def evaluate(self, observations: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(probabilities, values)`` of rows of observations and masks, as the graph gives them (float32)."""
        probs, values = self.session.run(
            list(OUTPUTS),
            {
                "observation": np.ascontiguousarray(observations, dtype=np.float32),
                "action_mask": np.ascontiguousarray(masks, dtype=np.int8),
            },
        )
        return probs, values

    def probabilities(self, observation: dict[str, np.ndarray]) -> np.ndarray:
        """The policy's action distribution, restricted to the mask (float64, sums to 1)."""
        mask = np.asarray(observation["action_mask"])
        probs = self.evaluate(np.asarray(observation["observation"])[None], mask[None])[0][0].astype(np.float64)
        total = probs.sum()
        return probs / total if total > 0 else mask / mask.sum()

    def act(self, observation: dict[str, np.ndarray], agent: str) -> int:
        return act_on_policy(self, observation, agent)


def load_onnx(
    path: str | Path, env_name: str | None = None, deterministic: bool = True, seed: int | None = None
) -> OnnxAgent:
    """The agent of exported graph ``path``, its sidecar checked (see the module doc)."""
    return OnnxAgent(path, read_onnx_sidecar(path, env_name), deterministic=deterministic, seed=seed)


def from_spec(spec: str, arg: str, env_name: str | None, seed: int | None) -> OnnxAgent:
    """``onnx:PATH`` (greedy), ``onnx:PATH:greedy`` or ``onnx:PATH:sample``."""
    path, mode = arg, "greedy"
    if arg.endswith((":sample", ":greedy")):
        path, mode = arg.rsplit(":", 1)
    if not path:
        raise ValueError(f"agent spec {spec!r}: write onnx:PATH (a graph from bidbluff export), e.g. onnx:p.onnx")
    return load_onnx(path, env_name=env_name, deterministic=mode == "greedy", seed=seed)
