"""The shipped self-play checkpoints: one per env, loadable, the default opponent of ``bidbluff play``."""

from __future__ import annotations

import io

import pytest

import agents
import envs
from agents.policy import read_sidecar
from training.play import default_opponent, play


class FirstMove(io.StringIO):
    def readline(self, size: int = -1) -> str:
        return "1\n"


@pytest.mark.parametrize("env_name", envs.ENVS)
def test_every_env_ships_a_checkpoint_that_fits_it(env_name):
    path = agents.shipped_path(env_name)
    meta = read_sidecar(path, env_name)  # size, hash, spaces and action layout checked against the env
    assert meta["trainer"] == "batched" and meta["optimizer_state"].startswith("dropped")
    assert path.stat().st_size < 8_000_000  # small enough to commit
    assert {row["lineup"] for row in meta["tournaments"]} == {"heuristic vs 3 random", "shipped vs 3 random",
                                                             "shipped vs 3 heuristic"}  # fmt: skip
    assert default_opponent(env_name) == "shipped"


def test_play_seats_the_shipped_checkpoint_by_default():
    out = io.StringIO()
    record = play("liars_dice_v0", seat=0, num_players=3, seed=4, input=FirstMove(), output=out)
    assert record["agents"][1:] == ["shipped", "shipped"]
    assert "shipped" in out.getvalue()


def test_shipped_needs_its_env_and_says_which_is_missing(tmp_path, monkeypatch):
    with pytest.raises(ValueError, match="needs the env"):
        agents.make("shipped")
    monkeypatch.setattr(agents, "CHECKPOINTS", tmp_path)
    with pytest.raises(ValueError, match="no shipped checkpoint"):
        agents.make("shipped", env_name="libertalia_v0")
