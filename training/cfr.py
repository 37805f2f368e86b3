"""Exact game values of small Liar's dice games, by CFR+ on our own engine.

The public tree (every bet sequence) is walked with ``betting.BettingRound``
itself, and each terminal's payoffs come from the engine judging every pair
of dice, so the value computed checks the engine against the published one:
OpenSpiel's ``liars_dice`` with one die each has value -7/258 for the first
player.  Vectorised over private dice; two players, one die each.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field

import numpy as np

from envs.lying_pirates.betting import CLASSIC, LYING_PIRATES, BettingRound, BettingRules
from envs.lying_pirates.dice import Die

FACES = 6
PUBLISHED_CLASSIC_VALUE = -7 / 258


@dataclass
class Node:
    """A public state: the bets so far; ``payoff`` (player 0's, per die pair) once someone called."""

    player: int
    actions: list[tuple] = field(default_factory=list)
    children: list[Node] = field(default_factory=list)
    payoff: np.ndarray | None = None
    regret: np.ndarray | None = None  # [die, action]
    strategy_sum: np.ndarray | None = None


def build(rules: BettingRules) -> Node:
    """The whole public tree of a 2-player, 1-die-each betting phase under ``rules``."""

    def round_with(bids: list[list[int]], cups: dict) -> BettingRound:
        return BettingRound(cups, [0, 1], 2, rules, bids=[list(b) for b in bids], turn=len(bids) % 2)

    blank = {0: [[Die.CREW, 1]], 1: [[Die.CREW, 1]]}

    def grow(bids: list[list[int]]) -> Node:
        node = Node(player=len(bids) % 2)
        for action in round_with(bids, blank).legal_actions():
            if action[0] == "bid":
                node.actions.append(action)
                node.children.append(grow([*bids, [node.player, action[1], action[2]]]))
            else:
                leaf = Node(player=-1)
                leaf.payoff = np.zeros((FACES, FACES))
                for d0 in range(FACES):
                    for d1 in range(FACES):
                        betting = round_with(bids, {0: [[Die.CREW, d0 + 1]], 1: [[Die.CREW, d1 + 1]]})
                        betting.apply(action)
                        leaf.payoff[d0, d1] = 1.0 if betting.outcome.winners == [0] else -1.0
                node.actions.append(action)
                node.children.append(leaf)
        node.regret = np.zeros((FACES, len(node.actions)))
        node.strategy_sum = np.zeros((FACES, len(node.actions)))
        return node

    return grow([])


def _strategy(node: Node) -> np.ndarray:
    positive = np.maximum(node.regret, 0.0)
    total = positive.sum(axis=1, keepdims=True)
    uniform = np.full_like(positive, 1.0 / positive.shape[1])
    return np.where(total > 0, positive / np.where(total > 0, total, 1.0), uniform)


def _cfr(node: Node, reach: tuple[np.ndarray, np.ndarray], weight: float) -> tuple[np.ndarray, np.ndarray]:
    """Counterfactual values (player 0's payoff per own die, player 1's per own die)."""
    if node.payoff is not None:
        chance = 1.0 / (FACES * FACES)
        return chance * node.payoff @ reach[1], -chance * node.payoff.T @ reach[0]
    p = node.player
    sigma = _strategy(node)
    values = [np.zeros(FACES), np.zeros(FACES)]
    action_values = np.zeros((FACES, len(node.actions)))
    for a, child in enumerate(node.children):
        child_reach = list(reach)
        child_reach[p] = reach[p] * sigma[:, a]
        v = _cfr(child, (child_reach[0], child_reach[1]), weight)
        action_values[:, a] = v[p]
        values[p] += sigma[:, a] * v[p]
        values[1 - p] += v[1 - p]
    node.regret = np.maximum(node.regret + action_values - values[p][:, None], 0.0)  # CFR+
    node.strategy_sum += weight * reach[p][:, None] * sigma
    return values[0], values[1]


def _average(node: Node) -> np.ndarray:
    total = node.strategy_sum.sum(axis=1, keepdims=True)
    return np.where(total > 0, node.strategy_sum / np.where(total > 0, total, 1.0), 1.0 / len(node.actions))


def _value(node: Node, reach: tuple[np.ndarray, np.ndarray]) -> float:
    """Player 0's expected payoff when both play their average strategies."""
    if node.payoff is not None:
        return float(reach[0] @ node.payoff @ reach[1]) / (FACES * FACES)
    sigma = _average(node)
    total = 0.0
    for a, child in enumerate(node.children):
        child_reach = list(reach)
        child_reach[node.player] = reach[node.player] * sigma[:, a]
        total += _value(child, (child_reach[0], child_reach[1]))
    return total


def _best_response(node: Node, responder: int, reach_other: np.ndarray) -> np.ndarray:
    """Best-response value per own die for ``responder`` against the other's average strategy."""
    if node.payoff is not None:
        sign = 1.0 if responder == 0 else -1.0
        matrix = node.payoff if responder == 0 else node.payoff.T
        return sign * matrix @ reach_other / (FACES * FACES)
    if node.player == responder:
        return np.max([_best_response(c, responder, reach_other) for c in node.children], axis=0)
    sigma = _average(node)
    return sum(_best_response(c, responder, reach_other * sigma[:, a]) for a, c in enumerate(node.children))


def solve(rules: BettingRules = CLASSIC, iterations: int = 300) -> dict[str, float]:
    """CFR+ for ``iterations``; the first player's value and the exploitability of the average profile."""
    root = build(rules)
    ones = np.ones(FACES)
    for t in range(1, iterations + 1):
        _cfr(root, (ones, ones), weight=float(t))  # linear averaging, as CFR+ does
    value = _value(root, (ones, ones))
    br0 = float(_best_response(root, 0, ones).sum())
    br1 = float(_best_response(root, 1, ones).sum())
    return {"value": value, "exploitability": (br0 + br1) / 2, "iterations": iterations}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", choices=("classic", "lying_pirates"), default="classic")
    parser.add_argument("--iterations", type=int, default=300)
    args = parser.parse_args(argv)
    result = solve(CLASSIC if args.preset == "classic" else LYING_PIRATES, args.iterations)
    print(f"{args.preset}, 2 players x 1 die, CFR+ {args.iterations} iterations: first player's value "
          f"{result['value']:+.5f}, exploitability {result['exploitability']:.5f}")  # fmt: skip
    if args.preset == "classic":
        print(f"published (OpenSpiel liars_dice): {PUBLISHED_CLASSIC_VALUE:+.5f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
