"""Training faults: a signal saves the run and exits 130, a failed write leaves no partial checkpoint and says
which path, bad options are refused before the run directory is made."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch

from bidbluff import agents
from bidbluff.agents.policy import read_sidecar
from bidbluff.cli import main

ROOT = Path(__file__).resolve().parents[2]
BATCHED = ["selfplay", "liars_dice_v0", "--num-games", "4", "--rollout-steps", "64", "--minibatch-size", "32",
           "--n-epochs", "1", "--trunk", "16", "--net-arch", "8", "--checkpoint-every", "64", "--eval-games", "0",
           "--opponents", "random", "--no-progress"]  # fmt: skip
SB3 = ["--num-envs", "1", "--n-steps", "32", "--batch-size", "32", "--n-epochs", "1", "--net-arch", "8",
       "--checkpoint-every", "64", "--eval-games", "0", "--no-progress"]  # fmt: skip
TRAIN = ["train", "liars_dice_v0", *SB3]
SELFPLAY_SB3 = [
    "selfplay",
    "liars_dice_v0",
    "--trainer",
    "sb3",
    "--baseline-eval-games",
    "0",
    "--opponents",
    "random",
    *SB3,
]


@pytest.mark.parametrize(
    ("args", "sig"),
    [
        (BATCHED, signal.SIGINT),
        (TRAIN, signal.SIGTERM),
        pytest.param(SELFPLAY_SB3, signal.SIGINT, marks=pytest.mark.slow),
    ],
    ids=["batched", "train", "sb3-selfplay"],
)
def test_a_signal_saves_a_checkpoint_and_final_then_exits_130(args, sig, tmp_path):
    out = tmp_path / "run"
    command = [sys.executable, "-m", "bidbluff", *args, "--total-steps", "100000000", "--out", str(out)]
    proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not (out / "progress.csv").exists() or len((out / "progress.csv").read_text().splitlines()) < 2:
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.2)
    proc.send_signal(sig)
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr
    last = stdout.strip().splitlines()[-1]
    assert last.startswith(f"{sig.name}: stopped at step") and "final.zip" in last
    final = read_sidecar(out / "final.zip", "liars_dice_v0")
    assert (out / "checkpoints" / f"step_{final['steps']}.zip").exists()
    agents.make(str(out / "final.zip"))
    assert not list(out.rglob(".*partial*"))


@pytest.mark.parametrize("args", [BATCHED, TRAIN], ids=["batched", "train"])
def test_a_full_disk_names_the_path_and_leaves_no_partial_checkpoint(args, tmp_path, monkeypatch, capsys):
    out = tmp_path / "run"

    def full(obj, f, *rest, **kw):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(f) if isinstance(f, str | Path) else None)

    monkeypatch.setattr(torch, "save", full)
    with pytest.raises(SystemExit) as stop:
        main([*args, "--total-steps", "64", "--out", str(out)])
    assert stop.value.code == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert f"{out}/checkpoints/step_" in err and "No space left on device" in err
    assert [p.name for p in (out / "checkpoints").iterdir()] == []  # no half checkpoint, no temporary file


def test_an_unwritable_out_is_one_line_naming_it(tmp_path, capsys):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    with pytest.raises(SystemExit) as stop:
        main([*BATCHED, "--total-steps", "64", "--out", str(blocker / "run")])
    assert stop.value.code == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and str(blocker) in err and "Not a directory" in err


@pytest.mark.parametrize("args", [BATCHED, TRAIN, SELFPLAY_SB3], ids=["batched", "train", "sb3-selfplay"])
def test_a_time_limit_that_is_not_positive_is_refused_before_the_run_is_made(args, tmp_path, capsys):
    for limit in ("0", "-5"):
        with pytest.raises(SystemExit):
            main([*args, "--time-limit", limit, "--out", str(tmp_path / "run")])
        assert "--time-limit must be a positive number of seconds" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()


def test_a_bad_init_is_refused_before_the_run_is_made(tmp_path, capsys):
    for init in (tmp_path / "nothing.zip", agents.shipped_path("spytails_v0")):
        with pytest.raises(SystemExit):
            main([*BATCHED, "--init", str(init), "--out", str(tmp_path / "run")])
        assert "error:" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("args", [BATCHED, TRAIN], ids=["batched", "train"])
def test_after_a_resume_progress_has_each_step_once_in_order_and_time_carries_on(args, tmp_path):
    import csv

    out = tmp_path / "run"
    assert main([*args, "--total-steps", "192", "--out", str(out)]) == 0
    # the run died after its step-128 rows were logged but before that checkpoint was whole
    steps = sorted(int(p.stem.split("_")[1]) for p in (out / "checkpoints").glob("step_*.zip"))
    for p in (out / "checkpoints").glob(f"step_{steps[-1]}.*"):
        p.unlink()
    before = list(csv.DictReader((out / "progress.csv").open()))
    assert int(before[-1]["step"]) > steps[-2]
    assert main([*args, "--resume", "--total-steps", "320", "--out", str(out)]) == 0
    rows = list(csv.DictReader((out / "progress.csv").open()))
    logged = [int(r["step"]) for r in rows]
    assert logged == sorted(set(logged)) and logged[-1] >= 320
    kept = [r for r in before if int(r["step"]) <= steps[-2]]
    assert rows[: len(kept)] == kept  # the rows up to the checkpoint as they were
    seconds = [float(r["seconds"]) for r in rows]
    assert seconds == sorted(seconds) and seconds[len(kept)] >= seconds[len(kept) - 1]


def test_a_log_is_cut_back_to_the_checkpoint_and_a_line_cut_short_is_dropped(tmp_path):
    from bidbluff.training.run import CsvLog

    path = tmp_path / "progress.csv"
    path.write_text("step,seconds,loss\n10,1.5,0.3\n20,3.0,0.2\n30,4.5,0.1\n4")
    log = CsvLog(path, ["step", "seconds", "loss", "epochs"], up_to_step=20)
    assert path.read_text().splitlines() == ["step,seconds,loss,epochs", "10,1.5,0.3,", "20,3.0,0.2,"]
    assert log.seconds == 3.0
    log.write({"step": 30, "seconds": log.seconds + 1.0, "loss": 0.05, "epochs": 2})
    assert path.read_text().splitlines()[-1] == "30,4,0.05,2"
    CsvLog(path, ["step", "seconds"], up_to_step=5)
    assert path.read_text().splitlines() == ["step,seconds"]
