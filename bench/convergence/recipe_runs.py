"""The equilibrium recipe's runs side by side: each run's exact exploitability (the sampled last iterate) against
decisions and against the trainer's CPU minutes, one curve a run, with the target's 0.05 and 0.01 lines; and
one CSV of every run's measurements (``run`` column first).

    .venv/bin/python bench/convergence/recipe_runs.py --out docs/convergence/recipe \\
        lp-seed0=runs/eq/D lp-seed1=runs/eq/lp-seed1 classic-seed0=runs/eq/K

writes ``recipe.png`` and ``recipe.csv`` (``--out`` without its suffix).  Each run folder is one that
``bidbluff selfplay ... --exploitability`` (the recipe sets it) wrote: its ``exploitability.csv`` is read, and
its ``average.csv`` where the run kept the mean of its weights (``--average-from``): drawn thin in the run's
colour, its rows in the CSV as the run's label plus ``/mean``.
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def rows(path: Path) -> list[dict[str, str]]:
    if not path.exists():
        return []
    with open(path, newline="") as handle:
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
        curves = [(label, rows(Path(folder) / "exploitability.csv"), {"marker": "o"})]
        curves.append((f"{label}/mean", rows(Path(folder) / "average.csv"), {"marker": "^", "linewidth": 0.8}))
        style = "--" if "classic" in label else "-"
        colour = None
        for name, measured, look in curves:
            if not measured:
                continue
            table += [{"run": name, **{k: row.get(k, "") for k in measured[0]}} for row in measured]
            values = [float(r["exploitability"]) for r in measured]
            for ax, xs in (
                (by_step, [int(r["step"]) / 1e6 for r in measured]),
                (by_cpu, [float(r["cpu_s"]) / 60 for r in measured]),
            ):
                (line,) = ax.plot(xs, values, style, markersize=3, color=colour, label=name, **look)
            colour = line.get_color()
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
        fields = list(dict.fromkeys(key for row in table for key in row))
        writer = csv.DictWriter(handle, fieldnames=fields, restval="")
        writer.writeheader()
        writer.writerows(table)
    print(f"wrote {out.with_suffix('.png')} and {out.with_suffix('.csv')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
