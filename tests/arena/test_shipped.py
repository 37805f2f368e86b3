"""The shipped self-play checkpoints: one per env, loadable, the default opponent of ``bidbluff play``."""

from __future__ import annotations

import io

import pytest

from bidbluff import agents, envs
from bidbluff.agents.policy import read_sidecar
from bidbluff.arena.play import default_opponent, play


class FirstMove(io.StringIO):
    def readline(self, size: int = -1) -> str:
        return "#1\n"  # the first move of the list, by its position


@pytest.mark.parametrize("env_name", envs.ENVS)
def test_every_env_ships_a_checkpoint_that_fits_it(env_name):
    path = agents.shipped_path(env_name)
    meta = read_sidecar(path, env_name)  # size, hash, spaces and action layout checked against the env
    assert meta["trainer"] == "batched" and meta["optimizer_state"].startswith("dropped")
    assert path.stat().st_size < 8_000_000  # small enough to commit
    lineups = {"heuristic vs 3 random", "shipped vs 3 random", "shipped vs 3 heuristic"}
    if env_name == "liars_dice_v0":
        lineups.add("shipped vs heuristic (2 players)")
    assert {row["lineup"] for row in meta["tournaments"]} == lineups
    assert default_opponent(env_name) == "shipped"


def test_play_seats_the_shipped_checkpoint_by_default():
    out = io.StringIO()
    record = play("liars_dice_v0", seat=0, num_players=3, seed=4, input=FirstMove(), output=out)
    assert record["agents"][1:] == ["shipped", "shipped"]
    assert "shipped" in out.getvalue()


def test_shipped_needs_its_env_and_says_which_is_missing(tmp_path, monkeypatch):
    with pytest.raises(ValueError, match="needs the env"):
        agents.make("shipped")
    monkeypatch.setattr("bidbluff.agents.shipped.CHECKPOINTS", tmp_path)
    with pytest.raises(
        ValueError, match=r"no checkpoint shipped \(.*selfplay.zip does not exist; retired versions: none"
    ):
        agents.make("shipped", env_name="libertalia_v0")


def test_shipping_exports_weights_only_and_measures_the_three_lineups(tmp_path):
    from bidbluff.training.ship import main as ship

    dest = tmp_path / "ship.zip"
    source = agents.shipped_path("liars_dice_v0")
    assert ship([str(source), "--games", "4", "--dest", str(dest)]) == 0
    first = read_sidecar(dest, "liars_dice_v0")
    assert first["exported_from"] == str(source) and first["optimizer_state"].startswith("dropped")
    rows = first["tournaments"]
    assert [r["lineup"] for r in rows] == [
        "heuristic vs 3 random",
        "shipped vs 3 random",
        "shipped vs 3 heuristic",
        "shipped vs heuristic (2 players)",
    ]
    assert all("--games 4 --seed 1" in r["command"] for r in rows)
    assert [r["games"] for r in rows] == [24, 24, 24, 4]  # whole deals: every seating of 4 seats, then of 2
    assert rows[0]["seating"] == "all 24 permutations per deal"
    assert rows[3]["command"].startswith("bidbluff tournament liars_dice_v0 --agents shipped,heuristic --players 2 ")
    exact = first["exploitability_2p1d"]  # at 2 x 1, under both rules, as it samples and as the spec plays it
    assert set(exact) == {"lying_pirates sample", "lying_pirates greedy", "classic sample", "classic greedy", "command"}
    assert all(0 <= v <= 1 for k, v in exact.items() if k != "command")
    assert exact["lying_pirates sample"] < 0.1 < exact["lying_pirates greedy"]  # the network shipped now

    # re-shipping over it: the row without the checkpoint is taken over, the checkpoint's rows are played again
    assert ship([str(source), "--games", "4", "--dest", str(dest), "--keep-baseline"]) == 0
    again = read_sidecar(dest, "liars_dice_v0")["tournaments"]
    assert again[0] == {**first["tournaments"][0], "reused": True}
    assert not any(r.get("reused") for r in again[1:])
    assert [r["win_share"] for r in again[1:]] == [r["win_share"] for r in first["tournaments"][1:]]  # seeded

    # re-measuring in place plays every row again, reusing nothing without --keep-baseline
    assert ship([str(dest), "--games", "4", "--remeasure"]) == 0
    remeasured = read_sidecar(dest, "liars_dice_v0")
    timeless = [[{k: v for k, v in r.items() if k != "seconds"} for r in t["tournaments"]] for t in (remeasured, first)]
    assert timeless[0] == timeless[1] and "exported_from" in remeasured


def test_a_replaced_network_stays_playable_as_shipped_at_its_version(tmp_path, monkeypatch):
    import json
    import shutil

    from bidbluff.training.ship import main as ship

    original = agents.shipped_path("liars_dice_v0")
    monkeypatch.setattr("bidbluff.agents.shipped.CHECKPOINTS", tmp_path)
    (tmp_path / "liars_dice").mkdir()
    for suffix in (".zip", ".json"):
        shutil.copy2(original.with_suffix(suffix), agents.shipped_path("liars_dice_v0").with_suffix(suffix))
    before = agents.shipped_path("liars_dice_v0").with_suffix(".json").read_text()
    with pytest.raises(ValueError, match=r"no checkpoint shipped@2026-12 .*retired versions: none"):
        agents.make("shipped@2026-12", env_name="liars_dice_v0")

    assert ship([str(original), "--retire", "2026-12", "--games", "4"]) == 0
    kept = tmp_path / "liars_dice" / "shipped@2026-12"
    assert kept.with_suffix(".json").read_text() == before, "the old sidecar, as it was"
    assert agents.shipped_path("liars_dice_v0").with_suffix(".json").read_text() != before, "the new one measured"
    old = agents.make("shipped@2026-12", env_name="liars_dice_v0")
    new = agents.make("shipped", env_name="liars_dice_v0")
    assert old.meta["tournaments"] == json.loads(before)["tournaments"] != new.meta["tournaments"]
    assert agents.retired_versions("liars_dice_v0") == ["2026-12"]

    with pytest.raises(ValueError, match="names another network"):
        ship([str(original), "--retire", "2026-12", "--games", "4"])
    with pytest.raises(ValueError, match=r"no checkpoint shipped@2025-01 .*retired versions: shipped@2026-12\)"):
        agents.make("shipped@2025-01", env_name="liars_dice_v0")
    with pytest.raises(ValueError, match="a version is letters"):
        agents.make("shipped@../x", env_name="liars_dice_v0")
    with pytest.raises(SystemExit):
        ship([str(original), "--retire", "2027-01", "--remeasure"])
