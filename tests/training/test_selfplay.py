"""The stable-baselines3 self-play league: a tiny run with --resume (the league itself: test_league.py)."""

from __future__ import annotations

import json

import pytest

from bidbluff import agents
from bidbluff.agents.policy import read_sidecar
from bidbluff.cli import main


def test_selfplay_runs_and_resumes(tmp_path):
    out = tmp_path / "league"
    tiny = ["--num-envs", "2", "--n-steps", "32", "--batch-size", "64", "--n-epochs", "1", "--net-arch", "16",
            "--checkpoint-every", "64", "--eval-games", "2", "--baseline-eval-games", "2", "--no-progress",
            "--opponents", "random,heuristic", "--out", str(out)]  # fmt: skip
    assert main(["selfplay", "liars_dice_v0", "--trainer", "sb3", "--total-steps", "128", *tiny]) == 0
    league = json.loads((out / "league.json").read_text())
    assert [s["steps"] for s in league["snapshots"]] == [64, 128]
    assert "vs_previous" in league["generations"][1]
    assert {p["name"] for p in league["pool"]} == {"baseline:random", "baseline:heuristic", "gen1@64", "gen2@128"}
    meta = read_sidecar(out / "final.zip")
    assert {e["opponent"] for e in meta["evaluation"]} == {"random", "heuristic"}
    assert main(["selfplay", "liars_dice_v0", "--trainer", "sb3", "--resume", "--total-steps", "192", *tiny]) == 0
    league = json.loads((out / "league.json").read_text())
    assert [s["steps"] for s in league["snapshots"]] == [64, 128, 192]
    with pytest.raises(SystemExit, match=r"not a run of this trainer .* it is a run of `selfplay --trainer sb3`"):
        main(["train", "liars_dice_v0", "--resume", "--out", str(out)])
    assert agents.make(str(out / "final.zip"), env_name="liars_dice_v0").meta["steps"] >= 192
