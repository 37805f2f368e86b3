"""bench/lying_pirates_decisions.py: every decision of a game is counted once, on the right side."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from bidbluff import agents
from bidbluff.arena.match import play_game

ROOT = Path(__file__).resolve().parents[1]


def test_each_decision_is_counted_once_by_its_kind_and_its_seat():
    spec = importlib.util.spec_from_file_location("lp_decisions", ROOT / "bench" / "lying_pirates_decisions.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    hero, others, games = bench.decisions("random", 2, games=2, seed=21)
    table = [agents.make("random", env_name="lying_pirates_v0", seed=1)]
    table.append(agents.make("heuristic", env_name="lying_pirates_v0", seed=2))
    records = [play_game("lying_pirates_v0", table, 21, 2), play_game("lying_pirates_v0", table[::-1], 21, 2)]
    mine = sum(1 for r, hero_seat in zip(records, (0, 1), strict=True) for seat, _ in r.actions if seat == hero_seat)
    theirs = sum(len(r.actions) for r in records) - mine
    assert games == 2 and sum(hero.values()) == mine and sum(others.values()) == theirs
    assert others["bid"] > 0 and set(hero) | set(others) <= {
        "bid", "exact", "liar", "reroll", "keep", "pass", "play", "buy", "draw", "curse", "target", "advance", "stop",
    }  # fmt: skip
