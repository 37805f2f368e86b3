"""Tournament statistics: the Wilson interval, ranks, OpenSkill ratings, seat rotation, outputs."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest

from bidbluff.agents import expand_specs
from bidbluff.arena.tournament import Ratings, lineup, ranks_from_scores, run_tournament, wilson_interval
from bidbluff.cli import main


def test_wilson_interval_known_values():
    lo, hi = wilson_interval(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    lo, hi = wilson_interval(0, 10)
    assert lo == pytest.approx(0.0) and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson_interval(10, 10)
    assert lo == pytest.approx(0.7225, abs=1e-4) and hi == pytest.approx(1.0)
    lo, hi = wilson_interval(450, 1000)
    assert lo == pytest.approx(0.4194, abs=1e-4) and hi == pytest.approx(0.4809, abs=1e-4)
    assert wilson_interval(2.5, 10)[0] < 0.25 < wilson_interval(2.5, 10)[1]  # shared wins are fractional
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_ranks_share_ties():
    assert ranks_from_scores([5, 9, 5]) == [2, 1, 2]
    assert ranks_from_scores([1, 2, 3, 4]) == [4, 3, 2, 1]
    assert ranks_from_scores([0, 0]) == [1, 1]


def test_ratings_follow_results():
    ratings = Ratings(["strong", "weak", "middle"])
    for _ in range(30):
        ratings.update(["weak", "middle", "strong"], [1, 2, 3])
    table = ratings.table()
    assert table["strong"]["mu"] > table["middle"]["mu"] > table["weak"]["mu"]
    assert table["strong"]["sigma"] < 25 / 3  # more certain than a new player
    even = Ratings(["a", "b"])
    even.update(["a", "b"], [1, 1])
    assert even.table()["a"]["mu"] == pytest.approx(even.table()["b"]["mu"])


def test_lineup_fills_the_table():
    assert lineup(["heuristic", "random"], 4) == [
        ("heuristic", "heuristic"),
        ("random", "random"),
        ("heuristic#2", "heuristic"),
        ("random#2", "random"),
    ]
    assert expand_specs("heuristic,random*3") == ["heuristic", "random", "random", "random"]


def test_every_entry_sits_everywhere_on_duplicate_deals():
    result = run_tournament("liars_dice_v0", ["heuristic", "random", "random"], games=30, num_players=3, seed=1)
    assert result.games == 30 and result.deals == 5  # 6 seatings (every permutation) a deal
    rows = result.rows()
    assert sum(r["wins"] for r in rows) == pytest.approx(30)  # one win per game, ties shared
    for entry in result.entries:
        assert entry.games == 30
        assert entry.seat_games == [10, 10, 10]
    assert rows[0]["win_share"] > 1 / 3  # heuristic vs random
    assert rows[0]["ci_low"] <= rows[0]["win_share"] <= rows[0]["ci_high"]
    assert set(result.ratings) == {"heuristic", "random", "random#2"}


def test_more_entries_than_seats():
    result = run_tournament("liars_dice_v0", ["random", "heuristic", "ismcts:2", "random"], games=8, num_players=2)
    assert sum(e.games for e in result.entries) == 2 * result.games


def test_cli_writes_json_and_csv(tmp_path, capsys):
    out_json, out_csv = tmp_path / "t.json", tmp_path / "t.csv"
    assert (
        main(
            [
                "tournament",
                "liars_dice_v0",
                "--agents",
                "heuristic,random",
                "--games",
                "10",
                "--json",
                str(out_json),
                "--csv",
                str(out_csv),
            ]
        )
        == 0
    )
    data = json.loads(out_json.read_text())
    assert data["games"] == 10 and {e["entry"] for e in data["entries"]} == {"heuristic", "random"}
    assert data["seating"] == {
        "design": "all 2 permutations per deal",
        "seats": 2,
        "games_per_deal": 2,
        "balanced_after_deals": 1,
        "orders": 2,
    }
    rows = list(csv.DictReader(out_csv.open()))
    assert {"win_share", "ci_low", "ci_high", "mean_score", "rating_mu", "seat_0_win_share"} <= set(rows[0])
    printed = capsys.readouterr().out
    assert "win share" in printed and "heuristic" in printed


def test_a_looping_game_is_stopped_and_counted():
    from bidbluff import agents
    from bidbluff.arena.match import play_game

    record = play_game("libertalia_v0", [agents.make("random", seed=0)] * 2, 0, 2, max_steps=10)
    assert record.truncated and record.steps == 10 and len(record.scores) == 2
    result = run_tournament("libertalia_v0", ["random"], games=2, num_players=2, max_steps=10)
    assert result.truncated == 2


def test_cli_reports_bad_specs_clearly(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["tournament", "liars_dice_v0", "--agents", "genius,random", "--games", "2"])
    assert exit_info.value.code == 2
    assert "unknown agent 'genius'" in capsys.readouterr().err


class FixedForecast:
    """Forecasts ``bid`` every round, stakes 1, keeps it, and plays its first legal card."""

    def __init__(self, bid: int) -> None:
        self.bid, self.name = bid, f"forecast{bid}"

    def reset(self) -> None:
        pass

    def act(self, observation: dict, agent: str) -> int:
        from bidbluff.envs.spytails.codec import CODEC

        legal = [int(i) for i in np.flatnonzero(observation["action_mask"])]
        bid = CODEC.offset["bid"] + self.bid
        return bid if bid in legal else legal[0]


def appended(before: list[str], after: list[str]) -> list[str]:
    """The lines a step added to a log that keeps only its latest lines."""
    for dropped in range(len(before) + 1):
        kept = before[dropped:]
        if after[: len(kept)] == kept:
            return after[len(kept) :]
    return after


def test_spytails_forecast_statistics_count_every_round(tmp_path):
    from bidbluff.arena import records

    players = [FixedForecast(bid) for bid in (0, 1, 2, 1)]
    result = run_tournament("spytails_v0", players, games=24, num_players=4, seed=5, save_games=str(tmp_path))
    rows = {row["entry"]: row for row in result.rows()}
    # counted on their own: every round's payout line in the game's log, and the round count
    met: dict[str, int] = {}
    rounds = 0
    for path in sorted(tmp_path.glob("game_*.json")):
        record = records.load(path)
        env = records.make_env(record)
        for _, action in record["actions"]:
            before = list(env.game_state.log)
            env.step(action)
            for line in appended(before, env.game_state.log):
                for seat, label in enumerate(record["agents"]):
                    met[label] = met.get(label, 0) + (line.startswith(f"P{seat} ") and "met the forecast" in line)
        rounds += env.game_state.round + 1
    assert sum(row["forecasts"] for row in rows.values()) == 4 * rounds
    for label, row in rows.items():
        bid = int(label.removeprefix("forecast").split("#")[0])
        assert row["mean_forecast"] == bid
        assert row["forecast_hit_rate"] * row["forecasts"] == pytest.approx(met.get(label, 0))
    assert any(row["forecast_hit_rate"] > 0 for row in rows.values())


def test_only_games_of_forecasts_report_them(capsys):
    from bidbluff.arena.report import tournament_table

    spy = run_tournament("spytails_v0", ["heuristic", "random"], games=4, num_players=2, seed=1)
    dice = run_tournament("liars_dice_v0", ["heuristic", "random"], games=4, num_players=2, seed=1)
    assert all(row["mean_forecast"] is not None for row in spy.rows())
    assert all(row["forecasts"] == 0 and row["forecast_hit_rate"] is None for row in dice.rows())
    columns = [c.header for c in tournament_table(spy, spy.rows()).columns]
    assert columns[-2:] == ["hit rate", "mean forecast"]
    assert "hit rate" not in [c.header for c in tournament_table(dice, dice.rows()).columns]
