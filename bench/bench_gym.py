"""Speed of the registered Gymnasium ids under ``gymnasium.make_vec``: learner steps per second (every copy's
steps together; the opponents' moves inside them), sync and async, at a few ``num_envs``.

The learner picks uniformly among its legal actions (from ``infos["action_mask"]``), so the figure is the
env's, not a policy's.  Each cell runs ``--seconds`` after a warm-up of ``--warmup`` vector steps; async
copies are worker processes, so on a machine with few cores they share them with the main process.

    python bench/bench_gym.py --env-id bidbluff/LiarsDice-v0 --num-players 4 --sizes 1 8 64
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym
import numpy as np

import bidbluff  # noqa: F401 - registers the ids


def legal_actions(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    # a copy whose game just ended has no legal action; its next action is ignored (next-step autoreset)
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])


def measure(env_id: str, mode: str, num_envs: int, seconds: float, warmup: int, **kwargs: object) -> float:
    envs = gym.make_vec(env_id, num_envs=num_envs, vectorization_mode=mode, **kwargs)
    rng = np.random.default_rng(0)
    _, infos = envs.reset(seed=0)
    for _ in range(warmup):
        _, _, _, _, infos = envs.step(legal_actions(rng, infos["action_mask"]))
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        _, _, _, _, infos = envs.step(legal_actions(rng, infos["action_mask"]))
        steps += num_envs
    rate = steps / (time.perf_counter() - start)
    envs.close()
    return rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--env-id", default="bidbluff/LiarsDice-v0")
    parser.add_argument("--num-players", type=int, default=4)
    parser.add_argument("--opponents", default="random")
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 8, 64])
    parser.add_argument("--modes", nargs="+", default=["sync", "async"])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--warmup", type=int, default=20)
    args = parser.parse_args()
    print(f"{args.env_id}, {args.num_players} players, opponents {args.opponents}: learner steps/s")
    print("| num_envs | " + " | ".join(args.modes) + " |")
    print("|--:|" + "--:|" * len(args.modes))
    options = {"num_players": args.num_players, "opponents": args.opponents}
    for n in args.sizes:
        rates = [measure(args.env_id, mode, n, args.seconds, args.warmup, **options) for mode in args.modes]
        print(f"| {n} | " + " | ".join(f"{r:,.0f}" for r in rates) + " |", flush=True)


if __name__ == "__main__":
    main()
