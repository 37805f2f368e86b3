"""Can the recipe's network hold a near-equilibrium policy of 2 players x 1 die at all?

The question behind classic's missed target: the deep runs' last iterates stop at 0.05-0.07 while the table's own
step reaches 0.024. If no 128-wide network can represent a policy below 0.05, the floor is the network's shape
and no schedule will move it; if one can, the floor is in how the sampled update gets there.

How: CFR+ solves the tree (OpenSpiel's solver on the bridge, ``bidbluff.training.cfr.solve``); the trainer's
``ActorCritic`` on each information state's observation (the columns that vary over the tree, as the compact
observation keeps) is fitted to that policy by full-batch Adam on the cross-entropy over every state, each state
weighed half evenly and half by its own seat's reach under the target (as distillation's ``--exact`` weighs them).
Every ``--eval-every`` steps the fitted policy's exact exploitability, played as it samples, is printed with
the mean KL from the target::

    python bench/convergence/capacity.py --preset classic --iterations 300 --widths 128,256 --steps 3000
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch

from bidbluff.training import tabular_control as tc
from bidbluff.training.cfr import solve
from bidbluff.training.exploitability import game_tree


def fit(
    tree: tc.Tree, target: np.ndarray, width: int, steps: int, eval_every: int, lr: float, seed: int
) -> list[dict[str, float]]:
    """Fit a ``width``-wide network to ``target``; a row (step, exploitability, weighted KL) every ``eval_every``."""
    control = tc.TabularControl(
        tree, tc.ControlConfig(preset=tree.preset, policy_net=f"{width}:{width}", compact_obs=True, seed=seed)
    )
    own = tc.evaluate(tree, target).own_reach
    weights = torch.from_numpy(0.5 / len(own) + 0.5 * own / own.sum())
    goal = torch.from_numpy(target)
    optimizer = torch.optim.Adam(control.net.parameters(), lr=lr)
    start = time.process_time()
    rows = []
    for step in range(1, steps + 1):
        log_policy = control.log_policy()
        loss = -(weights * (goal * log_policy).sum(1)).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % eval_every == 0 or step == steps:
            policy = control.policy()
            row = {
                "step": step,
                "exploitability": tc.exploitability(tree, policy),
                "kl": float((weights.numpy() * tc.kl(target, policy)).sum()),
            }
            rows.append(row)
            print(
                f"width {width:>4}  step {step:>6}  cpu {time.process_time() - start:6.0f}s  "
                f"exploitability {row['exploitability']:.4f}  weighted KL {row['kl']:.5f}",
                flush=True,
            )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", choices=("lying_pirates", "classic"), default="classic")
    parser.add_argument("--iterations", type=int, default=300, help="CFR+ iterations for the target")
    parser.add_argument("--widths", default="128", help="the trunk's and the head's width, one fit each")
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--eval-every", type=int, default=250)
    parser.add_argument("--learning-rate", type=float, default=1e-3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    tree = tc.build_tree(args.preset)
    started = time.process_time()
    solved = solve(game_tree(2, 1, args.preset), args.iterations)
    target = tc.policy_array(tree, solved)
    print(
        f"{args.preset}: CFR+ {args.iterations} iterations ({time.process_time() - started:.0f} CPU s), "
        f"the target's exploitability {tc.exploitability(tree, target):.5f}",
        flush=True,
    )
    for width in (int(w) for w in args.widths.split(",")):
        fit(tree, target, width, args.steps, args.eval_every, args.learning_rate, args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
