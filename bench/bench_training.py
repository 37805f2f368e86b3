"""Training throughput: learner steps/s of each trainer on each game, and the env's share of the time.

One row per (trainer, env, ``n_envs``).  A measurement builds the trainer,
then times a short run of it (a few thousand learner steps) and reports:

- steps/s: learner steps (the trainer's own count) over the run's wall time;
- env wait share: the wall time the trainer spent waiting on the env (the
  vectorised env's ``reset``, ``step`` and ``env_method("action_masks")``
  calls, inter-process traffic included) over the run's wall time;
- env busy share: the seconds spent inside the envs themselves (a timer around
  ``reset``/``step``/``action_masks`` in every worker, which also covers the
  opponents acting inside ``step``), averaged over the workers, over the wall
  time.  With more workers than cores a worker's seconds include waiting for a
  core, so read this one for ``n_envs`` up to the core count.  This is the
  env's own cost, and the one the ``--target`` verdict (20%) is about; the
  gap between the two shares is ``SubprocVecEnv``'s pipes and pickling.

Trainers (``TRAINERS``): ``batched_ppo`` is ``bidbluff selfplay --trainer batched``
with its defaults (64 games in one process, every seat learning; its n_envs
column shows the games; env share from its own timer); ``maskable_ppo`` is sb3-contrib's MaskablePPO as
``bidbluff train`` builds it (``bidbluff.training.train.new_model`` with the default
``TrainConfig``: MLP 256x256, n_steps 512, batch 256, 4 epochs, one torch
thread) on ``bidbluff.training.gym_env.SingleAgentView`` against "random" opponents, in
a ``SubprocVecEnv`` of ``n_envs`` workers.  Another trainer is another entry:
a function ``(env_name, n_envs, steps, seed) -> Measurement`` that times its
own loop the same way.

    python bench/bench_training.py                       # every env, n_envs 1 and 4
    python bench/bench_training.py --envs liars_dice_v0 --n-envs 1 --steps 1024
    python bench/bench_training.py --out /tmp/training.md

Prints a Markdown report (versions, CPU, load, one row per measurement);
``--out FILE`` writes it to FILE too.  Not a test: numbers depend on the
machine and on whatever else runs on it.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
from bench_envs import environment_lines, load_line, package_version  # bench/ is the script's sys.path[0]

from bidbluff import envs


@dataclass(frozen=True)
class Measurement:
    trainer: str
    env_name: str
    players: int
    n_envs: int
    steps: int  # learner steps taken in the timed run
    wall: float  # seconds of the timed run
    env_wait: float  # seconds the trainer waited on the env
    env_busy: float  # seconds inside the envs, averaged over the workers

    @property
    def steps_per_s(self) -> float:
        return self.steps / self.wall


class EnvTimer(gym.Wrapper):
    """Adds the seconds spent in ``reset``, ``step`` and ``action_masks`` to ``env_seconds``."""

    def __init__(self, env: gym.Env) -> None:
        super().__init__(env)
        self.env_seconds = 0.0

    def reset(self, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return self.env.reset(**kwargs)
        finally:
            self.env_seconds += time.perf_counter() - start

    def step(self, action: Any) -> Any:
        start = time.perf_counter()
        try:
            return self.env.step(action)
        finally:
            self.env_seconds += time.perf_counter() - start

    def action_masks(self) -> np.ndarray:
        start = time.perf_counter()
        try:
            return self.env.unwrapped.action_masks()
        finally:
            self.env_seconds += time.perf_counter() - start


def timed_vec_env(venv: Any) -> Any:
    """``venv`` inside a VecEnvWrapper that adds the seconds the trainer waits on it to ``wait_seconds``."""
    from stable_baselines3.common.vec_env import VecEnvWrapper

    class VecEnvTimer(VecEnvWrapper):
        def __init__(self, venv: Any) -> None:
            super().__init__(venv)
            self.wait_seconds = 0.0

        def reset(self) -> Any:
            start = time.perf_counter()
            try:
                return self.venv.reset()
            finally:
                self.wait_seconds += time.perf_counter() - start

        def step_async(self, actions: np.ndarray) -> None:
            start = time.perf_counter()
            try:
                self.venv.step_async(actions)
            finally:
                self.wait_seconds += time.perf_counter() - start

        def step_wait(self) -> Any:
            start = time.perf_counter()
            try:
                return self.venv.step_wait()
            finally:
                self.wait_seconds += time.perf_counter() - start

        def env_method(self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any) -> list[Any]:
            start = time.perf_counter()
            try:
                return self.venv.env_method(method_name, *args, indices=indices, **kwargs)
            finally:
                self.wait_seconds += time.perf_counter() - start

    return VecEnvTimer(venv)


def maskable_ppo(env_name: str, n_envs: int, steps: int, seed: int) -> Measurement:
    """sb3-contrib MaskablePPO, as ``bidbluff train`` configures it, in a SubprocVecEnv of ``n_envs``."""
    import torch
    from stable_baselines3.common.monitor import Monitor
    from stable_baselines3.common.vec_env import SubprocVecEnv

    from bidbluff.training.gym_env import SingleAgentView
    from bidbluff.training.train import TrainConfig, new_model

    config = TrainConfig(env=env_name, num_envs=n_envs, seed=seed)
    torch.set_num_threads(config.torch_threads)

    def factory(i: int) -> Callable[[], gym.Env]:
        def make() -> gym.Env:
            view = SingleAgentView(env_name, ["random"], config.players, config.env_options, seed=seed * 1000 + i)
            return Monitor(EnvTimer(view))

        return make

    vec_env = timed_vec_env(SubprocVecEnv([factory(i) for i in range(n_envs)]))
    try:
        model = new_model(config, vec_env, None)
        players = envs.game(env_name).default_players
        start = time.perf_counter()
        model.learn(total_timesteps=steps, progress_bar=False)
        wall = time.perf_counter() - start
        busy = sum(vec_env.get_attr("env_seconds")) / n_envs
        return Measurement(
            "maskable_ppo", env_name, players, n_envs, int(model.num_timesteps), wall, vec_env.wait_seconds, busy
        )
    finally:
        vec_env.close()


def batched_ppo(env_name: str, n_envs: int, steps: int, seed: int) -> Measurement:
    """bidbluff's batched self-play PPO (``bidbluff.training.batched``) with its defaults: one process, 64 games,
    every seat learning; ``n_envs`` is ignored (the row shows the games).  The env's share is the trainer's
    own timer around stepping the games and building their observations and masks."""
    import tempfile

    from bidbluff.training.batched import BatchedConfig, BatchedTrainer

    with tempfile.TemporaryDirectory() as out:
        config = BatchedConfig(env_name, opponents=[], pool_fraction=0.0, eval_games=0, seed=seed, out=out)
        config.rollout_steps = min(config.rollout_steps, steps)
        trainer = BatchedTrainer(config, progress_bar=False)
        for table in trainer.tables:
            trainer._start(table)
        start = time.perf_counter()
        while trainer.steps < steps:
            trainer.collect()
            trainer.update()
            trainer.steps += trainer.rollout.count
        wall = time.perf_counter() - start
        env_seconds = trainer.timers["env"]
        return Measurement(
            "batched_ppo",
            env_name,
            trainer.num_players,
            config.num_games,
            trainer.steps,
            wall,
            env_seconds,
            env_seconds,
        )


# Each trainer: (env_name, n_envs, steps, seed) -> Measurement.
TRAINERS: dict[str, Callable[[str, int, int, int], Measurement]] = {
    "maskable_ppo": maskable_ppo,
    "batched_ppo": batched_ppo,
}
SINGLE_PROCESS = {"batched_ppo"}  # measured once per env, whatever --n-envs says


# -- report -------------------------------------------------------------------------
def table(rows: Sequence[Measurement], target: float) -> list[str]:
    lines = [
        "| trainer | env | players | n_envs | steps | wall s | steps/s | env wait share | env busy share "
        f"| env busy <= {target:.0%} of wall |",
        "|---|---|--:|--:|--:|--:|--:|--:|--:|---|",
    ]
    for m in rows:
        busy = m.env_busy / m.wall
        verdict = "met" if busy <= target else "NOT met"
        lines.append(
            f"| {m.trainer} | {m.env_name} | {m.players} | {m.n_envs} | {m.steps} | {m.wall:.1f} "
            f"| {m.steps_per_s:,.0f} | {m.env_wait / m.wall:.1%} | {busy:.1%} | {verdict} |"
        )
    return lines


def speedups(rows: Sequence[Measurement], target: float = 5.0) -> list[str]:
    """The batched trainer's learner steps/s over MaskablePPO's best (any n_envs), per env."""
    lines = []
    for name in dict.fromkeys(m.env_name for m in rows):
        batched = [m.steps_per_s for m in rows if m.env_name == name and m.trainer == "batched_ppo"]
        sb3 = [m.steps_per_s for m in rows if m.env_name == name and m.trainer == "maskable_ppo"]
        if batched and sb3:
            ratio = batched[0] / max(sb3)
            lines.append(
                f"| {name} | {batched[0]:,.0f} | {max(sb3):,.0f} | {ratio:.1f}x | "
                f"{'met' if ratio >= target else 'NOT met'} |"
            )
    if not lines:
        return []
    return [
        "",
        f"batched_ppo against MaskablePPO's best n_envs (target: >= {target:g}x)",
        "",
        "| env | batched steps/s | MaskablePPO steps/s | ratio | target |",
        "|---|--:|--:|--:|---|",
        *lines,
    ]


def report(rows: Sequence[Measurement], args: argparse.Namespace, load: str) -> str:
    lines = [
        "# Training throughput",
        "",
        *environment_lines("the trainer's process plus n_envs workers"),
        f"- torch {package_version('torch')}, stable-baselines3 {package_version('stable-baselines3')}, "
        f"sb3-contrib {package_version('sb3-contrib')}",
        f"- per row: at least {args.steps} learner steps (the trainer rounds up to whole rollouts), "
        f"opponents random, seed {args.seed}",
        f"- machine load: {load}",
        "",
        *table(rows, args.target),
        *speedups(rows),
    ]
    return "\n".join(lines) + "\n"


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--envs", nargs="+", default=list(envs.ENVS), help="envs to train on (default: all)")
    parser.add_argument(
        "--trainers",
        nargs="+",
        default=list(TRAINERS),
        choices=list(TRAINERS),
        help="trainers to measure (default: all)",
    )
    parser.add_argument("--n-envs", nargs="+", type=int, default=[1, 4], help="workers per run (default: 1 4)")
    parser.add_argument("--steps", type=int, default=2048, help="learner steps per row (default: 2048)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the trainer and the deals (default: 0)")
    parser.add_argument("--target", type=float, default=0.20, help="env share to meet (default: 0.20)")
    parser.add_argument("--out", type=Path, default=None, help="also write the Markdown report to this file")
    args = parser.parse_args(argv)
    unknown = [name for name in args.envs if name not in envs.ENVS]
    if unknown:
        parser.error(f"unknown env(s) {', '.join(unknown)}; registered: {', '.join(envs.ENVS)}")
    if args.steps < 1 or min(args.n_envs) < 1:
        parser.error("--steps and --n-envs must be positive")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    load_before = load_line()
    rows = []
    for trainer in args.trainers:
        for name in args.envs:
            for n_envs in args.n_envs[:1] if trainer in SINGLE_PROCESS else args.n_envs:
                print(f"measuring {trainer} on {name}, n_envs={n_envs} ...", file=sys.stderr, flush=True)
                rows.append(TRAINERS[trainer](name, n_envs, args.steps, args.seed))
    text = report(rows, args, f"before {load_before}; after {load_line()}")
    print(text, end="")
    if args.out is not None:
        args.out.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
