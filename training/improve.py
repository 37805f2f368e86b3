"""Rollout policy improvement: one step of approximate policy iteration for a checkpoint against fixed opponents.

Why it exists: at four Liar's-dice captains PPO and distillation left the network at about 0.34-0.35 against
three heuristics, while a search over it wins 0.42.  A search's labels are slow (0.6 s a decision) and noisy (two
searches of one position agree on 74-90% of their moves), so distilling them carried little.  A rollout from the
*true* position is cheap (about 1.5 ms) and unbiased: its outcome is a sample of the win given the position, and
a regressor that sees only the observation learns the win given what the seat knows, with the hidden dice and
the opponents' real play entering as samples.  No belief model is needed, and no opponent model but the
opponents themselves.

How:

1. **collect** (``--seconds`` a worker, ``--workers`` processes): the network plays greedy at ``--players``
   tables against ``--opponents`` (each other seat of a game draws one of the listed specs, repeats weighting
   them, e.g. ``heuristic*2,random,PATH``).  At each of its decisions with a choice, ``--candidates`` moves (its
   four most likely, the most likely of every other action kind, e.g. "Liar!" and an "exactly", then random legal
   ones) are each played from the true position and finished ``--rollouts`` times (the network greedy, the
   opponents as they play).  A move's label is the seat's mean win share (tied winners share).  Shards of 5,000
   decisions, written whole, are ``shard_W_NNN.npz``.
2. **fit**: two Q-networks, ActorCritic-shaped (their logits read as win shares), started from the network's
   trunk and policy layers, each regressed on one half of the decisions (cross-fitting).  Each one's *gain* on
   the other half is measured: the mean label of the move it picks minus that of the network's move, an unbiased
   estimate of what switching one decision wins, since that half's labels took no part in its fit.
3. **the policy**: a third Q-network, regressed on every decision, is the new network: its logits are its
   values over ``--temperature`` (greedy play is its argmax; a sample or a search's prior stays near it), and its
   value head is fitted again, on the moved trunk, to the old network's values.  The result is ``final.zip``, a
   checkpoint like any other (the sidecar's ``"improvement"`` block records the recipe and both gains).

Its argmax over *every* legal move, not only the candidates, is what plays: the random candidates teach it the
moves the network never chose.  One step improves on the network it started from against these opponents and at
these table sizes only; collect at every table size the network is to keep playing.

A run stopped and started again with the same command keeps the shards it has: collection carries on until each
worker has spent its seconds (worker W's time and shard count are in ``progress_W.json``), and a fitted
Q-network (``q_0.pt``, ``q_1.pt``, ``q_all.pt``) is not fitted again.  ``--seconds 0`` fits on the shards
already in the directory, e.g. those of several collections::

    python -m bidbluff.training.improve liars_dice_v0 --init checkpoints/liars_dice/selfplay.zip --players 4 \\
        --opponents heuristic --seconds 2400 --workers 2 --out runs/ld-improve
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import time
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import torch

from bidbluff import agents as agent_lib
from bidbluff import envs
from bidbluff.agents.evaluators import seat_view
from bidbluff.agents.policy import load_network, read_sidecar, save_checkpoint, write_atomic
from bidbluff.arena.match import winners

SHARD = 5000  # decisions a shard
TOP = 4  # the network's most likely moves, always candidates


@dataclass
class ImproveConfig:
    env: str
    init: str
    out: str
    players: tuple[int, ...] = (4,)  # table sizes, drawn per game
    opponents: str = "heuristic"  # specs, one drawn for each other seat of a game: "heuristic*2,random,PATH"
    seconds: float = 600.0  # collection time a worker
    decisions: int = 0  # or stop a worker after this many decisions (0: no cap)
    workers: int = 1
    rollouts: int = 4  # continuations a candidate
    candidates: int = 8
    epochs: int = 10  # Q-network passes over its half
    q_learning_rate: float = 1e-3
    temperature: float = 0.02  # the policy's logits are Q / temperature
    value_epochs: int = 2
    seed: int = 0


# -- 1. collect ------------------------------------------------------------------------------------------------
class Collector:
    """One worker's games: the greedy network in a random seat against the opponents, its decisions labelled."""

    def __init__(self, config: ImproveConfig, worker: int, part: int = 0) -> None:
        self.config = config
        self.rng = np.random.default_rng([config.seed, worker, part])  # part: a resumed worker plays new games
        self.game = envs.game(config.env)
        self.net, _, _ = load_network(config.init, config.env)
        specs = agent_lib.expand_specs(config.opponents)
        self.opponents = [
            agent_lib.make(spec, env_name=config.env, seed=config.seed * 1000 + worker + 100_000 * i)
            for i, spec in enumerate(specs)
        ]
        for spec, opponent in zip(specs, self.opponents, strict=True):
            if getattr(opponent, "needs_env", False):
                raise ValueError(f"opponent {spec!r} needs a live env; collection plays game states")
        self.seated: dict[int, Any] = {}  # this game's opponent in each other seat
        codec = self.game.codec
        self.kind_of = np.zeros(codec.n, dtype=np.int64)
        for k, kind in enumerate(codec.kinds):
            self.kind_of[codec.offset[kind.name] : codec.offset[kind.name] + kind.size] = k

    def logits(self, observation: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            return self.net.logits(torch.from_numpy(observation[None]))[0].numpy()

    def greedy(self, state: Any, actor: int) -> tuple[int, dict[str, np.ndarray], list[int], np.ndarray]:
        observation, legal = seat_view(self.game, state, actor)
        logits = self.logits(observation["observation"])
        return legal[int(np.argmax(logits[legal]))], observation, legal, logits

    def step(self, state: Any, actor: int, me: int) -> None:
        if actor == me:
            move = self.greedy(state, actor)[0]
        else:
            observation, _ = seat_view(self.game, state, actor)
            move = self.seated[actor].act(observation, f"player_{actor}")
        state.apply(self.game.id_to_action(state, move, actor), self.rng)

    def finish(self, state: Any, me: int) -> float:
        """Play ``state`` out; ``me``'s win share."""
        while (actor := state.current_player()) >= 0:
            self.step(state, actor, me)
        best = winners(state.scores())
        return 1.0 / len(best) if me in best else 0.0

    def candidates(self, legal: list[int], logits: np.ndarray) -> list[int]:
        order = [int(a) for a in np.array(legal)[np.argsort(-logits[legal], kind="stable")]]
        chosen = order[:TOP]
        for kind in np.unique(self.kind_of[legal]):  # the best of each kind: "Liar!" is rarely a top-4 move
            best = next(a for a in order if self.kind_of[a] == kind)
            if best not in chosen:
                chosen.append(best)
        rest = [a for a in order if a not in chosen]
        while len(chosen) < self.config.candidates and rest:
            chosen.append(rest.pop(int(self.rng.integers(len(rest)))))
        return chosen[: self.config.candidates]

    def label(self, state: Any, actor: int, moves: list[int]) -> np.ndarray:
        q = np.full(self.config.candidates, np.nan, dtype=np.float32)
        for i, move in enumerate(moves):
            total = 0.0
            for _ in range(self.config.rollouts):
                after = state.clone()
                after.apply(self.game.id_to_action(after, move, actor), self.rng)
                total += self.finish(after, actor)
            q[i] = total / self.config.rollouts
        return q

    def play(self, rows: dict[str, list]) -> None:
        """One game; every decision of the network's seat with a choice goes into ``rows``."""
        n = int(self.rng.choice(self.config.players))
        state = self.game.new_state(n, self.rng)
        me = int(self.rng.integers(n))
        # one draw a seat, kept for the game's rollouts (a single opponent draws nothing: its games stay as they were)
        picks = self.rng.integers(len(self.opponents), size=n) if len(self.opponents) > 1 else np.zeros(n, int)
        self.seated = {seat: self.opponents[int(pick)] for seat, pick in enumerate(picks) if seat != me}
        while (actor := state.current_player()) >= 0:
            if actor != me:
                self.step(state, actor, me)
                continue
            move, observation, legal, logits = self.greedy(state, actor)
            if len(legal) > 1:
                moves = self.candidates(legal, logits)
                cand = np.full(self.config.candidates, -1, dtype=np.int16)
                cand[: len(moves)] = moves
                rows["obs"].append(observation["observation"].astype(np.float16))
                rows["mask"].append(observation["action_mask"].astype(bool))
                rows["cand"].append(cand)
                rows["q"].append(self.label(state, actor, moves))
            state.apply(self.game.id_to_action(state, move, actor), self.rng)


def collect_worker(config: ImproveConfig, worker: int) -> None:
    torch.set_num_threads(1)  # one core a worker
    out = Path(config.out)
    progress_path = out / f"progress_{worker}.json"
    progress = json.loads(progress_path.read_text()) if progress_path.exists() else {"seconds": 0.0, "shards": 0}
    collector = Collector(config, worker, progress["shards"])
    rows: dict[str, list] = {"obs": [], "mask": [], "cand": [], "q": []}
    start = time.perf_counter() - progress["seconds"]

    def done() -> bool:
        gathered = progress["shards"] * SHARD + len(rows["obs"])  # every shard but a worker's last is whole
        return time.perf_counter() - start >= config.seconds or 0 < config.decisions <= gathered

    while not done():
        collector.play(rows)
        if len(rows["obs"]) >= SHARD or done():
            shard = out / f"shard_{worker}_{progress['shards']:03d}.npz"
            write_atomic(shard, lambda tmp, r=rows: np.savez_compressed(tmp, **{k: np.array(v) for k, v in r.items()}))
            progress = {"seconds": time.perf_counter() - start, "shards": progress["shards"] + 1}
            write_atomic(progress_path, lambda tmp, p=progress: Path(tmp).write_text(json.dumps(p)))
            rows = {k: [] for k in rows}


def collect(config: ImproveConfig) -> None:
    if config.workers == 1:
        collect_worker(config, 0)
        return
    context = multiprocessing.get_context("spawn")  # torch's threads do not survive a fork
    procs = [context.Process(target=collect_worker, args=(config, w)) for w in range(config.workers)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
    failed = [w for w, p in enumerate(procs) if p.exitcode]
    if failed:
        raise RuntimeError(f"collection workers {failed} failed (exit codes {[procs[w].exitcode for w in failed]})")


def load_shards(out: Path) -> dict[str, np.ndarray]:
    paths = sorted(out.glob("shard_*.npz"))
    if not paths:
        raise FileNotFoundError(f"{out} holds no shard_*.npz: collect first")
    parts = [np.load(p) for p in paths]
    return {k: np.concatenate([p[k] for p in parts]) for k in ("obs", "mask", "cand", "q")}


def halves(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    perm = np.random.default_rng([seed, n]).permutation(n)
    return perm[: n // 2], perm[n // 2 :]


# -- 2. fit ----------------------------------------------------------------------------------------------------
def in_chunks(forward: Any, *rows: torch.Tensor, size: int = 4096) -> torch.Tensor:
    """``forward`` over row blocks of ``size``, concatenated: a whole data set at once would not fit in memory."""
    with torch.no_grad():
        return torch.cat([forward(*(r[i : i + size] for r in rows)) for i in range(0, len(rows[0]), size)])


def q_values(net: Any, obs: torch.Tensor, cand: torch.Tensor) -> torch.Tensor:
    """The Q-network's value of each candidate (rows of ``cand``; a padding -1 reads action 0)."""
    return net.logits(obs).gather(1, cand.clamp(min=0))


def gain(net: Any, obs: torch.Tensor, cand: torch.Tensor, q: torch.Tensor) -> dict[str, float]:
    """On decisions ``net`` did not learn on: what its pick wins over the network's move (candidate 0)."""
    values = in_chunks(lambda o, c: q_values(net, o, c), obs, cand)
    with torch.no_grad():
        values = torch.where(cand >= 0, values, torch.full_like(values, -torch.inf))
        pick = values.argmax(1)
        diff = q.gather(1, pick[:, None]).squeeze(1) - q[:, 0]
    return {
        "gain": diff.mean().item(),
        "gain_se": (diff.std() / len(diff) ** 0.5).item(),
        "changed": (pick != 0).float().mean().item(),
    }


def fit_q(config: ImproveConfig, data: dict[str, np.ndarray], fold: int | None, log: Any) -> tuple[Any, dict]:
    """A Q-network regressed on half ``fold`` of the decisions and judged on the other, or on all of them
    (``fold=None``: the final policy's)."""
    n = len(data["obs"])
    split = halves(n, config.seed)
    train, judge = (np.arange(n), None) if fold is None else (split[fold], split[1 - fold])
    torch.manual_seed(config.seed * 3 + (2 if fold is None else fold))
    obs = torch.from_numpy(data["obs"].astype(np.float32))
    cand = torch.from_numpy(data["cand"].astype(np.int64))
    q = torch.from_numpy(np.nan_to_num(data["q"], nan=0.0))
    net, _, _ = load_network(config.init, config.env)
    net.requires_grad_(True)
    with torch.no_grad():  # start at the mean win share: the old head's logits mean nothing as values
        net.action_head.weight.zero_()
        net.action_head.bias.fill_(float(np.nanmean(data["q"])))
    params = [*net.trunk.parameters(), *net.policy_net.parameters(), *net.action_head.parameters()]
    optimizer = torch.optim.Adam(params, lr=config.q_learning_rate)
    batches = -(-len(train) // 1024)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, config.epochs * batches)
    rng = np.random.default_rng([config.seed, 3 if fold is None else fold])
    for epoch in range(config.epochs):
        order = train[rng.permutation(len(train))]
        total = 0.0
        for i in range(0, len(order), 1024):
            b = torch.from_numpy(order[i : i + 1024])
            valid = cand[b] >= 0
            loss = (((q_values(net, obs[b], cand[b]) - q[b]) ** 2) * valid).sum() / valid.sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            schedule.step()
            total += loss.item() * len(b)
        row = {"fold": "all" if fold is None else fold, "epoch": epoch, "mse": total / len(order)}
        if judge is not None:
            j = torch.from_numpy(judge)
            row.update(gain(net, obs[j], cand[j], q[j]))
        log(row)
    net.requires_grad_(False)
    return net, row


# -- 3. the policy ---------------------------------------------------------------------------------------------
def as_policy(config: ImproveConfig, qnet: Any, data: dict[str, np.ndarray], log: Any) -> tuple[Any, dict]:
    """The Q-network as a checkpoint's network: logits Q / ``temperature`` (greedy play is its argmax; a sample
    or a search's prior stays near it), and a value head fitted again, on the new trunk, to the old network's
    values of the same observations (the trunk moved under it)."""
    old, _, _ = load_network(config.init, config.env)
    with torch.no_grad():
        qnet.action_head.weight.div_(config.temperature)
        qnet.action_head.bias.div_(config.temperature)
    obs = torch.from_numpy(data["obs"].astype(np.float32))
    target = in_chunks(old.value, obs)
    params = [*qnet.value_net.parameters(), *qnet.value_head.parameters()]
    for p in params:
        p.requires_grad_(True)
    optimizer = torch.optim.Adam(params, lr=1e-3)
    rng = np.random.default_rng([config.seed, 5])
    for epoch in range(config.value_epochs):
        order = rng.permutation(len(obs))
        total = 0.0
        for i in range(0, len(order), 1024):
            b = torch.from_numpy(order[i : i + 1024])
            loss = ((qnet.value(obs[b]) - target[b]) ** 2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item() * len(b)
        row = {"value_epoch": epoch, "value_mse": total / len(obs)}
        log(row)
    qnet.requires_grad_(False)
    return qnet, row


# -- the run ---------------------------------------------------------------------------------------------------
def fitted(config: ImproveConfig, data: dict[str, np.ndarray], fold: int | None, log: Any) -> tuple[Any, dict]:
    """The Q-network of ``fold`` (None: all decisions), fitted once: a resumed run reads it back."""
    name = f"q_{'all' if fold is None else fold}"
    path, row_path = Path(config.out) / f"{name}.pt", Path(config.out) / f"{name}.json"
    if path.exists() and row_path.exists():
        net, _, _ = load_network(config.init, config.env)
        net.load_state_dict(torch.load(path, weights_only=True))
        net.requires_grad_(False)
        return net, json.loads(row_path.read_text())
    net, row = fit_q(config, data, fold, log)
    write_atomic(path, lambda tmp: torch.save(net.state_dict(), tmp))
    write_atomic(row_path, lambda tmp: Path(tmp).write_text(json.dumps(row)))
    return net, row


def run(config: ImproveConfig) -> Path:
    out = Path(config.out)
    out.mkdir(parents=True, exist_ok=True)
    log_path = out / "log.jsonl"

    def log(row: dict[str, Any]) -> None:
        print(json.dumps(row), flush=True)
        with log_path.open("a") as f:
            f.write(json.dumps(row) + "\n")

    log({"config": asdict(config), "started": datetime.now(UTC).isoformat(timespec="seconds")})
    collect(config)
    data = load_shards(out)
    torch.set_num_threads(max(1, config.workers))
    judged = [fitted(config, data, fold, log)[1] for fold in (0, 1)]
    net, value_row = as_policy(config, fitted(config, data, None, log)[0], data, log)
    meta = {k: v for k, v in read_sidecar(config.init, config.env).items() if k != "network"}
    meta["algorithm"] = f"{meta.get('algorithm', '?')}, then rollout policy improvement (training.improve)"
    meta["improvement"] = {
        "config": asdict(config),
        "decisions": len(data["obs"]),
        "cross_fitted": judged,
        "value": value_row,
        "improved_from": str(config.init),
    }
    meta["created"] = datetime.now(UTC).isoformat(timespec="seconds")
    return save_checkpoint(out / "final.zip", net, meta)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bidbluff.training.improve", description=__doc__.split("\n\n")[0])
    parser.add_argument("env", choices=list(envs.ENVS))
    parser.add_argument("--init", required=True, help="the checkpoint to improve")
    parser.add_argument("--out", required=True, help="run directory (shards, Q-networks, final.zip, log.jsonl)")
    parser.add_argument("--players", default="4", help="table sizes, drawn per game")
    for f in ImproveConfig.__dataclass_fields__.values():
        if f.name in ("env", "init", "out", "players"):
            continue
        parser.add_argument(f"--{f.name.replace('_', '-')}", type=type(f.default), default=f.default)
    args = vars(parser.parse_args(argv))
    args["players"] = tuple(int(p) for p in args["players"].split(","))
    config = ImproveConfig(**args)
    print(run(config))


if __name__ == "__main__":
    main()
