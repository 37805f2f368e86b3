"""Training you can see: the bar follows steps or time, whichever ends first, never past its total; the
config as a table; the closing summary says why the run stopped and its last evaluation with its CI."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from bidbluff.cli import main
from bidbluff.training.batched import BatchedConfig
from bidbluff.training.progress import RunProgress, config_table, fraction, remaining, stop_reason

TINY = ["--num-games", "6", "--rollout-steps", "96", "--minibatch-size", "64", "--n-epochs", "1", "--trunk", "32",
        "--net-arch", "16", "--checkpoint-every", "96", "--eval-games", "2", "--opponents", "random"]  # fmt: skip


def test_the_bar_follows_steps_or_time_whichever_ends_first() -> None:
    assert fraction(500, 0, 1000, 10.0, None) == 0.5
    assert fraction(100, 0, 1000, 45.0, 60.0) == 0.75  # the time limit comes first
    assert fraction(900, 0, 1000, 6.0, 60.0) == 0.9
    assert fraction(5000, 0, 1000, 1.0, None) == 1.0
    assert fraction(1500, 1000, 2000, 1.0, None) == 0.5  # a resumed run counts from where it resumed
    assert remaining(500, 0, 1000, 10.0, None) == pytest.approx(10.0)
    assert remaining(100, 0, 1000, 10.0, 30.0) == pytest.approx(20.0)  # 90s to the steps, 20s to the limit
    assert remaining(0, 0, 1000, 0.0, None) is None


def test_the_bar_never_shows_more_steps_than_its_total() -> None:
    out = io.StringIO()
    with RunProgress(3000, 0, None, True, "x", console=Console(file=out, width=100)) as bar:
        bar.update(4096)
        assert bar.total == 4096
    assert "4,096/4,096 steps" in out.getvalue()
    assert "/3,000" not in out.getvalue()


def test_config_table_and_stop_reasons() -> None:
    out = io.StringIO()
    Console(file=out, width=80).print(config_table(BatchedConfig("liars_dice_v0"), title="config"))
    text = out.getvalue()
    assert max(map(len, text.splitlines())) <= 80
    assert "--total-steps" in text and "--env-options" in text
    assert stop_reason(4096, 3000, None, None).startswith("steps reached: 4,096")
    assert stop_reason(700, 3000, 30.0, None) == "time limit (0:30) reached at step 700 of 3,000"
    assert stop_reason(700, 3000, None, "SIGINT") == "interrupted (SIGINT) at step 700"


def test_a_run_ends_with_its_summary(tmp_path, capsys) -> None:
    out = tmp_path / "run"
    assert main(["selfplay", "liars_dice_v0", "--total-steps", "150", "--out", str(out), *TINY]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert re.search(r"steps reached: 1\d\d \(asked 150", text)
    assert "random" in text.split("steps reached")[1] and "95% CI" in text
    assert "--rollout-steps 96" in text  # the config, a row per option
    short = tmp_path / "short"
    assert (
        main(
            ["selfplay", "liars_dice_v0", "--total-steps", "100000", "--time-limit", "0.01", "--out", str(short), *TINY]
        )
        == 0
    )
    assert "time limit (0:00) reached at step" in " ".join(capsys.readouterr().out.split())
