"""Batched self-play PPO: every seat learns, one forward pass per step for all games.

``bidbluff selfplay <env> --trainer batched``.  Where the stable-baselines3 path
(``training.train``) puts one learner in one seat and steps opponents inside
the env, this trainer runs ``num_games`` games in one process and lets the
learning policy play every seat (parameter sharing; each seat sees only its own
observation).  Each step it brings every game to its next decision, stacks the
observations of all games waiting on a network and runs one forward pass per
network: so inference is batched, and every decision of every seat is a
training sample.

A fraction ``pool_fraction`` of the seats (drawn per game) goes to **pool
opponents** instead: the ``--opponents`` baselines (heuristic, random, ...) and
the newest ``pool_max`` snapshots of the learner, weighted by difficulty as in
prioritised fictitious self-play (``(1 - w) ** pfsp_power``, ``w`` the
learner's smoothed win rate against that opponent).  Every checkpoint becomes a
snapshot.

Advantages are computed per seat on that seat's own decision sequence (GAE over
the decisions one seat took in one game; the final reward lands on its last
decision; a sequence cut by the end of a rollout bootstraps from the value of
the seat's observation at that moment).  Invalid actions are masked in the
logits.  The loss is PPO's clipped surrogate, a value loss and an entropy
bonus, as in CleanRL's ``ppo.py``.

The network is a stable-baselines3 ``MaskableActorCriticPolicy`` (a
``SharedTrunk`` layer, then separate policy and value layers) inside a
``MaskablePPO`` object used only to save and load: checkpoints are the same
``.zip`` + JSON sidecar as ``bidbluff train`` writes, so ``agents.make(path)``
plays either and the tournament rates both.

Run layout (``--out``, default ``runs/<env>-batched``): ``config.json``,
``progress.csv`` (a row per rollout: speed, time split, episode stats, losses),
``eval.csv``, ``checkpoints/step_<N>.zip|.json`` (the sidecar also holds the
opponent pool, so ``--resume`` continues the league), ``final.zip|.json``,
``tb/`` (TensorBoard, when installed).
"""

from __future__ import annotations

import copy
import dataclasses
import json
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

import agents as agent_lib
import envs
from agents.base import bind_all, observation_for, seat_of
from agents.policy import checkpoint_paths, read_sidecar, write_sidecar
from training.train import (
    EVAL_COLUMNS,
    CsvLog,
    checkpoint_meta,
    evaluate,
    latest_checkpoint,
    tensorboard_available,
)

LEARNER = "learner"
MASKED = -1e8  # an illegal action's logit: exp() of it is exactly 0 in float32


@dataclass
class BatchedConfig:
    """Every option of a batched self-play run; ``help`` metadata is the command-line help."""

    env: str = field(metadata={"help": "registered env to train on"})
    players: int | None = field(default=None, metadata={"help": "seats (default: the game's default)"})
    env_options: dict[str, Any] = field(default_factory=dict, metadata={"help": "env options as JSON"})
    opponents: list[str] = field(default_factory=lambda: ["heuristic"],
                                 metadata={"help": "fixed pool opponents (agent specs, comma-separated); also "
                                                   "the opponents of every evaluation"})  # fmt: skip
    reward_mode: str = field(default="win", metadata={"help": "env reward mode: win, rank or score"})
    total_steps: int = field(default=2_000_000, metadata={"help": "learner decisions to train on, in all"})
    time_limit: float = field(default=0.0, metadata={"help": "stop after this many seconds of this session (0: none)"})
    num_games: int = field(default=64, metadata={"help": "games played side by side"})
    rollout_steps: int = field(default=8192, metadata={"help": "learner decisions per rollout (one update)"})
    learning_rate: float = field(default=3e-4, metadata={"help": "Adam learning rate"})
    n_epochs: int = field(default=2, metadata={"help": "optimisation epochs per rollout (two: the update then "
                                                      "costs about what playing the rollout does)"})  # fmt: skip
    minibatch_size: int = field(default=256, metadata={"help": "minibatch size"})
    gamma: float = field(default=0.995, metadata={"help": "discount per decision of a seat"})
    gae_lambda: float = field(default=0.95, metadata={"help": "GAE lambda"})
    clip_range: float = field(default=0.2, metadata={"help": "PPO clip range"})
    ent_coef: float = field(default=0.01, metadata={"help": "entropy bonus coefficient"})
    vf_coef: float = field(default=0.5, metadata={"help": "value loss coefficient"})
    max_grad_norm: float = field(default=0.5, metadata={"help": "gradient clipping norm"})
    trunk: int = field(default=256, metadata={"help": "width of the hidden layer shared by policy and value"})
    net_arch: list[int] = field(default_factory=lambda: [128],
                                metadata={"help": "hidden layers of the policy and of the value head after the "
                                                  "trunk"})  # fmt: skip
    init: str = field(default="", metadata={"help": "a checkpoint of this env whose network (same layout and sizes) "
                                                    "this run starts from, a fine-tune ('': fresh)"})  # fmt: skip
    imitate: str = field(default="", metadata={"help": "a teacher agent spec (e.g. heuristic) whose choice at every "
                                                       "learner decision is imitated early on ('': none)"})
    imitate_steps: int = field(default=0, metadata={"help": "decisions over which the imitation weight falls "
                                                            "linearly to 0"})
    imitate_coef: float = field(default=1.0, metadata={"help": "initial weight of the imitation (cross-entropy) "
                                                               "loss"})
    pool_fraction: float = field(default=0.25, metadata={"help": "share of seats given to pool opponents"})
    pool_max: int = field(default=10, metadata={"help": "newest snapshots kept in the pool"})
    pfsp_power: float = field(default=2.0, metadata={"help": "PFSP weight exponent: (1 - learner win rate)^p"})
    seed: int = field(default=0, metadata={"help": "seeds torch, the deals, the seating and the opponents"})
    checkpoint_every: int = field(default=200_000, metadata={"help": "learner decisions between checkpoints"})
    eval_games: int = field(default=40, metadata={"help": "evaluation games per checkpoint and opponent (0: none)"})
    max_game_steps: int = field(default=5_000, metadata={"help": "decisions after which a game is cut (looping)"})
    torch_threads: int = field(default=1, metadata={"help": "torch CPU threads"})
    out: str = field(default="", metadata={"help": "run directory (default runs/<env>-batched)"})


RESUMABLE = ("total_steps", "time_limit", "checkpoint_every", "eval_games", "torch_threads")


# -- the maths ----------------------------------------------------------------------
def segment_gae(values: np.ndarray, reward: float, terminal: bool, bootstrap: float, gamma: float,
                lam: float) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """GAE over one seat's decisions in one game: no reward until ``reward`` after the last decision.

    ``terminal``: the game ended after the last decision (nothing follows it); otherwise the sequence
    was cut and ``bootstrap`` is the value of what the seat sees now.  Returns advantages, returns.
    """
    advantages = np.empty(len(values), dtype=np.float32)
    next_value = 0.0 if terminal else float(bootstrap)
    step_reward = float(reward) if terminal else 0.0
    running = 0.0
    for t in range(len(values) - 1, -1, -1):
        delta = step_reward + gamma * next_value - float(values[t])
        running = delta + gamma * lam * running
        advantages[t] = running
        next_value, step_reward = float(values[t]), 0.0
    return advantages, advantages + np.asarray(values, dtype=np.float32)


def masked_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Illegal actions get a logit whose probability is exactly zero."""
    return torch.where(mask, logits, torch.full_like(logits, MASKED))


def ppo_loss(new_log_prob: torch.Tensor, old_log_prob: torch.Tensor, advantages: torch.Tensor,
             new_values: torch.Tensor, returns: torch.Tensor, entropy: torch.Tensor, clip_range: float,
             vf_coef: float, ent_coef: float) -> tuple[torch.Tensor, dict[str, float]]:  # fmt: skip
    """PPO's clipped surrogate + ``vf_coef`` x value MSE / 2 - ``ent_coef`` x entropy, and its parts."""
    log_ratio = new_log_prob - old_log_prob
    ratio = log_ratio.exp()
    policy_loss = torch.max(-advantages * ratio, -advantages * ratio.clamp(1 - clip_range, 1 + clip_range)).mean()
    value_loss = 0.5 * (new_values - returns).pow(2).mean()
    entropy_mean = entropy.mean()
    loss = policy_loss + vf_coef * value_loss - ent_coef * entropy_mean
    with torch.no_grad():
        stats = {
            "policy_loss": float(policy_loss),
            "value_loss": float(value_loss),
            "entropy": float(entropy_mean),
            "approx_kl": float(((ratio - 1) - log_ratio).mean()),
            "clip_fraction": float(((ratio - 1).abs() > clip_range).float().mean()),
        }
    return loss, stats


def explained_variance(predicted: np.ndarray, target: np.ndarray) -> float:
    var = float(np.var(target))
    return float("nan") if var == 0 else 1.0 - float(np.var(target - predicted)) / var


# -- the network --------------------------------------------------------------------
def policy_outputs(policy: Any, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Raw logits and values of a ``MaskableActorCriticPolicy`` (what its ``forward`` computes, unsampled)."""
    features = policy.extract_features(obs, policy.features_extractor)
    latent_pi, latent_vf = policy.mlp_extractor(features)
    return policy.action_net(latent_pi), policy.value_net(latent_vf).squeeze(-1)


def sample(logits: torch.Tensor, mask: torch.Tensor, generator: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """A sampled legal action per row and its log-probability."""
    log_probs = torch.log_softmax(masked_logits(logits, mask), dim=-1)
    actions = torch.multinomial(log_probs.exp(), 1, generator=generator).squeeze(1)
    return actions, log_probs.gather(1, actions[:, None]).squeeze(1)


class FrozenPolicy(nn.Module):
    """A snapshot of the learner that only acts: its own copy of the policy path (no value head)."""

    def __init__(self, policy: Any) -> None:
        super().__init__()
        self.features = copy.deepcopy(policy.features_extractor)
        self.policy_net = copy.deepcopy(policy.mlp_extractor.policy_net)
        self.action_net = copy.deepcopy(policy.action_net)
        self.requires_grad_(False)

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        return self.action_net(self.policy_net(self.features(obs)))


def new_model(config: BatchedConfig, num_players: int) -> Any:
    """The ``MaskablePPO`` that holds the network and optimizer and saves them in the SB3 format.

    It is never ``learn``-ed; its env (one single-agent view) only gives it the spaces.
    """
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from agents.networks import SharedTrunk
    from training.gym_env import SingleAgentView

    view = DummyVecEnv([lambda: SingleAgentView(config.env, ["random"], num_players, config.env_options,
                                                config.reward_mode, seed=config.seed)])  # fmt: skip
    return MaskablePPO(
        "MlpPolicy", view, learning_rate=config.learning_rate, n_steps=64, batch_size=64, n_epochs=1,
        gamma=config.gamma, gae_lambda=config.gae_lambda, clip_range=config.clip_range, ent_coef=config.ent_coef,
        vf_coef=config.vf_coef, max_grad_norm=config.max_grad_norm, seed=config.seed, device="cpu", verbose=0,
        policy_kwargs={"features_extractor_class": SharedTrunk,
                       "features_extractor_kwargs": {"features_dim": config.trunk},
                       "net_arch": {"pi": list(config.net_arch), "vf": list(config.net_arch)}},
    )  # fmt: skip


def load_model(path: Path, env_name: str) -> tuple[Any, dict[str, Any]]:
    """A checkpoint's ``MaskablePPO`` (weights, optimizer state, steps) and its checked sidecar."""
    from sb3_contrib import MaskablePPO

    meta = read_sidecar(path, env_name)
    return MaskablePPO.load(checkpoint_paths(path)[0], device="cpu"), meta


def start_from(policy: Any, path: Path, config: BatchedConfig) -> None:
    """Copy checkpoint ``path``'s network into ``policy`` (a new run's); a different env, layout or size is
    an error naming the difference."""
    donor, meta = load_model(path, config.env)
    if (meta.get("env_options") or {}) != dict(config.env_options):
        raise ValueError(f"--init {path}: trained with env options {meta.get('env_options') or {}}, "
                         f"this run has {config.env_options}")  # fmt: skip
    ours, theirs = policy.state_dict(), donor.policy.state_dict()
    differ = [k for k in ours if k not in theirs or theirs[k].shape != ours[k].shape]
    if differ or set(theirs) - set(ours):
        raise ValueError(f"--init {path}: its network differs from this run's (--trunk {config.trunk}, --net-arch "
                         f"{config.net_arch}) in {', '.join(differ or sorted(set(theirs) - set(ours)))}")  # fmt: skip
    policy.load_state_dict(theirs)


# -- the rollout ---------------------------------------------------------------------
class Rollout:
    """Preallocated learner decisions of one rollout (room for one step of every game past the target)."""

    def __init__(self, capacity: int, obs_size: int, n_actions: int) -> None:
        self.obs = np.zeros((capacity, obs_size), dtype=np.float32)
        self.mask = np.zeros((capacity, n_actions), dtype=bool)
        self.actions = np.zeros(capacity, dtype=np.int64)
        self.teacher = np.zeros(capacity, dtype=np.int64)  # the teacher's choice (imitation), when there is one
        self.log_probs = np.zeros(capacity, dtype=np.float32)
        self.values = np.zeros(capacity, dtype=np.float32)
        self.advantages = np.zeros(capacity, dtype=np.float32)
        self.returns = np.zeros(capacity, dtype=np.float32)
        self.count = 0


@dataclass
class Table:
    """One game in progress: its env, who sits where, and each learner seat's open decision sequence."""

    env: Any
    seats: list[str] = field(default_factory=list)  # LEARNER or a pool entry's name
    steps: int = 0
    segments: list[list[int]] = field(default_factory=list)  # rollout rows of each seat's decisions


class Pool:
    """Pool opponents: fixed baselines (agents) and snapshots (frozen networks), PFSP-weighted."""

    def __init__(self, config: BatchedConfig) -> None:
        self.config = config
        self.baselines = {f"baseline:{spec}": agent_lib.make(spec, env_name=config.env, seed=config.seed + i)
                          for i, spec in enumerate(config.opponents)}  # fmt: skip
        self.snapshots: list[dict[str, Any]] = []  # {"name", "path", "steps"}, oldest first
        self.networks: dict[str, FrozenPolicy] = {}
        self.results: dict[str, list[float]] = {}  # name -> [learner wins, games]

    def recent(self) -> list[str]:
        return [s["name"] for s in self.snapshots[-self.config.pool_max :]] if self.config.pool_max > 0 else []

    def names(self) -> list[str]:
        """Who can be drawn: the baselines and the recent snapshots."""
        return list(self.baselines) + [name for name in self.recent() if name in self.networks]

    def win_rate(self, name: str) -> float:
        wins, games = self.results.get(name, [0.0, 0.0])
        return (wins + 1) / (games + 2)

    def draw(self, rng: np.random.Generator) -> str:
        names = self.names()
        w = np.array([(1.0 - self.win_rate(n)) ** self.config.pfsp_power + 1e-6 for n in names])
        return names[int(rng.choice(len(names), p=w / w.sum()))]

    def record(self, name: str, learner_result: float) -> None:
        entry = self.results.setdefault(name, [0.0, 0.0])
        entry[0] += learner_result
        entry[1] += 1

    def add_snapshot(self, policy: Any, path: Path, steps: int) -> None:
        name = f"gen{len(self.snapshots) + 1}@{steps}"
        self.snapshots.append({"name": name, "path": str(path), "steps": steps})
        self.networks[name] = FrozenPolicy(policy)
        self._forget_old()

    def _forget_old(self) -> None:
        """Snapshots that fell out of the pool keep their record but not their network."""
        keep = set(self.recent())
        self.networks = {name: net for name, net in self.networks.items() if name in keep}

    def to_dict(self) -> dict[str, Any]:
        return {"snapshots": self.snapshots, "results": self.results,
                "pool": [{"name": n, "win_rate": round(self.win_rate(n), 4)} for n in self.names()]}  # fmt: skip

    def restore(self, data: dict[str, Any]) -> None:
        """The pool as a checkpoint saved it; a snapshot whose checkpoint is gone or changed is dropped."""
        self.results = {k: list(v) for k, v in data.get("results", {}).items()}
        self.snapshots = list(data.get("snapshots", []))
        for snap in [s for s in self.snapshots if s["name"] in self.recent()]:
            name = snap["name"]
            try:
                model, _ = load_model(Path(snap["path"]), self.config.env)
            except (ValueError, FileNotFoundError) as bad:
                print(f"warning: snapshot {name} dropped: {bad}")
                self.snapshots.remove(snap)
                continue
            self.networks[name] = FrozenPolicy(model.policy)


class BatchedTrainer:
    """One run (see the module docstring): ``run()`` trains to ``total_steps`` and returns the final zip."""

    def __init__(self, config: BatchedConfig, resume: bool = False, progress_bar: bool = True) -> None:
        if not 0.0 <= config.pool_fraction < 1.0:
            raise ValueError(f"pool_fraction must be in [0, 1), not {config.pool_fraction}")
        if config.pool_fraction > 0 and not config.opponents and config.pool_max <= 0:
            raise ValueError("pool_fraction > 0 needs pool opponents: --opponents or pool_max > 0")
        for name in ("total_steps", "num_games", "rollout_steps", "minibatch_size", "n_epochs", "checkpoint_every"):
            if getattr(config, name) < 1:
                raise ValueError(f"{name} must be positive, not {getattr(config, name)}")
        self.config = config
        self.progress_bar = progress_bar
        game = envs.game(config.env, **config.env_options)
        self.num_players = config.players or game.default_players
        self.out = Path(config.out or f"runs/{config.env}-batched")
        torch.set_num_threads(config.torch_threads)
        self.pool = Pool(config)
        self.evaluation: list[dict[str, Any]] = []
        if resume:
            found = latest_checkpoint(self.out)
            if found is None:
                raise FileNotFoundError(f"--resume: {self.out}/checkpoints holds no intact checkpoint to resume from")
            path, meta = found
            self.model, _ = load_model(path, config.env)
            self.evaluation = list(meta.get("evaluation", []))
            self.pool.restore(meta.get("league", {}))
            print(f"resuming {self.out} from {path.name} at step {self.model.num_timesteps}")
        else:
            (self.out / "checkpoints").mkdir(parents=True, exist_ok=True)
            self.model = new_model(config, self.num_players)
            if config.init:
                start_from(self.model.policy, Path(config.init), config)
        (self.out / "config.json").write_text(json.dumps(dataclasses.asdict(config), indent=2) + "\n")
        self.policy = self.model.policy
        self.policy.set_training_mode(False)
        self.optimizer = self.policy.optimizer
        self.steps = int(self.model.num_timesteps)
        self.rng = np.random.default_rng([config.seed, self.steps])
        self.torch_rng = torch.Generator().manual_seed(int(self.rng.integers(2**62)))
        torch.manual_seed(int(self.rng.integers(2**62)))
        self.tables = [Table(envs.make(config.env, raw=True, num_players=self.num_players,
                                       reward_mode=config.reward_mode, **config.env_options))
                       for _ in range(config.num_games)]  # fmt: skip
        size = game.observation_size
        self.rollout = Rollout(config.rollout_steps + config.num_games, size, game.codec.n)
        self.episodes = 0
        self.recent: list[dict[str, float]] = []  # finished games of this rollout
        self.timers = {"env": 0.0, "inference": 0.0, "teacher": 0.0, "update": 0.0}
        self.teacher = None
        if config.imitate:
            self.teacher = agent_lib.make(config.imitate, env_name=config.env, seed=config.seed + 7)
            if getattr(self.teacher, "needs_env", False):
                raise ValueError(f"--imitate {config.imitate}: the teacher must play from observations alone")
        self.truncated = 0
        self.writer = None
        self.progress = CsvLog(self.out / "progress.csv", PROGRESS_COLUMNS)
        self.evals = CsvLog(self.out / "eval.csv", EVAL_COLUMNS)

    # -- games ------------------------------------------------------------------------------
    def _start(self, table: Table) -> None:
        n = self.num_players
        seats = [self.pool.draw(self.rng) if self.rng.random() < self.config.pool_fraction else LEARNER
                 for _ in range(n)]  # fmt: skip
        if LEARNER not in seats:
            seats[int(self.rng.integers(n))] = LEARNER
        table.seats, table.steps, table.segments = seats, 0, [[] for _ in range(n)]
        table.env.reset(seed=int(self.rng.integers(2**31 - 1)))
        bind_all([self.pool.baselines[s] for s in seats if s in self.pool.baselines], table.env)

    def _finish(self, table: Table, truncated: bool) -> None:
        env = table.env
        rewards = [0.0 if truncated else float(env.rewards[a]) for a in env.possible_agents]
        for seat, rows in enumerate(table.segments):
            if rows:
                self._close_segment(rows, rewards[seat], terminal=True, bootstrap=0.0)
        scores = list(env.game_state.scores())
        learners = [s for s, who in enumerate(table.seats) if who == LEARNER]
        best = max(scores[s] for s in learners)
        for seat, who in enumerate(table.seats):
            if who != LEARNER:
                self.pool.record(who, 1.0 if best > scores[seat] else 0.5 if best == scores[seat] else 0.0)
        self.episodes += 1
        self.truncated += truncated
        self.recent.append({"length": table.steps, "learner_won": float(best == max(scores)),
                            "learner_seats": len(learners)})  # fmt: skip
        self._start(table)

    def _advance(self, table: Table) -> str:
        """Play baseline seats and finish games until a network must act; returns who (LEARNER or a snapshot)."""
        env = table.env
        while True:
            agent = env.agent_selection
            if env.terminations[agent] or table.steps >= self.config.max_game_steps:
                self._finish(table, truncated=not env.terminations[agent])
                continue
            who = table.seats[seat_of(agent)]
            if who not in self.pool.baselines:
                return who
            player = self.pool.baselines[who]
            if getattr(player, "needs_env", False):
                player.bind(env)
            env.step(player.act(observation_for(player, env, agent), agent))
            table.steps += 1

    def _close_segment(self, rows: list[int], reward: float, terminal: bool, bootstrap: float) -> None:
        r = self.rollout
        adv, ret = segment_gae(r.values[rows], reward, terminal, bootstrap, self.config.gamma, self.config.gae_lambda)
        r.advantages[rows] = adv
        r.returns[rows] = ret
        rows.clear()

    def collect(self) -> None:
        """Play every game until the rollout holds ``rollout_steps`` learner decisions."""
        r = self.rollout
        r.count = 0
        self.recent = []
        clock = time.perf_counter
        while r.count < self.config.rollout_steps:
            t0 = clock()
            groups: dict[str, list[int]] = {}
            for i, table in enumerate(self.tables):
                groups.setdefault(self._advance(table), []).append(i)
            t1 = clock()
            taught = self.timers["teacher"]
            moves: list[tuple[int, int]] = []
            for who, members in groups.items():
                moves += self._decide(who, members)
            t2 = clock()
            for i, action in moves:
                table = self.tables[i]
                table.env.step(action)
                table.steps += 1
            self.timers["env"] += (t1 - t0) + (clock() - t2)
            self.timers["inference"] += t2 - t1 - (self.timers["teacher"] - taught)
        self._bootstrap_open_segments()

    def _decide(self, who: str, members: list[int]) -> list[tuple[int, int]]:
        """One forward pass for every game in ``members`` waiting on network ``who``."""
        r = self.rollout
        k = len(members)
        if who == LEARNER:
            rows = slice(r.count, r.count + k)
            obs, mask = r.obs[rows], r.mask[rows]
        else:
            obs = np.empty((k, r.obs.shape[1]), dtype=np.float32)
            mask = np.empty((k, r.mask.shape[1]), dtype=bool)
        label = who == LEARNER and self.teacher is not None and self.imitation_weight() > 0
        for j, i in enumerate(members):
            env = self.tables[i].env
            seen = env.observe(env.agent_selection)
            obs[j] = seen["observation"]
            mask[j] = seen["action_mask"]
            if label:
                started = time.perf_counter()
                r.teacher[r.count + j] = self.teacher.act(seen, env.agent_selection)
                self.timers["teacher"] += time.perf_counter() - started
        obs_t, mask_t = torch.from_numpy(obs), torch.from_numpy(mask)
        with torch.no_grad():
            if who == LEARNER:
                logits, values = policy_outputs(self.policy, obs_t)
            else:
                logits = self.pool.networks[who](obs_t)
            actions, log_probs = sample(logits, mask_t, self.torch_rng)
        actions_np = actions.numpy()
        if who == LEARNER:
            r.actions[rows] = actions_np
            r.log_probs[rows] = log_probs.numpy()
            r.values[rows] = values.numpy()
            for j, i in enumerate(members):
                table = self.tables[i]
                table.segments[seat_of(table.env.agent_selection)].append(r.count + j)
            r.count += k
        return list(zip(members, actions_np.tolist(), strict=True))

    def _bootstrap_open_segments(self) -> None:
        """Sequences cut by the rollout's end: their value now (each seat's own observation) closes them."""
        open_ = [(table, seat) for table in self.tables for seat, rows in enumerate(table.segments) if rows]
        if not open_:
            return
        obs = np.stack([t.env.observe(t.env.possible_agents[s])["observation"] for t, s in open_])
        with torch.no_grad():
            _, values = policy_outputs(self.policy, torch.from_numpy(obs))
        for (table, seat), value in zip(open_, values.tolist(), strict=True):
            self._close_segment(table.segments[seat], 0.0, terminal=False, bootstrap=value)

    # -- learning ---------------------------------------------------------------------------
    def update(self) -> dict[str, float]:
        c, r = self.config, self.rollout
        n = r.count
        obs, mask = torch.from_numpy(r.obs[:n]), torch.from_numpy(r.mask[:n])
        actions, old_log_probs = torch.from_numpy(r.actions[:n]), torch.from_numpy(r.log_probs[:n])
        advantages, returns = torch.from_numpy(r.advantages[:n]), torch.from_numpy(r.returns[:n])
        imitation = self.imitation_weight() if self.teacher is not None else 0.0
        teacher = torch.from_numpy(r.teacher[:n])
        for group in self.optimizer.param_groups:
            group["lr"] = c.learning_rate
        self.policy.set_training_mode(True)
        totals: dict[str, float] = {}
        batches = 0
        for _ in range(c.n_epochs):
            order = torch.randperm(n, generator=self.torch_rng)
            for start in range(0, n, c.minibatch_size):
                idx = order[start : start + c.minibatch_size]
                logits, values = policy_outputs(self.policy, obs[idx])
                log_probs = torch.log_softmax(masked_logits(logits, mask[idx]), dim=-1)
                new_log_prob = log_probs.gather(1, actions[idx, None]).squeeze(1)
                entropy = -(log_probs.exp() * log_probs).sum(-1)
                adv = advantages[idx]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8) if len(idx) > 1 else adv
                loss, stats = ppo_loss(new_log_prob, old_log_probs[idx], adv, values, returns[idx], entropy,
                                       c.clip_range, c.vf_coef, c.ent_coef)  # fmt: skip
                if imitation > 0:
                    cross_entropy = -log_probs.gather(1, teacher[idx, None]).mean()
                    loss = loss + imitation * cross_entropy
                    stats["imitation_loss"] = float(cross_entropy.detach())
                    stats["teacher_agreement"] = float((log_probs.argmax(-1) == teacher[idx]).float().mean())
                self.optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(self.policy.parameters(), c.max_grad_norm)
                self.optimizer.step()
                for key, value in stats.items():
                    totals[key] = totals.get(key, 0.0) + value
                batches += 1
        self.policy.set_training_mode(False)
        out = {key: value / batches for key, value in totals.items()}
        out["explained_variance"] = explained_variance(r.values[:n], r.returns[:n])
        out["imitation_weight"] = imitation
        return out

    def imitation_weight(self) -> float:
        """The weight of the imitation loss now: ``imitate_coef`` falling linearly to 0 at ``imitate_steps``."""
        c = self.config
        if not c.imitate or c.imitate_steps <= 0:
            return 0.0
        return c.imitate_coef * max(0.0, 1.0 - self.steps / c.imitate_steps)

    # -- checkpoints --------------------------------------------------------------------------
    def save(self) -> Path:
        """Evaluate (greedy, against each ``--opponents``), save the checkpoint, add it to the pool."""
        c = self.config
        self.model.num_timesteps = self.steps
        if c.eval_games > 0 and c.opponents:
            for row in evaluate(self.model, c, c.eval_games, c.seed + 10_000 + self.steps, self.num_players):
                self.evaluation.append(row)
                self.evals.write(row)
                if self.writer is not None:
                    self.writer.add_scalar(f"eval/win_share_vs_{row['opponent']}", row["win_share"], self.steps)
        path = self.out / "checkpoints" / f"step_{self.steps}.zip"
        self.model.save(path)
        self.pool.add_snapshot(self.policy, path, self.steps)
        meta = checkpoint_meta(c, self.steps, self.evaluation, self.num_players)  # type: ignore[arg-type]
        meta.update({"algorithm": "PPO (bidbluff batched self-play; saved as MaskablePPO)", "trainer": "batched",
                     "policy": "MlpPolicy with SharedTrunk", "league": self.pool.to_dict()})  # fmt: skip
        write_sidecar(path, meta)
        return path

    def run(self) -> Path:
        c = self.config
        if tensorboard_available():
            from torch.utils.tensorboard import SummaryWriter

            self.writer = SummaryWriter(str(self.out / "tb"))
        from tqdm import tqdm

        started = time.perf_counter()
        start_steps = self.steps
        next_checkpoint = (self.steps // c.checkpoint_every + 1) * c.checkpoint_every
        for table in self.tables:
            self._start(table)
        bar = tqdm(total=c.total_steps, initial=self.steps, disable=not self.progress_bar, unit="step",
                   desc=c.env, dynamic_ncols=True)  # fmt: skip
        last_saved = None
        while self.steps < c.total_steps and not (c.time_limit and time.perf_counter() - started >= c.time_limit):
            self.collect()
            t0 = time.perf_counter()
            stats = self.update()
            self.timers["update"] += time.perf_counter() - t0
            self.steps += self.rollout.count
            self._log(stats, started, start_steps)
            bar.update(self.rollout.count)
            if self.steps >= next_checkpoint:
                last_saved = self.save()
                while next_checkpoint <= self.steps:
                    next_checkpoint += c.checkpoint_every
        bar.close()
        if last_saved is None or int(last_saved.stem.split("_")[1]) != self.steps:
            last_saved = self.save()
        for src, dst in zip(checkpoint_paths(last_saved), checkpoint_paths(self.out / "final"), strict=True):
            shutil.copyfile(src, dst)
        if self.writer is not None:
            self.writer.close()
        return self.out / "final.zip"

    def _log(self, stats: dict[str, float], started: float, start_steps: int) -> None:
        seconds = time.perf_counter() - started
        spent = sum(self.timers.values()) or 1.0
        games = self.recent
        row = {
            "step": self.steps, "seconds": round(seconds, 1),
            "steps_per_s": (self.steps - start_steps) / max(seconds, 1e-9),
            "episodes": self.episodes, "truncated": self.truncated,
            "ep_length_mean": float(np.mean([g["length"] for g in games])) if games else "",
            "learner_win_rate": float(np.mean([g["learner_won"] for g in games])) if games else "",
            "env_share": self.timers["env"] / spent, "inference_share": self.timers["inference"] / spent,
            "update_share": self.timers["update"] / spent, "teacher_share": self.timers["teacher"] / spent,
            "learning_rate": self.config.learning_rate, **stats,
        }  # fmt: skip
        self.progress.write(row)
        if self.writer is not None:
            for key, value in row.items():
                if key != "step" and isinstance(value, float | int):
                    self.writer.add_scalar(f"train/{key}", value, self.steps)


PROGRESS_COLUMNS = [
    "step", "seconds", "steps_per_s", "episodes", "truncated", "ep_length_mean", "learner_win_rate",
    "policy_loss", "value_loss", "entropy", "approx_kl", "clip_fraction", "explained_variance", "learning_rate",
    "env_share", "inference_share", "teacher_share", "update_share", "imitation_weight", "imitation_loss",
    "teacher_agreement",
]  # fmt: skip


def train_batched(config: BatchedConfig, resume: bool = False, progress_bar: bool = True) -> Path:
    """Run (or resume) a batched self-play run; returns the final checkpoint's zip path."""
    return BatchedTrainer(config, resume=resume, progress_bar=progress_bar).run()
