"""bench/convergence/capacity.py: the recipe's network fitted to CFR+'s policy over every information state."""

import importlib.util
from pathlib import Path

from bidbluff.training import tabular_control as tc
from bidbluff.training.cfr import solve
from bidbluff.training.exploitability import game_tree

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "convergence" / "capacity.py"


def load_capacity():
    spec = importlib.util.spec_from_file_location("capacity", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_fitted_network_comes_close_to_the_solved_policy_and_its_exploitability():
    capacity = load_capacity()
    tree = tc.build_tree("lying_pirates")
    target = tc.policy_array(tree, solve(game_tree(2, 1, "lying_pirates"), 50))
    assert tc.exploitability(tree, target) < 0.01
    rows = capacity.fit(tree, target, width=32, steps=40, eval_every=20, lr=3e-2, seed=0)
    assert [row["step"] for row in rows] == [20, 40]
    assert rows[-1]["kl"] < rows[0]["kl"] * 0.8
    assert rows[-1]["exploitability"] < min(rows[0]["exploitability"], tc.exploitability(tree, tc.uniform_policy(tree)))
