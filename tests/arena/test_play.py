"""``bidbluff play`` / ``replay`` and game records: scripted terminal games on every env."""

from __future__ import annotations

import io
import re

import numpy as np
import pytest

from bidbluff import envs
from bidbluff.arena import records
from bidbluff.arena.play import new_entries, parse_option, play, show_replay
from bidbluff.cli import main
from bidbluff.envs.lying_pirates.betting import faces_shown

# small, fast configurations of every registered env
CONFIGS = {
    "libertalia_v0": {"num_players": 2},
    "liars_dice_v0": {"num_players": 2, "dice": 2},
    "lying_pirates_v0": {"num_players": 2},
    "spytails_v0": {"num_players": 2},
}
BAD = ["", "garbage words", "#0", "#999", "#x", "?", "? zzzz"]


class Script(io.StringIO):
    """Scripted answers, then the first legal move ("#1") for ever."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__()
        self.lines = list(lines)

    def readline(self, size: int = -1) -> str:
        return (self.lines.pop(0) if self.lines else "#1") + "\n"


def _split(config: dict) -> tuple[int, dict]:
    config = dict(config)
    return config.pop("num_players"), config


def test_registry_covered() -> None:
    assert set(CONFIGS) == set(envs.ENVS)


@pytest.mark.parametrize("env_name", sorted(CONFIGS))
def test_scripted_game_to_the_end(env_name: str, tmp_path) -> None:
    n, options = _split(CONFIGS[env_name])
    out = io.StringIO()
    illegal = "definitely not a move"
    record = play(
        env_name,
        seat=0,
        opponents=["random"],
        num_players=n,
        seed=5,
        env_options=options,
        input=Script([*BAD, illegal]),
        output=out,
        save=tmp_path / "game.json",
    )
    text = out.getvalue()
    assert record is not None and record["env"] == env_name
    assert "is not a place in the list: choose #1-#" in text  # #0, #999, #x
    assert "'garbage words' is not a legal move now" in text
    assert f"{illegal!r} is not a legal move now" in text
    assert "type a move's name or value" in text  # empty line
    assert "no card, tile, character or die is called 'zzzz'" in text
    assert "game over" in text and "scores:" in text
    again = records.replay(records.load(tmp_path / "game.json"))
    assert again.game_state.scores() == record["scores"]
    assert all(seat == 0 for seat, _ in record["actions"]) or any(seat == 1 for seat, _ in record["actions"])


def test_quit_and_eof_leave_cleanly() -> None:
    out = io.StringIO()
    assert (
        play(
            "liars_dice_v0",
            num_players=2,
            seed=1,
            env_options={"dice": 1},
            opponents=["random"],
            input=io.StringIO("quit\n"),
            output=out,
        )
        is None
    )
    assert "You left the game" in out.getvalue()
    out = io.StringIO()
    assert play("libertalia_v0", num_players=2, seed=1, input=io.StringIO("nonsense\n"), output=out) is None
    assert "You left the game" in out.getvalue()


def test_names_and_prefixes(tmp_path) -> None:
    # liars dice, human in seat 1 after seat 0's opening bet: "Bid  1X6" (case and spaces), a prefix, "liar"
    out = io.StringIO()
    record = play(
        "liars_dice_v0",
        seat=1,
        num_players=2,
        seed=2,
        opponents=["random"],
        env_options={"dice": 5},
        input=Script(["bid", "  LIAR "]),
        output=out,
    )
    text = out.getvalue()
    assert "'bid' fits " in text
    assert record["actions"][-1][0] == 1 and "you: calls Liar!" in text


@pytest.mark.parametrize("seed", range(12))
def test_liars_dice_never_shows_an_opponents_cup_before_the_reveal(seed: int) -> None:
    out = io.StringIO()
    record = play(
        "liars_dice_v0",
        seat=0,
        num_players=3,
        seed=seed,
        opponents=["heuristic"],
        env_options={"dice": 3},
        input=Script([]),
        output=out,
    )
    text = out.getvalue()
    before = text.split("game over")[0]
    env = records.make_env(record)
    for seat in (1, 2):
        faces = faces_shown(env.game_state.round.cups[seat])
        assert f"P{seat}: 3 dice: {faces}" not in before
        assert f"P{seat}: 3 dice: ???" in before
        assert f"P{seat}: 3 dice: {faces}" in text.split("game over")[1]  # revealed at the end
    assert re.search(r"P0: 3 dice: [1-6]( [1-6]){2} ", before)  # the human sees its own cup


def test_libertalia_opponent_cards_are_secret_until_revealed() -> None:
    out = io.StringIO()
    play(
        "libertalia_v0", seat=0, num_players=3, seed=3, opponents=["random"], input=Script([]), output=out, width=400
    )  # one log entry a line
    text = out.getvalue()
    assert "puts a character face down" in text
    # a card is named only when playing it reveals the day's cards at once (the last seat to choose)
    for found in re.finditer(r"P[12] \(random\): play (\d+) ", text):
        sunrise = text.index("log: sunrise:", found.end())
        assert f"({found.group(1)})" in text[sunrise : text.index("\n", sunrise)]
        assert "your move" not in text[found.end() : sunrise]


def _play_raw(env_name: str, seed: int) -> tuple[dict, dict]:
    n, options = _split(CONFIGS[env_name])
    env = envs.make(env_name, raw=True, num_players=n, **options)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actions = []
    while not env.game_state.is_terminal():
        seat = int(env.agent_selection.rsplit("_", 1)[1])
        action = int(rng.choice(env.legal_action_ids()))
        actions.append((seat, action))
        env.step(action)
    record = records.record_game(env_name, n, seed, actions, env.game_state.scores(), options)
    return record, env.game_state.to_dict()


@pytest.mark.parametrize("env_name", sorted(CONFIGS))
def test_record_save_load_replay(env_name: str, tmp_path) -> None:
    record, final = _play_raw(env_name, seed=11)
    path = records.save(record, tmp_path / "r.json")
    loaded = records.load(path)
    assert loaded == record
    env = records.replay(loaded)
    assert env.game_state.to_dict() == final
    assert env.game_state.scores() == record["scores"]


def test_tampered_records_are_refused(tmp_path) -> None:
    record, _ = _play_raw("libertalia_v0", seed=4)
    with pytest.raises(records.RecordError, match=r"libertalia_v1.*registers libertalia_v0.*another version"):
        records.replay({**record, "env": "libertalia_v1"})
    with pytest.raises(records.RecordError, match="not registered"):
        records.replay({**record, "env": "chess_v0"})
    with pytest.raises(records.RecordError, match="format"):
        records.replay({**record, "format": 99})
    bad = {**record, "actions": [list(a) for a in record["actions"]]}
    env = records.make_env(record)
    illegal = next(a for a in range(env.action_space("player_0").n) if a not in env.legal_action_ids())
    bad["actions"][0][1] = illegal
    with pytest.raises(records.RecordError, match=f"action 0: {illegal} is not legal"):
        records.replay(bad)
    with pytest.raises(records.RecordError, match="differ"):
        records.replay({**record, "scores": [0.0, 0.0]})
    cut = {**record, "actions": record["actions"][:-3], "digests": record["digests"][:-3]}
    with pytest.raises(records.RecordError, match="not over"):
        records.replay(cut)
    path = tmp_path / "v1.json"
    records.save({**record, "env": "libertalia_v1"}, path)
    with pytest.raises(records.RecordError, match="another version"):
        records.load(path)
    (tmp_path / "junk.json").write_text("{not json")
    with pytest.raises(records.RecordError, match="not JSON"):
        records.load(tmp_path / "junk.json")


def test_replay_views(tmp_path) -> None:
    record = play(
        "liars_dice_v0",
        seat=0,
        num_players=2,
        seed=7,
        opponents=["random"],
        env_options={"dice": 2},
        input=Script([]),
        output=io.StringIO(),
    )
    mine, everything = io.StringIO(), io.StringIO()
    show_replay(record, view=0, output=mine)
    show_replay(record, view="all", output=everything)
    assert "P1: 2 dice: ??" in mine.getvalue()
    assert "P1: 2 dice: ??" not in everything.getvalue()
    stepped = io.StringIO()
    show_replay(record, view=1, step=True, input=io.StringIO("\n" * 100), output=stepped)
    assert "scores:" in stepped.getvalue()


def test_cli_play_replay_and_tournament_save_games(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setattr("sys.stdin", Script([]))
    game = tmp_path / "g.json"
    assert main(["play", "liars_dice_v0", "--players", "2", "--seat", "1", "--opponents", "random", "--seed", "3",
                 "--option", "dice=2", "--save", str(game)]) == 0  # fmt: skip
    assert records.load(game)["env_options"] == {"dice": 2}
    assert main(["replay", str(game), "--all"]) == 0
    assert "scores:" in capsys.readouterr().out
    saved = tmp_path / "games"
    assert (
        main(
            [
                "tournament",
                "spytails_v0",
                "--agents",
                "random",
                "--players",
                "2",
                "--games",
                "2",
                "--save-games",
                str(saved),
                "--quiet",
            ]
        )
        == 0
    )
    files = sorted(saved.glob("*.json"))
    assert len(files) == 2
    for path in files:
        record = records.load(path)
        assert records.replay(record).game_state.scores() == record["scores"]


def test_helpers() -> None:
    assert parse_option("dice=2") == ("dice", 2)
    assert parse_option("map=extended") == ("map", "extended")
    assert parse_option("draft=true") == ("draft", True)
    with pytest.raises(ValueError):
        parse_option("nokey")
    assert new_entries(["a", "b"], ["b", "c"]) == ["c"]
    assert new_entries([], ["a"]) == ["a"]
    assert new_entries(["a", "b", "c"], ["x"]) == ["x"]


def test_lying_pirates_never_shows_another_cup_while_betting() -> None:
    out = io.StringIO()
    play(
        "lying_pirates_v0",
        seat=0,
        num_players=3,
        seed=2,
        opponents=["heuristic"],
        input=Script([]),
        output=out,
        max_steps=400,
    )
    text = out.getvalue()
    assert "cup of C0:" in text  # the human's own cup, while betting
    assert "cup of C1:" not in text and "cup of C2:" not in text
    assert "last reveal:" in text  # the cups everyone saw at the reveal


def test_a_looping_game_is_stopped_and_recorded_as_truncated(tmp_path) -> None:
    record = play(
        "libertalia_v0",
        seat=0,
        num_players=2,
        seed=1,
        opponents=["random"],
        input=Script([]),
        output=io.StringIO(),
        save=tmp_path / "cut.json",
        max_steps=7,
    )
    assert record["truncated"] and len(record["actions"]) == 7
    again = records.replay(records.load(tmp_path / "cut.json"))
    assert not again.game_state.is_terminal()
