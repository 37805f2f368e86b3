"""Solve a small ``liars_dice_v0`` table with CFR+ and save the average policy as a tabular agent.

OpenSpiel's ``CFRPlusSolver`` runs on the bridge's game tree (``bidbluff.training.exploitability.game_tree``: the
OpenSpiel bridge of our engine, walked once and held in C++), so the rules solved are the env's own.
The average policy is saved by information state (``bidbluff.agents.tabular``) with its exploitability,
NashConv and the first seat's value, as OpenSpiel measures them::

    python -m bidbluff.training.cfr --preset lying_pirates --iterations 1000 --out checkpoints/liars_dice/cfr_2p1d.json

The shipped ``cfr`` agent (``bidbluff.agents.make("cfr")``) is that file.  With ``--preset classic`` this is
OpenSpiel's ``liars_dice`` with one die each, whose published value to the first player is -7/258.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
import pyspiel

from bidbluff.agents.tabular import save_table
from bidbluff.training.exploitability import Exploitability, GameTree, game_tree, nash_conv

PUBLISHED_CLASSIC_VALUE = -7 / 258


def solve(tree: GameTree, iterations: int) -> dict[str, np.ndarray]:
    """CFR+'s average policy after ``iterations``, by bridge information state (probabilities of its actions)."""
    solver = pyspiel.CFRPlusSolver(tree.efg)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()
    policy = {}
    for key, info in tree.infostates.items():
        probs = dict(average.get_state_policy(info.efg_key))
        row = np.array([probs.get(info.efg_actions[a], 0.0) for a in info.actions])
        policy[key] = row / row.sum()
    return policy


def save(
    path: str, tree: GameTree, policy: dict[str, np.ndarray], result: Exploitability, meta: dict[str, Any]
) -> None:
    """Write ``policy`` as a tabular agent's file, with ``meta`` and what OpenSpiel measured of it."""
    setting = tree.setting
    rows = {
        key: {setting.env_action(a): float(p) for a, p in zip(info.actions, policy[key], strict=True)}
        for key, info in tree.infostates.items()
    }
    save_table(
        path,
        rows,
        {
            **meta,
            "exploitability": result.exploitability,
            "nash_conv": result.nash_conv,
            "first_seat_value": result.on_policy[0],
        },
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--dice", type=int, default=1)
    parser.add_argument("--preset", choices=("lying_pirates", "classic"), default="lying_pirates")
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--out", help="write the average policy here (a tabular policy JSON)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    tree = game_tree(args.players, args.dice, args.preset)
    policy = solve(tree, args.iterations)
    result = nash_conv(tree, policy)
    seconds = time.perf_counter() - start
    print(
        f"{args.preset}, {args.players} players x {args.dice} die: CFR+ {args.iterations} iterations in "
        f"{seconds:.0f}s: first seat's value {result.on_policy[0]:+.5f}, exploitability {result.exploitability:.6f}, "
        f"NashConv {result.nash_conv:.6f}"
    )
    if args.preset == "classic" and args.players == 2 and args.dice == 1:
        print(f"published (OpenSpiel liars_dice, 1 die each): {PUBLISHED_CLASSIC_VALUE:+.5f}")
    if args.out:
        meta = {
            "num_players": args.players,
            "env_options": {"dice": args.dice, "preset": args.preset, "specials": []},
            "algorithm": "CFR+ (OpenSpiel CFRPlusSolver on the bridge's game tree)",
            "iterations": args.iterations,
        }
        save(args.out, tree, policy, result, meta)
        print(f"saved {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
