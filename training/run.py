"""The plumbing every trainer shares: a run's folder, its logs, stop signals and time limit, its checkpoint
schedule, the evaluation of each checkpoint, the sidecar's common part, and resuming.

A run folder (``--out``)::

    config.json                  the options of the run
    progress.csv                 one row per update (the trainer's columns)
    eval.csv                     per checkpoint and training opponent: the greedy policy's win share
    checkpoints/step_<N>.zip     the trainer's checkpoint, and its sidecar step_<N>.json
    final.zip / final.json       the last checkpoint

``Run`` holds one: it finds the newest intact checkpoint to resume from (``--resume``), cuts the logs back
to its step (what was logged after it is trained again, and ``seconds`` carries on), and tells the trainer
when to stop (``total_steps``, the time limit, SIGINT or SIGTERM) and when a checkpoint is due.  SIGINT or
SIGTERM end a run at its next safe point with a checkpoint and ``final.zip``; ``finish`` then raises
``RunInterruptedError`` (the command line exits 130).
"""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import json
import platform
import signal
import threading
import time
from pathlib import Path
from typing import Any

from bidbluff.agents.policy import (
    CheckpointError,
    PolicyAgent,
    checkpoint_paths,
    copy_checkpoint,
    env_signature,
    read_sidecar,
    write_atomic,
)

EVAL_COLUMNS = ["step", "opponent", "games", "win_share", "ci_low", "ci_high", "mean_reward", "mean_score", "baseline"]


# -- logs ----------------------------------------------------------------------------------
class CsvLog:
    """Append-only CSV with a fixed header (so a resumed run keeps writing the same file).

    ``up_to_step``: a resumed run's log is cut back to the rows of steps up to its checkpoint's (what was
    logged after it is trained again), and written again under ``columns``.  ``seconds`` is then the
    ``seconds`` of the last row kept, so that a resumed run's time column carries on.
    """

    def __init__(self, path: Path, columns: list[str], up_to_step: int | None = None) -> None:
        self.path, self.columns = path, columns
        self.seconds = 0.0
        rows: list[dict[str, str]] = []
        cut = up_to_step is not None and path.exists()
        if cut:
            with path.open(newline="") as f:
                rows = [
                    row
                    for row in csv.DictReader(f)  # (a line cut short by a crash lacks fields: dropped)
                    if None not in row.values() and _int(row.get("step")) <= up_to_step
                ]
            self.seconds = max((_float(row.get("seconds")) for row in rows), default=0.0)
        if cut or not path.exists() or path.stat().st_size == 0:

            def write(tmp: Path) -> None:
                with tmp.open("w", newline="") as f:
                    writer = csv.writer(f)
                    writer.writerow(columns)
                    writer.writerows([row.get(c, "") for c in columns] for row in rows)

            write_atomic(path, write)

    def write(self, row: dict[str, Any]) -> None:
        with self.path.open("a", newline="") as f:
            csv.writer(f).writerow([_fmt(row.get(c, "")) for c in self.columns])


def _fmt(value: Any) -> Any:
    return f"{value:.6g}" if isinstance(value, float) else value


def _int(text: str | None) -> int:
    try:
        return int(text or "")
    except ValueError:
        return 1 << 62  # a row without a readable step is dropped


def _float(text: str | None) -> float:
    try:
        return float(text or 0)
    except ValueError:
        return 0.0


def write_json(path: Path, data: Any) -> None:
    write_atomic(path, lambda tmp: tmp.write_text(json.dumps(data, indent=2) + "\n"))


def tensorboard_available() -> bool:
    try:
        from torch.utils.tensorboard import SummaryWriter  # noqa: F401
    except ImportError:
        return False
    return True


# -- stopping ---------------------------------------------------------------------------
class RunInterruptedError(Exception):
    """A run stopped by SIGINT or SIGTERM after saving a checkpoint and ``final.zip``."""

    def __init__(self, signal_name: str, steps: int, final: Path) -> None:
        super().__init__(f"{signal_name}: stopped at step {steps}; saved {final}")
        self.signal_name, self.steps, self.final = signal_name, steps, final


class StopSignals:
    """While a run is in it: SIGINT (Ctrl-C) or SIGTERM asks the run to stop at its next safe point (then it saves
    and raises ``RunInterruptedError``); a second signal stops it at once (``KeyboardInterrupt``)."""

    SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __init__(self) -> None:
        self.received: str | None = None
        self._before: dict[int, Any] = {}

    def __bool__(self) -> bool:
        return self.received is not None

    def __enter__(self) -> StopSignals:
        if threading.current_thread() is threading.main_thread():  # signals reach the main thread only
            self._before = {s: signal.signal(s, self._handle) for s in self.SIGNALS}
        return self

    def __exit__(self, *exc: object) -> None:
        for s, handler in self._before.items():
            signal.signal(s, handler)

    def _handle(self, signum: int, frame: Any) -> None:
        if self.received is not None:
            raise KeyboardInterrupt
        self.received = signal.Signals(signum).name


def check_time_limit(time_limit: float | None) -> None:
    if time_limit is not None and time_limit <= 0:
        raise ValueError(
            f"--time-limit must be a positive number of seconds, not {time_limit:g} (leave it out for no limit)"
        )


# -- checkpoints and their evaluation ------------------------------------------------------
def latest_checkpoint(out: Path) -> tuple[Path, dict[str, Any]] | None:
    """The newest intact checkpoint of a run (corrupt or truncated ones are skipped, with a warning)."""
    found = []
    for sidecar in (out / "checkpoints").glob("step_*.json"):
        try:
            meta = read_sidecar(sidecar)
        except CheckpointError as bad:
            print(f"warning: skipping {sidecar}: {bad}")
            continue
        found.append((int(meta["steps"]), checkpoint_paths(sidecar)[0], meta))
    if not found:
        return None
    _, path, meta = max(found, key=lambda item: item[0])
    return path, meta


def evaluate(network: Any, steps: int, config: Any, games: int, seed: int, num_players: int) -> list[dict[str, Any]]:
    """Win share of the greedy policy of ``network`` (``logits(obs)``) against each training opponent (the other
    seats all that opponent), seats rotated over duplicate deals; one row per opponent."""
    from bidbluff.arena.tournament import run_tournament

    learner = PolicyAgent(network, {"env": config.env, "steps": steps}, deterministic=True, name="learner")
    rows = []
    for spec in dict.fromkeys(config.opponents):
        lineup = [learner] + [spec] * (num_players - 1)
        result = run_tournament(config.env, lineup, games, num_players, seed=seed, env_options=config.env_options)
        row = result.rows()[0]
        rows.append(
            {
                "step": int(steps),
                "opponent": spec,
                "games": row["games"],
                "win_share": row["win_share"],
                "ci_low": row["ci_low"],
                "ci_high": row["ci_high"],
                "mean_reward": row["mean_reward"],
                "mean_score": row["mean_score"],
                "baseline": 1 / num_players,
            }
        )
    return rows


def run_meta(
    config: Any, steps: int, evaluation: list[dict[str, Any]], num_players: int, algorithm: str, **versions: str
) -> dict[str, Any]:
    """The part of a checkpoint's sidecar every trainer writes (``bidbluff.agents.policy`` adds the format and the
    zip's hash; the trainer adds its own keys): what it plays, how it was trained, how it did."""
    import torch

    return {
        **env_signature(config.env, config.env_options),
        "env_options": dict(config.env_options),
        "num_players": num_players,
        "algorithm": algorithm,
        "steps": int(steps),
        "opponents": list(config.opponents),
        "options": dataclasses.asdict(config),
        "evaluation": evaluation,
        "created": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "versions": {"python": platform.python_version(), "torch": torch.__version__, **versions},
    }


# -- the run -----------------------------------------------------------------------------
class Run:
    """One run's folder, logs, clock and schedule (see the module docstring).

    ``config`` is any trainer's config (``env``, ``env_options``, ``opponents``, ``total_steps``,
    ``time_limit``, ``checkpoint_every``, ``eval_games``, ``seed``); ``resume`` reads the newest intact
    checkpoint (``resumed``: its path and sidecar; ``steps``: its step) or raises ``FileNotFoundError``.
    Nothing is written until ``open``.
    """

    def __init__(self, config: Any, out: Path, progress_columns: list[str], num_players: int, resume: bool) -> None:
        check_time_limit(config.time_limit)
        self.config, self.out, self.num_players = config, out, num_players
        self.steps = 0
        self.evaluation: list[dict[str, Any]] = []
        self.resumed: tuple[Path, dict[str, Any]] | None = None
        if resume:
            self.resumed = latest_checkpoint(out)
            if self.resumed is None:
                raise FileNotFoundError(f"--resume: {out}/checkpoints holds no intact checkpoint to resume from")
            self.steps = int(self.resumed[1]["steps"])
            self.evaluation = [row for row in self.resumed[1].get("evaluation", []) if row["step"] <= self.steps]
        self.progress_columns = progress_columns
        self.stop = StopSignals()
        self.started = time.perf_counter()
        self.start_steps = self.steps
        self.next_checkpoint = self._after(self.steps)

    def open(self, resumed_from: Path | None = None) -> None:
        """Make the folder, or take it up again: ``config.json``, and the logs cut back to the resumed step.  A
        trainer opens its run once the network is built, so that a bad ``--init`` leaves no folder behind."""
        (self.out / "checkpoints").mkdir(parents=True, exist_ok=True)
        write_json(self.out / "config.json", dataclasses.asdict(self.config))
        self.next_checkpoint = self._after(self.steps)
        self.start_steps = self.steps
        cut = self.steps if self.resumed is not None else None
        self.progress = CsvLog(self.out / "progress.csv", self.progress_columns, up_to_step=cut)
        self.evals = CsvLog(self.out / "eval.csv", EVAL_COLUMNS, up_to_step=cut)
        if self.resumed is not None:
            print(f"resuming {self.out} from {(resumed_from or self.resumed[0]).name} at step {self.steps}")

    def _after(self, steps: int) -> int:
        every = self.config.checkpoint_every
        return (steps // every + 1) * every

    # -- the clock ----------------------------------------------------------------------------
    def start_clock(self) -> None:
        """The time limit counts from here (this session's training, not its setup)."""
        self.started = time.perf_counter()
        self.start_steps = self.steps

    def out_of_time(self) -> bool:
        limit = self.config.time_limit
        return bool(limit) and time.perf_counter() - self.started >= limit

    def running(self) -> bool:
        """Train on: steps remain, no signal came, the time limit is not reached."""
        return self.steps < self.config.total_steps and not self.stop and not self.out_of_time()

    def checkpoint_due(self) -> bool:
        """A checkpoint is due at this step (each ``checkpoint_every`` steps; once per crossing)."""
        if self.steps < self.next_checkpoint:
            return False
        self.next_checkpoint = self._after(self.steps)
        return True

    def row(self) -> dict[str, Any]:
        """The first columns of a progress row: the step, the run's seconds, this session's speed."""
        seconds = time.perf_counter() - self.started
        return {
            "step": self.steps,
            "seconds": round(self.progress.seconds + seconds, 1),
            "steps_per_s": (self.steps - self.start_steps) / max(seconds, 1e-9),
        }

    # -- checkpoints ---------------------------------------------------------------------------
    def checkpoint_path(self) -> Path:
        return self.out / "checkpoints" / f"step_{self.steps}.zip"

    def saved_now(self, path: Path | None) -> bool:
        """``path`` (the last checkpoint saved) is of this step."""
        return path is not None and int(path.stem.split("_")[1]) == self.steps

    def evaluate(self, network: Any) -> list[dict[str, Any]]:
        """Evaluate ``network`` at this step against each training opponent (``eval_games`` each); the rows go
        to ``eval.csv`` and to ``evaluation`` (the sidecar's)."""
        c = self.config
        if c.eval_games <= 0 or not c.opponents:
            return []
        rows = evaluate(network, self.steps, c, c.eval_games, c.seed + 10_000 + self.steps, self.num_players)
        for row in rows:
            self.evaluation.append(row)
            self.evals.write(row)
        return rows

    def meta(self, algorithm: str, **versions: str) -> dict[str, Any]:
        return run_meta(self.config, self.steps, self.evaluation, self.num_players, algorithm, **versions)

    def finish(self, last_saved: Path) -> Path:
        """``last_saved`` becomes ``final.zip``; a run stopped by a signal raises ``RunInterruptedError`` now."""
        copy_checkpoint(last_saved, self.out / "final")
        if self.stop:
            raise RunInterruptedError(self.stop.received, self.steps, self.out / "final.zip")
        return self.out / "final.zip"
