"""What a training run shows while it runs and when it ends: the progress bar, the config table, the summary.

The bar follows steps or, with a time limit, time, whichever is further along: a run that will stop
on its time limit shows the time running out, not a frozen step count.  Its step count never passes
its total: a trainer that stops on whole rollouts gives its planned end (``total``) up front, and
the bar's total becomes the real step count if a rollout ran past it.  The summary says why the
run stopped, at which step, and the last evaluation against each opponent with its 95% interval.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, Progress, ProgressColumn, Task, TextColumn
from rich.progress_bar import ProgressBar
from rich.table import Table
from rich.text import Text


def _clock(seconds: float) -> str:
    seconds = max(int(seconds), 0)
    return (
        f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
        if seconds >= 3600
        else f"{seconds // 60}:{seconds % 60:02d}"
    )


def fraction(steps: int, start: int, total: int, elapsed: float, time_limit: float | None) -> float:
    """How far the run is, 0-1: steps done of the steps to go, or time spent of the time limit."""
    by_steps = (steps - start) / max(total - start, 1)
    by_time = elapsed / time_limit if time_limit else 0.0
    return min(max(by_steps, by_time), 1.0)


def remaining(steps: int, start: int, total: int, elapsed: float, time_limit: float | None) -> float | None:
    """Seconds left: at the current speed to ``total``, or to the time limit if that comes first."""
    left = [time_limit - elapsed] if time_limit else []
    if steps > start and elapsed > 0:
        left.append((total - steps) / ((steps - start) / elapsed))
    return max(min(left), 0.0) if left else None


class _RunBar(BarColumn):
    """The bar, drawn at each refresh from the steps and the clock, so that time moves between updates."""

    def __init__(self, run: RunProgress) -> None:
        super().__init__(bar_width=24)
        self.run = run

    def render(self, task: Task) -> ProgressBar:
        r = self.run
        done = fraction(r.steps, r.start, r.total, time.perf_counter() - r.started, r.time_limit)
        return ProgressBar(
            total=1.0,
            completed=done,
            width=self.bar_width,
            style=self.style,
            complete_style=self.complete_style,
            finished_style=self.finished_style,
            pulse_style=self.pulse_style,
        )


class _RunText(ProgressColumn):
    """Steps of the total, time (of the time limit), speed and the time left."""

    def __init__(self, run: RunProgress) -> None:
        super().__init__()
        self.run = run

    def render(self, task: Task) -> Text:
        r = self.run
        elapsed = time.perf_counter() - r.started
        left = remaining(r.steps, r.start, r.total, elapsed, r.time_limit)
        speed = (r.steps - r.start) / elapsed if elapsed > 0 else 0.0
        limit = f" of {_clock(r.time_limit)}" if r.time_limit else ""
        return Text(
            f"{r.steps:,}/{r.total:,} steps {_clock(elapsed)}{limit} {speed:,.0f}/s"
            f"{f' ~{_clock(left)} left' if left is not None else ''}"
        )


class RunProgress:
    """``with RunProgress(total, start, time_limit, enabled, label) as bar: ... bar.update(steps)``."""

    def __init__(
        self,
        total: int,
        start: int = 0,
        time_limit: float | None = None,
        enabled: bool = True,
        label: str = "",
        console: Console | None = None,
    ) -> None:
        self.total, self.start, self.steps, self.time_limit = total, start, start, time_limit
        self.started = time.perf_counter()
        self.progress = Progress(
            TextColumn(label),
            _RunBar(self),
            _RunText(self),
            transient=False,
            console=console or Console(stderr=True),
            disable=not enabled,
            refresh_per_second=2,
        )

    def __enter__(self) -> RunProgress:
        self.progress.start()
        self.task = self.progress.add_task("run", total=1.0)
        return self

    def update(self, steps: int) -> None:
        self.steps = steps
        self.total = max(self.total, steps)  # a rollout past the planned end: the real count, never "4,096/3,000"

    def __exit__(self, *exc: object) -> None:
        self.progress.refresh()
        self.progress.stop()


def config_table(config: Any, title: str = "config") -> Table:
    """A run's config (a dataclass) as a two-column table, one option a row."""
    table = Table(title=title, show_header=False, box=None, pad_edge=False)
    table.add_column("option", style="bold")
    table.add_column("value", overflow="fold")
    for key, value in sorted(dataclasses.asdict(config).items()):
        shown = json.dumps(value) if isinstance(value, (dict, list)) else str(value)
        table.add_row("--" + key.replace("_", "-"), shown)
    return table


def last_evaluation(out: Path) -> list[dict[str, str]]:
    """The rows of ``eval.csv`` at its last step (one per evaluation opponent); none: empty."""
    path = out / "eval.csv"
    if not path.exists():
        return []
    with path.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    if not rows:
        return []
    last = rows[-1]["step"]
    return [row for row in rows if row["step"] == last]


def final_steps(final: Path, out: Path) -> int:
    """The steps of a run's final checkpoint (its sidecar), else of the last row of ``progress.csv``."""
    sidecar = final.with_suffix(".json")
    if sidecar.exists():
        steps = json.loads(sidecar.read_text()).get("steps")
        if steps is not None:
            return int(steps)
    path = out / "progress.csv"
    if path.exists():
        with path.open(newline="") as handle:
            rows = list(csv.DictReader(handle))
        if rows:
            return int(float(rows[-1]["step"]))
    return 0


def stop_reason(steps: int, total_steps: int, time_limit: float | None, interrupted: str | None) -> str:
    """Why a run ended, in one line."""
    if interrupted:
        return f"interrupted ({interrupted}) at step {steps:,}"
    if steps >= total_steps:
        return f"steps reached: {steps:,} (asked {total_steps:,}; a run stops on a whole rollout)"
    if time_limit:
        return f"time limit ({_clock(time_limit)}) reached at step {steps:,} of {total_steps:,}"
    return f"stopped at step {steps:,} of {total_steps:,}"


def summary(out: Path, steps: int, total_steps: int, time_limit: float | None, interrupted: str | None = None) -> Table:
    """The closing summary: why the run stopped and its last evaluation with each 95% interval."""
    table = Table(title=f"run {out}: {stop_reason(steps, total_steps, time_limit, interrupted)}", title_justify="left")
    for column in ("evaluated at step", "opponent", "games", "win share", "95% CI", "mean reward"):
        table.add_column(column, justify="left" if column == "opponent" else "right")
    for row in last_evaluation(out):
        table.add_row(
            f"{int(row['step']):,}",
            row["opponent"],
            row["games"],
            f"{float(row['win_share']):.3f}",
            f"{float(row['ci_low']):.3f}-{float(row['ci_high']):.3f}",
            f"{float(row['mean_reward']):+.3f}",
        )
    if not table.rows:
        table.add_row("-", "no evaluation (--eval-games 0)", "", "", "", "")
    return table
