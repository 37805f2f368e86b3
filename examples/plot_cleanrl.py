"""The figure of docs/gymnasium.md: the CleanRL script's training win rate (from its log) beside its
tournament result against three random players (from ``bidbluff tournament ... --json``), with the 95% CI.

    python examples/plot_cleanrl.py runs/cleanrl.log runs/cleanrl.json docs/screenshots/cleanrl_libertalia.png
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def main(log: str, tournament: str, out: str) -> None:
    rows = re.findall(r"^step (\d+) .*?win_rate\(last \d+\) ([\d.]+)", Path(log).read_text(), flags=re.M)
    steps, rates = [int(s) for s, _ in rows], [float(r) for _, r in rows]
    result = json.loads(Path(tournament).read_text())
    entries = result["entries"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4), gridspec_kw={"width_ratios": [2, 1]})
    left.plot(steps, rates, label="learner's win rate, last 500 training games")
    left.axhline(0.25, color="grey", ls=":", label="equal share (0.25)")
    left.axhline(0.60, color="red", ls="--", label="target (0.60)")
    left.set(xlabel="learner steps", ylabel="win rate", ylim=(0, 1), title=f"{result['env']}: CleanRL masked PPO")
    left.legend(loc="lower right")
    names = ["CleanRL PPO" if i == 0 else e["entry"] for i, e in enumerate(entries)]
    shares = [e["win_share"] for e in entries]
    errors = [[s - e["ci_low"] for s, e in zip(shares, entries, strict=True)],
              [e["ci_high"] - s for s, e in zip(shares, entries, strict=True)]]  # fmt: skip
    right.bar(names, shares, yerr=errors, capsize=4, color=["tab:blue"] + ["tab:grey"] * (len(entries) - 1))
    right.set(ylim=(0, 1), ylabel="win share (95% CI)", title=f"tournament, {result['games']} games, fair seating")
    right.tick_params(axis="x", rotation=30)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print(f"wrote {out}")


if __name__ == "__main__":
    main(*sys.argv[1:4])
