"""Diagnosis runs (ii)-(iv) and the fix sweep: named tabular-control configurations, run one after another.

Each run writes ``OUT/<name>.csv`` (``TabularControl.run``'s rows) and a line to ``OUT/summary.csv`` (final and
best exploitability of the last iterate and of the average policy, the CPU seconds).  ``--list`` prints the
names; ``--only a,b`` runs those.

    .venv/bin/python bench/convergence/tabular_runs.py --out /work/runs-conv/tabular --only ppo-sampled,ppo-exact
"""

from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path

import torch

from bidbluff.training import tabular_control as tc

S = tc.Schedule
# The batched trainer's update as the issue configured it (the benchmark's PPO recipe, 128-wide run's lr):
ISSUE = {"clip_range": 0.025, "n_epochs": 8, "minibatch_size": 2048, "rollout_steps": 2048, "vf_coef": 0.0625}

EXACT = ISSUE | {"mode": "exact", "learning_rate": 0.01, "anneal_lr": False, "total_steps": 600 * 2048}
SAMPLED = ISSUE | {"mode": "sampled", "learning_rate": 0.01, "anneal_lr": False, "total_steps": 1_000_000}
CLOSED = {"mode": "closed", "learning_rate": 0.5, "anneal_lr": False, "ent_coef": S(0.0), "total_steps": 300 * 2048}
TRAIL = {"ent_coef": S(0.0), "kl_coef": S(0.2), "magnet_rate": 0.02}
RUNS: dict[str, dict] = {
    # (ii) the same update, sampled (lr sized for a table: one Adam step moves a logit by about lr)
    "ppo-sampled": SAMPLED,
    # (iii) exact expectations (the ideal critic, no sampling noise)
    "ppo-exact": EXACT,
    "ppo-exact-ent0": EXACT | {"ent_coef": S(0.0)},
    "ppo-exact-ent0.01": EXACT | {"ent_coef": S(0.01)},
    "ppo-exact-ent-linear": EXACT | {"ent_coef": S(0.1, 0.0, "linear")},
    # (iv) MMD: the benchmark's (reverse KL to the rollout's policy, kl 0.025, entropy 0.1) and a trailing magnet
    "mmd-bench-exact": EXACT | {"kl_coef": S(0.025), "magnet_rate": 1.0},
    "mmd-trail-exact": EXACT | TRAIL,
    "mmd-uniform-exact": EXACT | TRAIL | {"magnet_rate": 0.0},
    "mmd-copy100-exact": EXACT | TRAIL | {"magnet_every": 100},
    "mmd-trail-sampled": SAMPLED | TRAIL,
    "mmd-trail-sampled-8k": SAMPLED | TRAIL | {"rollout_steps": 8192, "minibatch_size": 8192, "total_steps": 2_000_000},
    # MMD's closed-form step (payoff units, no normalisation): the fixed points the PPO-form losses aim at
    "closed-hedge": CLOSED,
    "closed-ent0.1": CLOSED | {"ent_coef": S(0.1)},
    "closed-ent0.05": CLOSED | {"ent_coef": S(0.05)},
    "closed-ent0.02": CLOSED | {"ent_coef": S(0.02)},
    "closed-trail": CLOSED | {"kl_coef": S(0.1), "magnet_rate": 0.05},
    "closed-copy50": CLOSED | {"kl_coef": S(0.1), "magnet_every": 50},
    # the same with a step small against the regulariser (eta x kl = 0.01) and a magnet that moves more slowly
    "closed-copy150": CLOSED
    | {"learning_rate": 0.05, "kl_coef": S(0.2), "magnet_every": 150, "total_steps": 1500 * 2048},
    "closed-trail-slow": CLOSED
    | {"learning_rate": 0.05, "kl_coef": S(0.2), "magnet_rate": 0.002, "total_steps": 1500 * 2048},
    # the network (the 128-wide ActorCritic of run (i)) under exact expectations: function approximation alone
    "net-exact": EXACT | {"policy_net": "128:128", "learning_rate": 1e-3},
    "net-exact-compact": EXACT | {"policy_net": "128:128", "compact_obs": True, "learning_rate": 1e-3},
    "net-mmd-trail-exact": EXACT | TRAIL | {"policy_net": "128:128", "learning_rate": 1e-3},
}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="/work/runs-conv/tabular")
    parser.add_argument("--only", help="comma-separated run names")
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--preset", default="lying_pirates", choices=("lying_pirates", "classic"))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cpu-limit", type=float, default=120.0, help="CPU seconds per run")
    parser.add_argument("--eval-every", type=int, default=20)
    parser.add_argument("--set", action="append", default=[], help="override a field for every run: name=value")
    parser.add_argument("--suffix", default="", help="appended to each run's name (runs with --set)")
    args = parser.parse_args(argv)
    if args.list:
        print("\n".join(RUNS))
        return 0
    torch.set_num_threads(1)
    names = args.only.split(",") if args.only else list(RUNS)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    tree = tc.build_tree(args.preset)
    overrides: dict = {}
    for item in args.set:
        key, value = item.split("=", 1)
        default = getattr(tc.ControlConfig(), key)
        overrides[key] = (
            tc.Schedule.parse(value)
            if isinstance(default, tc.Schedule)
            else (value.lower() in ("1", "true"))
            if isinstance(default, bool)
            else type(default)(value)
        )
    for name in names:
        fields = RUNS[name] | {"preset": args.preset, "seed": args.seed, "eval_every": args.eval_every} | overrides
        config = tc.ControlConfig(**fields)
        suffix = "" if args.preset == "lying_pirates" else f"-{args.preset}"
        tag = f"{name}{args.suffix}{suffix}-s{args.seed}"
        print(f"== {tag}: {config}", flush=True)
        started = time.process_time()
        rows = tc.TabularControl(tree, config).run(out / f"{tag}.csv", args.cpu_limit)
        last = rows[-1]
        record = {
            "run": tag,
            "updates": last["update"],
            "steps": last["step"],
            "cpu_seconds": round(time.process_time() - started, 1),
            "final_exploitability": last["exploitability"],
            "best_exploitability": min(r["exploitability"] for r in rows),
            "final_exploitability_average": last["exploitability_average"],
            "final_entropy": last["onpolicy_entropy"],
            "config": repr(fields),
        }
        summary = out / "summary.csv"
        new = not summary.exists()
        with summary.open("a", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(record))
            if new:
                writer.writeheader()
            writer.writerow(record)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
