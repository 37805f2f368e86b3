"""The classic preset against a published value: OpenSpiel's liars_dice (1 die each) is worth -7/258 to
the first player.  CFR+ runs on the public tree our engine generates, with payoffs our engine judges."""

from __future__ import annotations

import numpy as np
import pytest

from envs.lying_pirates.betting import CLASSIC
from training.cfr import PUBLISHED_CLASSIC_VALUE, build, solve


def count(node) -> int:
    return 1 + sum(count(c) for c in node.children if c.payoff is None)


def test_the_classic_public_tree_is_openspiels():
    root = build(CLASSIC)
    assert len(root.actions) == 12 and all(a[0] == "bid" for a in root.actions)  # no liar first, any face
    assert count(root) == 2**12  # every increasing sequence of the 12 bets
    last_bet = root.children[-1]  # after "two 6s" only "liar" is left
    assert last_bet.actions == [("liar",)]
    # "two 6s" with a 6 and a 1: one six, the 6 does not count as wild for its own face -> the liar wins
    assert last_bet.children[0].payoff[5, 0] == -1.0 and last_bet.children[0].payoff[5, 5] == 1.0
    assert np.all(np.abs(last_bet.children[0].payoff) == 1.0)


@pytest.mark.slow
def test_cfr_finds_the_published_value():
    result = solve(CLASSIC, iterations=400)
    assert result["exploitability"] < 0.02
    assert abs(result["value"] - PUBLISHED_CLASSIC_VALUE) <= result["exploitability"] + 0.002
