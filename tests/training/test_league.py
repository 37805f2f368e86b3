"""The league every trainer draws from: PFSP weights, records, snapshots, the latest policy, save and restore."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bidbluff.agents.policy import CheckpointError
from bidbluff.training.league import League


class Named:
    def __init__(self, name):
        self.name = name


def league(**options):
    return League({"baseline:random": Named("random"), "baseline:heuristic": Named("heuristic")}, **options)


def test_win_rate_is_smoothed_and_the_weight_is_one_minus_it_to_the_power():
    lg = league(pfsp_power=2.0)
    assert lg.win_rate("baseline:random") == 0.5  # unplayed: the Beta(1, 1) prior
    for result in (1.0, 1.0, 0.5):
        lg.record("baseline:random", result)
    assert lg.results["baseline:random"] == [2.5, 3]
    assert lg.win_rate("baseline:random") == pytest.approx(3.5 / 5)
    assert lg.weight("baseline:random") == pytest.approx((1 - 0.7) ** 2 + 1e-6)


def test_draws_prefer_the_opponents_the_learner_loses_to_and_power_zero_is_uniform():
    lg = league(pfsp_power=2.0)
    for _ in range(50):
        lg.record("baseline:random", 1.0)
        lg.record("baseline:heuristic", 0.0)
    rng = np.random.default_rng(0)
    draws = [lg.draw(rng) for _ in range(500)]
    assert draws.count("baseline:heuristic") > 0.9 * len(draws)
    lg.pfsp_power = 0.0
    draws = [lg.draw(rng) for _ in range(2000)]
    assert 0.45 < draws.count("baseline:heuristic") / len(draws) < 0.55
    with pytest.raises(ValueError, match="no opponent"):
        League({}).draw(rng)


def test_baseline_share_keeps_the_baselines_drawn_however_many_snapshots_join():
    rng = np.random.default_rng(0)
    for share in (0.5, 0.2):
        lg = league(pfsp_power=2.0, pool_max=100, baseline_share=share)
        for k in range(8):
            lg.add_snapshot(f"ckpt/{k}.zip", k, Named(k))
            for _ in range(20):
                lg.record(lg.snapshots[-1]["name"], 0.0)  # the learner loses to every snapshot
        for _ in range(20):
            lg.record("baseline:random", 1.0)  # and beats random: PFSP still rules within the baselines
        draws = [lg.draw(rng) for _ in range(4000)]
        baselines = [d for d in draws if d.startswith("baseline:")]
        assert abs(len(baselines) / len(draws) - share) < 0.03
        assert baselines.count("baseline:heuristic") > 0.9 * len(baselines)
    without = league(pfsp_power=2.0, pool_max=100)  # no share: PFSP over everyone, the baselines fade
    for k in range(8):
        without.add_snapshot(f"ckpt/{k}.zip", k, Named(k))
        for _ in range(20):
            without.record(without.snapshots[-1]["name"], 0.0)
    assert sum(without.draw(rng).startswith("baseline:") for _ in range(2000)) < 0.15 * 2000
    alone = league(baseline_share=0.0)  # nothing else to draw: the baselines, whatever the share
    assert alone.draw(rng).startswith("baseline:")
    with pytest.raises(ValueError, match="baseline_share"):
        league(baseline_share=1.5)


def test_only_the_newest_snapshots_can_be_drawn_and_old_ones_keep_their_record():
    lg = League({}, pool_max=2)
    for steps in (10, 20, 30):
        lg.add_snapshot(f"ckpt/step_{steps}.zip", steps, Named(steps))
    assert [s["name"] for s in lg.snapshots] == ["gen1@10", "gen2@20", "gen3@30"]
    assert lg.names() == ["gen2@20", "gen3@30"]
    assert "gen1@10" not in lg.snapshot_players  # its player is let go
    lg.record("gen1@10", 1.0)
    assert lg.to_dict()["results"]["gen1@10"] == [1.0, 1]
    assert League({}, pool_max=0).recent() == []


def test_sample_gives_the_latest_with_its_probability_and_record_game_counts_each_opponent_once():
    lg = league(latest_prob=0.0)
    random_agent, heuristic = lg.baselines.values()
    latest = Named("latest")
    lg.set_latest(latest)
    rng = np.random.default_rng(1)
    assert all(lg.sample(rng) is not latest for _ in range(50))
    lg.latest_prob = 1.0
    assert lg.sample(rng) is latest
    lonely = League({})
    lonely.set_latest(latest)
    assert lonely.sample(rng) is latest  # nothing else to draw
    lg.record_game([heuristic, heuristic, latest], 0.0)
    lg.record_game([random_agent, Named("stranger")], 1.0)
    assert lg.results == {"baseline:heuristic": [0.0, 1], "baseline:random": [1.0, 1]}
    with pytest.raises(ValueError, match="latest_prob"):
        league(latest_prob=2.0)


def test_of_specs_makes_seeded_baseline_agents():
    lg = League.of_specs(["random", "heuristic"], "liars_dice_v0", seed=5, pfsp_power=1.0)
    assert list(lg.baselines) == ["baseline:random", "baseline:heuristic"]
    assert lg.pfsp_power == 1.0


def test_restore_round_trip_drops_later_and_broken_snapshots(capsys):
    lg = League({}, pool_max=3)
    for steps in (10, 20, 30, 40):
        lg.add_snapshot(f"ckpt/step_{steps}.zip", steps, Named(steps))
    lg.record("gen3@30", 0.5)
    data = json.loads(json.dumps(lg.to_dict()))

    def load(path: Path, steps: int):
        if steps == 20:
            raise CheckpointError(f"{path} is corrupt")
        return Named(steps)

    again = League({}, pool_max=3)
    again.restore(data, load, up_to_step=30)
    assert [s["name"] for s in again.snapshots] == ["gen1@10", "gen3@30"]
    assert again.names() == ["gen1@10", "gen3@30"]
    assert again.results == {"gen3@30": [0.5, 1]}
    assert "gen2@20 dropped" in capsys.readouterr().out
    assert again.next_snapshot_name(50) == "gen3@50"


def test_restores_the_league_block_of_a_shipped_sidecar():
    """Existing runs and checkpoints (batched sidecars' "league", sb3 self-play's league.json) still load."""
    meta = json.loads(Path("checkpoints/liars_dice/selfplay.json").read_text())
    lg = League({}, pool_max=10)
    lg.restore(meta["league"], lambda path, steps: Named(steps))
    assert [s["name"] for s in lg.snapshots] == [s["name"] for s in meta["league"]["snapshots"]]
    assert lg.results == {k: list(v) for k, v in meta["league"]["results"].items()}
