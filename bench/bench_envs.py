"""Random-legal-play throughput of every registered env.

Each timed run plays whole games with uniform random legal actions: every
agent step calls ``env.last()`` (which builds the observation and the action
mask, as a learner would) and draws one action from the mask with a seeded
``numpy.random.Generator``; finished agents get ``step(None)``.  Each env is
measured through ``env()`` (PettingZoo's wrappers) and through ``raw_env``.

    python bench/bench_envs.py                      # all envs, 4 players, 5 x 3 s each
    python bench/bench_envs.py --players 2 --seconds 1 --repeats 3 --out bench.md

Prints a Markdown report (versions, CPU, one table row per env and API);
``--out FILE`` writes the same report to FILE.  Not a test: numbers depend on
the machine and on whatever else runs on it.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import numpy as np

import envs

APIS = ("env", "raw_env")


@dataclass(frozen=True)
class Run:
    """One timed run: whole games played until ``seconds`` had passed."""

    steps: int  # agent steps that chose an action (step(None) for finished agents not counted)
    games: int
    elapsed: float

    @property
    def steps_per_s(self) -> float:
        return self.steps / self.elapsed

    @property
    def games_per_s(self) -> float:
        return self.games / self.elapsed


@dataclass(frozen=True)
class Row:
    env_name: str
    api: str
    players: int
    runs: tuple[Run, ...]
    options: str = ""


# Setups measured besides the default table size: the betting env is also the
# classic Liar's-dice benchmark, compared at its smallest and a large size.
EXTRA_SETUPS: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "liars_dice_v0": [(2, {"dice": 1}), (4, {"dice": 5})],
}


def play_game(env: Any, rng: np.random.Generator) -> int:
    """Play ``env`` (already reset) to the end with uniform legal actions; return the agent steps taken."""
    steps = 0
    for _agent in env.agent_iter():
        obs, _reward, termination, truncation, _info = env.last()
        if termination or truncation:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
        steps += 1
    return steps


def timed_run(make_env: Callable[[], Any], seconds: float, seed: int) -> Run:
    """Play whole games on one env until ``seconds`` have passed (at least one game)."""
    env = make_env()
    rng = np.random.default_rng(seed)
    steps = games = 0
    start = time.perf_counter()
    while True:
        env.reset(seed=seed + games)
        steps += play_game(env, rng)
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
    env.close()
    return Run(steps=steps, games=games, elapsed=elapsed)


def bench_env(
    env_name: str,
    api: str,
    players: int,
    seconds: float,
    repeats: int,
    seed: int,
    options: dict[str, Any] | None = None,
) -> Row:
    module = envs.load(env_name)
    factory = module.env if api == "env" else module.raw_env
    options = options or {}

    def make_env() -> Any:
        return factory(num_players=players, **options)

    timed_run(make_env, 0.0, seed)  # warm-up: one game, imports and caches
    runs = tuple(timed_run(make_env, seconds, seed + 1_000_003 * (i + 1)) for i in range(repeats))
    label = ", ".join(f"{k}={v}" for k, v in options.items())
    return Row(env_name=env_name, api=api, players=players, runs=runs, options=label)


def player_range(env_name: str) -> tuple[int, int]:
    game = envs.load(env_name).raw_env.game
    return game.min_players, game.max_players


# -- report -------------------------------------------------------------------------
def package_version(name: str) -> str:
    try:
        return version(name)
    except PackageNotFoundError:
        return "not installed"


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def environment_lines() -> list[str]:
    return [
        f"- python {platform.python_version()} ({platform.python_implementation()}), {platform.platform()}",
        f"- numpy {np.__version__}, pettingzoo {package_version('pettingzoo')}, "
        f"gymnasium {package_version('gymnasium')}",
        f"- CPU: {cpu_model()}, {os.cpu_count()} logical CPUs (the bench uses one)",
    ]


def spread(values: Sequence[float], fmt: str) -> list[str]:
    return [format(min(values), fmt), format(statistics.median(values), fmt), format(max(values), fmt)]


def table(rows: Sequence[Row]) -> list[str]:
    lines = [
        "| env | API | players | options | steps/s min | steps/s median | steps/s max "
        "| games/s min | games/s median | games/s max | steps/game | games |",
        "|---|---|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for row in rows:
        steps = spread([r.steps_per_s for r in row.runs], ",.0f")
        games = spread([r.games_per_s for r in row.runs], ".2f")
        total_games = sum(r.games for r in row.runs)
        per_game = sum(r.steps for r in row.runs) / total_games
        api = "`env()`" if row.api == "env" else "`raw_env()`"
        cells = [
            row.env_name,
            api,
            str(row.players),
            row.options or "-",
            *steps,
            *games,
            f"{per_game:.1f}",
            str(total_games),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def report(rows: Sequence[Row], skipped: Sequence[str], args: argparse.Namespace) -> str:
    lines = [
        "# Env throughput: random legal play",
        "",
        *environment_lines(),
        f"- {args.repeats} runs of {args.seconds:g} s per row (whole games; min/median/max over runs), "
        f"seed {args.seed}",
        "",
        *(table(rows) if rows else ["No env measured."]),
    ]
    if skipped:
        lines += ["", *(f"- skipped {note}" for note in skipped)]
    return "\n".join(lines) + "\n"


# -- command line ---------------------------------------------------------------------
def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--envs", nargs="+", default=list(envs.ENVS), help="envs to measure (default: all registered)")
    parser.add_argument("--players", type=int, default=4, help="seats at the table (default: 4)")
    parser.add_argument("--api", choices=(*APIS, "both"), default="both", help="which constructor (default: both)")
    parser.add_argument("--seconds", type=float, default=3.0, help="length of one timed run (default: 3)")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per env and API (default: 5)")
    parser.add_argument("--seed", type=int, default=0, help="base seed for resets and action picks (default: 0)")
    parser.add_argument("--no-extra", action="store_true", help="skip the extra setups (liars_dice 2x1, 4x5)")
    parser.add_argument("--out", type=Path, default=None, help="also write the Markdown report to this file")
    args = parser.parse_args(argv)
    unknown = [name for name in args.envs if name not in envs.ENVS]
    if unknown:
        parser.error(f"unknown env(s) {', '.join(unknown)}; registered: {', '.join(envs.ENVS)}")
    if args.seconds < 0 or args.repeats < 1:
        parser.error("--seconds must be >= 0 and --repeats >= 1")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    apis = APIS if args.api == "both" else (args.api,)
    rows: list[Row] = []
    skipped: list[str] = []
    for name in args.envs:
        low, high = player_range(name)
        setups = [(args.players, {})] + ([] if args.no_extra else EXTRA_SETUPS.get(name, []))
        for players, options in setups:
            if not low <= players <= high:
                skipped.append(f"{name}: {players} players is outside {low}-{high}")
                continue
            for api in apis:
                print(f"measuring {name} {players}p {options or ''} via {api}() ...", file=sys.stderr, flush=True)
                rows.append(bench_env(name, api, players, args.seconds, args.repeats, args.seed, options))
    text = report(rows, skipped, args)
    print(text, end="")
    if args.out is not None:
        args.out.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
