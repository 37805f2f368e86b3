"""The RLlib trainer against the batched trainer on this machine: throughput, memory, strength.

``throughput``: each trainer runs ``bidbluff selfplay`` for ``--seconds`` of training (a subprocess; same
game, table, opponents, network, rollout size and epochs; no evaluation, no checkpoint but the last) and
reports learner decisions per second of the training loop (``progress.csv``), per CPU second of its whole
process tree (the driver, Ray's processes and env runners), its start-up time and the peak resident
memory of the tree (summed: pages Ray shares between processes count once per process).  The RLlib
trainer is measured at each ``--runners`` (0: the driver plays the games itself).

``strength``: the batched trainer and the RLlib trainer each train for ``--minutes`` of training, then
play ``--games`` fair-seated games against three heuristics; the win share with its 95% CI.

Needs the rllib extra.  The machine's load is printed with every figure; run it under ``nice`` on a
shared machine and read it with that load in mind.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TICK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


def _tree(root: int) -> list[int]:
    """``root`` and every process descended from it."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += children.get(pid, [])
    return found


def _usage(pids: list[int]) -> tuple[float, float]:
    """Resident bytes and CPU seconds (user + system, with reaped children's) summed over ``pids``."""
    rss = cpu = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            rss += int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE
        except (OSError, IndexError, ValueError):
            continue
        cpu += sum(int(x) for x in fields[11:15]) / TICK  # utime, stime, cutime, cstime
    return rss, cpu


def run_trainer(argv: list[str], out: Path) -> dict[str, Any]:
    """One ``bidbluff selfplay`` run, watched: wall time, peak memory, CPU time, and its progress log."""
    cmd = [sys.executable, "-m", "bidbluff", "selfplay", *argv, "--out", str(out), "--no-progress"]
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    peak = cpu = 0.0
    while proc.poll() is None:
        rss, used = _usage(_tree(proc.pid))
        peak, cpu = max(peak, rss), max(cpu, used)
        time.sleep(1.0)
    wall = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{proc.stderr.read()[-3000:] if proc.stderr else ''}")
    with open(out / "progress.csv") as f:
        rows = list(csv.DictReader(f))
    last = rows[-1]
    steps, seconds = int(last["step"]), float(last["seconds"])
    return {
        "steps": steps,
        "train_s": seconds,
        "steps_per_s": steps / seconds,
        "wall_s": round(wall, 1),
        "startup_s": round(wall - seconds, 1),
        "cpu_s": round(cpu, 1),
        "steps_per_cpu_s": steps / max(cpu, 1e-9),
        "peak_rss_mb": round(peak / 2**20),
        "load": os.getloadavg()[0],
    }


def common(args: argparse.Namespace) -> list[str]:
    return [args.env, "--players", str(args.players), "--opponents", "heuristic,random", "--trunk", "256",
            "--net-arch", "128", "--rollout-steps", str(args.rollout_steps), "--minibatch-size", "256",
            "--n-epochs", "2", "--checkpoint-every", str(10**9), "--seed", "0"]  # fmt: skip


def rllib_flags(runners: int, envs_per_runner: int) -> list[str]:
    return ["--trainer", "rllib", "--num-env-runners", str(runners), "--num-envs-per-env-runner", str(envs_per_runner)]


def throughput(args: argparse.Namespace) -> list[dict[str, Any]]:
    out = Path(args.out)
    limit = ["--time-limit", str(args.seconds), "--total-steps", str(10**9), "--eval-games", "0"]
    rows = [
        {
            "trainer": "batched",
            "runners": "-",
            **run_trainer([*common(args), *limit, "--num-games", "64"], out / "batched"),
        }
    ]
    print(json.dumps(rows[-1]), flush=True)
    for n in args.runners:
        flags = [*common(args), *limit, *rllib_flags(n, args.envs_per_runner)]
        rows.append({"trainer": "rllib", "runners": n, **run_trainer(flags, out / f"rllib-{n}")})
        print(json.dumps(rows[-1]), flush=True)
    return rows


def strength(args: argparse.Namespace) -> list[dict[str, Any]]:
    from bidbluff.arena.tournament import run_tournament

    out = Path(args.out)
    limit = ["--time-limit", str(args.minutes * 60), "--total-steps", str(10**9), "--eval-games", "0"]
    runs = {
        "batched": [*common(args), *limit, "--num-games", "64"],
        "rllib": [*common(args), *limit, *rllib_flags(args.strength_runners, args.envs_per_runner)],
    }
    rows = []
    for name, flags in runs.items():
        watched = run_trainer(flags, out / f"strength-{name}")
        final = str(out / f"strength-{name}" / "final.zip")
        result = run_tournament(
            args.env, [final, "heuristic", "heuristic", "heuristic"], args.games, args.players, seed=1
        )
        row = result.rows()[0]
        rows.append(
            {
                "trainer": name,
                "minutes": args.minutes,
                "steps": watched["steps"],
                "games": row["games"],
                "win_share": row["win_share"],
                "ci_low": row["ci_low"],
                "ci_high": row["ci_high"],
                "load": watched["load"],
            }
        )
        print(json.dumps(rows[-1]), flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=("throughput", "strength", "both"))
    parser.add_argument("--env", default="liars_dice_v0")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=90, help="training seconds per throughput run")
    parser.add_argument(
        "--runners",
        type=lambda s: [int(x) for x in s.split(",")],
        default=[0, 1, 2],
        help="RLlib env runner counts to measure (default 0,1,2)",
    )
    parser.add_argument("--envs-per-runner", type=int, default=8)
    parser.add_argument("--rollout-steps", type=int, default=2048)
    parser.add_argument("--minutes", type=float, default=4, help="training minutes per strength run")
    parser.add_argument("--strength-runners", type=int, default=1, help="RLlib env runners of the strength run")
    parser.add_argument("--games", type=int, default=200, help="games against three heuristics per strength run")
    parser.add_argument("--out", default="runs/bench-rllib")
    args = parser.parse_args()
    print(f"cores: {os.cpu_count()}, load average at start: {os.getloadavg()}", flush=True)
    results: dict[str, Any] = {}
    if args.what in ("throughput", "both"):
        results["throughput"] = throughput(args)
    if args.what in ("strength", "both"):
        results["strength"] = strength(args)
    Path(args.out).mkdir(parents=True, exist_ok=True)
    (Path(args.out) / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    print(f"load average at end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
