"""Instructions per agent step, counted by valgrind's callgrind: the bench loop's figure that repeats.

Wall-clock and CPU-time rates move with the machine's load; the number of
instructions a fixed, seeded loop executes does not.  For each setup this
script runs one worker under ``valgrind --tool=callgrind``: the worker builds
the env, plays one warm-up game (imports, caches), then plays ``--games``
games of ``bench_envs.py``'s loop (random legal play, ``env.last()`` at every
agent step, ``reset(seed=...)`` before every game, or only the first for the
setups "seeded once") inside ``exec``; callgrind counts only while ``exec``
then calls ``compile``; callgrind zeroes its counters as ``exec`` starts and
dumps them as ``compile`` starts (``--zero-before=builtin_exec
--dump-before=builtin_compile``), so start-up, the warm-up and the exit are
left out.  The report gives instructions per agent step
and the ratio of each peer's figure to ours: like steps/s, higher is better
for us.  Instructions are not time (C++ retires more of them per cycle than
the Python interpreter), so read them beside ``bench_envs.py --clock cpu``,
not instead of it.

    python bench/count_instructions.py                       # every setup of docs/speed.md
    python bench/count_instructions.py --setups liars_dice_v0:2:classic openspiel --games 300

Each setup takes 20-60 s under valgrind.  Needs ``valgrind`` on PATH and,
for the peers, the ``bench`` extra.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

# name -> (env, players, options, seeded once, games at --games 1.0x); the games are sized so that each
# worker counts a few thousand steps (Liar's dice games are 3 steps long, Spytails' 400)
SETUPS: dict[str, tuple[str, int, dict[str, Any], bool, int]] = {
    "libertalia_v0:4": ("libertalia_v0", 4, {}, False, 10),
    "lying_pirates_v0:4": ("lying_pirates_v0", 4, {}, False, 10),
    "spytails_v0:4": ("spytails_v0", 4, {}, False, 5),
    "liars_dice_v0:4": ("liars_dice_v0", 4, {}, False, 600),
    "liars_dice_v0:2:classic": ("liars_dice_v0", 2, {"dice": 1, "preset": "classic"}, True, 600),
    "liars_dice_v0:2:classic:compact": (
        "liars_dice_v0",
        2,
        {"dice": 1, "preset": "classic", "observation": "compact"},
        True,
        600,
    ),
    "texas_holdem_v4:4": ("texas_holdem_v4", 4, {}, False, 200),
    "openspiel": ("liars_dice", 2, {}, True, 600),
}
# each of ours against the peer its target names (bench/README.md)
PEER_OF = {
    "libertalia_v0:4": "texas_holdem_v4:4",
    "lying_pirates_v0:4": "texas_holdem_v4:4",
    "spytails_v0:4": "texas_holdem_v4:4",
    "liars_dice_v0:4": "texas_holdem_v4:4",
    "liars_dice_v0:2:classic": "openspiel",
    "liars_dice_v0:2:classic:compact": "openspiel",
}
SEED = 0


def worker(name: str, games: int) -> int:
    """Play the setup's warm-up game, then ``games`` counted games inside ``exec``; print the agent steps."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import bench_envs

    env_name, players, options, seed_once, _ = SETUPS[name]
    rng = np.random.default_rng(SEED)
    if name == "openspiel":
        import pyspiel

        game = pyspiel.load_game(env_name)
        bench_envs.openspiel_run(game, 0.0, SEED)  # warm-up: one game

        def play() -> int:
            return sum(bench_envs.openspiel_game(game, rng) for _ in range(games))

    else:
        if env_name == "texas_holdem_v4":
            from pettingzoo.classic import texas_holdem_v4

            env = texas_holdem_v4.env(num_players=players)
        else:
            env = bench_envs.env_factory(env_name, "env", players, options)()
        env.reset(seed=SEED)
        bench_envs.play_game(env, rng)  # warm-up

        def play() -> int:
            steps = 0
            for g in range(games):
                if seed_once:
                    env.reset()
                else:
                    env.reset(seed=SEED + 1 + g)
                steps += bench_envs.play_game(env, rng)
            return steps

    scope: dict[str, Any] = {"play": play}
    # callgrind zeroes its counters as exec starts and dumps them as compile starts (``count``'s options)
    exec("steps = play()", scope)
    compile("0", "<end of the counted loop>", "eval")
    print(json.dumps({"steps": scope["steps"]}))
    return 0


def count(name: str, games: int, tree: Path | None) -> tuple[int, int]:
    """(instructions, agent steps) of ``games`` games of setup ``name``, under callgrind; our envs from the
    source tree ``tree`` (through ``tree_import.py``) when given, else from this checkout."""
    here = Path(__file__).resolve()
    script = [str(here), "--worker", name, "--games", str(games)]
    if tree is not None:
        script = [str(here.parent / "tree_import.py"), str(tree), *script]
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        command = [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={out}",
            "--zero-before=builtin_exec",
            "--dump-before=builtin_compile",
            sys.executable,
            *script,
        ]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode:
            raise RuntimeError(f"{name}: the worker failed under valgrind:\n{done.stderr[-3000:]}")
        # imports call exec and compile too; the counted loop is the last part dumped (nothing compiles after it)
        parts = sorted(Path(tmp).glob("callgrind.out.*"), key=lambda part: int(part.suffix[1:]))
        summary = re.search(r"^summary:\s+(\d+)", parts[-1].read_text(), re.MULTILINE) if parts else None
    if summary is None:
        raise RuntimeError(f"{name}: no instruction count in callgrind's dump")
    steps = json.loads(done.stdout.strip().splitlines()[-1])["steps"]
    return int(summary.group(1)), steps


def report(per_step: dict[tuple[str, str], float], names: Sequence[str], trees: Sequence[str]) -> str:
    """Instructions per agent step of each setup in each tree, and each peer's figure over ours."""
    head = " | ".join(f"instr/step @{t}" for t in trees) + " | " + " | ".join(f"peer / ours @{t}" for t in trees)
    lines = [f"| setup | {head} |", "|---|" + "--:|" * (2 * len(trees))]
    for name in names:
        peer = PEER_OF.get(name)
        counts = [f"{per_step[name, t]:,.0f}" for t in trees]
        ratios = [f"{per_step[peer, t] / per_step[name, t]:.2f}x" if (peer, t) in per_step else "-" for t in trees]
        lines.append(f"| {name} | " + " | ".join(counts + ratios) + " |")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--setups", nargs="+", default=list(SETUPS), choices=list(SETUPS), metavar="SETUP")
    parser.add_argument("--games", type=float, default=1.0, help="games per setup, times the default (1.0)")
    parser.add_argument(
        "--tree",
        action="append",
        default=[],
        metavar="LABEL=PATH",
        help="also count our envs as the source tree at PATH has them (repeatable; peers are counted once)",
    )
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return worker(args.worker, int(args.games))
    if shutil.which("valgrind") is None:
        parser.error("valgrind is not on PATH (Debian: apt-get install valgrind)")
    trees: dict[str, Path | None] = {}
    for spec in args.tree:
        label, _, path = spec.partition("=")
        if not label or not (Path(path) / "envs" / "__init__.py").is_file():
            parser.error(f"--tree {spec!r}: give LABEL=PATH, PATH a source tree with envs/__init__.py")
        trees[label] = Path(path).resolve()
    trees = trees or {"here": None}
    per_step: dict[tuple[str, str], float] = {}
    for name in args.setups:
        games = max(1, round(SETUPS[name][4] * args.games))
        peer = name not in PEER_OF
        for label, tree in trees.items():
            if peer and per_step:  # a peer does not change with our tree: count it once, show it in every column
                known = [v for (n, _), v in per_step.items() if n == name]
                if known:
                    per_step[name, label] = known[0]
                    continue
            print(f"counting {name} @{label} ({games} games) ...", file=sys.stderr, flush=True)
            refs, steps = count(name, games, None if peer else tree)
            per_step[name, label] = refs / steps
            print(f"  {refs:,} instructions / {steps:,} agent steps", file=sys.stderr, flush=True)
    print(report(per_step, args.setups, list(trees)), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
