"""bench/bench_envs.py's before/after machinery: rows measured from a source tree in worker processes."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_envs", ROOT / "bench" / "bench_envs.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    yield module
    del sys.modules[spec.name]


def test_trees_are_measured_in_workers_and_compared_setup_by_setup(bench, tmp_path, capsys):
    out = tmp_path / "report.md"
    argv = ["--envs", "liars_dice_v0", "--no-extra", "--no-peers", "--api", "raw_env", "--seconds", "0",
            "--repeats", "1", "--tree", f"one={ROOT}", "--tree", f"two={ROOT}", "--out", str(out)]  # fmt: skip
    assert bench.main(argv) == 0
    text = out.read_text()
    assert f"- tree @one: {ROOT}, commit " in text and f"- tree @two: {ROOT}" in text
    assert "| bidbluff @one | liars_dice_v0 | `raw_env()` | 4 |" in text
    assert "| setup | @one steps/s | @two steps/s | @two / @one |" in text
    assert "| liars_dice_v0 `raw_env()` 4p |" in text


def test_a_tree_must_be_a_source_tree(bench, tmp_path):
    with pytest.raises(SystemExit):
        bench.parse_args(["--tree", f"old={tmp_path}"])
    with pytest.raises(SystemExit):
        bench.parse_args(["--tree", f"a={ROOT}", "--tree", f"a={ROOT}"])


def test_texas_is_set_beside_each_of_our_rows_at_its_own_table_size(bench):
    def row(env_name, api, players, median, library="bidbluff"):
        r = bench.Row(env_name, api, players, measure=None, library=library)
        r.runs.append(bench.Run(steps=int(median), games=1, elapsed=1.0, cpu=1.0))
        return r

    ours = [row("a_v0", "env", 4, 3000), row("a_v0", "env", 2, 1000)]
    peers = [
        row("texas_holdem_v4", "env", 2, 500, "PettingZoo classic"),
        row("texas_holdem_v4", "env", 4, 1100, "PettingZoo classic"),
    ]
    lines = "\n".join(bench.target_lines(ours, peers))
    assert "a_v0 `env()` 4p: 3,000/s = 2.73x texas_holdem_v4 `env()` 4p (1,100/s; needs 3,850), NOT met" in lines
    assert "a_v0 `env()` 2p: 1,000/s = 2.00x texas_holdem_v4 `env()` 2p (500/s; needs 1,750), NOT met" in lines


def test_the_betting_env_is_judged_through_env_against_half_of_openspiel(bench):
    def row(env_name, api, players, median, options="", library="bidbluff"):
        r = bench.Row(env_name, api, players, measure=None, options=options, library=library)
        r.runs.append(bench.Run(steps=int(median), games=1, elapsed=1.0, cpu=1.0))
        return r

    classic, compact = bench.LIKE_OPENSPIEL
    ours = [row("liars_dice_v0", "env", 2, 60_000, classic), row("liars_dice_v0", "env", 2, 40_000, compact)]
    ours.append(row("liars_dice_v0", "raw_env", 2, 70_000, classic))
    peers = [row("liars_dice", "pyspiel (C++)", 2, 100_000, "dice=1", "OpenSpiel")]
    lines = "\n".join(bench.target_lines(ours, peers))
    assert "i.e. >= 50,000/s" in lines
    assert f"liars_dice_v0 `env()` 2p, {classic}: 60,000/s = 0.60x, met" in lines
    assert f"liars_dice_v0 `env()` 2p, {compact}: 40,000/s = 0.40x, NOT met" in lines
    assert f"liars_dice_v0 `raw_env()` 2p, {classic}: 70,000/s = 0.70x, information" in lines
