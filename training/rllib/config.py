"""The options of an RLlib self-play run (``RllibConfig``), and those ``--resume`` may change: no Ray import,
so that the command line lists them without the ``rllib`` extra."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from bidbluff.training.batched import BatchedConfig

_BATCHED = {f.name: f for f in dataclasses.fields(BatchedConfig)}


def as_batched(name: str) -> Any:
    """The batched trainer's option ``name`` as it is there (default and help): the options both trainers
    share are written once."""
    shared = _BATCHED[name]
    if shared.default_factory is not dataclasses.MISSING:
        return field(default_factory=shared.default_factory, metadata=shared.metadata)
    return field(default=shared.default, metadata=shared.metadata)


@dataclass
class RllibConfig:
    """Every option of an RLlib self-play run; ``help`` metadata is the command-line help."""

    env: str = field(metadata={"help": "registered env to train on"})
    players: int | list[int] | None = field(
        default=None,
        metadata={"help": "seats, or a list of table sizes each game draws from (default: the game's default)"},
    )
    env_options: dict[str, Any] = as_batched("env_options")  # noqa: RUF009 - a field(default_factory=...)
    opponents: list[str] = as_batched("opponents")  # noqa: RUF009 - a field(default_factory=...)
    reward_mode: str = as_batched("reward_mode")
    total_steps: int = as_batched("total_steps")
    time_limit: float | None = as_batched("time_limit")
    address: str = field(
        default="local",
        metadata={
            "help": "rllib: Ray cluster to run on (host:port of a `ray "
            "start --head`, 'auto' for the one this node joined) "
            "or 'local' (a Ray instance of this process)"
        },
    )
    num_env_runners: int = field(
        default=1, metadata={"help": "rllib: env runner processes playing games (0: the driver plays them itself)"}
    )
    num_envs_per_env_runner: int = field(
        default=8, metadata={"help": "rllib: games each env runner plays side by side (one batched forward per step)"}
    )
    rollout_steps: int = field(
        default=8192, metadata={"help": "decisions of network seats per update (RLlib's train_batch_size_per_learner)"}
    )
    learning_rate: float = as_batched("learning_rate")
    n_epochs: int = field(default=2, metadata={"help": "optimisation epochs per rollout"})
    minibatch_size: int = as_batched("minibatch_size")
    gamma: float = as_batched("gamma")
    gae_lambda: float = as_batched("gae_lambda")
    clip_range: float = as_batched("clip_range")
    ent_coef: float = as_batched("ent_coef")
    vf_coef: float = as_batched("vf_coef")
    max_grad_norm: float = as_batched("max_grad_norm")
    trunk: int = as_batched("trunk")
    net_arch: list[int] = as_batched("net_arch")  # noqa: RUF009 - a field(default_factory=...)
    init: str = as_batched("init")
    pool_fraction: float = as_batched("pool_fraction")
    pool_max: int = as_batched("pool_max")
    pfsp_power: float = as_batched("pfsp_power")
    seed: int = as_batched("seed")
    checkpoint_every: int = as_batched("checkpoint_every")
    eval_games: int = as_batched("eval_games")
    max_game_steps: int = as_batched("max_game_steps")
    torch_threads: int = as_batched("torch_threads")
    out: str = field(default="", metadata={"help": "run directory (default runs/<env>-rllib)"})


RESUMABLE = (
    "total_steps",
    "time_limit",
    "checkpoint_every",
    "eval_games",
    "torch_threads",
    "address",
    "num_env_runners",
    "num_envs_per_env_runner",
)
