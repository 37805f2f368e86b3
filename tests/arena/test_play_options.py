"""One option syntax in every command: ``--option KEY=VALUE`` (repeatable, JSON values where they parse),
``--env-options JSON`` as a deprecated alias, comma agent lists with ``name*3``."""

from __future__ import annotations

import pytest

from bidbluff import cli
from bidbluff.arena import records
from tests.arena.test_play import Script


def test_tournament_options_and_the_deprecated_alias(tmp_path, capsys) -> None:
    for flags, where in (
        (["--option", "preset=classic", "--option", "dice=1"], "new"),
        (["--env-options", '{"preset": "classic", "dice": 1}'], "old"),
    ):
        assert (
            cli.main(
                [
                    "tournament",
                    "liars_dice_v0",
                    "--agents",
                    "random*2",
                    "--games",
                    "2",
                    "--quiet",
                    "--save-games",
                    str(tmp_path / where),
                    *flags,
                ]
            )
            == 0
        )
        err = capsys.readouterr().err
        assert ("--env-options is deprecated" in err) == (where == "old")
    for where in ("new", "old"):
        for path in (tmp_path / where).glob("*.json"):
            assert records.load(path)["env_options"] == {"preset": "classic", "dice": 1}


def test_match_and_play_take_options_and_comma_lists(tmp_path, monkeypatch, capsys) -> None:
    assert (
        cli.main(["match", "--env", "liars_dice_v0", "--games", "2", "--agents", "random*2", "--option", "dice=1"]) == 0
    )
    assert "2 games, 2 players" in capsys.readouterr().out
    with pytest.raises(SystemExit, match="2"):
        cli.main(["match", "--option", "dice=1"])
    assert "--option needs --env" in capsys.readouterr().err
    monkeypatch.setattr("sys.stdin", Script([]))
    game = tmp_path / "g.json"
    assert (
        cli.main(
            [
                "play",
                "liars_dice_v0",
                "--players",
                "3",
                "--opponents",
                "random,heuristic",
                "--option",
                "dice=1",
                "--seed",
                "1",
                "--save",
                str(game),
            ]
        )
        == 0
    )
    assert records.load(game)["agents"] == ["human", "random", "heuristic"]


def test_train_options_reach_the_config(tmp_path, monkeypatch) -> None:
    seen = {}

    def fake(config, resume=False, progress_bar=True):
        seen["config"] = config
        return tmp_path / "final.zip"

    monkeypatch.setattr("bidbluff.training.batched.train_batched", fake)
    assert (
        cli.main(
            [
                "selfplay",
                "liars_dice_v0",
                "--option",
                "dice=2",
                "--option",
                'specials=["mermaid"]',
                "--opponents",
                "heuristic*2,random",
                "--out",
                str(tmp_path / "run"),
            ]
        )
        == 0
    )
    config = seen["config"]
    assert config.env_options == {"dice": 2, "specials": ["mermaid"]}
    assert config.opponents == ["heuristic", "heuristic", "random"]


def test_bad_options_are_refused_in_words(capsys) -> None:
    for flags, said in (
        (["--option", "nokey"], "write key=value"),
        (["--env-options", "{oops"], "is not JSON"),
        (["--env-options", "[1]"], "write a JSON object"),
    ):
        with pytest.raises(SystemExit):
            cli.main(["tournament", "liars_dice_v0", "--games", "2", "--quiet", *flags])
        assert said in capsys.readouterr().err
