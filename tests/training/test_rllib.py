"""``selfplay --trainer rllib`` on the command line, without Ray: its options, and what it says when the
rllib extra is missing (the RLlib runs themselves are in ``test_rllib_run.py``, slow)."""

from __future__ import annotations

import importlib.util

import pytest

from bidbluff.cli import main


def test_options_of_another_trainer_are_refused(tmp_path, capsys):
    with pytest.raises(SystemExit, match="--num-games: not an option of the rllib trainer"):
        main(["selfplay", "liars_dice_v0", "--trainer", "rllib", "--num-games", "4", "--out", str(tmp_path)])


def test_the_batched_trainer_refuses_rllib_options(tmp_path):
    with pytest.raises(SystemExit, match="--num-env-runners: not an option of the batched trainer"):
        main(["selfplay", "liars_dice_v0", "--num-env-runners", "2", "--out", str(tmp_path)])


@pytest.mark.skipif(importlib.util.find_spec("ray") is not None, reason="Ray is installed here")
def test_without_ray_the_rllib_trainer_names_the_extra(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(["selfplay", "liars_dice_v0", "--trainer", "rllib", "--out", str(tmp_path / "run"), "--no-progress"])
    assert "needs the rllib extra" in capsys.readouterr().err
