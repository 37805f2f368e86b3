"""The league method (``bidbluff league``): a row per generation, the league growing by a snapshot and an
exploiter each generation, resuming without redoing finished parts, table sizes and dice counts drawn per
game, and bad options refused before anything is written."""

from __future__ import annotations

import csv
import json

import pytest

from bidbluff.cli import main
from bidbluff.training import generations
from bidbluff.training.batched import BatchedTrainer
from bidbluff.training.generations import CSV_COLUMNS, LeagueConfig, LeagueRun, main_config, run_league

TINY = {"num_games": 8, "rollout_steps": 128, "minibatch_size": 64, "n_epochs": 1}
SMALL_NET = {"trunk": 16, "net_arch": [16]}


def tiny(tmp_path, **options):
    """A league of seconds: a 16-wide network, 2-3 players, 1-2 dice, measured at 2 players on 4 games."""
    given = {
        "out": str(tmp_path / "league"), "generations": 2, "main_steps": 128, "exploiter_steps": 128,
        "eval_games": 4, "eval_players": 2, "players": [2, 3], "dice": [1, 2], "baselines": ["random"],
        "main_options": {**TINY, **SMALL_NET}, "exploiter_options": TINY, **options,
    }  # fmt: skip
    return LeagueConfig("liars_dice_v0", **given)


def rows(path):
    with path.open(newline="") as handle:
        return list(csv.DictReader(handle))


def test_a_tiny_league_writes_a_row_per_generation_and_grows_its_pool(tmp_path):
    config = tiny(tmp_path)
    final = run_league(config, progress_bar=False)
    out = tmp_path / "league"
    assert final == out / "main.zip" and final.exists()
    table = rows(out / "generations.csv")
    assert [r["generation"] for r in table] == ["1", "2"]
    assert list(table[0]) == CSV_COLUMNS
    for row in table:
        assert float(row["equal_share"]) == 0.5 and int(row["games"]) >= 4
        assert float(row["gain"]) == pytest.approx(float(row["win_share"]) - 0.5, abs=1e-3)
        assert float(row["ci_low"]) <= float(row["win_share"]) <= float(row["ci_high"])
        assert int(row["main_steps"]) >= 128 and int(row["exploiter_steps"]) >= 128
    assert [r["pool"] for r in table] == ["0", "2"]
    record = json.loads((out / "league.json").read_text())
    assert record["generations"][1]["pool"] == ["main-1", "exploiter-1"]
    sidecar = json.loads((out / "gen2" / "main" / "final.json").read_text())
    names = [s["name"] for s in sidecar["league"]["snapshots"]]
    assert names[:2] == ["main-1", "exploiter-1"], "generation 2's main drew from generation 1's snapshot and exploiter"
    assert sidecar["options"]["init"] == str(out / "gen1" / "main" / "final.zip")
    assert sidecar["options"]["magnet_coef"] == 0.2 and sidecar["options"]["normalize_advantages"] is False
    assert sidecar["env_options"] == {}, "the default observation: one network for every table"


def test_an_exact_teacher_for_the_main_agent_is_measured_at_two_players_one_die_every_generation(tmp_path):
    """``--main-options '{"exact": "cfr"}'``: each generation's row gives its snapshot's exact exploitability at
    2 x 1 (the value its final checkpoint measured); a league without one leaves the column empty."""
    taught = tiny(tmp_path, generations=1, main_options={**TINY, **SMALL_NET, "exact": "cfr", "exact_coef": 5.0,
                                                         "learning_rate": 3e-3})  # fmt: skip
    run_league(taught, progress_bar=False)
    row = rows(tmp_path / "league" / "generations.csv")[0]
    measured = rows(tmp_path / "league" / "gen1" / "main" / "exploitability.csv")
    assert float(row["exact_exploitability"]) == pytest.approx(float(measured[-1]["exploitability"]), abs=1e-5)
    untaught = tiny(tmp_path, generations=1, out=str(tmp_path / "plain"))
    run_league(untaught, progress_bar=False)
    assert rows(tmp_path / "plain" / "generations.csv")[0]["exact_exploitability"] == ""
    assert not (tmp_path / "plain" / "gen1" / "main" / "exploitability.csv").exists()


def test_resume_after_an_interrupted_generation_keeps_the_finished_parts(tmp_path, monkeypatch):
    config = tiny(tmp_path, generations=1)
    run_league(config, progress_bar=False)
    out = tmp_path / "league"
    first = (out / "gen1" / "main" / "final.zip").stat().st_mtime_ns

    def killed(self, generation):
        raise KeyboardInterrupt  # as a kill after generation 2's main agent was trained

    monkeypatch.setattr(LeagueRun, "exploit", killed)
    with pytest.raises(KeyboardInterrupt):
        run_league(tiny(tmp_path, generations=2), resume=True, progress_bar=False)
    record = json.loads((out / "league.json").read_text())["generations"]
    assert record[1]["main"] is not None and record[1]["gain"] is None
    assert len(rows(out / "generations.csv")) == 1
    monkeypatch.undo()

    trained = []
    monkeypatch.setattr(LeagueRun, "train_main", lambda self, g: trained.append(g.index))
    run_league(tiny(tmp_path, generations=2), resume=True, progress_bar=False)
    assert trained == [], "no finished main part was trained again"
    assert (out / "gen1" / "main" / "final.zip").stat().st_mtime_ns == first
    assert [r["generation"] for r in rows(out / "generations.csv")] == ["1", "2"]


def test_a_main_run_cut_short_resumes_from_its_checkpoint(tmp_path, monkeypatch):
    config = tiny(tmp_path, generations=1, main_steps=256, checkpoint_every=128)
    update = BatchedTrainer.update
    calls = []

    def update_then_die(self):
        calls.append(self.steps)
        if len(calls) == 2:
            raise KeyboardInterrupt  # a kill after the checkpoint at step 128
        return update(self)

    monkeypatch.setattr(BatchedTrainer, "update", update_then_die)
    with pytest.raises(KeyboardInterrupt):
        run_league(config, progress_bar=False)
    monkeypatch.undo()
    started = []
    monkeypatch.setattr(
        BatchedTrainer, "run", lambda self, run=BatchedTrainer.run: started.append(self.steps) or run(self)
    )
    run_league(tiny(tmp_path, generations=1, main_steps=256, checkpoint_every=128), resume=True, progress_bar=False)
    assert started[0] >= 128, "the main agent's run resumed from its checkpoint, not from scratch"


def test_the_main_agents_games_draw_table_sizes_and_dice_counts(tmp_path):
    config = tiny(tmp_path, players=[2, 4, 6], dice=[1, 3, 5])
    sizes, dice = generations.check(config)
    trainer = BatchedTrainer(main_config(config, sizes, dice, 1, ""), progress_bar=False)
    seen = set()
    for _ in range(10):
        for table in trainer.tables:
            trainer._start(table)
            state = table.env.game_state
            seen.add((state.num_players, len(state.round.cups[0])))
    assert {n for n, _ in seen} == {2, 4, 6} and {d for _, d in seen} == {1, 3, 5}
    assert len(seen) == 9, "every table size with every dice count"
    assert trainer.league.baseline_share is None, "no share given: PFSP over the whole league"
    shared = BatchedTrainer(main_config(tiny(tmp_path, baseline_share=0.4), sizes, dice, 2, ""), progress_bar=False)
    assert shared.league.baseline_share == 0.4, "--baseline-share reaches the main agent's league"
    assert generations.check(LeagueConfig("spytails_v0"))[0] == [2, 3, 4], "by default every size the game has"
    assert generations.check(LeagueConfig("liars_dice_v0"))[1] == [1, 2, 3, 4, 5]
    assert generations.check(LeagueConfig("liars_dice_v0", env_options={"dice": 2}))[1] == []


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": [2, 7]}, "is for 2-6 players, not 7"),
        ({"env": "spytails_v0", "eval_players": 5}, "is for 2-4 players, not 5"),
        ({"env": "spytails_v0", "dice": [1]}, "only liars_dice_v0 has dice counts"),
        ({"dice": [1], "env_options": {"dice": 2}}, "--dice and --option dice"),
        ({"dice": [6]}, "dice must be 1..5"),
        ({"generations": 0}, "--generations must be positive"),
        ({"pool_fraction": 1.0}, "--pool-fraction must be in"),
        ({"pool_fraction": 0.5, "baselines": []}, "needs --baselines"),
        ({"baseline_share": 1.5}, "--baseline-share must be in"),
        ({"baseline_share": 0.5, "baselines": [], "pool_fraction": 0.0}, "--baseline-share needs --baselines"),
        ({"main_play": "best"}, "--main-play must be sample or greedy"),
        ({"main_options": {"players": 3}}, "--main-options: players not an option"),
        ({"exploiter_options": {"lr": 1}}, "--exploiter-options: lr not an option"),
        ({"baselines": ["nobody"]}, "nobody"),
    ],
)
def test_bad_options_are_refused_before_anything_is_written(tmp_path, options, message):
    env = options.pop("env", "liars_dice_v0")
    config = LeagueConfig(env, out=str(tmp_path / "league"), **options)
    with pytest.raises(ValueError, match=message):
        LeagueRun(config, progress_bar=False)
    assert not (tmp_path / "league").exists()


def test_the_command_refuses_a_second_league_in_one_folder_and_a_changed_resume(tmp_path, capsys):
    out = str(tmp_path / "league")
    with pytest.raises(FileNotFoundError, match="no league to resume"):
        LeagueRun(LeagueConfig("liars_dice_v0", out=out), resume=True)
    (tmp_path / "league").mkdir()
    (tmp_path / "league" / "config.json").write_text(json.dumps({"env": "liars_dice_v0", "out": out}))
    with pytest.raises(ValueError, match="already holds a league"):
        LeagueRun(LeagueConfig("liars_dice_v0", out=out))
    with pytest.raises(SystemExit, match="cannot change main_steps"):
        main(["league", "liars_dice_v0", "--out", out, "--resume", "--main-steps", "5"])
    with pytest.raises(SystemExit) as exited:
        main(["league", "liars_dice_v0", "--out", str(tmp_path / "other"), "--players", "1,2"])
    assert exited.value.code == 2 and "is for 2-6 players, not 1" in capsys.readouterr().err


def test_plot_draws_a_leagues_gain_per_generation(tmp_path):
    pytest.importorskip("matplotlib")
    from bidbluff.training.plot import plot_run

    rows_ = [
        {"generation": k, "games": 2016, "win_share": share, "ci_low": share - 0.02, "ci_high": share + 0.02,
         "equal_share": 0.25, "gain": share - 0.25}
        for k, share in ((1, 0.40), (2, 0.33), (3, 0.29))
    ]  # fmt: skip
    with (tmp_path / "generations.csv").open("w", newline="") as handle:
        writer = csv.DictWriter(handle, CSV_COLUMNS)
        writer.writeheader()
        writer.writerows(rows_)
    assert plot_run(tmp_path) == [tmp_path / "plots" / "league.png"]
