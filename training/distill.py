"""Policy distillation with DAgger: teach a checkpoint's network a teacher's policy at some table sizes while it
keeps its own policy at the others.

Why it exists: self-play PPO left the Liar's-dice network reading the other captains' bets poorly.  At two
players it wins 0.46 head to head against the heuristic, while ``bayes`` (the heuristic's policy on an exact
posterior over each opponent's cup given the faces it bet on) wins 0.64; PPO against ``bayes`` and the heuristic
plateaued at 0.45-0.47.  The network can represent such play (the whole bet history is in its observation); what
it lacks is a signal that says which bet reveals what.  A teacher gives that signal at every decision instead of
once a game.

How (Ross, Gordon & Bagnell 2011, "DAgger"; Rusu et al. 2016, "Policy distillation"):

* round 0 plays games with the *teacher* in the learner's seat; every later round with the *student* (greedy,
  as it will be played), so the data covers the positions the student itself reaches;
* every decision the learner's seat faces is labelled with its teacher's action distribution: ``--teacher
  2=bayes`` names one per table size; a size without one is taught by the starting network itself (frozen), so
  the student keeps what it already does there;
* the student (started from ``--init``) is fitted to all the data gathered so far: cross-entropy to the teacher's
  distribution over the legal actions (the KL divergence up to a constant), and its value head to the game's
  ``winner`` reward for that seat (mean squared error), so that a later PPO fine-tune or a search starts from a
  value that fits the new policy.

``--exact SPEC`` (liars_dice_v0) adds every information state of 2 players x 1 die, the tree the exact
exploitability walks (6,144 under the default rules), labelled with that teacher's distribution, to every fit.
Played games reach only what the players at the table steer to; a best response steers anywhere, so a policy
that must be hard to exploit there is taught where a best response would take it.  Those rows have no reward (the
value head is not fitted to them), and each round's row gives the student's agreement there and its exact
exploitability played as it samples.

Games are seeded and the learner's seat is drawn per game, each round from its own seeds.  Every round leaves
``round_K.zip`` (the student and its optimizer) and ``data_K.npz`` (its decisions) in the run directory, so a run
stopped by Ctrl-C or SIGTERM (exit 130) or a crash and started again with the same command carries on after its
last whole round and ends where an unbroken run ends.  Started again with other settings (more rounds, other
table sizes or teachers, ``--sharpen``), it carries on from the same rounds under the new ones; the sidecar records
the settings of the run that finished and every round's row.  The result, ``final.zip``, is a checkpoint like any other
(the sidecar's ``"distillation"`` block records the recipe and the agreement with the teachers per round)::

    python -m bidbluff.training.distill liars_dice_v0 --init checkpoints/liars_dice/selfplay.zip --teacher 2=bayes \\
        --players 2,2,3,4 --opponents heuristic --rounds 4 --games 1500 --out runs/ld-distill
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import signal
import time
from dataclasses import asdict, dataclass, field, fields
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import torch

from bidbluff import agents as agent_lib
from bidbluff import envs
from bidbluff.agents.base import bind_all, seat_of
from bidbluff.agents.networks import masked_logits
from bidbluff.agents.policy import PolicyAgent, load_network, save_checkpoint, write_atomic
from bidbluff.envs.core.rewards import final_rewards
from bidbluff.training.run import RunInterruptedError, StopSignals

SELF = "init"  # the teacher spec that means the starting network, frozen


@dataclass
class DistillConfig:
    env: str
    init: str
    out: str
    teachers: dict[int, str] = field(default_factory=dict)  # table size -> teacher spec; others: SELF
    players: list[int] = field(default_factory=lambda: [2, 2, 3, 4])  # table sizes, drawn per game; repeats weigh
    opponents: str = "heuristic"  # the other seats' agent spec
    rounds: int = 4
    games: int = 1500  # per round
    epochs: int = 3  # passes over all the data gathered so far, per round
    batch_size: int = 512
    learning_rate: float = 1e-4
    value_coef: float = 0.5
    sharpen: float = 1.0  # targets = teacher's probabilities ** (1 / sharpen), renormalised; < 1: nearer its argmax
    max_grad_norm: float = 0.5
    seed: int = 0
    workers: int = 1  # processes that play a round's games (a search teacher is the slow part)
    label_seats: str = "learner"  # "all": every seat's decisions are labelled too (see play_games)
    exact: str = ""  # liars_dice_v0: a teacher taught on every information state of 2 players x 1 die


@dataclass
class Decisions:
    """The learner seat's decisions of a round: observation, mask, teacher's distribution, final reward."""

    obs: list[np.ndarray] = field(default_factory=list)
    masks: list[np.ndarray] = field(default_factory=list)
    targets: list[np.ndarray] = field(default_factory=list)
    returns: list[float] = field(default_factory=list)
    players: list[int] = field(default_factory=list)
    own: list[bool] = field(default_factory=list)  # the learner's seat (not another seat labelled too)


def parse_teachers(items: list[str]) -> dict[int, str]:
    """``["2=bayes", "3-6=init"]`` -> ``{2: "bayes", 3: "init", ...}``."""
    out: dict[int, str] = {}
    for item in items:
        sizes, sep, spec = item.partition("=")
        low, _, high = sizes.partition("-")
        if not sep or not spec or not low.isdigit() or (high and not high.isdigit()):
            raise ValueError(f"--teacher {item!r}: write SIZE=SPEC or LOW-HIGH=SPEC, e.g. 2=bayes or 3-6=init")
        for n in range(int(low), int(high or low) + 1):
            out[n] = spec
    return out


def draw_games(cfg: DistillConfig, round_: int) -> list[tuple[int, int, int]]:
    """A round's games as ``(game, table size, learner seat)``, drawn from the round's own seeds."""
    rng = np.random.default_rng([cfg.seed, round_])
    games = []
    for game in range(cfg.games):
        n = int(rng.choice(cfg.players))
        games.append((game, n, int(rng.integers(n))))
    return games


def make_teachers(cfg: DistillConfig, round_: int, frozen: PolicyAgent, worker: int = 0) -> dict[int, Any]:
    """Each table size's teacher for a round; a worker process gets its own seeds for stochastic teachers."""
    seed = cfg.seed * 1000 + round_ * 10 + 7919 * worker
    return {
        n: frozen
        if cfg.teachers.get(n, SELF) == SELF
        else agent_lib.make(cfg.teachers[n], env_name=cfg.env, seed=seed + n)
        for n in sorted(set(cfg.players))
    }


def teacher_target(teacher: Any, observation: dict[str, np.ndarray], name: str) -> tuple[np.ndarray, int | None]:
    """The teacher's action distribution over the action ids; a rules-based teacher that only says its choice
    (no ``probabilities``) gives the one-hot target of that choice, which is returned too.  So does a search: its
    visits and its move come from one search, so a search teacher in its own seat searches once a decision."""
    if hasattr(teacher, "search"):
        result = teacher.search(observation, name)
        return result.policy.astype(np.float32), int(result.action)
    if hasattr(teacher, "probabilities"):
        return teacher.probabilities(observation).astype(np.float32), None
    chosen = int(teacher.act(observation, name))
    target = np.zeros(observation["action_mask"].shape, dtype=np.float32)
    target[chosen] = 1.0
    return target, chosen


def play_games(
    cfg: DistillConfig,
    round_: int,
    games: list[tuple[int, int, int]],
    student: PolicyAgent,
    teachers: dict[int, Any],
    stop: StopSignals | None = None,
) -> Decisions:
    """Play ``games`` (fewer once ``stop`` has a signal); the learner seat's decisions.  Round 0 seats the teacher
    in the learner's seat, later rounds the student.

    With ``cfg.label_seats == "all"`` the other seats' decisions are labelled by the same teacher as well: a
    game then yields a label at every seat for the cost of one (what limits a cheap teacher's distillation is
    data, not play).  Those positions are the opponents', not the student's, so they are marked ``own=False``
    and the DAgger agreement is read on the learner's alone.  Where the opponents' spec is the teacher's, a
    rules-based teacher that only chooses plays those seats with the choice it was labelled with (one act a
    decision, as in the learner's seat)."""
    seed = cfg.seed + round_ * 10**6
    data = Decisions()
    for game, n, learner in games:
        if stop:
            break
        teacher = teachers[n]
        labelled = range(n) if cfg.label_seats == "all" else (learner,)
        # an opponent seat of the teacher's own spec is the teacher: its labelled choice is its move
        same_spec = cfg.label_seats == "all" and cfg.opponents == cfg.teachers.get(n)
        plays_as_teacher = set(range(n)) - {learner} if same_spec else set()
        table = [agent_lib.make(cfg.opponents, env_name=cfg.env, seed=seed + game * 7 + s) for s in range(n)]
        table[learner] = teacher if round_ == 0 else student
        env = envs.make(cfg.env, num_players=n)
        env.reset(seed=seed + game)
        # a search teacher labels from the engine even when it does not play (bound and reset once either way)
        bind_all(table if teacher in table else [*table, teacher], env)
        seats: list[int] = []
        for name in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            seat = seat_of(name)
            chosen = None
            if seat in labelled and observation["action_mask"].sum() > 1:
                target, chosen = teacher_target(teacher, observation, name)
                data.obs.append(observation["observation"].astype(np.float16))
                data.masks.append(observation["action_mask"].astype(bool))
                data.targets.append(target)
                data.players.append(n)
                data.own.append(seat == learner)
                seats.append(seat)
            # a teacher in its own seat plays the action it was labelled with (one act a decision)
            played_by_teacher = chosen is not None and (table[seat] is teacher or seat in plays_as_teacher)
            env.step(chosen if played_by_teacher else table[seat].act(observation, name))
        rewards = final_rewards(list(env.unwrapped.game_state.scores()), "winner")
        data.returns += [rewards[seat] for seat in seats]
    return data


def _worker_signals() -> None:
    # the parent process owns Ctrl-C and SIGTERM; a worker is ended by the pool (terminate sends SIGTERM)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    torch.set_num_threads(1)


def _play_share(
    cfg: DistillConfig,
    round_: int,
    games: list[tuple[int, int, int]],
    student: PolicyAgent,
    frozen: PolicyAgent,
    worker: int,
) -> Decisions:
    return play_games(cfg, round_, games, student, make_teachers(cfg, round_, frozen, worker))


def play_round(
    cfg: DistillConfig, round_: int, student: PolicyAgent, frozen: PolicyAgent, stop: StopSignals | None = None
) -> Decisions:
    """``cfg.games`` games, each at a drawn table size with the learner in a drawn seat; its decisions in game
    order.  With ``cfg.workers`` > 1 the games are shared out in order between processes (the same data as one
    process for deterministic teachers; a search teacher draws from each worker's own seeds).  A signal in
    ``stop`` ends the round early (its data is then dropped by the caller)."""
    games = draw_games(cfg, round_)
    if cfg.workers == 1:
        return play_games(cfg, round_, games, student, make_teachers(cfg, round_, frozen), stop)
    size = -(-len(games) // cfg.workers)
    shares = [games[i : i + size] for i in range(0, len(games), size)]
    with multiprocessing.get_context("fork").Pool(len(shares), initializer=_worker_signals) as pool:
        pending = [
            pool.apply_async(_play_share, (cfg, round_, share, student, frozen, worker))
            for worker, share in enumerate(shares)
        ]
        while not all(result.ready() for result in pending):
            if stop:
                pool.terminate()
                return Decisions()
            time.sleep(0.2)
        parts = [result.get() for result in pending]
    return Decisions(*([x for part in parts for x in getattr(part, f.name)] for f in fields(Decisions)))


def save_data(path: Path, data: Decisions) -> None:
    write_atomic(
        path,
        lambda tmp: np.savez_compressed(
            tmp,
            obs=np.stack(data.obs),
            masks=np.stack(data.masks),
            targets=np.stack(data.targets),
            returns=np.array(data.returns, dtype=np.float32),
            players=np.array(data.players),
            own=np.array(data.own, dtype=bool),
        ),
    )


def load_data(path: Path) -> Decisions:
    with np.load(path) as saved:
        return Decisions(
            list(saved["obs"]),
            list(saved["masks"]),
            list(saved["targets"]),
            saved["returns"].tolist(),
            saved["players"].tolist(),
            # rounds saved before other seats could be labelled hold the learner's decisions only
            saved["own"].tolist() if "own" in saved.files else [True] * len(saved["returns"]),
        )


def exact_probe() -> Any:
    """The exact exploitability's tree of 2 players x 1 die under the env's default rules, its information states'
    observations stacked (what ``--exact`` teaches on and measures)."""
    from bidbluff.training.exploitability import ExploitabilityProbe  # OpenSpiel is needed here only

    return ExploitabilityProbe("liars_dice_v0", [2], {"dice": 1})


def exact_decisions(cfg: DistillConfig, probe: Any) -> tuple[Decisions, np.ndarray]:
    """Every information state of ``probe``'s tree labelled with ``cfg.exact``'s distribution and weighted as
    ``ExploitabilityProbe.taught`` weighs them (module doc); no reward (NaN: the value head skips them)."""
    taught = probe.taught(agent_lib.make(cfg.exact, env_name=cfg.env, seed=cfg.seed), envs.game(cfg.env).codec.n)
    data = Decisions()
    for obs, mask, target in zip(taught.obs, taught.masks, taught.targets, strict=True):
        data.obs.append(obs.astype(np.float16))
        data.masks.append(mask)
        data.targets.append(target)
        data.returns.append(float("nan"))
        data.players.append(2)
        data.own.append(False)
    return data, taught.weights


def exact_report(net: torch.nn.Module, probe: Any, data: dict[str, torch.Tensor]) -> dict[str, float]:
    """The student on the exact teacher's information states: how often its greedy action is the teacher's most
    likely one, and its exact exploitability played as it samples."""
    measured = probe.measure(net)
    return {
        "agreement": round(float(agrees(net, data).float().mean()), 4),
        "exploitability": round(measured["exploitability"], 5),
        "entropy": round(measured["entropy"], 4),
    }


def joined(a: dict[str, torch.Tensor], b: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """``a`` and ``b`` one after the other, ``a`` untouched."""
    out = dict(a)
    grow(out, b)
    return out


def grow(pool: dict[str, torch.Tensor], fresh: dict[str, torch.Tensor]) -> None:
    """``fresh`` appended to ``pool`` in place, one field at a time: the pool's old copy of a field goes before
    the next is copied, so the pool is never held twice whole (a Lying Pirates pool runs to gigabytes)."""
    for key in pool:
        pool[key] = torch.cat([pool[key], fresh[key]])


def stack(rounds: list[Decisions]) -> dict[str, torch.Tensor]:
    """The decisions as tensors, the teachers' distributions as they were labelled (in half precision, as the
    observations: a round of Lying Pirates' 1,062 action ids holds 200,000 of them, and the pool grows by a round
    each round)."""
    return {
        "obs": torch.from_numpy(np.concatenate([np.stack(d.obs) for d in rounds])),
        "masks": torch.from_numpy(np.concatenate([np.stack(d.masks) for d in rounds])),
        "targets": torch.from_numpy(np.concatenate([np.stack(d.targets).astype(np.float16) for d in rounds])),
        "returns": torch.tensor([r for d in rounds for r in d.returns], dtype=torch.float32),
        "players": torch.tensor([p for d in rounds for p in d.players]),
        "own": torch.tensor([o for d in rounds for o in d.own], dtype=torch.bool),
        "weights": torch.ones(sum(len(d.returns) for d in rounds)),
    }


def sharpened(targets: torch.Tensor, sharpen: float) -> torch.Tensor:
    """A minibatch's targets raised to the power ``1 / sharpen`` (renormalised, in full precision): below 1 they
    lean toward the teacher's most likely action, which a greedy student plays.  The pool keeps the labels as the
    teacher gave them, and its most likely action is the same either way."""
    targets = targets.float()
    if sharpen == 1.0:
        return targets
    targets = targets ** (1.0 / sharpen)
    return targets / targets.sum(dim=1, keepdim=True)


AGREE_CHUNK = 65_536  # rows a greedy read takes at once: a million float observations would need gigabytes


def agrees(net: torch.nn.Module, data: dict[str, torch.Tensor]) -> torch.Tensor:
    """Per decision: whether the student's greedy action is the teacher's most likely one."""
    hits = []
    with torch.no_grad():
        for start in range(0, len(data["obs"]), AGREE_CHUNK):
            rows = slice(start, start + AGREE_CHUNK)
            logits = masked_logits(net.logits(data["obs"][rows].float()), data["masks"][rows])
            hits.append(logits.argmax(1) == data["targets"][rows].argmax(1))
    return torch.cat(hits) if hits else torch.zeros(0, dtype=torch.bool)


def agreement(net: torch.nn.Module, data: dict[str, torch.Tensor], own: bool = False) -> dict[int, float]:
    """Per table size: how often the student's greedy action is the teacher's most likely one (``own``: on the
    learner seat's decisions only)."""
    hits = agrees(net, data)
    out: dict[int, float] = {}
    for n in data["players"].unique().tolist():
        rows = (data["players"] == n) & (data["own"] if own else True)
        if rows.any():
            out[int(n)] = float(hits[rows].float().mean())
    return out


def agreement_by_kind(net: torch.nn.Module, data: dict[str, torch.Tensor], env: str) -> dict[str, list[float]]:
    """On the learner seat's decisions, per kind of the teacher's chosen action (``bid``, ``play``, ...):
    ``[agreement, decisions]``.  Agreement overall hides where a student falls short: a Spytails round's
    forecast is hit or missed by all of its plays together."""
    codec = envs.game(env).codec
    own = data["own"]
    hits = agrees(net, data)[own].tolist()
    kinds = [codec.decode(int(chosen))[0] for chosen in data["targets"][own].argmax(1).tolist()]
    out: dict[str, list[float]] = {}
    for kind in sorted(set(kinds)):
        rows = [hit for hit, k in zip(hits, kinds, strict=True) if k == kind]
        out[kind] = [round(sum(rows) / len(rows), 4), len(rows)]
    return out


def fit(
    cfg: DistillConfig,
    net: torch.nn.Module,
    optimizer: torch.optim.Optimizer,
    data: dict[str, torch.Tensor],
    generator: torch.Generator,
    stop: StopSignals | None = None,
) -> dict[str, float]:
    """``cfg.epochs`` passes of minibatch Adam over ``data`` toward its targets sharpened by ``cfg.sharpen`` (cut
    short once ``stop`` has a signal); the last pass's mean losses."""
    size = len(data["returns"])
    net.train()
    for _ in range(cfg.epochs):
        totals = {"policy_loss": 0.0, "value_loss": 0.0}
        for batch in torch.randperm(size, generator=generator).split(cfg.batch_size):
            if stop:
                break
            out = net.get_action_and_value(
                data["obs"][batch].float(), data["masks"][batch], action=torch.zeros(len(batch), dtype=torch.long)
            )
            targets = sharpened(data["targets"][batch], cfg.sharpen)
            # soft cross-entropy over the legal actions; illegal ones have target 0 (and log-prob ~ -1e8)
            policy_loss = -(data["weights"][batch] * (targets * out.log_probs.clamp(min=-1e4)).sum(1)).mean()
            returns = data["returns"][batch]
            valued = torch.isfinite(returns)  # --exact's rows have no reward
            value_loss = ((out.value[valued] - returns[valued]) ** 2).mean() if valued.any() else out.value.sum() * 0
            loss = policy_loss + cfg.value_coef * value_loss
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), cfg.max_grad_norm)
            optimizer.step()
            totals["policy_loss"] += policy_loss.item() * len(batch) / size
            totals["value_loss"] += value_loss.item() * len(batch) / size
    net.eval()
    return totals


def distill(cfg: DistillConfig, stop: StopSignals | None = None) -> Path:
    """Run the rounds (module doc), carrying on after the last whole round already in ``cfg.out``; write
    ``<out>/final.zip``.  A signal in ``stop`` ends the run after the round in progress is saved or dropped
    (``RunInterruptedError``)."""
    out = Path(cfg.out)
    out.mkdir(parents=True, exist_ok=True)
    done = 0
    while (out / f"round_{done}.zip").is_file() and (out / f"data_{done}.npz").is_file():
        done += 1
    net, meta, _ = load_network(cfg.init, cfg.env)
    frozen, _, _ = load_network(cfg.init, cfg.env)
    optimizer_state = None
    if done:
        net, _, optimizer_state = load_network(out / f"round_{done - 1}.zip", cfg.env)
        print(f"resuming after round {done - 1} of {out}", flush=True)
    net.requires_grad_(True)
    net.eval()
    optimizer = torch.optim.Adam(net.parameters(), lr=cfg.learning_rate, eps=1e-5)
    if optimizer_state is not None:
        optimizer.load_state_dict(optimizer_state)
        for group in optimizer.param_groups:  # the state carries the old lr; a resumed run takes this one
            group["lr"] = cfg.learning_rate
    student = PolicyAgent(net, meta, deterministic=True, name="student")
    teacher_self = PolicyAgent(frozen, meta, deterministic=True, name=SELF)
    # every round's decisions so far, stacked once: a round's rows are not kept a second time as lists
    pool = stack([load_data(out / f"data_{k}.npz") for k in range(done)]) if done else None
    probe = exact_probe() if cfg.exact else None
    exact = None
    if probe:
        rows, weights = exact_decisions(cfg, probe)
        exact = {**stack([rows]), "weights": torch.from_numpy(weights)}
    log_path = out / "rounds.jsonl"
    log = [json.loads(line) for line in log_path.read_text().splitlines()[:done]] if log_path.is_file() else []
    log_path.write_text("".join(json.dumps(row) + "\n" for row in log))  # a half-written round's row goes
    start = time.monotonic() - (log[-1]["seconds"] if log else 0.0)
    for round_ in range(done, cfg.rounds):
        fresh = play_round(cfg, round_, student, teacher_self, stop)
        if stop:
            break
        # saved before the fit so that its lists can go: a round stopped in its fit has no round_K.zip, so a
        # resumed run plays it again from the same seeds and writes this file again
        save_data(out / f"data_{round_}.npz", fresh)
        fresh_data = stack([fresh])
        del fresh
        before = agreement(net, fresh_data, own=True)  # on the learner's positions, not fitted to yet
        by_kind = agreement_by_kind(net, fresh_data, cfg.env)
        decisions = len(fresh_data["returns"])
        if pool is None:
            pool = fresh_data
        else:
            grow(pool, fresh_data)
        del fresh_data
        generator = torch.Generator().manual_seed(cfg.seed * 1000 + round_)
        losses = fit(cfg, net, optimizer, joined(pool, exact) if exact else pool, generator, stop)
        if stop:
            break  # the round is dropped whole: a resumed run plays it again from the same seeds
        row = {
            "round": round_,
            "played_by": "teacher" if round_ == 0 else "student",
            "decisions": decisions,
            "data": len(pool["returns"]),
            "agreement_before_fit": before,
            "agreement_before_fit_by_kind": by_kind,
            "agreement_after_fit": agreement(net, pool),
            **({"exact": exact_report(net, probe, exact)} if exact else {}),
            **losses,
            "seconds": round(time.monotonic() - start, 1),
        }
        log.append(row)
        save_checkpoint(out / f"round_{round_}.zip", net, student_meta(meta, cfg, log), optimizer.state_dict())
        print(json.dumps(row), flush=True)
        with log_path.open("a") as f:
            f.write(json.dumps(row) + "\n")
    if stop:
        raise RunInterruptedError(stop.received or "SIGINT", len(log), out)
    return save_checkpoint(out / "final.zip", net, student_meta(meta, cfg, log), optimizer.state_dict())


# what the starting checkpoint's sidecar says of its own weights, and not of a student's: a round's network
# shipped under the starting one's ``converted_from`` claimed to be the converted zip and was tested as such
OF_THE_WEIGHTS = ("evaluation", "tournaments", "exported_from", "optimizer_state", "converted_from")


def student_meta(meta: dict[str, Any], cfg: DistillConfig, log: list[dict[str, Any]]) -> dict[str, Any]:
    """The sidecar of a student saved after ``log``'s rounds (each round's ``round_K.zip`` as well as
    ``final.zip``): the starting checkpoint's, less what held only for its weights, plus the recipe and rows."""
    student = {key: value for key, value in meta.items() if key not in OF_THE_WEIGHTS}
    return {
        **student,
        "algorithm": f"{meta.get('algorithm', 'PPO')} + DAgger policy distillation",
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "distilled_from": cfg.init,
        "distillation": {
            "config": asdict(cfg),
            "rounds": list(log),
            # a student of a student keeps its teacher's recipe: each run's rows say only how it went on
            **({"before": meta["distillation"]} if "distillation" in meta else {}),
        },
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bidbluff.training.distill", description=__doc__.split("\n\n")[0])
    parser.add_argument("env", choices=list(envs.ENVS))
    parser.add_argument("--init", required=True, help="the checkpoint to start from (also the default teacher)")
    parser.add_argument("--out", required=True, help="run directory (final.zip and rounds.jsonl go there)")
    parser.add_argument(
        "--teacher",
        action="append",
        default=[],
        metavar="SIZES=SPEC",
        help=f"teacher at a table size, e.g. 2=bayes or 3-6=heuristic (default: {SELF})",
    )
    parser.add_argument("--players", default="2,2,3,4", help="table sizes drawn per game; repeats weigh one more")
    defaults = DistillConfig("", "", "")
    for name in (
        "opponents",
        "rounds",
        "games",
        "epochs",
        "batch_size",
        "learning_rate",
        "value_coef",
        "sharpen",
        "max_grad_norm",
        "seed",
        "workers",
        "label_seats",
        "exact",
    ):
        value = getattr(defaults, name)
        parser.add_argument(f"--{name.replace('_', '-')}", type=type(value), default=value)
    args = parser.parse_args(argv)
    try:
        teachers = parse_teachers(args.teacher)
        players = [int(p) for p in args.players.split(",")]
    except ValueError as bad:
        parser.error(str(bad))
    if min(args.rounds, args.games, args.epochs, args.workers) < 1:
        parser.error("--rounds, --games, --epochs and --workers must be at least 1")
    if args.label_seats not in ("learner", "all"):
        parser.error(f"--label-seats is learner or all, not {args.label_seats!r}")
    if args.exact and args.env != "liars_dice_v0":
        parser.error(f"--exact teaches liars_dice_v0's 2 players x 1 die, not {args.env}")
    if not 0 < args.sharpen <= 1:
        parser.error(f"--sharpen is in (0, 1], not {args.sharpen}")
    game = envs.game(args.env)
    outside = [p for p in players + list(teachers) if not game.min_players <= p <= game.max_players]
    if outside:
        parser.error(f"{args.env} seats {game.min_players}-{game.max_players} players, not {outside}")
    options = {k: v for k, v in vars(args).items() if k not in ("env", "teacher", "players")}
    with StopSignals() as stop:
        try:
            print(distill(DistillConfig(env=args.env, teachers=teachers, players=players, **options), stop))
        except RunInterruptedError as stopped:
            print(
                f"{stopped.signal_name}: stopped; {stopped.steps} whole rounds saved in {args.out} (the same "
                f"command carries on)",
                flush=True,
            )
            raise SystemExit(130) from None


if __name__ == "__main__":
    main()
