"""The scorecard (``bidbluff evaluate``): its sections and their arithmetic on tiny budgets, the command and its
JSON, a rerun that reuses the finished parts of an interrupted one, and clear errors for bad specs."""

from __future__ import annotations

import io
import json
import shlex
from pathlib import Path

import pytest
from rich.console import Console

from bidbluff import agents
from bidbluff.agents.identity import identity
from bidbluff.arena import tournament
from bidbluff.cli import build_parser, evaluated_agent, main
from bidbluff.training import exploiter, scorecard
from bidbluff.training.scorecard import make_plan

ROOT = Path(__file__).resolve().parents[2]
TINY = {"num_games": 8, "rollout_steps": 256, "minibatch_size": 128, "n_epochs": 1, "trunk": 16, "net_arch": [16]}
FIRST_LEGAL = f'cmd:"bash {ROOT / "examples/agents/first_legal.sh"}"'


@pytest.fixture(autouse=True)
def no_names(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(agents, "NAMED", {})  # names registered by one test stay out of the others


def tiny_plan(out: Path, **given: object) -> scorecard.Plan:
    options = {"players": [2], "games": 4, "exploiter_steps": 256, "exploiter_games": 24, "seed": 3, "out": out,
               "exploiter_options": TINY, **given}  # fmt: skip
    return make_plan("liars_dice_v0", "random", {"dice": 1}, **options)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def card(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """One scorecard of random at Liar's dice (2 players x 1 die), every section, on tiny budgets."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(scorecard, "EXACT_PRESETS", ("lying_pirates",))  # one tree is enough to check the figure
        return scorecard.scorecard(tiny_plan(tmp_path_factory.mktemp("card"), exploiter_reference="heuristic"))


def test_the_baselines_at_each_table_size(card: dict) -> None:
    rows = card["baselines"]["rows"]
    assert [(r["players"], r["against"]) for r in rows] == [(2, "heuristic"), (2, "random")]
    for row in rows:
        assert row["games"] == 4 and row["seed"] == 3 and row["equal_share"] == 0.5
        assert row["ratio"] == pytest.approx(row["win_share"] * 2)
        assert row["ci_low"] <= row["win_share"] <= row["ci_high"]
        assert row["win_share"] + row["opponents_win_share"] == pytest.approx(1.0), "one winner a game"
        assert row["reproduce"].endswith("--players 2 --games 4 --seed 3 --option dice=1")
    assert rows[0]["reproduce"].startswith("bidbluff tournament liars_dice_v0 --agents random,heuristic ")
    assert rows[0]["win_share"] < 0.5, "random loses to the heuristic head to head"


def test_the_mixed_table_seats_four_different_agents(card: dict) -> None:
    mixed = card["mixed"]
    entries = mixed["entries"]
    assert mixed["players"] == 4 and mixed["games"] == 24  # one deal in all 24 orders
    assert [e["entry"] for e in entries] == ["random", "shipped", "heuristic", "shipped#2"]
    assert sum(e["win_share"] for e in entries) == pytest.approx(1.0)
    shares = sorted((e["win_share"] for e in entries), reverse=True)
    assert mixed["agent_rank"] == 1 + shares.index(entries[0]["win_share"])
    assert "repeats" in mixed["note"] and any("agent itself" in n for n in card["notes"])


def test_the_learned_exploiter(card: dict) -> None:
    found = card["exploiter"]
    assert found["num_players"] == 4 and found["games"] == 24 and found["budget"]["asked_steps"] == 256
    assert found["gain"] == pytest.approx(found["win_share"] - 0.25)
    assert "--method learned --players 4 --steps 256" in found["reproduce"]
    reference = found["reference"]
    assert reference["agent"] == "heuristic" and reference["exploiter"] != found["exploiter"]
    assert reference["budget"]["asked_steps"] == found["budget"]["asked_steps"] and reference["games"] == 24
    ratio = found["gain"] / reference["gain"] if reference["gain"] > 0 else None
    assert found["gain_ratio"] == pytest.approx(ratio) if ratio is not None else found["gain_ratio"] is None


def test_the_exact_figure_is_the_exploitability_commands(card: dict, tmp_path: Path) -> None:
    (row,) = card["exact"]["rows"]
    target = tmp_path / "exact.json"
    assert main(["exploitability", "liars_dice_v0", "--agent", "random", "--json", str(target)]) == 0
    assert row["preset"] == "lying_pirates" and row["policy"] == "exact"
    assert row["exploitability"] == pytest.approx(json.loads(target.read_text())["exploitability"], abs=1e-12)
    assert row["exploitability"] == pytest.approx(0.716905, abs=1e-6)  # the figure docs/evaluation.md gives


def test_the_record_says_how_it_was_made(card: dict) -> None:
    assert card["agent"] == {"spec": "random"} and card["seed"] == 3 and card["reused"] == []
    args = build_parser().parse_args(shlex.split(card["command"])[1:])
    assert args.command == "evaluate" and args.games == 4 and args.option == ["dice=1"]
    assert json.loads(json.dumps(card)) == card, "JSON-safe"


def test_an_interrupted_scorecard_resumes_from_its_finished_parts(tmp_path: Path, monkeypatch) -> None:
    plan = tiny_plan(tmp_path, skip=["exact"], exploiter_steps=256)

    def interrupt(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    with monkeypatch.context() as patch:
        patch.setattr(scorecard, "mixed_table", interrupt)
        with pytest.raises(KeyboardInterrupt):
            scorecard.scorecard(plan)
    assert len(list((tmp_path / "parts").glob("*.json"))) == 2, "each baseline table kept as it finished"
    first = scorecard.scorecard(plan)
    assert first["reused"] == ["baselines 2 players against heuristic", "baselines 2 players against random"]
    played = []
    real = tournament.run_tournament
    monkeypatch.setattr(tournament, "run_tournament", lambda *a, **k: played.append(a) or real(*a, **k))
    monkeypatch.setattr(exploiter, "learned_exploitability", interrupt)
    again = scorecard.scorecard(plan)
    assert played == [] and len(again["reused"]) == 4
    assert again["baselines"]["rows"] == [{**r, "reused": True} for r in first["baselines"]["rows"]]
    more = scorecard.scorecard(tiny_plan(tmp_path, skip=["exact"], games=6))
    assert len(played) == 3, "other games: the baseline and mixed tables again, the exploiter's games fixed"
    assert more["reused"] == ["exploiter at 4 players"]


def test_the_command_writes_json(tmp_path: Path) -> None:
    target = tmp_path / "card.json"
    argv = ["evaluate", "liars_dice_v0", "--agent", "heuristic", "--players", "2,3", "--games", "6", "--skip",
            "mixed,exploiter,exact", "--option", "dice=1", "--out", str(tmp_path / "out"),
            "--json", str(target)]  # fmt: skip
    assert main(argv) == 0
    record = json.loads(target.read_text())
    assert [(r["players"], r["against"]) for r in record["baselines"]["rows"]] == [
        (2, "heuristic"), (2, "random"), (3, "heuristic"), (3, "random")
    ]  # fmt: skip
    assert record["mixed"] == record["exploiter"] == record["exact"] == {"skipped": "--skip"}
    assert json.loads((tmp_path / "out" / "scorecard.json").read_text()) == record
    row = record["baselines"]["rows"][2]
    assert row["equal_share"] == pytest.approx(1 / 3) and row["ratio"] == pytest.approx(3 * row["win_share"])


def test_a_program_agent_is_scored_and_its_exact_row_says_why_not(tmp_path: Path) -> None:
    agent = evaluated_agent([f"first={FIRST_LEGAL}"])
    plan = make_plan("liars_dice_v0", agent, {"dice": 1}, players=[2], baselines=["random"], games=2,
                     skip=["mixed", "exploiter"], out=tmp_path)  # fmt: skip
    record = scorecard.scorecard(plan)
    assert record["agent"] == {"spec": "first", "registered": agents.NAMED["first"]}
    assert record["registrations"] == {"first": agents.NAMED["first"]}
    assert record["baselines"]["rows"][0]["games"] == 2 and record["baselines"]["rows"][0]["forfeits"] == 0
    assert "a program says no probabilities" in record["exact"]["skipped"]
    words = shlex.split(record["command"])
    assert words[words.index("--agent") + 1] == f"first={agents.NAMED['first']}" and words.count("--agent") == 1


def test_the_command_names_the_agent_among_several_registered(tmp_path: Path) -> None:
    agents.register("mine", "heuristic")
    agents.register("theirs", "random")
    plan = make_plan("liars_dice_v0", "mine", baselines=["theirs"], skip=list(scorecard.SECTIONS), out=tmp_path)
    args = build_parser().parse_args(shlex.split(plan.command())[1:])
    assert args.agent == ["mine=heuristic", "theirs=random", "mine"] and evaluated_agent(args.agent) == "mine"


def test_an_interrupted_command_says_the_same_command_goes_on(tmp_path: Path, monkeypatch, capsys) -> None:
    def interrupt(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(scorecard, "scorecard", interrupt)
    assert main(["evaluate", "liars_dice_v0", "--agent", "random", "--out", str(tmp_path)]) == 130
    assert f"kept in {tmp_path}; the same command goes on" in capsys.readouterr().err


def test_an_agent_that_needs_the_engine_gets_a_reason_in_its_exact_row(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(scorecard, "EXACT_PRESETS", ("lying_pirates",))
    plan = make_plan("liars_dice_v0", "ismcts:2", skip=["baselines", "mixed", "exploiter"], out=tmp_path)
    (row,) = scorecard.scorecard(plan)["exact"]["rows"]
    assert "searches with the engine" in row["skipped"]
    elsewhere = make_plan("spytails_v0", "random", skip=["baselines", "mixed", "exploiter"], out=tmp_path)
    assert "no game tree of spytails_v0 fits" in scorecard.scorecard(elsewhere)["exact"]["skipped"]


def test_forecast_statistics_are_carried_where_the_tournament_has_them(tmp_path: Path, monkeypatch) -> None:
    real = tournament.run_tournament

    def with_forecasts(*args: object, **kwargs: object) -> tournament.TournamentResult:
        result = real(*args, **kwargs)
        rows = result.rows()
        for i, row in enumerate(rows):
            row.update(forecasts=10, forecast_hit_rate=0.5 + i / 10, mean_forecast=1.0)
        result.rows = lambda: rows  # type: ignore[method-assign]
        return result

    monkeypatch.setattr(tournament, "run_tournament", with_forecasts)
    plan = make_plan("spytails_v0", "random", players=[3], baselines=["random"], games=6, out=tmp_path,
                     skip=["mixed", "exploiter", "exact"])  # fmt: skip
    record = scorecard.scorecard(plan)
    (row,) = record["baselines"]["rows"]
    assert row["forecast_hit_rate"] == 0.5 and row["opponents_forecast_hit_rate"] == pytest.approx(0.65)
    assert "forecast_hit_rate" in rendered(record)


def rendered(record: dict) -> str:
    console = Console(width=400, record=True, file=io.StringIO())
    scorecard.print_scorecard(record, console)
    return console.export_text()


def test_a_game_without_forecasts_prints_no_forecast_columns(card: dict) -> None:
    # every tournament row carries the forecast statistics, empty outside Spytails; they get no column there
    assert card["baselines"]["rows"][0]["forecasts"] == 0
    text = rendered(card)
    assert "win share" in text and "forecast" not in text


def test_defaults_and_quick_budgets() -> None:
    plan = make_plan("spytails_v0", "heuristic")
    assert plan.players == [2, 3, 4] and plan.mixed_players == plan.exploiter_players == 4
    assert (plan.games_at(4), plan.games_at(3)) == (2_000, 1_000)
    assert plan.exploiter_steps == exploiter.DEFAULT_STEPS and plan.mixed == ["shipped", "random"]
    assert make_plan("liars_dice_v0", "heuristic").players == [2, 3, 4, 5, 6]
    quick = make_plan("spytails_v0", "heuristic", quick=True)
    assert (quick.games_at(4), quick.games_at(2), quick.exploiter_steps) == (200, 200, 20_000)


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--agent", "nosuch"], "agent 'nosuch' cannot play spytails_v0: unknown agent 'nosuch'"),
        (["--agent", "random", "--baselines", "heuristic,nosuch.zip"], "agent 'nosuch.zip'"),
        (["--agent", "random", "--players", "5"], "--players 5: spytails_v0 is for 2-4 players"),
        (["--agent", "random", "--players", "two"], "--players 'two'"),
        (["--agent", "random", "--skip", "exact,ratings"], "--skip ratings: the sections are"),
        (["--agent", "random", "--mixed", "shipped,heuristic,expert,ismcts:5"], "the mixed table seats 4"),
        (["--agent", "a=random", "--agent", "b=heuristic"], "say which agent to evaluate"),
        (["--agent", "random", "--option", "wind=3"], "spytails_v0 has no option wind"),
    ],
)
def test_a_bad_argument_is_a_clear_error(argv: list[str], says: str, tmp_path: Path, capsys) -> None:
    with pytest.raises(SystemExit) as done:
        main(["evaluate", "spytails_v0", *argv, "--out", str(tmp_path)])
    assert done.value.code == 2 and says in capsys.readouterr().err
    assert not list(tmp_path.iterdir()), "nothing ran"


def test_which_agent_is_evaluated() -> None:
    assert evaluated_agent(["mine=random"]) == "mine" and agents.NAMED == {"mine": "random"}
    assert evaluated_agent(["other=heuristic", "ismcts:50,prior=shipped"]) == "ismcts:50,prior=shipped"
    with pytest.raises(ValueError, match="say which agent"):
        evaluated_agent(["random", "heuristic"])


def test_a_checkpoint_retrained_under_its_path_is_another_agent(tmp_path: Path) -> None:
    path = tmp_path / "net.zip"
    path.write_bytes(b"one")
    before = identity(str(path), "liars_dice_v0")
    path.write_bytes(b"two")
    after = identity(f"{tmp_path / 'net'}:sample", "liars_dice_v0")
    assert before["sha256"][str(path)] != after["sha256"][str(path)]
    assert "sha256" in identity("shipped", "liars_dice_v0") and "sha256" not in identity("random", "spytails_v0")


def test_a_search_is_identified_by_the_networks_it_reads():
    shipped = str(agents.shipped_path("lying_pirates_v0"))
    for spec in ("expert", "ismcts:20,prior=shipped,value=shipped"):
        assert list(identity(spec, "lying_pirates_v0")["sha256"]) == [shipped]
    assert "sha256" not in identity("ismcts:20", "lying_pirates_v0")
