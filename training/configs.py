"""A run's config from the command line: one flag per config field (CleanRL style), and the rules for
starting a run or resuming one (a resumed run keeps its options but for the few that may change).

Every trainer's config is a dataclass whose fields carry their help text; ``add_config_options`` turns them
into flags, ``trainer`` names each command's trainer, and ``build_config`` makes the config a run starts from.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import typing
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bidbluff.agents import expand_specs


@dataclass(frozen=True)
class Trainer:
    """What a command trains with: its config class, its run function, its default run folder's suffix and the
    options a resumed run may change."""

    name: str
    config_class: type
    run: Callable[..., Path]
    suffix: str
    resumable: tuple[str, ...]

    @property
    def command(self) -> str:
        return "bidbluff train" if self.name == "train" else f"selfplay --trainer {self.name}"


def trainer(name: str) -> Trainer:
    """``train`` (MaskablePPO against fixed opponents) or a self-play trainer: ``batched``, ``sb3``, ``rllib``."""
    if name == "train":
        from bidbluff.training.train import RESUMABLE, TrainConfig, train

        return Trainer(name, TrainConfig, train, "", RESUMABLE)
    if name == "batched":
        from bidbluff.training.batched import RESUMABLE, BatchedConfig, train_batched

        return Trainer(name, BatchedConfig, train_batched, "-batched", RESUMABLE)
    if name == "rllib":
        from bidbluff.training.rllib import RESUMABLE, RllibConfig, train_rllib

        return Trainer(name, RllibConfig, train_rllib, "-rllib", RESUMABLE)
    if name == "sb3":
        from bidbluff.training.selfplay import SelfPlayConfig, selfplay
        from bidbluff.training.train import RESUMABLE

        return Trainer(name, SelfPlayConfig, selfplay, "-selfplay", RESUMABLE)
    raise ValueError(f"no trainer {name!r}: train, batched, sb3 or rllib")


SELFPLAY_TRAINERS = ("batched", "sb3", "rllib")

# Named recipes: a run's options set at once (the batched trainer's); flags given on the command line win.
# ``equilibrium``: self-play that seeks an equilibrium at 2 players x 1 die (docs/convergence.md): a reverse KL
# toward a magnet copied from the network every 100 updates, an entropy bonus falling from 0.05 to 0.01, raw
# advantages, PPO's clip 0.1 over 4 epochs of one 2,048-decision rollout, a learning rate annealed to 0 at
# total_steps (the last iterate settles in the last stretch), the mean of the weights over the run's second half
# written beside the last iterate (average.zip: the iterate wanders around the point that mean sits near) and the
# magnet copied from that mean once it has begun (the last iterate is pulled toward it, not toward itself), the
# compact observation, and the exact exploitability at every checkpoint.  ``RECIPE_PRESETS`` tunes a recipe for
# an env preset: classic's larger tree (24,576 states to Lying Pirates' 6,144) settles under a stronger magnet
# that trails the network at every update, a smaller final entropy bonus, and rollouts of 32,768 decisions
# (docs/convergence.md, "A stronger magnet on classic" and "Four times the batch inside the 30 minutes").
RECIPES: dict[str, dict[str, Any]] = {
    "equilibrium": {
        "players": 2,
        "env_options": {"dice": 1, "observation": "compact"},
        "pool_fraction": 0.0,
        "pool_max": 0,
        "trunk": 128,
        "net_arch": [128],
        "magnet_coef": 0.2,
        "magnet_every": 100,
        "ent_coef": 0.05,
        "ent_coef_final": 0.01,
        "kl_coef": 0.0,
        "normalize_advantages": False,
        "learning_rate": 1e-3,
        "anneal_lr": True,
        "average_from": 0.5,
        "magnet_source": "average",
        "total_steps": 8_000_000,
        "num_games": 64,
        "rollout_steps": 2048,
        "minibatch_size": 1024,
        "n_epochs": 4,
        "clip_range": 0.1,
        "gamma": 1.0,
        "vf_coef": 0.0625,
        "checkpoint_every": 500_000,
        "eval_games": 0,
        "exploitability": True,
    }
}


RECIPE_PRESETS: dict[str, dict[str, dict[str, Any]]] = {
    "equilibrium": {
        # classic's floor is the noise of the sampled step, which a bigger batch lowers: 1,200 updates of 32,768
        # decisions, 16 optimizer steps each
        "classic": {
            "magnet_coef": 0.4,
            "magnet_every": 0,
            "magnet_rate": 0.006,
            "magnet_source": "network",
            "ent_coef_final": 0.002,
            "learning_rate": 3e-3,
            "num_games": 1024,
            "rollout_steps": 32768,
            "minibatch_size": 16384,
            "n_epochs": 8,
            "total_steps": 39_321_600,
            "checkpoint_every": 3_932_160,
        },
    }
}


def with_recipe(name: str | None, given: dict[str, Any]) -> dict[str, Any]:
    """``given`` (the flags set) over the recipe ``name``'s options, tuned for the env preset chosen; env options
    merge, the flags' winning."""
    if not name:
        return given
    if name not in RECIPES:
        raise SystemExit(f"--recipe {name}: no such recipe (recipes: {', '.join(RECIPES)})")
    recipe = RECIPES[name]
    env_options = {**recipe.get("env_options", {}), **given.get("env_options", {})}
    tuned = RECIPE_PRESETS.get(name, {}).get(env_options.get("preset", ""), {})
    return {**recipe, **tuned, **given, "env_options": env_options}


# -- flags ------------------------------------------------------------------------------
def _int_list(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x]


def _players(text: str) -> int | list[int]:
    """``4`` -> 4; ``2,4`` -> [2, 4] (the batched trainer's table sizes)."""
    sizes = _int_list(text)
    return sizes[0] if len(sizes) == 1 and "," not in text else sizes


def _converter(kind: Any) -> Any:
    if kind == dict[str, Any]:
        return json.loads
    if kind == list[int]:
        return _int_list
    if kind == list[str]:
        return expand_specs
    if kind == int | list[int] | None:
        return _players
    if kind in (int | None, float | None):
        return int if kind == int | None else float
    return kind


def _shown(kind: Any, default: Any) -> Any:
    if kind == dict[str, Any]:
        return json.dumps(default)
    if kind in (list[str], list[int]):
        return ",".join(map(str, default))
    return default


def add_config_options(parser: argparse.ArgumentParser, *trainers: Trainer, skip: tuple[str, ...] = ()) -> None:
    """One ``--flag`` per config field, with its default and help.  Several trainers may share one parser (the
    self-play ones): a field they have in common is one flag, and its help gives each trainer's default."""
    defaults: dict[str, list[tuple[str, Any]]] = {}
    helps: dict[str, tuple[Any, str]] = {}
    for each in trainers:
        hints = typing.get_type_hints(each.config_class)
        for f in dataclasses.fields(each.config_class):
            if f.name in skip:
                continue
            default = f.default if f.default is not dataclasses.MISSING else f.default_factory()  # type: ignore[misc]
            defaults.setdefault(f.name, []).append((each.name, _shown(hints[f.name], default)))
            helps.setdefault(f.name, (hints[f.name], f.metadata["help"]))
    for name, shown in defaults.items():
        kind, text = helps[name]
        if all(value is None for _, value in shown):
            pass  # the help says what no value means
        elif len({str(value) for _, value in shown}) == 1:
            text += f" (default: {shown[0][1]})"
        else:
            text += " (default: " + "; ".join(f"{who}: {value}" for who, value in shown) + ")"
        flag = "--" + name.replace("_", "-")
        if kind is bool:
            parser.add_argument(flag, action=argparse.BooleanOptionalAction, default=argparse.SUPPRESS, help=text)
        else:
            parser.add_argument(flag, type=_converter(kind), default=argparse.SUPPRESS, help=text)


# -- start or resume --------------------------------------------------------------------
def run_folder(chosen: Trainer, env: str, out: str | None) -> Path:
    return Path(out or f"runs/{env}{chosen.suffix}")


def build_config(chosen: Trainer, env: str, given: dict[str, Any], resume: bool) -> Any:
    """The config a run starts from: ``given`` (the flags set, ``out`` among them) for a new run; for
    ``resume``, the run's saved ``config.json`` with only ``chosen.resumable`` options changed.

    Raises ``SystemExit`` with the reason where the flags do not fit the trainer, the run folder already holds
    another run, or a resume would change what the run was trained with.
    """
    names = {f.name for f in dataclasses.fields(chosen.config_class)}
    foreign = set(given) - names
    if foreign:
        flags = ", ".join("--" + k.replace("_", "-") for k in sorted(foreign))
        raise SystemExit(f"{flags}: not an option of the {chosen.name} trainer")
    if isinstance(given.get("players"), list) and chosen.name not in ("batched", "rllib", "league"):
        raise SystemExit(
            "--players: a list of table sizes needs the batched trainer or the rllib one (selfplay "
            "--trainer batched|rllib)"
        )
    from bidbluff.training.run import check_time_limit

    check_time_limit(given.get("time_limit"))
    out = Path(given["out"])
    if not resume:
        if (out / "checkpoints").exists() and any((out / "checkpoints").iterdir()):
            raise SystemExit(f"{out} already holds a run: pass --resume to continue it or --out for a new one")
        return chosen.config_class(env=env, **given)
    saved_path = out / "config.json"
    if not saved_path.exists():
        raise SystemExit(f"--resume: {saved_path} does not exist (no run to resume there)")
    saved = json.loads(saved_path.read_text())
    if saved.get("time_limit") == 0:
        saved["time_limit"] = None  # how runs before --time-limit's check wrote "no limit"
    if set(saved) - names:
        extra = sorted(set(saved) - names)
        fits = [
            other.command
            for other in map(trainer, ("train", *SELFPLAY_TRAINERS))
            if set(saved) <= {f.name for f in dataclasses.fields(other.config_class)}
        ]
        hint = f"; it is a run of `{fits[0]}`: resume it with that command" if fits else ""
        raise SystemExit(f"--resume: {saved_path} is not a run of this trainer (it has options {extra}){hint}")
    given = {"env": env, **given}
    changed = [k for k, v in given.items() if k not in chosen.resumable and saved.get(k) != v]
    if changed:
        raise SystemExit(
            f"--resume keeps the run's options; cannot change {', '.join(sorted(changed))} "
            f"(only {', '.join(chosen.resumable)})"
        )
    return chosen.config_class(**{**saved, **given})
