"""Where is a 2 players x 1 die policy exploitable: at the states self-play often reaches, or at the rare ones?

The classic preset's deep runs stop at 0.05-0.07 while a network fitted to CFR+ holds 0.0125. One reading is
that the states a best response steers to and self-play rarely reaches are learned from too few samples. This
splices: the agent's policy (tabulated exactly, as ``bidbluff exploitability`` does) is replaced by CFR+'s at
the information states it reaches least (by its own self-play's visit probability) or at those it reaches
most, for shares of the states, and each splice's exact exploitability is printed with the share of the
self-play visits those states hold. If replacing the rare states' play brings the figure down and replacing
the common states' does not, the rare states are what a best response exploits, and the reverse::

    python bench/convergence/splice.py runs/eq/k4-c2/final.zip:sample --preset classic

CFR+'s policy is one equilibrium among others; a splice of two different near-equilibria can be exploitable
where neither is, so a drop is evidence and a rise is not.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from bidbluff import agents
from bidbluff.training import tabular_control as tc
from bidbluff.training.cfr import solve
from bidbluff.training.exploitability import game_tree, tabulate

SHARES = (0.001, 0.003, 0.01, 0.03, 0.1, 0.5, 0.9, 0.99)


def splices(tree: tc.Tree, policy: np.ndarray, reference: np.ndarray, decisions: float) -> list[dict[str, float]]:
    """For each share s: the exploitability with ``reference`` at the rarest s of the states, and at the most
    visited s, with the visit mass each replaced set holds and how often a run of ``decisions`` self-play
    decisions meets the set's least visited state (in expectation)."""
    visit = tc.evaluate(tree, policy).visit
    order = np.argsort(visit, kind="stable")  # rarest first
    total = visit.sum()
    games = decisions / total
    rows = []
    for share in SHARES:
        count = round(share * len(order))
        for side, chosen in (("rarest", order[:count]), ("commonest", order[len(order) - count :])):
            spliced = policy.copy()
            spliced[chosen] = reference[chosen]
            rows.append(
                {
                    "replaced": side,
                    "share_of_states": share,
                    "share_of_visits": float(visit[chosen].sum() / total),
                    "fewest_visits_in_a_run": float(visit[chosen].min() * games),
                    "exploitability": tc.exploitability(tree, spliced),
                }
            )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("agent", help="an agent spec, e.g. a checkpoint played as it samples (PATH:sample)")
    parser.add_argument("--preset", choices=("lying_pirates", "classic"), default="classic")
    parser.add_argument("--iterations", type=int, default=200, help="CFR+ iterations for the reference")
    parser.add_argument("--decisions", type=float, default=8e6, help="the run's length, for the visit counts")
    args = parser.parse_args(argv)
    started = time.process_time()
    tree, bridge = tc.build_tree(args.preset), game_tree(2, 1, args.preset)
    reference = tc.policy_array(tree, solve(bridge, args.iterations))
    agent = agents.make(args.agent, env_name="liars_dice_v0", seed=0)
    policy = tc.policy_array(tree, tabulate(agent, bridge).policy)
    print(
        f"{args.preset}: {len(tree.keys)} information states; the agent {tc.exploitability(tree, policy):.4f}, "
        f"CFR+ ({args.iterations} iterations) {tc.exploitability(tree, reference):.5f}"
    )
    print(f"{'CFR+ at the':<14} {'states':>7} {'visits':>8} {'fewest in a run':>16} {'exploitability':>15}")
    for row in splices(tree, policy, reference, args.decisions):
        print(
            f"{row['replaced']:<14} {row['share_of_states']:>7.1%} {row['share_of_visits']:>8.2%} "
            f"{row['fewest_visits_in_a_run']:>16.3g} {row['exploitability']:>15.4f}"
        )
    print(f"({time.process_time() - started:.0f} CPU s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
