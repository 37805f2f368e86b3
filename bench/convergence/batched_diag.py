"""Diagnosis run (i): the batched self-play trainer at 2 players x 1 die, logging what its own logs lack.

The trainer (``bidbluff.training.batched.BatchedTrainer``) runs unchanged; a subclass records which seat took
each rollout row and, around every update, tabulates the network's policy at every information state of the
bridge's tree (one forward pass over the 6,144 or 24,576 information states' env observations) to log:
exact exploitability of the last iterate as it samples (every ``--eval-every`` updates), the on-policy entropy,
the on-policy KL between the policy before and after each update, and each seat's advantage statistics
(the raw GAE advantages before the trainer normalises them per minibatch).  Evaluation time is logged apart
(``eval_seconds``) and excluded from ``train_cpu_seconds``.

    .venv/bin/python bench/convergence/batched_diag.py --out /work/runs-conv/batched-128 --cpu-limit 300
"""

from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path

import numpy as np
import torch

from bidbluff.agents.base import seat_of
from bidbluff.envs.liars_dice import codec
from bidbluff.training import tabular_control as tc
from bidbluff.training.batched import LEARNER, BatchedConfig, BatchedTrainer
from bidbluff.training.exploitability import game_tree


class NetTable:
    """The env observations and action ids of every information state of ``tree``: the network's policy as a
    (N, A) table of the tree's action slots."""

    def __init__(self, tree: tc.Tree) -> None:
        bridge_tree = game_tree(2, tree.dice, tree.preset)
        setting = bridge_tree.setting
        n, a = tree.mask.shape
        self.obs = np.zeros((n, codec.OBSERVATION_SIZE), dtype=np.float32)
        self.mask = np.zeros((n, codec.CODEC.n), dtype=bool)
        self.ids = np.zeros((n, a), dtype=np.int64)
        for i, key in enumerate(tree.keys):
            seen = bridge_tree.infostates[key].env_observation(setting)
            self.obs[i] = seen["observation"]
            self.mask[i] = seen["action_mask"].astype(bool)
            ids = [setting.env_action(x) for x in tree.actions[i]]
            self.ids[i, : len(ids)] = ids
        self.tree = tree

    def policy(self, net: torch.nn.Module) -> np.ndarray:
        with torch.no_grad():
            out = net.get_action_and_value(torch.from_numpy(self.obs), torch.from_numpy(self.mask))
        probs = out.log_probs.exp().double().numpy()
        table = np.take_along_axis(probs, self.ids, 1) * self.tree.mask
        return table / table.sum(1, keepdims=True)


class DiagnosedTrainer(BatchedTrainer):
    """``BatchedTrainer`` plus the diagnosis log (see the module docstring)."""

    def __init__(
        self, config: BatchedConfig, tree: tc.Tree, log: Path, eval_every: int, cpu_limit: float | None = None
    ) -> None:
        super().__init__(config, progress_bar=False)
        self.cpu_limit = cpu_limit
        self.tree, self.table = tree, NetTable(tree)
        self.row_seat = np.zeros(len(self.rollout.actions), dtype=np.int64)
        self.eval_every, self.updates = eval_every, 0
        self.eval_seconds = 0.0
        self.cpu_start = time.process_time()
        self.average = np.zeros(tree.mask.shape)
        self.log_path = log
        self.diag_handle = None
        self.diag_writer: csv.DictWriter | None = None

    def _decide(self, who: str, members: list[int]) -> list[tuple[int, int]]:
        if who == LEARNER:
            at = self.rollout.count
            for j, i in enumerate(members):
                self.row_seat[at + j] = seat_of(self.tables[i].env.agent_selection)
        return super()._decide(who, members)

    def update(self) -> dict[str, float]:
        """The trainer's update; on every ``eval_every``-th, the exact measurements around it."""
        started = time.process_time()
        r = self.rollout
        n = r.count
        self.updates += 1
        measured = self.updates % self.eval_every == 0
        row: dict[str, float] = {"rollout_rows": n, "update": self.updates, "step": self.steps + n}
        for seat in (0, 1):
            adv = r.advantages[:n][self.row_seat[:n] == seat]
            row[f"adv_mean_seat{seat}"] = float(adv.mean())
            row[f"adv_std_seat{seat}"] = float(adv.std())
            row[f"return_mean_seat{seat}"] = float(r.returns[:n][self.row_seat[:n] == seat].mean())
        if measured:
            before = self.table.policy(self.net)
            ev = tc.evaluate(self.tree, before)
            self.average += ev.own_reach[:, None] * before  # the average of every eval_every-th iterate
        self.eval_seconds += time.process_time() - started
        stats = super().update()
        started = time.process_time()
        row |= {
            "trainer_entropy": stats.get("entropy", float("nan")),
            "approx_kl": stats.get("approx_kl", float("nan")),
            "clip_fraction": stats.get("clip_fraction", float("nan")),
            "explained_variance": stats.get("explained_variance", float("nan")),
            "learning_rate": stats.get("learning_rate", float("nan")),
        }
        if measured:
            after = self.table.policy(self.net)
            share = ev.visit / ev.visit.sum()
            row |= {
                "onpolicy_entropy": float((share * tc.entropy(before)).sum()),
                "kl_successive": float((share * tc.kl(before, np.maximum(after, 1e-300))).sum()),
                "value_seat0": ev.value,
                "exploitability": tc.exploitability(self.tree, after),
                "exploitability_average": tc.exploitability(self.tree, self._average()),
            }
        self.eval_seconds += time.process_time() - started
        row["train_cpu_seconds"] = round(time.process_time() - self.cpu_start - self.eval_seconds, 2)
        row["eval_seconds"] = round(self.eval_seconds, 2)
        self._write(row)
        if self.cpu_limit is not None and row["train_cpu_seconds"] >= self.cpu_limit:
            self.config.total_steps = self.steps + n  # the run loop ends after this update (the anneal is done)
        return stats

    def _average(self) -> np.ndarray:
        total = self.average.sum(1, keepdims=True)
        return np.where(total > 0, self.average / np.where(total > 0, total, 1.0), tc.uniform_policy(self.tree))

    COLUMNS = (
        "update", "step", "train_cpu_seconds", "eval_seconds", "exploitability", "exploitability_average",
        "onpolicy_entropy", "trainer_entropy", "kl_successive", "approx_kl", "clip_fraction", "value_seat0",
        "adv_mean_seat0", "adv_std_seat0", "adv_mean_seat1", "adv_std_seat1", "return_mean_seat0",
        "return_mean_seat1", "explained_variance", "learning_rate", "rollout_rows",
    )  # fmt: skip

    def _write(self, row: dict[str, float]) -> None:
        if self.diag_writer is None:
            self.diag_handle = self.log_path.open("w", newline="")
            self.diag_writer = csv.DictWriter(self.diag_handle, fieldnames=list(self.COLUMNS), extrasaction="ignore")
            self.diag_writer.writeheader()
        self.diag_writer.writerow(row)
        self.diag_handle.flush()  # type: ignore[union-attr]
        if "exploitability" in row:
            print(
                f"update {row['update']} step {row['step']} cpu {row['train_cpu_seconds']}s "
                f"expl {row['exploitability']:.4f} avg {row['exploitability_average']:.4f} "
                f"ent {row['onpolicy_entropy']:.3f} kl {row['kl_successive']:.2e}",
                flush=True,
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--preset", default="lying_pirates", choices=("lying_pirates", "classic"))
    parser.add_argument("--total-steps", type=int, default=3_000_000, help="the lr anneal's horizon")
    parser.add_argument("--time-limit", type=float, default=None, help="wall seconds of training")
    parser.add_argument("--cpu-limit", type=float, default=300.0, help="CPU seconds of training (evaluation excluded)")
    parser.add_argument("--trunk", type=int, default=128)
    parser.add_argument("--net-arch", default="128")
    parser.add_argument("--learning-rate", type=float, default=2.5e-4)
    parser.add_argument("--ent-coef", type=float, default=0.1)
    parser.add_argument("--clip-range", type=float, default=0.025)
    parser.add_argument("--n-epochs", type=int, default=8)
    parser.add_argument("--rollout-steps", type=int, default=2048)
    parser.add_argument("--minibatch-size", type=int, default=2048)
    parser.add_argument("--vf-coef", type=float, default=0.0625)
    parser.add_argument("--gamma", type=float, default=0.99)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--eval-every", type=int, default=4, help="updates between exploitability evaluations")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    env_options = {"dice": 1} | ({"preset": "classic"} if args.preset == "classic" else {})
    config = BatchedConfig(
        "liars_dice_v0",
        players=2,
        env_options=env_options,
        opponents=[],
        pool_fraction=0.0,
        total_steps=args.total_steps,
        time_limit=args.time_limit,
        rollout_steps=args.rollout_steps,
        learning_rate=args.learning_rate,
        anneal_lr=True,
        n_epochs=args.n_epochs,
        minibatch_size=args.minibatch_size,
        gamma=args.gamma,
        clip_range=args.clip_range,
        ent_coef=args.ent_coef,
        vf_coef=args.vf_coef,
        trunk=args.trunk,
        net_arch=[int(w) for w in args.net_arch.split(",")],
        seed=args.seed,
        checkpoint_every=100_000_000,
        eval_games=0,
        out=str(out / "run"),
    )
    tree = tc.build_tree(args.preset)
    trainer = DiagnosedTrainer(config, tree, out / "diag.csv", args.eval_every, args.cpu_limit)
    trainer.run()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
