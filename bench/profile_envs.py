"""Where an env's time goes in ``bench_envs.py``'s loop: the encoder's share, and a cProfile table.

For one setup (an env through ``env()``, its table size and options) the
script plays ``--games`` seeded games of random legal play three ways and
reports CPU microseconds per agent step (the best of ``--repeats``, so that
other work on the machine inflates it least):

- as it is;
- with the game's observation encoder replaced by a constant vector (the
  difference is what building observations costs);
- with a trivial env that does no work (the loop's own floor: ``agent_iter``,
  ``np.flatnonzero`` of the mask, the seeded draw), measured once;

then one profiled pass (cProfile, sorted by own time).  cProfile adds a
constant to every Python call, so read its table for where, and the first
three lines for how much.

    python bench/profile_envs.py libertalia_v0
    python bench/profile_envs.py liars_dice_v0 --players 2 --option dice=1 --option preset=classic --seed-once
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_envs

from bidbluff import envs


class _Idle:
    """An AEC env that does nothing: two agents, six turns (four decisions, two finished agents stepping out)."""

    def __init__(self, size: int, actions: int) -> None:
        self.obs = np.zeros(size, np.float32)
        self.mask = np.zeros(actions, np.int8)
        self.mask[:3] = 1
        self.turn = 0
        self.agents: list[str] = []

    def reset(self, seed: int | None = None) -> None:
        self.turn, self.agents = 0, ["player_0", "player_1"]

    def agent_iter(self) -> Any:
        while self.agents:
            yield "player_0"

    def last(self) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        return {"observation": self.obs.copy(), "action_mask": self.mask.copy()}, 0.0, self.turn >= 4, False, {}

    def step(self, action: int | None) -> None:
        self.turn += 1
        if self.turn >= 6:
            self.agents = []


def per_step(env: Any, games: int, repeats: int, seed_once: bool) -> float:
    """Best CPU microseconds per agent step over ``repeats`` passes of ``games`` games."""
    best = float("inf")
    for _ in range(repeats):
        rng = np.random.default_rng(0)
        steps = 0
        start = time.process_time()
        for game in range(games):
            if seed_once and game:
                env.reset()
            else:
                env.reset(seed=game)
            steps += bench_envs.play_game(env, rng)
        best = min(best, (time.process_time() - start) / steps * 1e6)
    return best


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("env", choices=list(envs.ENVS))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a setup option")
    parser.add_argument("--games", type=int, default=0, help="games per pass (default: about 5,000 steps' worth)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed-once", action="store_true", help="reset(seed=...) for the first game only")
    parser.add_argument("--top", type=int, default=25, help="rows of the cProfile table")
    args = parser.parse_args(argv)
    options: dict[str, Any] = {}
    for spec in args.option:
        name, _, value = spec.partition("=")
        options[name] = int(value) if value.isdigit() else value
    make = bench_envs.env_factory(args.env, "env", args.players, options)
    env = make()
    env.reset(seed=0)
    steps = bench_envs.play_game(env, np.random.default_rng(0))
    games = args.games or max(1, 5000 // max(steps, 1))
    whole = per_step(env, games, args.repeats, args.seed_once)
    blind = make()
    constant = np.zeros(blind.unwrapped.game.observation_size, np.float32)
    blind.unwrapped.game.encode = lambda state, seat: constant  # an instance attribute: this env only
    unencoded = per_step(blind, games, args.repeats, args.seed_once)
    game = env.unwrapped.game
    floor = per_step(_Idle(game.observation_size, game.codec.n), 2000, args.repeats, False)
    setup = f"{args.env} {args.players}p {options or ''}"
    print(f"{setup} ({games} games a pass, CPU us per agent step, best of {args.repeats})")
    print(f"  whole loop          {whole:8.2f}")
    share = f"observations: {whole - unencoded:.2f}, {1 - unencoded / whole:.0%}"
    print(f"  without observation {unencoded:8.2f}  ({share})")
    print(f"  loop floor          {floor:8.2f}  (the bench loop around a do-nothing env)")
    profile = cProfile.Profile()
    profile.enable()
    per_step(env, games, 1, args.seed_once)
    profile.disable()
    pstats.Stats(profile, stream=sys.stdout).sort_stats("tottime").print_stats(args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
