"""Self-play PPO on Ray RLlib (new API stack): ``bidbluff selfplay <env> --trainer rllib``.

For a cluster, or many cores: RLlib's env runners play the games on any node of a Ray cluster
(``--address``), its learner updates one network that every learner seat shares.  This module holds only
the run's options (no Ray import: the command line lists them without the ``rllib`` extra); the pieces:

* ``training.rllib.env``: ``TableEnv``, a ``MultiAgentEnv`` adapter of our AEC envs.  Not RLlib's
  ``PettingZooEnv``: that wrapper fixes the agents at its construction (one table size) and hands every
  seat to a module, so a heuristic (which may read the engine: ``needs_env``) could not sit at the
  table.  The adapter seats each game from the league (``training.league``, drawn on the driver and sent
  to the env runners as PFSP weights): baselines act inside the adapter (no module round trip, any
  agent works); the learner's seats and the snapshots' seats are RLlib agents named
  ``player_<seat>/<module>``, so the policy mapping is the name's suffix (``module_of``).
* ``training.rllib.module``: ``MaskedActorCritic``, an RLModule whose network *is*
  ``agents.networks.ActorCritic`` with illegal actions' logits masked, so weights copy to and from the
  project's checkpoints one to one (export, ``--init``).
* ``training.rllib.trainer``: the run.  Snapshots are frozen modules ``pool_0 .. pool_<pool_max - 1>``
  (a ring: generation k sits in slot (k - 1) mod pool_max), never trained.

Run layout (``--out``, default ``runs/<env>-rllib``): ``config.json``, ``progress.csv``, ``eval.csv``,
``checkpoints/step_<N>.zip|.json`` (the project's format; the sidecar holds the league), ``rllib/step_<N>/``
(RLlib's own checkpoint: optimizer and every module; ``--resume`` restores the newest one that has its
project checkpoint), ``final.zip|.json``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class RllibConfig:
    """Every option of an RLlib self-play run; ``help`` metadata is the command-line help."""

    env: str = field(metadata={"help": "registered env to train on"})
    players: int | list[int] | None = field(default=None,
                                            metadata={"help": "seats, or a list of table sizes each game draws from "
                                                              "(default: the game's default)"})  # fmt: skip
    env_options: dict[str, Any] = field(default_factory=dict, metadata={"help": "env options as JSON"})
    opponents: list[str] = field(default_factory=lambda: ["heuristic"],
                                 metadata={"help": "fixed pool opponents (agent specs, comma-separated); also "
                                                   "the opponents of every evaluation"})  # fmt: skip
    reward_mode: str = field(default="win", metadata={"help": "env reward mode: win, rank or score"})
    total_steps: int = field(default=2_000_000, metadata={"help": "learner decisions to train on, in all"})
    time_limit: float | None = field(default=None, metadata={"help": "stop after this many seconds of this session "
                                                                     "(default: no limit)"})
    address: str = field(default="local", metadata={"help": "rllib: Ray cluster to run on (host:port of a `ray "
                                                            "start --head`, 'auto' for the one this node joined) "
                                                            "or 'local' (a Ray instance of this process)"})
    num_env_runners: int = field(default=1, metadata={"help": "rllib: env runner processes playing games (0: the "
                                                              "driver plays them itself)"})
    num_envs_per_env_runner: int = field(default=8, metadata={"help": "rllib: games each env runner plays side "
                                                                      "by side (one batched forward per step)"})
    rollout_steps: int = field(default=8192, metadata={"help": "decisions of network seats per update (RLlib's "
                                                               "train_batch_size_per_learner)"})
    learning_rate: float = field(default=3e-4, metadata={"help": "Adam learning rate"})
    n_epochs: int = field(default=2, metadata={"help": "optimisation epochs per rollout"})
    minibatch_size: int = field(default=256, metadata={"help": "minibatch size"})
    gamma: float = field(default=0.995, metadata={"help": "discount per decision of a seat"})
    gae_lambda: float = field(default=0.95, metadata={"help": "GAE lambda"})
    clip_range: float = field(default=0.2, metadata={"help": "PPO clip range"})
    ent_coef: float = field(default=0.01, metadata={"help": "entropy bonus coefficient"})
    vf_coef: float = field(default=0.5, metadata={"help": "value loss coefficient"})
    max_grad_norm: float = field(default=0.5, metadata={"help": "gradient clipping norm"})
    trunk: int = field(default=256, metadata={"help": "width of the hidden layer shared by policy and value"})
    net_arch: list[int] = field(default_factory=lambda: [128],
                                metadata={"help": "hidden layers of the policy and of the value head after the "
                                                  "trunk"})  # fmt: skip
    init: str = field(default="", metadata={"help": "a checkpoint of this env whose network (same layout and sizes) "
                                                    "this run starts from, a fine-tune ('': fresh)"})  # fmt: skip
    pool_fraction: float = field(default=0.25, metadata={"help": "share of seats given to pool opponents"})
    pool_max: int = field(default=10, metadata={"help": "newest snapshots kept in the pool"})
    pfsp_power: float = field(default=2.0, metadata={"help": "PFSP weight exponent: (1 - learner win rate)^p"})
    seed: int = field(default=0, metadata={"help": "seeds torch, the deals, the seating and the opponents"})
    checkpoint_every: int = field(default=200_000, metadata={"help": "learner decisions between checkpoints"})
    eval_games: int = field(default=40, metadata={"help": "evaluation games per checkpoint and opponent (0: none)"})
    max_game_steps: int = field(default=5_000, metadata={"help": "decisions after which a game is cut (looping)"})
    torch_threads: int = field(default=1, metadata={"help": "torch CPU threads"})
    out: str = field(default="", metadata={"help": "run directory (default runs/<env>-rllib)"})


RESUMABLE = ("total_steps", "time_limit", "checkpoint_every", "eval_games", "torch_threads", "address",
             "num_env_runners", "num_envs_per_env_runner")  # fmt: skip


def train_rllib(config: RllibConfig, resume: bool = False, progress_bar: bool = True) -> Any:
    """Run (or resume) an RLlib self-play run; returns the final checkpoint's zip path.  Needs the ``rllib``
    extra (``pip install -e '.[rllib]'``): without Ray, a ``ValueError`` says so."""
    try:
        from training.rllib.trainer import RllibTrainer
    except ImportError as missing:
        raise ValueError(f"--trainer rllib needs the rllib extra: pip install -c constraints.txt -e '.[rllib]' "
                         f"({missing})") from None  # fmt: skip
    return RllibTrainer(config, resume=resume, progress_bar=progress_bar).run()
