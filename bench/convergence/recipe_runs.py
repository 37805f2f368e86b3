"""The equilibrium recipe's runs side by side: each run's exact exploitability (the sampled last iterate) against
decisions and against the trainer's CPU minutes, one curve a run, with the target's 0.05 and 0.01 lines; and
one CSV of every run's measurements (``run`` column first).

    .venv/bin/python bench/convergence/recipe_runs.py --out docs/convergence/recipe \\
        lp-seed0=runs/eq/D lp-seed1=runs/eq/lp-seed1 classic-seed0=runs/eq/K

writes ``recipe.png`` and ``recipe.csv`` (``--out`` without its suffix).  Each run folder is one that
``bidbluff selfplay ... --exploitability`` (the recipe sets it) wrote: its ``exploitability.csv`` is read.
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def rows(folder: Path) -> list[dict[str, str]]:
    with open(folder / "exploitability.csv", newline="") as handle:
        return list(csv.DictReader(handle))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("runs", nargs="+", help="LABEL=RUN_FOLDER")
    parser.add_argument("--out", required=True, help="the figure's and the CSV's path, without suffix")
    parser.add_argument("--title", default="The equilibrium recipe at 2 players x 1 die")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig, (by_step, by_cpu) = plt.subplots(1, 2, figsize=(12, 4.5), sharey=True)
    table: list[dict[str, str]] = []
    for item in args.runs:
        label, _, folder = item.partition("=")
        measured = rows(Path(folder))
        table += [{"run": label, **row} for row in measured]
        values = [float(r["exploitability"]) for r in measured]
        style = "--" if "classic" in label else "-"
        by_step.plot([int(r["step"]) / 1e6 for r in measured], values, style, marker="o", markersize=3, label=label)
        by_cpu.plot([float(r["cpu_s"]) / 60 for r in measured], values, style, marker="o", markersize=3, label=label)
    by_step.set(xlabel="decisions trained on (millions)", ylabel="exact exploitability (sampled)", yscale="log")
    by_cpu.set(xlabel="trainer CPU minutes (measurements left out)")
    for ax in (by_step, by_cpu):
        for level in (0.05, 0.01):
            ax.axhline(level, color="grey", linestyle=":", linewidth=0.9)
        ax.grid(alpha=0.3, which="both")
    by_cpu.axvline(30, color="red", linestyle=":", linewidth=0.9)
    by_step.legend(fontsize=8)
    fig.suptitle(args.title)
    fig.tight_layout()
    fig.savefig(out.with_suffix(".png"), dpi=110)
    with open(out.with_suffix(".csv"), "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(table[0]))
        writer.writeheader()
        writer.writerows(table)
    print(f"wrote {out.with_suffix('.png')} and {out.with_suffix('.csv')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
