"""Train a MaskablePPO policy on one bidbluff env against fixed opponents.

Reads top to bottom, as CleanRL's ``ppo.py`` does: every hyperparameter is a
field of ``TrainConfig`` (a named ``bidbluff train`` option with a default),
saved to ``<out>/config.json`` and to every checkpoint's sidecar.

Run layout (``--out``, default ``runs/<env>``)::

    config.json                  the options of the run
    progress.csv                 one row per rollout: steps, speed, episode stats, PPO losses
    eval.csv                     per checkpoint and training opponent: the greedy policy's win share
    checkpoints/step_<N>.zip     the SB3 save (weights, optimizer state, step count) ...
    checkpoints/step_<N>.json    ... and its sidecar (see ``bidbluff.agents.policy``)
    final.zip / final.json       the last checkpoint, to play with ``bidbluff.agents.make("runs/<env>/final.zip")``
    tb/                          TensorBoard events, when tensorboard is installed

``--resume`` continues an interrupted run from its newest intact checkpoint
(weights, optimizer state and step count as saved) up to ``--total-steps``;
``progress.csv`` and ``eval.csv`` are cut back to that checkpoint's step and
the ``seconds`` column carries on.  SIGINT or SIGTERM ends a run at its next
step with a checkpoint and ``final.zip`` (``StopSignals``, ``RunInterruptedError``;
the command line then exits 130).  Checkpoints are written whole or not at all
(``bidbluff.agents.policy.write_checkpoint``).  Opponents come from a league of the
``--opponents`` agents (``bidbluff.training.league``), drawn uniformly.

This trainer saves stable-baselines3 ``MaskablePPO`` zips (the older checkpoint
format; ``bidbluff.agents.load`` plays them, ``bidbluff.training.convert`` rewrites them).
"""

from __future__ import annotations

import dataclasses
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from bidbluff import envs
from bidbluff.agents.networks import sb3_custom_objects
from bidbluff.agents.policy import (
    checkpoint_paths,
    write_checkpoint,
)
from bidbluff.training.progress import RunProgress
from bidbluff.training.run import Run, run_meta, tensorboard_available


@dataclass
class TrainConfig:
    """Every option of a training run; ``help`` metadata is the command-line help."""

    env: str = field(metadata={"help": "registered env to train on"})
    players: int | None = field(default=None, metadata={"help": "seats (default: the game's default)"})
    env_options: dict[str, Any] = field(default_factory=dict, metadata={"help": "env options as JSON"})
    opponents: list[str] = field(
        default_factory=lambda: ["random"],
        metadata={"help": "opponent agent specs, comma-separated; each opponent seat draws one per episode"},
    )
    reward_mode: str = field(default="win", metadata={"help": "env reward mode: win, rank or score"})
    total_steps: int = field(default=200_000, metadata={"help": "learner decisions to train for, in all"})
    time_limit: float | None = field(
        default=None, metadata={"help": "stop after this many seconds of this session (default: no limit)"}
    )
    num_envs: int = field(default=4, metadata={"help": "envs stepped together (DummyVecEnv)"})
    learning_rate: float = field(default=3e-4, metadata={"help": "Adam learning rate"})
    n_steps: int = field(default=512, metadata={"help": "steps per env per rollout"})
    batch_size: int = field(default=256, metadata={"help": "minibatch size"})
    n_epochs: int = field(default=4, metadata={"help": "optimisation epochs per rollout"})
    gamma: float = field(default=0.995, metadata={"help": "discount factor"})
    gae_lambda: float = field(default=0.95, metadata={"help": "GAE lambda"})
    clip_range: float = field(default=0.2, metadata={"help": "PPO clip range"})
    ent_coef: float = field(default=0.01, metadata={"help": "entropy bonus coefficient"})
    vf_coef: float = field(default=0.5, metadata={"help": "value loss coefficient"})
    max_grad_norm: float = field(default=0.5, metadata={"help": "gradient clipping norm"})
    net_arch: list[int] = field(
        default_factory=lambda: [256, 256], metadata={"help": "hidden layer sizes of the policy and value nets"}
    )
    seed: int = field(default=0, metadata={"help": "seeds torch, the deals and the opponents"})
    checkpoint_every: int = field(default=50_000, metadata={"help": "steps between checkpoints"})
    eval_games: int = field(default=40, metadata={"help": "evaluation games per checkpoint (0: none)"})
    torch_threads: int = field(default=1, metadata={"help": "torch CPU threads"})
    out: str = field(default="", metadata={"help": "run directory (default runs/<env>)"})


# Options that ``--resume`` may change; the others define the run and must stay as they were.
RESUMABLE = ("total_steps", "time_limit", "checkpoint_every", "eval_games", "torch_threads")


def config_to_json(config: TrainConfig) -> dict[str, Any]:
    return dataclasses.asdict(config)


def config_from_json(data: dict[str, Any]) -> TrainConfig:
    names = {f.name for f in dataclasses.fields(TrainConfig)}
    unknown = set(data) - names
    if unknown:
        raise ValueError(f"unknown training options {sorted(unknown)}")
    return TrainConfig(**data)


# -- the pieces ------------------------------------------------------------------
def make_vec_env(config: TrainConfig, league: Any = None) -> Any:
    """``num_envs`` learner views in a DummyVecEnv, each with its own seed; opponents from ``league``
    (shared: the self-play league) or, by default, each view's own league of ``config.opponents``."""
    from stable_baselines3.common.monitor import Monitor
    from stable_baselines3.common.vec_env import DummyVecEnv

    from bidbluff.training.gym_env import SingleAgentView

    def factory(i: int) -> Any:
        seed = config.seed * 1000 + i
        opponents = league if league is not None else config.opponents
        return lambda: Monitor(
            SingleAgentView(config.env, opponents, config.players, config.env_options, config.reward_mode, seed=seed)
        )

    return DummyVecEnv([factory(i) for i in range(config.num_envs)])


def new_model(config: TrainConfig, vec_env: Any, tensorboard: str | None) -> Any:
    from sb3_contrib import MaskablePPO

    return MaskablePPO(
        "MlpPolicy",
        vec_env,
        learning_rate=config.learning_rate,
        n_steps=config.n_steps,
        batch_size=config.batch_size,
        n_epochs=config.n_epochs,
        gamma=config.gamma,
        gae_lambda=config.gae_lambda,
        clip_range=config.clip_range,
        ent_coef=config.ent_coef,
        vf_coef=config.vf_coef,
        max_grad_norm=config.max_grad_norm,
        policy_kwargs={"net_arch": {"pi": list(config.net_arch), "vf": list(config.net_arch)}},
        tensorboard_log=tensorboard,
        seed=config.seed,
        device="cpu",
        verbose=0,
    )


def checkpoint_meta(
    config: TrainConfig, steps: int, evaluation: list[dict[str, Any]], num_players: int
) -> dict[str, Any]:
    """The sidecar of a MaskablePPO checkpoint (``bidbluff.agents.policy`` adds the format and the zip's hash)."""
    import sb3_contrib
    import stable_baselines3

    meta = run_meta(
        config,
        steps,
        evaluation,
        num_players,
        "MaskablePPO",
        stable_baselines3=stable_baselines3.__version__,
        sb3_contrib=sb3_contrib.__version__,
    )
    return {**meta, "policy": "MlpPolicy"}


class LiveActor:
    """A live stable-baselines3 policy as ``PolicyAgent``'s network: its action logits, current weights."""

    def __init__(self, policy: Any) -> None:
        self.policy = policy

    def logits(self, obs: Any) -> Any:
        p = self.policy
        return p.action_net(p.mlp_extractor.forward_actor(p.extract_features(obs, p.pi_features_extractor)))


PROGRESS_COLUMNS = [
    "step", "seconds", "steps_per_s", "episodes", "ep_reward_mean", "ep_win_rate", "ep_length_mean",
    "policy_loss", "value_loss", "entropy_loss", "approx_kl", "clip_fraction", "explained_variance", "learning_rate",
]  # fmt: skip


def make_callback(config: TrainConfig, core: Run, on_save: Any = None, bar: Any = None) -> Any:
    """Logs a CSV row per rollout (and moves ``bar``, a ``RunProgress``); checkpoints (with an evaluation)
    every ``checkpoint_every`` steps; ``on_save(path, steps)`` after each checkpoint (the self-play league
    adds it to its pool); ends the run at the time limit or when a stop signal came."""
    from stable_baselines3.common.callbacks import BaseCallback

    class RunCallback(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            self.wins: deque[float] = deque(maxlen=100)
            self.episodes = 0

        def _on_step(self) -> bool:
            for done, info in zip(self.locals["dones"], self.locals["infos"], strict=True):
                if done:
                    self.episodes += 1
                    self.wins.append(info.get("won", 0.0))
            return not (core.stop or core.out_of_time())

        def _on_rollout_start(self) -> None:
            # Here the weights, optimizer and step count agree: the last rollout has been trained on.
            core.steps = self.num_timesteps
            if core.checkpoint_due():
                self.save()

        def _on_rollout_end(self) -> None:
            values = self.model.logger.name_to_value
            buffer = self.model.ep_info_buffer
            core.steps = self.num_timesteps
            row = {
                **core.row(),
                "episodes": self.episodes,
                "ep_reward_mean": float(np.mean([e["r"] for e in buffer])) if buffer else "",
                "ep_win_rate": float(np.mean(self.wins)) if self.wins else "",
                "ep_length_mean": float(np.mean([e["l"] for e in buffer])) if buffer else "",
            }
            for key in PROGRESS_COLUMNS[7:]:
                name = f"train/{key}" if key != "policy_loss" else "train/policy_gradient_loss"
                if name in values:
                    row[key] = float(values[name])
            core.progress.write(row)
            if bar is not None:
                bar.update(self.num_timesteps)
            if self.wins:
                self.logger.record("rollout/win_rate", row["ep_win_rate"])

        def save(self) -> Path:
            core.steps = self.num_timesteps
            for result in core.evaluate(LiveActor(self.model.policy)):
                self.logger.record(f"eval/win_share_vs_{result['opponent']}", result["win_share"])
            path = write_checkpoint(
                core.checkpoint_path(),
                self.model.save,
                checkpoint_meta(config, core.steps, core.evaluation, core.num_players),
            )
            if on_save is not None:
                on_save(path, core.steps)
            return path

    return RunCallback()


# -- the run -------------------------------------------------------------------------
def train(config: TrainConfig, resume: bool = False, progress_bar: bool = True, selfplay: Any = None) -> Path:
    """Train (or resume) a run; returns the final checkpoint's zip path.

    ``selfplay`` (``bidbluff.training.selfplay.SelfPlay``): opponents come from its league instead of
    ``config.opponents``; it sees the live model and every checkpoint, and is saved with the run.
    SIGINT or SIGTERM end the run at its next step with a checkpoint and ``final.zip``, then raise
    ``RunInterruptedError``.
    """
    import torch
    from sb3_contrib import MaskablePPO

    envs.load(config.env)  # a clear error for an unknown env
    out = Path(config.out or f"runs/{config.env}")
    torch.set_num_threads(config.torch_threads)
    num_players = config.players or envs.game(config.env, **config.env_options).default_players
    if config.checkpoint_every < 1 or config.total_steps < 1:
        raise ValueError("total_steps and checkpoint_every must be positive")
    core = Run(config, out, PROGRESS_COLUMNS, num_players, resume)

    tensorboard = str(out / "tb") if tensorboard_available() else None
    vec_env = make_vec_env(config, league=selfplay.league if selfplay is not None else None)
    if core.resumed is not None:
        path = core.resumed[0]
        model = MaskablePPO.load(
            path, env=vec_env, device="cpu", tensorboard_log=tensorboard, custom_objects=sb3_custom_objects(path)
        )
        core.steps = int(model.num_timesteps)
        core.evaluation = [row for row in core.evaluation if row["step"] <= core.steps]
    else:
        model = new_model(config, vec_env, tensorboard)
    core.open()

    start = core.steps
    on_save = None
    if selfplay is not None:
        if resume:
            selfplay.load(out, up_to_step=start)
        selfplay.attach(model, out)
        on_save = selfplay.add_snapshot
    remaining = config.total_steps - start
    rollout = config.n_steps * config.num_envs
    planned = start + -(-max(remaining, 0) // rollout) * rollout  # learn() stops on whole rollouts
    core.start_clock()
    with core.stop, RunProgress(planned, start, config.time_limit, progress_bar, config.env) as bar:
        callback = make_callback(config, core, on_save, bar)
        if remaining > 0:
            model.learn(
                total_timesteps=remaining,
                callback=callback,
                reset_num_timesteps=False,
                progress_bar=False,
                tb_log_name="ppo",
            )
        callback.model = model
        core.steps = int(model.num_timesteps)
        final = core.checkpoint_path()
        if not checkpoint_paths(final)[1].exists():
            final = callback.save()
        vec_env.close()
        return core.finish(final)
