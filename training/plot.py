"""``bidbluff plot RUN_DIR``: a run's learning curves as PNGs (matplotlib, the ``plot`` extra).

Reads the run's ``progress.csv`` and ``eval.csv`` (both trainers write them) and writes, under
``RUN_DIR/plots`` unless told otherwise:

- ``reward.png``: the learner's mean episode reward and win rate in training (the batched trainer
  logs the win rate only);
- ``win_share.png``: the evaluation's win share against each opponent, with its 95% interval as a band
  and the share a seat of equal strength would have as a dashed line;
- ``losses.png``: policy and value losses (and the imitation loss when there is one);
- ``entropy.png``: the policy's entropy (SB3 logs its negative, ``entropy_loss``: drawn as entropy);
- ``league.png``, for a league's folder (``bidbluff league``: ``generations.csv``): each generation's
  learned-exploiter gain over the equal share with its 95% interval as a band (and the main agent's win share
  against heuristics, when measured);
- ``exploitability.png``, when the run measured it (``--exploitability``: ``exploitability.csv``; and
  ``average.csv``, the mean of the weights, with ``--average-from``): the
  sampled policy's exact exploitability against steps, the trainer's CPU minutes and wall-clock minutes, on a log
  scale, with the 0.05 and 0.01 lines of the equilibrium recipe's target.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from pathlib import Path
from typing import Any

# (file, title, y label, [(column, label, sign)]): a curve is drawn when its column holds numbers.
CURVES: tuple[tuple[str, str, str, list[tuple[str, str, float]]], ...] = (
    (
        "reward.png",
        "Episode reward in training",
        "mean over recent episodes",
        [
            ("ep_reward_mean", "episode reward", 1.0),
            ("ep_win_rate", "win rate", 1.0),
            ("learner_win_rate", "win rate", 1.0),
        ],
    ),
    (
        "losses.png",
        "Losses",
        "loss",
        [("policy_loss", "policy", 1.0), ("value_loss", "value", 1.0), ("imitation_loss", "imitation", 1.0)],
    ),
    (
        "entropy.png",
        "Policy entropy",
        "entropy (nats)",
        [("entropy", "entropy", 1.0), ("entropy_loss", "entropy", -1.0)],
    ),
)


def _rows(path: Path) -> list[dict[str, str]]:
    if not path.exists():
        return []
    with path.open(newline="") as handle:
        return list(csv.DictReader(handle))


def _number(text: str | None) -> float | None:
    try:
        return float(text) if text not in (None, "") else None
    except ValueError:
        return None


def _series(rows: Iterable[dict[str, str]], column: str, sign: float = 1.0) -> tuple[list[float], list[float]]:
    steps, values = [], []
    for row in rows:
        step, value = _number(row.get("step")), _number(row.get(column))
        if step is not None and value is not None:
            steps.append(step)
            values.append(sign * value)
    return steps, values


def plot_run(run_dir: str | Path, out: str | Path | None = None) -> list[Path]:
    """Write the run's curves as PNGs; returns the files written (a curve with no data is left out)."""
    try:
        import matplotlib
    except ImportError as missing:
        raise SystemExit(f"bidbluff plot needs the plot extra: pip install -e '.[plot]' ({missing})") from None
    matplotlib.use("Agg")  # files only: no display needed
    import matplotlib.pyplot as plt

    run = Path(run_dir)
    progress, evals = _rows(run / "progress.csv"), _rows(run / "eval.csv")
    generations = _rows(run / "generations.csv")
    if not progress and not evals and not generations:
        raise FileNotFoundError(
            f"{run}: no progress.csv or eval.csv, nor a league's generations.csv (not a run's directory?)"
        )
    target = Path(out) if out is not None else run / "plots"
    target.mkdir(parents=True, exist_ok=True)
    written = []

    def save(fig: Any, name: str) -> None:
        fig.tight_layout()
        fig.savefig(target / name, dpi=110)
        plt.close(fig)
        written.append(target / name)

    for name, title, ylabel, columns in CURVES:
        drawn = [(label, _series(progress, column, sign)) for column, label, sign in columns]
        drawn = [(label, xy) for label, xy in drawn if xy[0]]
        if not drawn:
            continue
        fig, ax = plt.subplots(figsize=(7, 4))
        for label, (steps, values) in drawn:
            ax.plot(steps, values, label=label)
        ax.set(title=f"{title} - {run.name}", xlabel="step", ylabel=ylabel)
        ax.grid(alpha=0.3)
        ax.legend()
        save(fig, name)
    if evals:
        fig, ax = plt.subplots(figsize=(7, 4))
        for opponent in dict.fromkeys(row["opponent"] for row in evals):
            rows = [row for row in evals if row["opponent"] == opponent]
            steps, share = _series(rows, "win_share")
            _, low = _series(rows, "ci_low")
            _, high = _series(rows, "ci_high")
            (line,) = ax.plot(steps, share, marker="o", markersize=3, label=f"vs {opponent}")
            ax.fill_between(steps, low, high, color=line.get_color(), alpha=0.2)
            baseline = _number(rows[-1].get("baseline"))
            if baseline is not None:
                ax.axhline(baseline, color=line.get_color(), linestyle="--", linewidth=0.8)
        ax.set(title=f"Evaluation win share (95% CI) - {run.name}", xlabel="step", ylabel="win share", ylim=(0, 1))
        ax.grid(alpha=0.3)
        ax.legend()
        save(fig, "win_share.png")
    if generations:
        save(league_figure(plt, generations, run.name), "league.png")
    exploits = _rows(run / "exploitability.csv")
    if exploits:
        fig, (by_step, by_cpu, by_wall) = plt.subplots(1, 3, figsize=(15, 4), sharey=True)
        curves = [("last iterate", exploits), ("mean of the weights (average.zip)", _rows(run / "average.csv"))]
        for label, rows in curves:
            if not rows:
                continue
            steps, values = _series(rows, "exploitability")
            by_step.plot(steps, values, marker="o", markersize=3, label=label)
            for ax, column in ((by_cpu, "cpu_s"), (by_wall, "seconds")):
                times = [_number(row.get(column)) for row in rows if _number(row.get("exploitability")) is not None]
                if all(t is not None for t in times):
                    ax.plot([t / 60 for t in times], values, marker="o", markersize=3, label=label)
        by_step.set(xlabel="step", ylabel="exact exploitability (sampled policy)", yscale="log")
        by_cpu.set(xlabel="trainer CPU minutes (without the measurements)")
        by_wall.set(xlabel="wall-clock minutes (with the measurements)")
        for ax in (by_step, by_cpu, by_wall):
            for level in (0.05, 0.01):
                ax.axhline(level, color="grey", linestyle="--", linewidth=0.8)
            ax.grid(alpha=0.3, which="both")
        if (run / "average.csv").exists():
            by_step.legend()
        fig.suptitle(f"Exploitability - {run.name}")
        save(fig, "exploitability.png")
    return written


def league_figure(plt: Any, rows: list[dict[str, str]], name: str) -> Any:
    """A league's learned-exploiter gain per generation, its 95% interval as a band, zero dashed."""
    fig, ax = plt.subplots(figsize=(7, 4))
    kept = [row for row in rows if _number(row.get("gain")) is not None]
    index = [int(row["generation"]) for row in kept]
    equal = [float(row["equal_share"]) for row in kept]
    gain = [float(row["gain"]) for row in kept]
    low = [float(row["ci_low"]) - e for row, e in zip(kept, equal, strict=True)]
    high = [float(row["ci_high"]) - e for row, e in zip(kept, equal, strict=True)]
    (line,) = ax.plot(index, gain, marker="o", label="learned exploiter's gain over 1/n (95% CI)")
    ax.fill_between(index, low, high, color=line.get_color(), alpha=0.2)
    beaten = [(i, row) for i, row in zip(index, kept, strict=True) if _number(row.get("heuristic_win_share"))]
    if beaten:
        ax.plot(
            [i for i, _ in beaten],
            [float(row["heuristic_win_share"]) - float(row["equal_share"]) for _, row in beaten],
            marker="s",
            linestyle=":",
            label="main agent vs heuristics: win share - 1/n",
        )
    ax.axhline(0.0, color="grey", linestyle="--", linewidth=0.8)
    ax.set(title=f"League: the main agent's exploitability by generation - {name}", xlabel="generation")
    ax.set(ylabel="gain over the equal share")
    ax.set_xticks(index)
    ax.grid(alpha=0.3)
    ax.legend()
    return fig
