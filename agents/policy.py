"""Trained policies: the checkpoint format and the agent that plays one.

A checkpoint is two files side by side: ``<name>.zip`` (the stable-baselines3
save: network weights, optimizer state, step count) and ``<name>.json``, the
sidecar that says what the policy is for::

    {"format": "bidbluff-checkpoint", "format_version": 1,
     "env": "libertalia_v0", "game": "libertalia", "env_version": 0,
     "env_options": {...}, "num_players": 4,
     "observation_shape": [1334], "action_n": 508, "layout": "<sha256 of the codec>",
     "algorithm": "MaskablePPO", "steps": 200000, "opponents": ["random"],
     "options": {every training hyperparameter}, "evaluation": [...],
     "zip_bytes": 123456, "zip_sha256": "...", "created": "...", "versions": {...}}

``load`` refuses, with a ``CheckpointError`` (a ``ValueError``) that says
what is wrong, anything that would silently give a wrong policy: a missing
or corrupt sidecar, a zip whose size or hash differ from the sidecar's (a
truncated or replaced file), an env that is not registered or is not the one
asked for, observation or action spaces or the action layout that differ from
the env's, a zip that stable-baselines3 cannot read.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import numpy as np

import envs
from agents.base import legal_ids

FORMAT = "bidbluff-checkpoint"
FORMAT_VERSION = 1


class CheckpointError(ValueError):
    """A checkpoint that cannot be trusted for the env it is asked to play."""


def env_signature(env_name: str, env_options: dict[str, Any] | None = None) -> dict[str, Any]:
    """What a policy depends on in an env with ``env_options``: its name, version, spaces and action layout
    (an option may change them: Lying Pirates' expansion and variants use a larger layout)."""
    game = envs.game(env_name, **(env_options or {}))
    kinds = [[k.name, list(k.shape)] for k in game.codec.kinds]
    layout = hashlib.sha256(json.dumps([kinds, game.observation_size]).encode()).hexdigest()[:16]
    match = re.fullmatch(r"(.+)_v(\d+)", env_name)
    return {
        "env": env_name,
        "game": match.group(1) if match else env_name,
        "env_version": int(match.group(2)) if match else 0,
        "observation_shape": [int(game.observation_size)],
        "action_n": int(game.codec.n),
        "layout": layout,
    }


def checkpoint_paths(path: str | Path) -> tuple[Path, Path]:
    """``(zip, sidecar)`` for a path given as ``x.zip``, ``x.json`` or ``x``."""
    path = Path(path)
    base = path.with_suffix("") if path.suffix in (".zip", ".json") else path
    return base.with_name(base.name + ".zip"), base.with_name(base.name + ".json")


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def write_sidecar(zip_path: Path, meta: dict[str, Any]) -> Path:
    """Write ``meta`` (plus the zip's size and hash) next to ``zip_path``; atomic."""
    zip_path, sidecar = checkpoint_paths(zip_path)
    data = {"format": FORMAT, "format_version": FORMAT_VERSION, **meta,
            "zip_bytes": zip_path.stat().st_size, "zip_sha256": file_sha256(zip_path)}  # fmt: skip
    tmp = sidecar.with_name(sidecar.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
    tmp.replace(sidecar)
    return sidecar


def read_sidecar(path: str | Path, env_name: str | None = None) -> dict[str, Any]:
    """The sidecar of checkpoint ``path``, checked against its zip and the env (see module doc)."""
    zip_path, sidecar = checkpoint_paths(path)
    for p, what in ((zip_path, "policy file"), (sidecar, "metadata sidecar")):
        if not p.is_file():
            raise CheckpointError(f"checkpoint {path}: the {what} {p} does not exist")
    try:
        meta = json.loads(sidecar.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as bad:
        raise CheckpointError(f"checkpoint {path}: the sidecar {sidecar} is not valid JSON ({bad}); truncated?") \
            from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise CheckpointError(f"checkpoint {path}: {sidecar} is not a bidbluff checkpoint sidecar")
    if meta.get("format_version") != FORMAT_VERSION:
        raise CheckpointError(
            f"checkpoint {path}: sidecar format version {meta.get('format_version')} is not {FORMAT_VERSION}"
        )
    size = zip_path.stat().st_size
    if size != meta.get("zip_bytes") or file_sha256(zip_path) != meta.get("zip_sha256"):
        raise CheckpointError(
            f"checkpoint {path}: {zip_path} is corrupt, truncated or replaced ({size} bytes, the sidecar "
            f"recorded {meta.get('zip_bytes')} bytes and a different SHA-256)"
        )
    trained_on = meta.get("env")
    if trained_on not in envs.ENVS:
        raise CheckpointError(
            f"checkpoint {path} was trained on {trained_on!r}, which is not a registered env "
            f"({', '.join(envs.ENVS)})"
        )
    if env_name is not None and env_name != trained_on:
        raise CheckpointError(f"checkpoint {path} was trained on {trained_on}, not {env_name}")
    now = env_signature(trained_on, meta.get("env_options") or {})
    for key in ("env_version", "observation_shape", "action_n", "layout"):
        if meta.get(key) != now[key]:
            raise CheckpointError(
                f"checkpoint {path} does not fit {trained_on} as it is now: {key} was {meta.get(key)!r} at "
                f"training time and is {now[key]!r} now (the env changed; retrain or use a matching version)"
            )
    return meta


class PolicyAgent:
    """Plays a trained MaskablePPO policy: the most likely legal action, or a sample (seeded).

    Build it with ``agents.load(path)`` / ``agents.make(path)``.
    """

    needs_env = False

    def __init__(self, model: Any, meta: dict[str, Any], deterministic: bool = True,
                 seed: int | None = None, name: str | None = None) -> None:  # fmt: skip
        self.model = model
        self.meta = meta
        self.deterministic = deterministic
        self.rng = np.random.default_rng(seed)
        self.name = name or f"policy:{meta.get('env', '?')}@{meta.get('steps', '?')}"

    def reset(self) -> None:
        pass

    def probabilities(self, observation: dict[str, np.ndarray]) -> np.ndarray:
        """The policy's action distribution, restricted to the mask."""
        import torch

        obs = np.asarray(observation["observation"], dtype=np.float32)[None]
        mask = np.asarray(observation["action_mask"], dtype=bool)[None]
        policy = self.model.policy
        with torch.no_grad():
            obs_t, _ = policy.obs_to_tensor(obs)
            dist = policy.get_distribution(obs_t, action_masks=mask)
            probs = dist.distribution.probs[0].cpu().numpy().astype(np.float64)
        probs = np.where(mask[0], probs, 0.0)
        total = probs.sum()
        return probs / total if total > 0 else mask[0] / mask[0].sum()

    def act(self, observation: dict[str, np.ndarray], agent: str) -> int:
        legal = legal_ids(observation, agent)
        if legal.size == 1:
            return int(legal[0])
        probs = self.probabilities(observation)
        if self.deterministic:
            return int(legal[np.argmax(probs[legal])])
        return int(self.rng.choice(len(probs), p=probs))


def load(path: str | Path, env_name: str | None = None, deterministic: bool = True,
         seed: int | None = None) -> PolicyAgent:  # fmt: skip
    """The policy agent of checkpoint ``path`` (``x.zip``, ``x.json`` or ``x``), checked (see module doc)."""
    meta = read_sidecar(path, env_name)
    zip_path, _ = checkpoint_paths(path)
    try:
        from sb3_contrib import MaskablePPO
    except ImportError:
        raise CheckpointError("playing a checkpoint needs the training extra: pip install -e '.[train]'") from None
    try:
        model = MaskablePPO.load(zip_path, device="cpu")
    except Exception as bad:  # stable-baselines3 raises many kinds on a bad zip
        raise CheckpointError(f"checkpoint {path}: stable-baselines3 cannot load {zip_path}: {bad!r}") from None
    shape = list(getattr(model.observation_space, "shape", ()) or ())
    n = getattr(model.action_space, "n", None)
    if shape != meta["observation_shape"] or n != meta["action_n"]:
        raise CheckpointError(
            f"checkpoint {path}: the saved model has observation shape {shape} and {n} actions; "
            f"the sidecar says {meta['observation_shape']} and {meta['action_n']}"
        )
    name = f"{Path(zip_path).stem}@{meta.get('steps', '?')}"
    return PolicyAgent(model, meta, deterministic=deterministic, seed=seed, name=name)
