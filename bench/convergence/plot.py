"""Curves of diagnosis runs: exploitability (last iterate; average policy dashed), on-policy entropy, the KL
between successive iterates, and per-seat advantage spread, against decisions trained on.

    .venv/bin/python bench/convergence/plot.py --out docs/convergence/diagnosis.png \\
        batched=/work/runs-conv/batched-128-s0/diag.csv ppo-sampled=/work/runs-conv/tabular/ppo-sampled-s0.csv
"""

from __future__ import annotations

import argparse
import csv
import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def read(path: str) -> dict[str, list[float]]:
    with open(path, newline="") as handle:
        rows = list(csv.DictReader(handle))
    out: dict[str, list[float]] = {}
    for key in rows[0]:
        values = []
        for row in rows:
            try:
                values.append(float(row[key]))
            except (TypeError, ValueError):
                values.append(math.nan)
        out[key] = values
    return out


def series(x: list[float], y: list[float]) -> tuple[list[float], list[float]]:
    """The points of ``y`` that were measured (the batched driver measures every few updates)."""
    pts = [(a, b) for a, b in zip(x, y, strict=False) if not math.isnan(b)]
    return [a for a, _ in pts], [b for _, b in pts]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="+", help="label=path.csv")
    parser.add_argument("--out", required=True)
    parser.add_argument("--x", default="step", help="x column: step or cpu_seconds / train_cpu_seconds")
    parser.add_argument("--title", default="")
    parser.add_argument("--panels", default="expl,entropy,kl,adv")
    args = parser.parse_args(argv)
    panels = args.panels.split(",")
    fig, axes = plt.subplots(1, len(panels), figsize=(4.6 * len(panels), 3.8), squeeze=False)
    for spec in args.runs:
        label, path = spec.split("=", 1)
        data = read(path)
        x_key = args.x if args.x in data else ("train_cpu_seconds" if "train_cpu_seconds" in data else "step")
        x = data[x_key]
        color = None
        for ax, panel in zip(axes[0], panels, strict=True):
            if panel == "expl":
                pts = [(a, b) for a, b in zip(x, data["exploitability"], strict=True) if not math.isnan(b)]
                (line,) = ax.plot(*zip(*pts, strict=True), label=label, color=color)
                color = line.get_color()
                avg = [
                    (a, b) for a, b in zip(x, data.get("exploitability_average", []), strict=False) if not math.isnan(b)
                ]
                if avg:
                    ax.plot(*zip(*avg, strict=True), ls="--", color=color, alpha=0.6)
                ax.set_yscale("log")
                ax.set_ylabel("exploitability (solid: last iterate, dashed: average)")
                ax.axhline(0.05, color="grey", lw=0.6, ls=":")
                ax.axhline(0.01, color="grey", lw=0.6, ls=":")
            elif panel == "entropy":
                ax.plot(*series(x, data["onpolicy_entropy"]), color=color)
                ax.set_ylabel("on-policy entropy (nats)")
            elif panel == "kl":
                xs, ys = series(x, data["kl_successive"])
                ax.plot(xs, [max(v, 1e-12) for v in ys], color=color, lw=0.7)
                ax.set_yscale("log")
                ax.set_ylabel("on-policy KL(pi_t || pi_t+1)")
            elif panel == "adv":
                for seat, ls in ((0, "-"), (1, ":")):
                    key = f"adv_std_seat{seat}"
                    if key in data:
                        ax.plot(x, data[key], color=color, ls=ls, lw=0.8)
                ax.set_ylabel("advantage std, seat 0 solid / seat 1 dotted")
            elif panel == "value":
                ax.plot(*series(x, data["value_seat0"]), color=color)
                ax.axhline(-1 / 9, color="grey", lw=0.6, ls=":")
                ax.set_ylabel("first seat's value (dotted: equilibrium, Lying Pirates' rules)")
            elif panel == "ev":
                ax.plot(*series(x, data.get("explained_variance", [math.nan] * len(x))), color=color, lw=0.7)
                ax.set_ylabel("critic's explained variance")
            ax.set_xlabel(x_key)
    axes[0][0].legend(fontsize=7)
    if args.title:
        fig.suptitle(args.title)
    fig.tight_layout()
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.out, dpi=110)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
