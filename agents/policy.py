"""Trained policies: the checkpoint format and the agent that plays one.

A checkpoint is two files side by side: ``<name>.zip``, the network, and
``<name>.json``, the sidecar that says what the policy is for::

    {"format": "bidbluff-checkpoint", "format_version": 1,
     "env": "libertalia_v0", "game": "libertalia", "env_version": 0,
     "env_options": {...}, "num_players": 4,
     "observation_shape": [1334], "action_n": 508, "layout": "<sha256 of the codec>",
     "network": {"class": "ActorCritic", "obs_size": 1334, "n_actions": 508, "trunk": 256, "net_arch": [128]},
     "algorithm": "PPO", "steps": 200000, "opponents": ["random"],
     "options": {every training hyperparameter}, "evaluation": [...],
     "zip_bytes": 123456, "zip_sha256": "...", "created": "...", "versions": {...}}

The zip comes in two formats:

* with a ``network`` block in the sidecar (the batched trainer's, and every shipped checkpoint): a
  ``torch.save`` archive (itself a zip) of ``{"network": state_dict, "optimizer": state_dict}``
  (no optimizer in a shipped one) for ``bidbluff.agents.networks.ActorCritic``, read with
  ``torch.load(weights_only=True)``;
* without one: a stable-baselines3 ``MaskablePPO`` save (``bidbluff train``, the sb3 self-play, and
  batched runs before the ``ActorCritic``).  Its policy weights are read from the zip directly and
  mapped onto the same ``ActorCritic`` (``bidbluff.agents.networks.from_sb3``), so both play alike and
  stable-baselines3 is not needed to play either; ``python -m bidbluff.training.convert OLD.zip NEW.zip``
  rewrites one in the new format.

``load`` refuses, with a ``CheckpointError`` (a ``ValueError``) that says
what is wrong, anything that would silently give a wrong policy: a missing
or corrupt sidecar, a zip whose size or hash differ from the sidecar's (a
truncated or replaced file), an env that is not registered or is not the one
asked for, observation or action spaces or the action layout that differ from
the env's, a zip that holds no network of the sidecar's shape.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import shutil
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from bidbluff import envs
from bidbluff.agents.base import act_on_policy

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
    data = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        **meta,
        "zip_bytes": zip_path.stat().st_size,
        "zip_sha256": file_sha256(zip_path),
    }
    write_atomic(sidecar, lambda tmp: tmp.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n"))
    return sidecar


def write_atomic(path: Path, write: Callable[[Path], Any]) -> Path:
    """``write(tmp)`` to a temporary name beside ``path``, then rename it to ``path``: a failure (a full disk)
    leaves ``path`` as it was and no half-written file."""
    tmp = path.with_name(f".{path.stem}.partial{path.suffix}")  # keeps the suffix: stable-baselines3 wants .zip
    try:
        write(tmp)
        tmp.replace(path)
    except OSError as bad:  # named by the file meant, not the temporary one
        raise OSError(bad.errno, bad.strerror or str(bad), str(path)) from bad
    finally:
        tmp.unlink(missing_ok=True)
    return path


def write_checkpoint(path: str | Path, write_zip: Callable[[Path], Any], meta: dict[str, Any]) -> Path:
    """A whole checkpoint or none: ``write_zip(tmp)`` writes the policy file, then its sidecar gets ``meta``; if
    either fails both are removed."""
    zip_path, sidecar = checkpoint_paths(path)
    try:
        write_atomic(zip_path, write_zip)
        write_sidecar(zip_path, meta)
    except BaseException:
        zip_path.unlink(missing_ok=True)
        sidecar.unlink(missing_ok=True)
        raise
    return zip_path


def copy_checkpoint(source: str | Path, dest: str | Path) -> Path:
    """Copy a checkpoint's two files (each atomically)."""
    for src, dst in zip(checkpoint_paths(source), checkpoint_paths(dest), strict=True):
        write_atomic(dst, lambda tmp, src=src: shutil.copyfile(src, tmp))
    return checkpoint_paths(dest)[0]


def read_sidecar(path: str | Path, env_name: str | None = None) -> dict[str, Any]:
    """The sidecar of checkpoint ``path``, checked against its zip and the env (see module doc)."""
    zip_path, sidecar = checkpoint_paths(path)
    for p, what in ((zip_path, "policy file"), (sidecar, "metadata sidecar")):
        if not p.is_file():
            raise CheckpointError(f"checkpoint {path}: the {what} {p} does not exist")
    try:
        meta = json.loads(sidecar.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as bad:
        raise CheckpointError(
            f"checkpoint {path}: the sidecar {sidecar} is not valid JSON ({bad}); truncated?"
        ) from None
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
            f"checkpoint {path} was trained on {trained_on!r}, which is not a registered env ({', '.join(envs.ENVS)})"
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


# -- the networks -------------------------------------------------------------------------
SB3_POLICY_OPTIONS = {"features_extractor_class", "features_extractor_kwargs", "net_arch", ":type:", ":serialized:"}


def load_network(path: str | Path, env_name: str | None = None) -> tuple[Any, dict[str, Any], dict[str, Any] | None]:
    """Checkpoint ``path``'s ``ActorCritic`` (either format, see the module doc), its checked sidecar, and the
    optimizer state saved with it (``None`` when there is none)."""
    meta = read_sidecar(path, env_name)
    zip_path, _ = checkpoint_paths(path)
    try:
        import torch

        from bidbluff.agents.networks import ActorCritic, from_sb3
    except ImportError:
        raise CheckpointError("playing a checkpoint needs the training extra: pip install -e '.[train]'") from None
    if "network" in meta:
        try:
            saved = torch.load(zip_path, map_location="cpu", weights_only=True)
            sizes = {k: v for k, v in meta["network"].items() if k != "class"}
            net = ActorCritic(**sizes)
            net.load_state_dict(saved["network"])
        except Exception as bad:  # torch raises many kinds on a bad file or a state dict of another shape
            raise CheckpointError(
                f"checkpoint {path}: {zip_path} holds no network of the sidecar's shape ({meta['network']}): {bad!r}"
            ) from None
        optimizer = saved.get("optimizer")
    else:
        try:
            with zipfile.ZipFile(zip_path) as archive:
                options = json.loads(archive.read("data")).get("policy_kwargs", {})
                unknown = set(options) - SB3_POLICY_OPTIONS
                if unknown:
                    raise ValueError(f"policy options {sorted(unknown)} that bidbluff's ActorCritic does not have")
                net = from_sb3(
                    torch.load(io.BytesIO(archive.read("policy.pth")), map_location="cpu", weights_only=True)
                )
                names = set(archive.namelist())
                optimizer = (
                    torch.load(io.BytesIO(archive.read("policy.optimizer.pth")), map_location="cpu", weights_only=True)
                    if "policy.optimizer.pth" in names
                    else None
                )
        except Exception as bad:  # zipfile, json and torch raise many kinds on a bad file
            raise CheckpointError(
                f"checkpoint {path}: cannot load {zip_path} as a stable-baselines3 MaskablePPO "
                f"save (the old checkpoint format; `python -m bidbluff.training.convert OLD.zip "
                f"NEW.zip` converts one that loads): {bad!r}"
            ) from None
    if [net.sizes["obs_size"]] != meta["observation_shape"] or net.sizes["n_actions"] != meta["action_n"]:
        raise CheckpointError(
            f"checkpoint {path}: the saved network has observation size {net.sizes['obs_size']} and "
            f"{net.sizes['n_actions']} actions; the sidecar says {meta['observation_shape']} and {meta['action_n']}"
        )
    net.requires_grad_(False)
    return net, meta, optimizer


def save_checkpoint(
    path: str | Path,
    net: Any,
    meta: dict[str, Any],
    optimizer_state: dict[str, Any] | None = None,
    trainer_state: dict[str, Any] | None = None,
) -> Path:
    """Write ``net`` (and an optimizer's state dict, and what else its trainer resumes from: tensors and plain
    values, e.g. an MMD magnet's weights) at ``path`` in the new format, and its sidecar (``meta`` plus the
    network block); all or nothing (``write_checkpoint``)."""
    import torch

    from bidbluff.agents.networks import describe

    state = {"network": net.state_dict()}
    if optimizer_state is not None:
        state["optimizer"] = optimizer_state
    if trainer_state is not None:
        state["trainer"] = trainer_state
    return write_checkpoint(path, lambda tmp: torch.save(state, tmp), {**meta, "network": describe(net)})


def load_trainer_state(path: str | Path) -> dict[str, Any] | None:
    """The trainer's own state saved beside the network (``save_checkpoint``'s ``trainer_state``), if any."""
    import torch

    if "network" not in read_sidecar(path):
        return None  # a stable-baselines3 save (the old format) holds its optimizer, nothing else of ours
    zip_path, _ = checkpoint_paths(path)
    try:
        saved = torch.load(zip_path, map_location="cpu", weights_only=True)
    except Exception as bad:  # torch raises many kinds on a bad file
        raise CheckpointError(f"checkpoint {path}: cannot read {zip_path}: {bad!r}") from None
    return saved.get("trainer") if isinstance(saved, dict) else None


class PolicyAgent:
    """Plays a trained policy: the most likely legal action, or a sample (seeded).

    ``network`` is anything with ``logits(obs) -> Tensor`` (an ``ActorCritic``).  Build one with
    ``bidbluff.agents.load(path)`` / ``bidbluff.agents.make(path)``.
    """

    needs_env = False

    def __init__(
        self,
        network: Any,
        meta: dict[str, Any],
        deterministic: bool = True,
        seed: int | None = None,
        name: str | None = None,
    ) -> None:
        self.network = network
        self.meta = meta
        self.deterministic = deterministic
        self.rng = np.random.default_rng(seed)
        self.name = name or f"policy:{meta.get('env', '?')}@{meta.get('steps', '?')}"
        # what the network reads: a table with the env's default observation is narrowed to the layout it was
        # trained on (an observation option such as liars_dice_v0's compact one)
        self.game = envs.game(meta["env"], **(meta.get("env_options") or {})) if meta.get("env") else None

    def reset(self) -> None:
        pass

    def probabilities(self, observation: dict[str, np.ndarray]) -> np.ndarray:
        """The policy's action distribution, restricted to the mask."""
        return self.probabilities_many([observation])[0]

    def probabilities_many(self, observations: Sequence[dict[str, np.ndarray]]) -> np.ndarray:
        """``probabilities`` of each observation, one row each, from one forward pass (an exact measurement
        asks every information state of a table at once)."""
        import torch

        from bidbluff.agents.networks import masked_logits

        rows = [np.asarray(o["observation"], dtype=np.float32) for o in observations]
        obs = np.stack([self.game.narrow(row) for row in rows] if self.game is not None else rows)
        mask = np.stack([np.asarray(o["action_mask"], dtype=bool) for o in observations])
        with torch.no_grad():
            logits = masked_logits(self.network.logits(torch.as_tensor(obs)), torch.from_numpy(mask))
            probs = torch.softmax(logits, dim=-1).numpy().astype(np.float64)
        probs = np.where(mask, probs, 0.0)
        total = probs.sum(axis=1, keepdims=True)
        uniform = mask / np.maximum(mask.sum(axis=1, keepdims=True), 1)
        return np.where(total > 0, probs / np.where(total > 0, total, 1.0), uniform)

    def act(self, observation: dict[str, np.ndarray], agent: str) -> int:
        return act_on_policy(self, observation, agent)


def load(
    path: str | Path, env_name: str | None = None, deterministic: bool = True, seed: int | None = None
) -> PolicyAgent:
    """The policy agent of checkpoint ``path`` (``x.zip``, ``x.json`` or ``x``), checked (see module doc)."""
    net, meta, _ = load_network(path, env_name)
    name = f"{checkpoint_paths(path)[0].stem}@{meta.get('steps', '?')}"
    return PolicyAgent(net, meta, deterministic=deterministic, seed=seed, name=name)
