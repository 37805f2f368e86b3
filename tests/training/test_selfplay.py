"""The self-play league: prioritised sampling, result bookkeeping, a tiny run with --resume."""

from __future__ import annotations

import json

import numpy as np
import pytest

import agents
from agents.policy import read_sidecar
from training.cli import main
from training.selfplay import League, SelfPlayConfig


class Named:
    def __init__(self, name):
        self.name = name


def test_sampling_prefers_the_latest_then_the_hard_opponents():
    league = League(SelfPlayConfig(env="liars_dice_v0", opponents=["random", "heuristic"], latest_prob=0.0))
    random_agent, heuristic = (agent for _, agent in league.baselines)
    for _ in range(50):
        league.record([random_agent], 1.0)  # the learner always beats random...
        league.record([heuristic, heuristic], 0.0)  # ...and never the heuristic (counted once per episode)
    assert league.results["baseline:heuristic"] == [0.0, 50.0]
    rng = np.random.default_rng(0)
    draws = [league.sample(rng) for _ in range(300)]
    assert draws.count(heuristic) > 0.9 * len(draws)
    league.latest = Named("latest")
    league.config.latest_prob = 1.0
    assert league.sample(rng) is league.latest
    with pytest.raises(ValueError, match="latest_prob"):
        League(SelfPlayConfig(env="liars_dice_v0", latest_prob=2.0))


def test_selfplay_runs_and_resumes(tmp_path):
    out = tmp_path / "league"
    tiny = ["--num-envs", "2", "--n-steps", "32", "--batch-size", "64", "--n-epochs", "1", "--net-arch", "16",
            "--checkpoint-every", "64", "--eval-games", "2", "--baseline-eval-games", "2", "--no-progress",
            "--opponents", "random,heuristic", "--out", str(out)]  # fmt: skip
    assert main(["selfplay", "liars_dice_v0", "--total-steps", "128", *tiny]) == 0
    league = json.loads((out / "league.json").read_text())
    assert [s["steps"] for s in league["snapshots"]] == [64, 128]
    assert "vs_previous" in league["generations"][1]
    assert {p["name"] for p in league["pool"]} == {"baseline:random", "baseline:heuristic", "gen1@64", "gen2@128"}
    meta = read_sidecar(out / "final.zip")
    assert {e["opponent"] for e in meta["evaluation"]} == {"random", "heuristic"}
    assert main(["selfplay", "liars_dice_v0", "--resume", "--total-steps", "192", *tiny]) == 0
    league = json.loads((out / "league.json").read_text())
    assert [s["steps"] for s in league["snapshots"]] == [64, 128, 192]
    with pytest.raises(SystemExit, match=r"not a run of this trainer .* it is a run of `selfplay --trainer sb3`"):
        main(["train", "liars_dice_v0", "--resume", "--out", str(out)])
    assert agents.make(str(out / "final.zip"), env_name="liars_dice_v0").meta["steps"] >= 192
