"""Batched self-play PPO: every seat learns, one forward pass per step for all games.

``bidbluff selfplay <env>`` (the default ``--trainer batched``).  Where the stable-baselines3 path
(``bidbluff.training.train``) puts one learner in one seat and steps opponents inside
the env, this trainer runs ``num_games`` games in one process and lets the
learning policy play every seat (parameter sharing; each seat sees only its own
observation).  Each step it brings every game to its next decision, stacks the
observations of all games waiting on a network and runs one forward pass per
network: so inference is batched, and every decision of every seat is a
training sample.

A fraction ``pool_fraction`` of the seats (drawn per game) goes to the
**league** (``bidbluff.training.league``) instead: the ``--opponents`` baselines
(heuristic, random, ...) and the newest ``pool_max`` snapshots of the learner,
weighted by difficulty as in prioritised fictitious self-play
(``(1 - w) ** pfsp_power``, ``w`` the learner's smoothed win rate against that
opponent).  Every checkpoint becomes a snapshot, played by a frozen copy of the
network.  SIGINT or SIGTERM end a run after the current step or minibatch with
a checkpoint and ``final.zip`` (see ``bidbluff.training.train``).

Advantages are computed per seat on that seat's own decision sequence (GAE over
the decisions one seat took in one game; the final reward lands on its last
decision; a sequence cut by the end of a rollout bootstraps from the value of
the seat's observation at that moment).  ``--critic state`` takes those values from
a separate critic that reads every seat's observation (``StateCritic``).  Invalid actions are masked in the
logits.  The loss is PPO's clipped surrogate, a value loss and an entropy
bonus, as in CleanRL's ``ppo.py``.

The network is ``bidbluff.agents.networks.ActorCritic``, a plain ``torch.nn.Module`` (a
shared trunk layer, then separate policy and value layers) whose one
``get_action_and_value(obs, mask, action=None)`` serves the rollout and the
update alike.  ``--anneal-lr`` lowers the learning rate linearly to 0 over
``total_steps``; ``--target-kl`` ends an update early once an epoch's mean
approximate KL divergence from the rollout's policy passes it (both as in
CleanRL's ``ppo.py``).  Checkpoints are the network's and Adam's state dicts
(``torch.save``) + the JSON sidecar (``bidbluff.agents.policy``), so ``bidbluff.agents.make(path)``
plays them; ``--init`` and ``--resume`` also take the older stable-baselines3
format that this trainer wrote before.

``--players`` takes one table size or a list (``2,4``): each game draws its
size from the list when it starts (one network serves all: the observation and
action shapes are the same at every table size); a size listed twice is drawn
twice as often (``2,2,4``).  Checkpoints are evaluated at the largest size.
``--draw-options`` does the same for setup options (``{"dice": [1, 2, 3, 4, 5]}``);
evaluations play ``--env-options``.

Run layout (``--out``, default ``runs/<env>-batched``): ``config.json``,
``progress.csv`` (a row per rollout: speed, time split, episode stats, losses,
learning rate, epochs run), ``eval.csv``, ``checkpoints/step_<N>.zip|.json``
(the sidecar also holds the league, ``bidbluff.training.league``, so ``--resume``
continues it), ``final.zip|.json``, ``tb/`` (TensorBoard, when installed).
"""

from __future__ import annotations

import contextlib
import copy
import gc
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from bidbluff import agents as agent_lib
from bidbluff import envs
from bidbluff.agents.base import bind_all, seat_of
from bidbluff.agents.networks import ActorCritic, layer, masked_logits, mlp
from bidbluff.agents.policy import load_network, load_trainer_state, save_checkpoint
from bidbluff.training.league import League
from bidbluff.training.progress import RunProgress
from bidbluff.training.run import CsvLog, Run, tensorboard_available
from bidbluff.training.tables import LEARNER, game_over, outcome, play_baselines, seat_table


@dataclass
class BatchedConfig:
    """Every option of a batched self-play run; ``help`` metadata is the command-line help."""

    env: str = field(metadata={"help": "registered env to train on"})
    players: int | list[int] | None = field(
        default=None,
        metadata={
            "help": "seats, or a list of table sizes each game draws from "
            "(2,4; 2,2,4 draws 2 twice as often) (default: the "
            "game's default)"
        },
    )
    env_options: dict[str, Any] = field(default_factory=dict, metadata={"help": "env options as JSON"})
    draw_options: dict[str, Any] = field(
        default_factory=dict,
        metadata={
            "help": 'setup options each game draws when it starts, a list of values per option, as JSON: {"dice": '
            "[1, 2, 3]} (liars_dice_v0 across dice counts; one network reads every table)"
        },
    )
    opponents: list[str] = field(
        default_factory=lambda: ["heuristic"],
        metadata={
            "help": "fixed pool opponents (agent specs, comma-separated); also the opponents of every evaluation"
        },
    )
    reward_mode: str = field(default="win", metadata={"help": "env reward mode: win, rank or score"})
    total_steps: int = field(default=2_000_000, metadata={"help": "learner decisions to train on, in all"})
    time_limit: float | None = field(
        default=None, metadata={"help": "stop after this many seconds of this session (default: no limit)"}
    )
    num_games: int = field(default=64, metadata={"help": "games played side by side"})
    rollout_steps: int = field(default=8192, metadata={"help": "learner decisions per rollout (one update)"})
    learning_rate: float = field(default=3e-4, metadata={"help": "Adam learning rate"})
    anneal_lr: bool = field(default=False, metadata={"help": "lower the learning rate linearly to 0 at total_steps"})
    target_kl: float | None = field(
        default=None,
        metadata={"help": "stop an update after the epoch whose mean approximate KL passes this (default: no stop)"},
    )
    n_epochs: int = field(
        default=2,
        metadata={
            "help": "optimisation epochs per rollout (two: the update then costs about what playing the rollout does)"
        },
    )
    minibatch_size: int = field(default=256, metadata={"help": "minibatch size"})
    gamma: float = field(default=0.995, metadata={"help": "discount per decision of a seat"})
    gae_lambda: float = field(default=0.95, metadata={"help": "GAE lambda"})
    clip_range: float = field(default=0.2, metadata={"help": "PPO clip range"})
    ent_coef: float = field(default=0.01, metadata={"help": "entropy bonus coefficient"})
    ent_coef_final: float | None = field(
        default=None,
        metadata={"help": "the entropy coefficient reached at total_steps, linearly from ent_coef (default: constant)"},
    )
    kl_coef: float = field(
        default=0.0,
        metadata={
            "help": "weight of the reverse KL from the rollout's policy (mirror descent's proximal term; "
            "Sokota et al.'s MMD), exact over the legal actions"
        },
    )
    magnet_coef: float = field(
        default=0.0,
        metadata={"help": "weight of the reverse KL toward the magnet, a trailing copy of the network (MMD)"},
    )
    magnet_rate: float = field(
        default=0.002,
        metadata={"help": "after each update the magnet's weights move this share of the way to the network's"},
    )
    magnet_every: int = field(
        default=0,
        metadata={"help": "instead: the magnet becomes a copy of the network every this many updates (0: trail)"},
    )
    magnet_frozen_after: float = field(
        default=1.0,
        metadata={
            "help": "after this share of total_steps the magnet stays as it is (1: it moves to the end); the last "
            "stretch then settles on the solution of the game regularised toward it, one proximal step"
        },
    )
    magnet_source: str = field(
        default="network",
        metadata={
            "help": "what the magnet copies or trails: network (the iterate) or average (the mean of the weights "
            "once --average-from has begun; the network until then), so the last stretch is pulled toward the "
            "point the iterates wander around instead of toward the iterate itself"
        },
    )
    average_from: float | None = field(
        default=None,
        metadata={
            "help": "from this share of total_steps on, also keep the mean of the network's weights after every "
            "update (Polyak-Ruppert averaging) and write it as average.zip beside final.zip, measured too "
            "(default: none)"
        },
    )
    explore: float = field(
        default=0.0,
        metadata={
            "help": "share of the learner's moves in the rollout drawn from an exploring distribution over the "
            "legal ones (--explore-power; uniform by default, so that the states only a best response steers to "
            "are visited); the update's ratio is against the mix it sampled from (0: on-policy), or as "
            "--explore-correction says"
        },
    )
    explore_power: float = field(
        default=0.0,
        metadata={
            "help": "the exploring share draws its move in proportion to the policy's chance to this power: 0, "
            "uniformly among the legal moves (what only a best response plays gets visited); between 0 and 1, a "
            "flattened policy (the moves it plays now and then get visited more, the ones it never plays still "
            "rarely)"
        },
    )
    explore_correction: str = field(
        default="none",
        metadata={
            "help": "none: PPO's ratio is against the mix and the returns are the game as the mix played it, so the "
            "seat learns against the other seats' exploring moves too, and the clip, centred on the mix, stops "
            "the step from making a move rarer than about explore / its number of legal moves; importance: "
            "each return is reweighed by the policy's over the mix's chance of every learner move after the "
            "decision (per-decision importance sampling: the returns are the policy's own); each decision's "
            "surrogate and value are weighed by the other seats' ratios from the game's start to it (the mix of "
            "their hidden cards there is then the policy's); and the clip is centred on the rollout's policy with "
            "the move's own weight outside it (decoupled PPO)"
        },
    )
    normalize_advantages: bool = field(
        default=True,
        metadata={
            "help": "divide each minibatch's advantages by their spread (off: the coefficients keep one meaning "
            "whatever the outcome noise; rewards are already +-1)"
        },
    )
    critic: str = field(
        default="own",
        metadata={
            "help": "own: the advantages' baseline is the network's value of the seat's own observation; state: "
            "a separate critic's value of every seat's observation at once (the hidden dice and cards too). A "
            "baseline of the whole position leaves the policy gradient unbiased and takes out of each advantage "
            "the outcome noise of what the seat cannot see, which at 2 players x 1 die is most of it; the "
            "policy still reads its own observation alone (an asymmetric actor-critic); q: that critic also values "
            "every move from the position, and the policy steps on all its legal moves at once, each by its "
            "value's gap to the policy's mean (an all-actions gradient, as COMA's counterfactual baseline), not on "
            "the one move sampled and its return (in the critic's units: --normalize-advantages does not apply)"
        },
    )
    critic_arch: list[int] = field(
        default_factory=lambda: [256, 256], metadata={"help": "hidden layers of --critic state's and q's network"}
    )
    q_residual: bool = field(
        default=False,
        metadata={
            "help": "with --critic q, also step on the move sampled, by its return less the critic's value of it: "
            "the critic's error corrected where the move was sampled, so the step's expectation is the policy "
            "gradient whatever the critic's error (a control variate, as Q-Prop's and VR-MCCFR's baselines); off: "
            "the critic's values alone, biased where it is wrong"
        },
    )
    state_balance: float = field(
        default=0.0,
        metadata={
            "help": "weigh each learner decision's policy terms by (the rollout's count of its observation) ** -this, "
            "scaled to a mean of 1: at 1 every information state the rollout visits gets the same total step, as in "
            "the tabular step, instead of a step in proportion to how often play reaches it; a best response goes "
            "where self-play rarely does (0: as sampled)"
        },
    )
    vf_coef: float = field(default=0.5, metadata={"help": "value loss coefficient"})
    max_grad_norm: float = field(default=0.5, metadata={"help": "gradient clipping norm"})
    trunk: int = field(default=256, metadata={"help": "width of the hidden layer shared by policy and value"})
    net_arch: list[int] = field(
        default_factory=lambda: [128],
        metadata={"help": "hidden layers of the policy and of the value head after the trunk"},
    )
    activation: str = field(default="tanh", metadata={"help": "the hidden layers' activation: tanh or relu"})
    init: str = field(
        default="",
        metadata={
            "help": "a checkpoint of this env whose network (same layout and sizes) "
            "this run starts from, a fine-tune ('': fresh)"
        },
    )
    imitate: str = field(
        default="",
        metadata={
            "help": "a teacher agent spec (e.g. heuristic) whose choice at every "
            "learner decision is imitated early on ('': none)"
        },
    )
    imitate_steps: int = field(
        default=0, metadata={"help": "decisions over which the imitation weight falls linearly to 0"}
    )
    imitate_coef: float = field(default=1.0, metadata={"help": "initial weight of the imitation (cross-entropy) loss"})
    exact: str = field(
        default="",
        metadata={
            "help": "liars_dice_v0: an agent spec (e.g. ppo-2p1d) whose distribution on every information state of "
            "2 players x 1 die under the default rules (the tree the exact exploitability walks) every minibatch "
            "is also fitted to, weighted by its own reach as distill --exact weighs them; each checkpoint measures "
            "the network's exact exploitability there.  Games at many table sizes rarely reach that small tree's "
            "positions, and a best response goes anywhere in it ('': none)"
        },
    )
    exact_coef: float = field(default=1.0, metadata={"help": "weight of that cross-entropy in the loss"})
    pool_fraction: float = field(default=0.25, metadata={"help": "share of seats given to pool opponents"})
    learner_seats: str = field(
        default="any",
        metadata={
            "help": "any: pool_fraction of the seats go to the league, the rest to the learner; one: the learner "
            "sits in one seat of every game (drawn), the league in all the others (an exploiter's training)"
        },
    )
    pool_max: int = field(default=10, metadata={"help": "newest snapshots kept in the pool"})
    pfsp_power: float = field(default=2.0, metadata={"help": "PFSP weight exponent: (1 - learner win rate)^p"})
    baseline_share: float | None = field(
        default=None,
        metadata={
            "help": "share of the pool's draws kept for the --opponents, the rest for the snapshots (default: "
            "PFSP over all of them, so the opponents fade as snapshots join)"
        },
    )
    seed: int = field(default=0, metadata={"help": "seeds torch, the deals, the seating and the opponents"})
    checkpoint_every: int = field(default=200_000, metadata={"help": "learner decisions between checkpoints"})
    eval_games: int = field(default=40, metadata={"help": "evaluation games per checkpoint and opponent (0: none)"})
    max_game_steps: int = field(default=5_000, metadata={"help": "decisions after which a game is cut (looping)"})
    exploitability: bool = field(
        default=False,
        metadata={
            "help": "measure the sampled policy's exact exploitability at every checkpoint (liars_dice_v0 at "
            "2 players x 1-2 dice; the openspiel extra)"
        },
    )
    torch_threads: int = field(default=1, metadata={"help": "torch CPU threads"})
    out: str = field(default="", metadata={"help": "run directory (default runs/<env>-batched)"})


RESUMABLE = ("total_steps", "time_limit", "checkpoint_every", "eval_games", "torch_threads")


# -- the maths ----------------------------------------------------------------------
def segment_gae(
    values: np.ndarray,
    reward: float,
    terminal: bool,
    bootstrap: float,
    gamma: float,
    lam: float,
    own: np.ndarray | None = None,
    between: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """GAE over one seat's decisions in one game: no reward until ``reward`` after the last decision.

    ``terminal``: the game ended after the last decision (nothing follows it); otherwise the sequence
    was cut and ``bootstrap`` is the value of what the seat sees now.  Returns advantages, returns.

    Off-policy rows (``--explore-correction importance``): ``own[t]`` is the policy's over the behaviour's chance of
    decision t's move, ``between[t]`` the same ratio's product over the other seats' moves from decision t to the
    seat's next (or to the end).  Per-decision importance sampling then gives the policy's own advantage of each
    move, ``delta_t = between_t (r + gamma V_{t+1}) - V_t`` and ``A_t = delta_t + gamma lam between_t own_{t+1}
    A_{t+1}``, and the value's target is the policy's value of the state, ``V_t + own_t A_t``.  With every ratio
    1 this is plain GAE.
    """
    advantages = np.empty(len(values), dtype=np.float32)
    next_value = 0.0 if terminal else float(bootstrap)
    step_reward = float(reward) if terminal else 0.0
    running, next_own = 0.0, 1.0
    for t in range(len(values) - 1, -1, -1):
        weight = 1.0 if between is None else float(between[t])
        delta = weight * (step_reward + gamma * next_value) - float(values[t])
        running = delta + gamma * lam * weight * next_own * running
        advantages[t] = running
        next_value, step_reward = float(values[t]), 0.0
        next_own = 1.0 if own is None else float(own[t])
    weighed = advantages if own is None else np.asarray(own, dtype=np.float32) * advantages
    return advantages, np.asarray(values, dtype=np.float32) + weighed


def ppo_loss(
    new_log_prob: torch.Tensor,
    old_log_prob: torch.Tensor,
    advantages: torch.Tensor,
    new_values: torch.Tensor,
    returns: torch.Tensor,
    entropy: torch.Tensor,
    clip_range: float,
    vf_coef: float,
    ent_coef: float,
    weights: torch.Tensor | None = None,
    importance: torch.Tensor | None = None,
    value_weights: torch.Tensor | None = None,
    policy_loss: torch.Tensor | None = None,
) -> tuple[torch.Tensor, dict[str, float]]:
    """PPO's clipped surrogate + ``vf_coef`` x value MSE / 2 - ``ent_coef`` x entropy, and its parts.
    ``weights``: each row's weight in the surrogate and the entropy (the value's loss stays unweighted).
    ``importance``: each row's behaviour-to-policy weight on its surrogate alone (decoupled PPO, Hilton et al.
    2022: ``old_log_prob`` is then the rollout's policy, which the clip keeps the step near, not the behaviour).
    ``value_weights``: each row's weight in the value's loss.  ``policy_loss``: the policy's term computed
    elsewhere (``all_actions_loss``), in place of the sampled move's surrogate (the ratio's statistics stay the
    sampled move's)."""
    log_ratio = new_log_prob - old_log_prob
    ratio = log_ratio.exp()
    weight = 1.0 if weights is None else weights
    surrogate = torch.max(-advantages * ratio, -advantages * ratio.clamp(1 - clip_range, 1 + clip_range))
    if importance is not None:
        surrogate = importance * surrogate
    if policy_loss is None:
        policy_loss = (weight * surrogate).mean()
    value_loss = 0.5 * ((1.0 if value_weights is None else value_weights) * (new_values - returns).pow(2)).mean()
    loss = policy_loss + vf_coef * value_loss - ent_coef * (weight * entropy).mean()
    with torch.no_grad():
        stats = {
            "policy_loss": float(policy_loss),
            "value_loss": float(value_loss),
            "entropy": float(entropy.mean()),
            "approx_kl": float(((ratio - 1) - log_ratio).mean()),
            "clip_fraction": float(((ratio - 1).abs() > clip_range).float().mean()),
        }
    return loss, stats


def reverse_kl(
    log_probs: torch.Tensor, reference: torch.Tensor, mask: torch.Tensor, weights: torch.Tensor | None = None
) -> torch.Tensor:
    """The mean over rows of KL(policy || reference), summed exactly over each row's legal actions (MMD's
    terms: the reference is the rollout's policy, or the magnet), each row times its weight when given."""
    probs = log_probs.exp()
    gap = torch.where(mask, log_probs - reference, torch.zeros_like(log_probs))
    return ((1.0 if weights is None else weights) * (probs * gap).sum(-1)).mean()


@contextlib.contextmanager
def rare_collections(threshold: int = 100_000) -> Iterator[None]:
    """Python's cyclic garbage collector run every ``threshold`` allocations, not 700, and blind to the objects
    alive at the start.  A rollout allocates millions of short-lived objects that form almost no cycles, and the
    collector's passes over the trainer's hundreds of thousands of long-lived ones were a sixth of collecting
    a classic 2 x 1 rollout."""
    before = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(threshold, *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()


def distinct_rows(obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(first, inverse)``: the index of each distinct row's first occurrence in ``obs``, and each row's index
    among those, so that ``obs[first][inverse]`` is ``obs``.  Rows are keyed by two random projections (sorting
    the rows themselves costs more than the update saves on wide observations), then checked bit for bit; a
    collision, vanishingly rare, falls back to sorting the rows."""
    obs = np.ascontiguousarray(obs, dtype=np.float32)
    projection = np.random.default_rng(0).standard_normal((obs.shape[1], 2)).astype(np.float32)
    key = np.ascontiguousarray(obs @ projection).view(np.int64).ravel()
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    inverse = inverse.ravel()
    chunk = 4096
    if any(
        not np.array_equal(obs[first[inverse[i : i + chunk]]], obs[i : i + chunk]) for i in range(0, len(obs), chunk)
    ):
        rows = obs.view(np.dtype((np.void, obs.dtype.itemsize * obs.shape[1]))).ravel()
        _, first, inverse = np.unique(rows, return_index=True, return_inverse=True)
    return first, inverse.ravel()


def state_balance(obs: np.ndarray, power: float) -> np.ndarray:
    """Each row's weight (its observation's count among the rows) ** -``power``, scaled to a mean of 1.  An
    observation is an information state, so the rows of one state share one weight, and the mix over the hidden
    cards within it (the belief the state's value rests on) stays as play made it."""
    if power == 0:
        return np.ones(len(obs), dtype=np.float32)
    _, inverse = distinct_rows(obs)
    weights = np.bincount(inverse)[inverse].astype(np.float64) ** -power
    return (weights / weights.mean()).astype(np.float32)


@torch.no_grad()
def trail(magnet: nn.Module, net: nn.Module, rate: float) -> None:
    """Move the magnet's weights ``rate`` of the way to the network's (a trailing magnet: MMD converges to the
    magnet's regularised equilibrium, and a magnet that follows the iterates leads it toward a Nash one)."""
    for kept, now in zip(magnet.parameters(), net.parameters(), strict=True):
        kept.lerp_(now, rate)


def explained_variance(predicted: np.ndarray, target: np.ndarray) -> float:
    var = float(np.var(target))
    return float("nan") if var == 0 else 1.0 - float(np.var(target - predicted)) / var


# -- the network --------------------------------------------------------------------
def frozen(net: ActorCritic) -> ActorCritic:
    """A snapshot of the learner that only acts."""
    return copy.deepcopy(net).requires_grad_(False)


CRITICS = ("own", "state", "q")


class StateCritic(nn.Module):
    """``--critic state``'s value network: the value of a whole position, read from every seat's observation
    (``position``).  It is a baseline for the policy gradient and a bootstrap for GAE, never an input of the
    policy, so what it knows of the hidden dice or cards biases nothing the policy does: a baseline that depends
    on the position and not on the action taken leaves the gradient's expectation as it was.

    With ``actions`` (``--critic q``) it also values each action id from the position (``action_values``): the
    acting seat's return after that move, the same position's value for every move, so a move never sampled
    there is valued from the moves that were, and from positions like it."""

    def __init__(self, state_size: int, widths: list[int], activation: str, actions: int = 0) -> None:
        super().__init__()
        self.body = mlp(state_size, widths, activation)
        self.head = layer(widths[-1] if widths else state_size, 1, 1.0)
        self.q_head = layer(widths[-1] if widths else state_size, actions, 1.0) if actions else None

    def forward(self, states: torch.Tensor) -> torch.Tensor:
        return self.head(self.body(states)).squeeze(-1)

    def both(self, states: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(the position's value (B,), every action id's value (B, actions))."""
        if self.q_head is None:
            raise ValueError("this critic values positions only (--critic state, not q)")
        hidden = self.body(states)
        return self.head(hidden).squeeze(-1), self.q_head(hidden)


def centred(values: torch.Tensor, mask: torch.Tensor, log_probs: torch.Tensor) -> torch.Tensor:
    """Each legal move's value less the policy's mean of them (``log_probs``); zero where illegal."""
    mean = torch.where(mask, log_probs.exp() * values, torch.zeros_like(values)).sum(-1, keepdim=True)
    return torch.where(mask, values - mean, torch.zeros_like(values))


def all_actions_loss(
    log_probs: torch.Tensor,
    old_log_probs: torch.Tensor,
    action_advantages: torch.Tensor,
    mask: torch.Tensor,
    clip_range: float,
    weights: torch.Tensor | None = None,
) -> torch.Tensor:
    """PPO's clipped surrogate over every legal move of each row at once, each weighed by the rollout policy's
    chance of it: the expectation over the move of what ``ppo_loss`` samples (the tabular control's exact step, with
    a critic's advantages in place of the true ones).  ``action_advantages``: each move's value less the rollout
    policy's mean value there."""
    old = torch.where(mask, old_log_probs, torch.zeros_like(old_log_probs))
    ratio = torch.where(mask, (log_probs - old).exp(), torch.zeros_like(log_probs))
    clipped = ratio.clamp(1 - clip_range, 1 + clip_range)
    surrogate = torch.max(-action_advantages * ratio, -action_advantages * clipped)
    per_row = torch.where(mask, old.exp() * surrogate, torch.zeros_like(surrogate)).sum(-1)
    return ((1.0 if weights is None else weights) * per_row).mean()


def position(env: Any, seat: int, players: int, own: np.ndarray | None = None) -> np.ndarray:
    """Every seat's observation, from ``seat`` round the table, zeros for the seats a smaller table lacks: the
    whole position as ``seat`` would see it with every hand turned up.  ``own``: ``seat``'s observation, where the
    caller has it already."""
    agents = env.possible_agents
    rows = [env.observe(agents[(seat + k) % len(agents)])["observation"] for k in range(1, len(agents))]
    rows.insert(0, env.observe(agents[seat])["observation"] if own is None else own)
    size = len(rows[0])
    out = np.zeros(players * size, dtype=np.float32)
    out[: len(rows) * size] = np.concatenate(rows)
    return out


def start_from(net: ActorCritic, path: Path, config: BatchedConfig) -> None:
    """Copy checkpoint ``path``'s network (either checkpoint format) into ``net`` (a new run's); a different env,
    layout or size is an error naming the difference."""
    donor, meta, _ = load_network(path, config.env)
    if (meta.get("env_options") or {}) != dict(config.env_options):
        raise ValueError(
            f"--init {path}: trained with env options {meta.get('env_options') or {}}, "
            f"this run has {config.env_options}"
        )
    if donor.sizes != net.sizes:
        differ = [f"{k} {v} (this run: {net.sizes[k]})" for k, v in donor.sizes.items() if v != net.sizes[k]]
        raise ValueError(
            f"--init {path}: its network differs from this run's (--trunk {config.trunk}, --net-arch "
            f"{config.net_arch}) in {', '.join(differ)}"
        )
    net.load_state_dict(donor.state_dict())


def table_sizes(config: BatchedConfig, default: int) -> list[int]:
    """The table sizes games draw from, uniformly (``--players``: one size or a list; repeats weight a size)."""
    if config.players is None:
        return [default]
    sizes = [config.players] if isinstance(config.players, int) else list(config.players)
    if not sizes:
        raise ValueError("--players lists no table size")
    return sorted(sizes)


# -- the rollout ---------------------------------------------------------------------
class Rollout:
    """Preallocated learner decisions of one rollout (room for one step of every game past the target)."""

    def __init__(self, capacity: int, obs_size: int, n_actions: int, state_size: int = 0) -> None:
        self.obs = np.zeros((capacity, obs_size), dtype=np.float32)
        self.state = np.zeros((capacity, state_size), dtype=np.float32)  # --critic state's input
        self.mask = np.zeros((capacity, n_actions), dtype=bool)
        self.actions = np.zeros(capacity, dtype=np.int64)
        self.teacher = np.zeros(capacity, dtype=np.int64)  # the teacher's choice (imitation), when there is one
        self.log_probs = np.zeros(capacity, dtype=np.float32)
        self.values = np.zeros(capacity, dtype=np.float32)
        self.advantages = np.zeros(capacity, dtype=np.float32)
        self.returns = np.zeros(capacity, dtype=np.float32)
        # --explore-correction importance: the policy's over the mix's chance of the row's move, and of the other
        # seats' moves until the seat's next decision
        self.own_ratio = np.ones(capacity, dtype=np.float32)
        self.between_ratio = np.ones(capacity, dtype=np.float32)
        # the same product over the other seats' moves from the game's start to the row's decision: what the mix
        # over their hidden cards at the row's state is reweighed by
        self.prefix_ratio = np.ones(capacity, dtype=np.float32)
        self.count = 0


@dataclass
class Table:
    """One game in progress: its env (one per table size), who sits where, and each learner seat's open
    decision sequence."""

    envs: dict[int, Any]
    env: Any = None
    seats: list[str] = field(default_factory=list)  # LEARNER or a league entry's name
    players: list[Any] = field(default_factory=list)  # each seat's baseline agent (None: a network's seat)
    # the snapshots seated here, held for the whole game: one may leave the league's pool before the game ends
    snapshots: dict[str, Any] = field(default_factory=dict)
    steps: int = 0
    segments: list[list[int]] = field(default_factory=list)  # rollout rows of each seat's decisions
    # each seat's product of the other learner seats' ratios since its last decision, and since the game's
    # start (--explore-correction)
    pending: list[float] = field(default_factory=list)
    history: list[float] = field(default_factory=list)


class BatchedTrainer:
    """One run (see the module docstring): ``run()`` trains to ``total_steps`` and returns the final zip."""

    def __init__(self, config: BatchedConfig, resume: bool = False, progress_bar: bool = True) -> None:
        if not 0.0 <= config.explore < 1.0:
            raise ValueError(f"explore must be in [0, 1), not {config.explore}")
        if not 0.0 <= config.explore_power < 1.0:
            raise ValueError(f"explore_power must be in [0, 1), not {config.explore_power}")
        if config.explore_correction not in ("none", "importance"):
            raise ValueError(f"explore_correction must be none or importance, not {config.explore_correction!r}")
        if config.explore_correction == "importance" and config.explore == 0:
            raise ValueError("explore_correction=importance reweighs exploring moves: it needs explore > 0")
        if not 0.0 <= config.pool_fraction < 1.0:
            raise ValueError(f"pool_fraction must be in [0, 1), not {config.pool_fraction}")
        if config.critic not in CRITICS:
            raise ValueError(f"critic must be one of {', '.join(CRITICS)}, not {config.critic!r}")
        if config.q_residual and config.critic != "q":
            raise ValueError(f"q_residual corrects --critic q's move values; --critic is {config.critic!r}")
        if config.learner_seats not in ("any", "one"):
            raise ValueError(f"learner_seats must be any or one, not {config.learner_seats!r}")
        if config.learner_seats == "one" and not config.opponents and config.pool_max <= 0:
            raise ValueError("learner_seats=one needs opponents for the other seats: --opponents or pool_max > 0")
        if config.pool_fraction > 0 and not config.opponents and config.pool_max <= 0:
            raise ValueError("pool_fraction > 0 needs pool opponents: --opponents or pool_max > 0")
        for name in ("total_steps", "num_games", "rollout_steps", "minibatch_size", "n_epochs", "checkpoint_every"):
            if getattr(config, name) < 1:
                raise ValueError(f"{name} must be positive, not {getattr(config, name)}")
        if not 0.0 < config.magnet_frozen_after <= 1.0:
            share = config.magnet_frozen_after
            raise ValueError(f"magnet_frozen_after is a share of total_steps in (0, 1], not {share}")
        if config.average_from is not None and not 0.0 <= config.average_from < 1.0:
            raise ValueError(f"average_from is a share of total_steps in [0, 1), not {config.average_from}")
        if config.magnet_source not in ("network", "average"):
            raise ValueError(f"magnet_source is network or average, not {config.magnet_source!r}")
        if config.magnet_source == "average" and (config.average_from is None or config.magnet_coef <= 0):
            raise ValueError("magnet_source=average needs a magnet (magnet_coef > 0) and a mean (average_from)")
        if config.exact and (
            config.env != "liars_dice_v0" or {"preset", "observation", "specials"} & set(config.env_options)
        ):
            raise ValueError(
                f"exact teaches liars_dice_v0's 2 players x 1 die in the default rules and observation, not "
                f"{config.env} with {config.env_options}"
            )
        for key, values in config.draw_options.items():
            if not isinstance(values, list) or not values:
                raise ValueError(f"draw_options {key}: a non-empty list of values to draw from, not {values!r}")
        self.config = config
        self.progress_bar = progress_bar
        game = envs.game(config.env, **config.env_options)
        self.sizes = table_sizes(config, game.default_players)
        self.num_players = max(self.sizes)  # the evaluations' table size
        self.out = Path(config.out or f"runs/{config.env}-batched")
        self.core = Run(config, self.out, PROGRESS_COLUMNS, self.num_players, resume)
        torch.set_num_threads(config.torch_threads)
        self.league = League.of_specs(
            config.opponents,
            config.env,
            config.seed,
            pool_max=config.pool_max,
            pfsp_power=config.pfsp_power,
            baseline_share=config.baseline_share,
        )
        self.teacher = None
        if config.imitate:
            self.teacher = agent_lib.make(config.imitate, env_name=config.env, seed=config.seed + 7)
            if getattr(self.teacher, "needs_env", False):
                raise ValueError(f"--imitate {config.imitate}: the teacher must play from observations alone")
        self.tables = [
            Table(
                {
                    n: envs.make(
                        config.env, raw=True, num_players=n, reward_mode=config.reward_mode, **config.env_options
                    )
                    for n in set(self.sizes)
                }
            )
            for _ in range(config.num_games)
        ]
        torch.manual_seed(config.seed)  # the network's first weights
        self.net = ActorCritic(game.observation_size, game.codec.n, config.trunk, config.net_arch, config.activation)
        self.magnet = frozen(self.net) if config.magnet_coef > 0 else None  # starts near uniform, then trails
        self.corrected = config.explore_correction == "importance"
        self.critic = self.critic_optimizer = None
        if config.critic in ("state", "q"):
            self.critic = StateCritic(
                self.num_players * game.observation_size,
                config.critic_arch,
                config.activation,
                game.codec.n if config.critic == "q" else 0,
            )
            self.critic_optimizer = torch.optim.Adam(self.critic.parameters(), lr=config.learning_rate, eps=1e-5)
        self.average: ActorCritic | None = None  # the mean of the weights since average_from (see average_step)
        self.averaged = 0  # updates in that mean
        self.exploitability_cpu = self.cpu_before = 0.0
        self.updates = 0  # since the run began (the magnet's refresh counts them)
        self.cpu_started = time.process_time()
        optimizer_state = None
        if self.core.resumed is not None:
            path, meta = self.core.resumed
            saved, _, optimizer_state = load_network(path, config.env)
            self.net.load_state_dict(saved.state_dict())
            self.league.restore(meta.get("league", {}), self._snapshot, up_to_step=self.steps)
            own = load_trainer_state(path) or {}
            if self.magnet is not None:
                if "magnet" not in own:
                    raise FileNotFoundError(f"--resume: {path.name} holds no magnet for --magnet-coef")
                self.magnet.load_state_dict(own["magnet"])
            if self.critic is not None:
                if "critic" not in own:
                    raise FileNotFoundError(f"--resume: {path.name} holds no critic for --critic {config.critic}")
                try:
                    self.critic.load_state_dict(own["critic"])
                except RuntimeError as error:
                    raise ValueError(
                        f"--resume: {path.name}'s critic does not fit --critic {config.critic} "
                        f"--critic-arch {','.join(map(str, config.critic_arch))}: {error}"
                    ) from None
                self.critic_optimizer.load_state_dict(own["critic_optimizer"])
            if "average" in own:
                self.average = frozen(self.net)
                self.average.load_state_dict(own["average"])
                self.averaged = int(own["averaged"])
            self.cpu_before = float(own.get("cpu_s", 0.0))
            self.updates = int(own.get("updates", 0))
        elif config.init:
            start_from(self.net, Path(config.init), config)
            if self.magnet is not None:
                self.magnet.load_state_dict(self.net.state_dict())
        self.core.open()
        self.exploits = self.average_log = None
        self.exact = None  # the exact teacher's rows as tensors, over the action ids legal in some row
        if config.exploitability or config.exact:
            from bidbluff.training.exploitability import ExploitabilityProbe

            if config.exact:  # measured where it is taught, whatever tables the games are at
                self.probe = ExploitabilityProbe(config.env, [2], {"dice": 1})
                teacher = agent_lib.make(config.exact, env_name=config.env, seed=config.seed + 11)
                taught = self.probe.taught(teacher, game.codec.n)
                columns = np.flatnonzero(taught.masks.any(0))
                targets = taught.targets[:, columns]
                self.exact = {
                    "obs": torch.from_numpy(taught.obs),
                    "masks": torch.from_numpy(taught.masks[:, columns]),
                    "targets": torch.from_numpy(targets),
                    "weights": torch.from_numpy(taught.weights),
                    "columns": torch.from_numpy(columns),
                    # each row's sum of t log t: the KL's part that the network does not move, computed once
                    "own": torch.from_numpy((targets * np.log(np.where(targets > 0, targets, 1.0))).sum(1)),
                }
            else:
                self.probe = ExploitabilityProbe(config.env, self.sizes, config.env_options)
            self.exploits = CsvLog(
                self.out / "exploitability.csv", EXPLOITABILITY_COLUMNS, up_to_step=self.steps if resume else None
            )
            if config.average_from is not None:
                columns = [*EXPLOITABILITY_COLUMNS, "updates_averaged"]
                self.average_log = CsvLog(self.out / "average.csv", columns, up_to_step=self.steps if resume else None)
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=config.learning_rate, eps=1e-5)
        if optimizer_state is not None:
            self.optimizer.load_state_dict(optimizer_state)
        self.rng = np.random.default_rng([config.seed, self.steps])
        self.torch_rng = torch.Generator().manual_seed(int(self.rng.integers(2**62)))
        torch.manual_seed(int(self.rng.integers(2**62)))
        self.rollout = Rollout(
            config.rollout_steps + config.num_games,
            game.observation_size,
            game.codec.n,
            self.num_players * game.observation_size if self.critic is not None else 0,
        )
        self.episodes = 0
        self.recent: list[dict[str, float]] = []  # finished games of this rollout
        self.timers = {"env": 0.0, "inference": 0.0, "teacher": 0.0, "update": 0.0}
        self.truncated = 0
        self.writer = None
        self.stop = self.core.stop  # set by SIGINT / SIGTERM while run() runs

    @property
    def steps(self) -> int:
        """Learner decisions trained on (the run's step)."""
        return self.core.steps

    @steps.setter
    def steps(self, value: int) -> None:
        self.core.steps = value

    # -- games ------------------------------------------------------------------------------
    def _snapshot(self, path: Path, steps: int) -> ActorCritic:
        """A snapshot's player: its checkpoint's network, frozen."""
        return load_network(path, self.config.env)[0]

    def _start(self, table: Table) -> None:
        n = self.sizes[int(self.rng.integers(len(self.sizes)))] if len(self.sizes) > 1 else self.sizes[0]
        table.env = table.envs[n]
        if self.config.learner_seats == "one":
            seats = [self.league.draw(self.rng) for _ in range(n)]
            seats[int(self.rng.integers(n))] = LEARNER
        else:
            seats = seat_table(self.rng, n, self.config.pool_fraction, lambda: self.league.draw(self.rng))
        table.seats, table.steps, table.segments = seats, 0, [[] for _ in range(n)]
        table.pending, table.history = [1.0] * n, [1.0] * n
        table.players = [self.league.baselines.get(s) for s in seats]
        table.snapshots = {s: self.league.player(s) for s in set(seats) - {LEARNER} if s not in self.league.baselines}
        # a table's env is seeded at its first game and its stream deals the rest: seeding every game's deal (a
        # generator built from a seed sequence) cost a third of starting a game on a small table
        seed = int(self.rng.integers(2**31 - 1)) if table.env.game_state is None else None
        # no draw without draw_options: a run without them keeps its stream of deals
        drawn = {key: values[int(self.rng.integers(len(values)))] for key, values in self.config.draw_options.items()}
        table.env.reset(seed=seed, options=drawn or None)
        bind_all([p for p in table.players if p is not None], table.env)

    def _finish(self, table: Table, truncated: bool) -> None:
        env = table.env
        rewards = [0.0 if truncated else float(env.rewards[a]) for a in env.possible_agents]
        for seat, rows in enumerate(table.segments):
            if rows:
                self._close_segment(table, seat, rewards[seat], terminal=True, bootstrap=0.0)
        result = outcome(list(env.game_state.scores()), table.seats)
        for who, score in result.against:
            self.league.record(who, score)
        self.episodes += 1
        self.truncated += truncated
        learners = table.seats.count(LEARNER)
        self.recent.append({"length": table.steps, "learner_won": result.learner_won, "learner_seats": learners})
        self._start(table)

    def _advance(self, table: Table) -> str:
        """Play baseline seats and finish games until a network must act; returns who (LEARNER or a snapshot)."""
        while True:
            table.steps = play_baselines(table.env, table.players, table.steps, self.config.max_game_steps)
            if game_over(table.env) or table.steps >= self.config.max_game_steps:
                self._finish(table, truncated=not game_over(table.env))
                continue
            return table.seats[seat_of(table.env.agent_selection)]

    def _close_segment(self, table: Table, seat: int, reward: float, terminal: bool, bootstrap: float) -> None:
        """GAE over ``seat``'s open decisions at ``table``; with ratios, the other seats' product since its last
        decision closes on that decision first."""
        r, c = self.rollout, self.config
        rows = table.segments[seat]
        ratios = None, None
        if self.corrected:
            r.between_ratio[rows[-1]] = table.pending[seat]
            table.pending[seat] = 1.0
            ratios = r.own_ratio[rows], r.between_ratio[rows]
        adv, ret = segment_gae(r.values[rows], reward, terminal, bootstrap, c.gamma, c.gae_lambda, *ratios)
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
            if self.stop:
                return  # the run saves what was trained; this rollout is dropped
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
            if who == LEARNER and self.critic is not None:
                r.state[r.count + j] = position(env, seat_of(env.agent_selection), self.num_players, obs[j])
            if label:
                started = time.perf_counter()
                r.teacher[r.count + j] = self.teacher.act(seen, env.agent_selection)
                self.timers["teacher"] += time.perf_counter() - started
        net = self.net if who == LEARNER else self.tables[members[0]].snapshots[who]
        columns = np.flatnonzero(mask.any(0))
        with torch.no_grad():
            step = net.get_action_and_value(
                torch.from_numpy(obs),
                torch.from_numpy(mask[:, columns]),
                generator=self.torch_rng,
                columns=torch.from_numpy(columns),
            )
        chosen, log_prob = step.action, step.log_prob
        if who == LEARNER and self.config.explore > 0:
            chosen, log_prob = self._explore(step.log_probs, torch.from_numpy(mask[:, columns]))
            if self.corrected:  # the rollout's policy is what the clip is centred on; its ratio to the mix weighs
                policy_log_prob = step.log_probs.gather(1, chosen[:, None]).squeeze(1)
                own = (policy_log_prob - log_prob).exp().numpy()
                r.own_ratio[rows] = own
                self._pass_ratios(members, own, r.count)
                log_prob = policy_log_prob
        actions_np = columns[chosen.numpy()]
        if who == LEARNER:
            r.actions[rows] = actions_np
            r.log_probs[rows] = log_prob.numpy()
            if self.critic is None:
                r.values[rows] = step.value.numpy()
            else:
                with torch.no_grad():
                    r.values[rows] = self.critic(torch.from_numpy(r.state[rows])).numpy()
            for j, i in enumerate(members):
                table = self.tables[i]
                table.segments[seat_of(table.env.agent_selection)].append(r.count + j)
            r.count += k
        return list(zip(members, actions_np.tolist(), strict=True))

    def _pass_ratios(self, members: list[int], own: np.ndarray, first_row: int) -> None:
        """Close each acting seat's ratio product on its previous decision, give its new row (``first_row`` + j)
        the product since the game's start, and put this move's ratio on every other seat's products (called
        before the rows are appended: a segment's last row is the seat's previous one)."""
        r = self.rollout
        for j, i in enumerate(members):
            table = self.tables[i]
            seat = seat_of(table.env.agent_selection)
            if table.segments[seat]:
                r.between_ratio[table.segments[seat][-1]] = table.pending[seat]
            table.pending[seat] = 1.0
            r.prefix_ratio[first_row + j] = table.history[seat]
            for other in range(len(table.pending)):
                if other != seat:
                    table.pending[other] *= float(own[j])
                    table.history[other] *= float(own[j])

    def _explore(self, log_probs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """A move from the mix of the policy and the policy ** ``explore_power`` over the legal moves, normalised
        (``explore`` of it; power 0: the uniform), and its log-probability under that mix."""
        flat = torch.where(mask, self.config.explore_power * log_probs, torch.full_like(log_probs, -torch.inf))
        mix = (1 - self.config.explore) * log_probs.exp() + self.config.explore * torch.softmax(flat, dim=-1)
        chosen = torch.multinomial(mix, 1, generator=self.torch_rng).squeeze(1)
        return chosen, mix.gather(1, chosen[:, None]).squeeze(1).log()

    def _bootstrap_open_segments(self) -> None:
        """Sequences cut by the rollout's end: their value now (each seat's own observation) closes them."""
        open_ = [(table, seat) for table in self.tables for seat, rows in enumerate(table.segments) if rows]
        if not open_:
            return
        with torch.no_grad():
            if self.critic is None:
                obs = np.stack([t.env.observe(t.env.possible_agents[s])["observation"] for t, s in open_])
                values = self.net.value(torch.from_numpy(obs))
            else:
                states = np.stack([position(t.env, s, self.num_players) for t, s in open_])
                values = self.critic(torch.from_numpy(states))
        for (table, seat), value in zip(open_, values.tolist(), strict=True):
            self._close_segment(table, seat, 0.0, terminal=False, bootstrap=value)

    # -- learning ---------------------------------------------------------------------------
    def update(self) -> dict[str, float]:
        c, r = self.config, self.rollout
        n = r.count
        # the update reads only the action ids legal somewhere in the rollout (see get_action_and_value)
        columns = np.flatnonzero(r.mask[:n].any(0))
        within = np.full(r.mask.shape[1], -1, dtype=np.int64)
        within[columns] = np.arange(len(columns))
        mask, actions = torch.from_numpy(r.mask[:n, columns]), torch.from_numpy(within[r.actions[:n]])
        # the policy is computed once per distinct observation and mask: a small game's rollout is mostly repeats
        first, inverse = distinct_rows(np.concatenate([r.obs[:n], r.mask[:n, columns]], axis=1, dtype=np.float32))
        seen_obs, seen_mask = torch.from_numpy(r.obs[first]), mask[torch.from_numpy(first)]
        where = torch.from_numpy(inverse)
        columns_t, old_log_probs = torch.from_numpy(columns), torch.from_numpy(r.log_probs[:n])
        advantages, returns = torch.from_numpy(r.advantages[:n]), torch.from_numpy(r.returns[:n])
        states, ids = torch.from_numpy(r.state[:n]), torch.from_numpy(r.actions[:n])
        # the surrogate's weight: the move's own ratio, and the other seats' ratios up to its state (their hidden
        # cards there are weighed as the policy would have them); the values' weight: the latter alone
        prefix = torch.from_numpy(r.prefix_ratio[:n]) if self.corrected else None
        importance = torch.from_numpy(r.own_ratio[:n]) * prefix if self.corrected else None
        balance = torch.from_numpy(state_balance(r.obs[:n], c.state_balance)) if c.state_balance else None
        imitation = self.imitation_weight() if self.teacher is not None else 0.0
        teacher = torch.from_numpy(within[r.teacher[:n]])  # a legal action: among the columns
        learning_rate = self.learning_rate()
        for optimizer in [o for o in (self.optimizer, self.critic_optimizer) if o is not None]:
            for group in optimizer.param_groups:
                group["lr"] = learning_rate
        ent_coef = self.entropy_coefficient()
        q_critic = c.critic == "q"
        with torch.no_grad():  # the policies the update is kept near: the rollout's, and the magnet
            need_rollout = c.kl_coef > 0 or q_critic
            rollout_log_probs = (
                self._log_probs(self.net, seen_obs, seen_mask, columns_t)[where] if need_rollout else None
            )
            magnet_log_probs = (
                self._log_probs(self.magnet, seen_obs, seen_mask, columns_t)[where] if self.magnet is not None else None
            )
            action_advantages = None
            if q_critic:
                _, q = self.critic.both(states)
                action_advantages = centred(q[:, columns_t], mask, rollout_log_probs)
                if c.q_residual:
                    advantages = returns - q.gather(1, ids[:, None]).squeeze(1)
        totals: dict[str, float] = {}
        batches = epochs = 0
        for _ in range(c.n_epochs):
            order = torch.randperm(n, generator=self.torch_rng)
            epoch_kl = []
            for start in range(0, n, c.minibatch_size):
                if self.stop:
                    break  # a signal: the weights stay as the last whole minibatch left them
                idx = order[start : start + c.minibatch_size]
                seen, rows = torch.unique(where[idx], return_inverse=True)
                new = self.net.get_action_and_value(
                    seen_obs[seen], seen_mask[seen], actions[idx], columns=columns_t, rows=rows
                )
                adv = advantages[idx]
                weights = balance[idx] if balance is not None else None
                if c.normalize_advantages and len(idx) > 1 and not q_critic:  # q: the critic's units, both terms
                    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                every_move = None  # --critic q: the all-actions step
                if action_advantages is not None:
                    row_weights = prefix[idx] if prefix is not None else None
                    if weights is not None:
                        row_weights = weights if row_weights is None else weights * row_weights
                    every_move = all_actions_loss(
                        new.log_probs, rollout_log_probs[idx], action_advantages[idx], mask[idx], c.clip_range,
                        row_weights,
                    )  # fmt: skip
                # with --q-residual the sampled move's surrogate (on the residual) stays beside the all-actions step
                replaces = every_move is not None and not c.q_residual
                loss, stats = ppo_loss(
                    new.log_prob,
                    old_log_probs[idx],
                    adv,
                    new.value,
                    returns[idx],
                    new.entropy,
                    c.clip_range,
                    c.vf_coef,
                    ent_coef,
                    weights,
                    importance[idx] if importance is not None else None,
                    prefix[idx] if prefix is not None else None,
                    every_move if replaces else None,
                )
                if every_move is not None and not replaces:
                    loss = loss + every_move
                if rollout_log_probs is not None and c.kl_coef > 0:
                    proximal = reverse_kl(new.log_probs, rollout_log_probs[idx], mask[idx], weights)
                    loss = loss + c.kl_coef * proximal
                    stats["kl_rollout"] = float(proximal.detach())
                if magnet_log_probs is not None:
                    pull = reverse_kl(new.log_probs, magnet_log_probs[idx], mask[idx], weights)
                    loss = loss + c.magnet_coef * pull
                    stats["kl_magnet"] = float(pull.detach())
                if self.exact is not None and c.exact_coef > 0:
                    exact_kl = self.exact_divergence(len(idx))
                    loss = loss + c.exact_coef * exact_kl
                    stats["exact_kl"] = float(exact_kl.detach())
                if imitation > 0:
                    cross_entropy = -new.log_probs.gather(1, teacher[idx, None]).mean()
                    loss = loss + imitation * cross_entropy
                    stats["imitation_loss"] = float(cross_entropy.detach())
                    stats["teacher_agreement"] = float((new.log_probs.argmax(-1) == teacher[idx]).float().mean())
                self.optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(self.net.parameters(), c.max_grad_norm)
                self.optimizer.step()
                if self.critic is not None:
                    # no prefix weight: it reads the hidden cards, so its value of a state needs no belief
                    stats["critic_loss"] = self._fit_critic(states[idx], returns[idx], ids[idx] if q_critic else None)
                for key, value in stats.items():
                    totals[key] = totals.get(key, 0.0) + value
                epoch_kl.append(stats["approx_kl"])
                batches += 1
            epochs += 1
            if self.stop or not epoch_kl:
                break
            if c.target_kl is not None and float(np.mean(epoch_kl)) > c.target_kl:
                break  # the policy moved as far from the rollout's as this update may take it
        out = {key: value / max(batches, 1) for key, value in totals.items()}
        self.updates += 1
        self.average_step()
        # a magnet that keeps following a learner whose steps shrink with the learning rate stops pulling: the
        # last stretch is then plain entropy-regularised PPO, which wanders; a frozen magnet keeps one fixed point
        if self.magnet is not None and self.steps < c.magnet_frozen_after * c.total_steps:
            source = self.average if c.magnet_source == "average" and self.average is not None else self.net
            if c.magnet_every > 0:
                if self.updates % c.magnet_every == 0:
                    self.magnet.load_state_dict(source.state_dict())
            else:
                trail(self.magnet, source, c.magnet_rate)
        out["ent_coef"] = ent_coef
        out["explained_variance"] = explained_variance(r.values[:n], r.returns[:n])
        out["imitation_weight"] = imitation
        out["learning_rate"] = learning_rate
        out["epochs"] = epochs
        return out

    def _fit_critic(self, states: torch.Tensor, returns: torch.Tensor, actions: torch.Tensor | None = None) -> float:
        """One step of ``--critic state``'s network toward the returns (its own optimizer: the policy's loss
        does not reach it, nor its loss the policy); with ``actions`` (``--critic q``) the value of the move
        taken as well, toward the same return (the later moves' ratios are in it, so it is the policy's)."""
        if actions is None:
            loss = 0.5 * (self.critic(states) - returns).pow(2).mean()
        else:
            value, q = self.critic.both(states)
            taken = q.gather(1, actions[:, None]).squeeze(1)
            loss = 0.5 * ((value - returns).pow(2) + (taken - returns).pow(2)).mean()
        self.critic_optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(self.critic.parameters(), self.config.max_grad_norm)
        self.critic_optimizer.step()
        return float(loss.detach())

    def exact_divergence(self, size: int) -> torch.Tensor:
        """The exact teacher's KL divergence from the network on ``size`` of its information states drawn
        uniformly, each weighted by its reach weight (``ExploitabilityProbe.taught``)."""
        e = self.exact
        rows = torch.randint(len(e["weights"]), (size,), generator=self.torch_rng)
        out = self.net.get_action_and_value(
            e["obs"][rows], e["masks"][rows], torch.zeros(size, dtype=torch.long), columns=e["columns"]
        )
        per_row = e["own"][rows] - (e["targets"][rows] * out.log_probs.clamp(min=-1e4)).sum(1)
        return (e["weights"][rows] * per_row).mean()

    def average_step(self) -> None:
        """Fold the network's weights after this update into the running mean, once the rollout just trained on
        began at or past ``average_from`` of the run.  Why: through the last half of an equilibrium run the
        iterate wanders around a point it does not settle on (docs/convergence.md); the mean of its weights
        sits nearer that point than any one iterate does."""
        c = self.config
        if c.average_from is None or self.steps < c.average_from * c.total_steps:
            return
        if self.average is None:
            self.average, self.averaged = frozen(self.net), 1
            return
        self.averaged += 1
        with torch.no_grad():
            for mean, now in zip(self.average.state_dict().values(), self.net.state_dict().values(), strict=True):
                mean.lerp_(now, 1.0 / self.averaged)

    def learning_rate(self) -> float:
        """The learning rate of the next update: ``--learning-rate``, annealed linearly to 0 at ``total_steps``
        with ``--anneal-lr``."""
        c = self.config
        if not c.anneal_lr:
            return c.learning_rate
        return c.learning_rate * max(0.0, 1.0 - self.steps / c.total_steps)

    def entropy_coefficient(self) -> float:
        """The entropy coefficient of the next update: ``--ent-coef``, moved linearly to ``--ent-coef-final`` at
        ``total_steps`` when that is given."""
        c = self.config
        if c.ent_coef_final is None:
            return c.ent_coef
        done = min(1.0, self.steps / c.total_steps)
        return c.ent_coef + (c.ent_coef_final - c.ent_coef) * done

    @staticmethod
    def _log_probs(net: ActorCritic, obs: torch.Tensor, mask: torch.Tensor, columns: torch.Tensor) -> torch.Tensor:
        """Every row's log-probabilities over ``columns`` (``mask``: within them)."""
        chunk = 8192
        return torch.cat(
            [
                torch.log_softmax(masked_logits(net.logits(obs[i : i + chunk])[:, columns], mask[i : i + chunk]), -1)
                for i in range(0, len(obs), chunk)
            ]
        )

    def imitation_weight(self) -> float:
        """The weight of the imitation loss now: ``imitate_coef`` falling linearly to 0 at ``imitate_steps``."""
        c = self.config
        if not c.imitate or c.imitate_steps <= 0:
            return 0.0
        return c.imitate_coef * max(0.0, 1.0 - self.steps / c.imitate_steps)

    # -- checkpoints --------------------------------------------------------------------------
    def save(self) -> Path:
        """Evaluate (greedy, against each ``--opponents``), save the checkpoint, add it to the pool."""
        for row in self.core.evaluate(self.net):
            if self.writer is not None:
                self.writer.add_scalar(f"eval/win_share_vs_{row['opponent']}", row["win_share"], self.steps)
        path = self.core.checkpoint_path()
        self.league.add_snapshot(path, self.steps, frozen(self.net))
        meta = self.core.meta("PPO (bidbluff batched self-play)")
        meta.update(
            {"trainer": "batched", "policy": "ActorCritic", "table_sizes": self.sizes, "league": self.league.to_dict()}
        )
        if self.exploits is not None:
            meta["exploitability"] = self.measure_exploitability()
        own: dict[str, Any] = {"cpu_s": self.cpu_seconds(), "updates": self.updates}
        if self.magnet is not None:
            own["magnet"] = self.magnet.state_dict()
        if self.critic is not None:
            own["critic"], own["critic_optimizer"] = self.critic.state_dict(), self.critic_optimizer.state_dict()
        if self.average is not None:
            own["average"], own["averaged"] = self.average.state_dict(), self.averaged
            self.save_average(meta)
        return save_checkpoint(path, self.net, meta, self.optimizer.state_dict(), own)

    def save_average(self, meta: dict[str, Any]) -> Path:
        """``average.zip``: the mean of the weights so far, a network of the run's layout that plays as any
        checkpoint does; measured (``average.csv``) when the run measures its exploitability."""
        start = int(self.config.average_from * self.config.total_steps)
        meta = {**meta, "average": {"updates": self.averaged, "from_step": start}}
        meta.pop("exploitability", None)
        if self.exploits is not None:
            meta["exploitability"] = self.measure_exploitability(self.average)
        return save_checkpoint(self.out / "average.zip", self.average, meta)

    def measure_exploitability(self, average: ActorCritic | None = None) -> dict[str, Any]:
        """The exact exploitability of the network as it samples, now (or of ``average``, the mean of the
        weights); a row of ``exploitability.csv`` (``average.csv``) and a line on the terminal.  Its CPU time
        is left out of the run's ``cpu_s``."""
        started = time.process_time()
        result = self.probe.measure(self.net if average is None else average)
        self.exploitability_cpu += time.process_time() - started
        row = {**self.core.row(), "cpu_s": self.cpu_seconds(), **result}
        if average is None:
            self.exploits.write(row)
            what = "exact exploitability" + (" at 2 x 1" if self.exact is not None else "")
        else:
            self.average_log.write({**row, "updates_averaged": self.averaged})
            what = f"  mean weights of {self.averaged:,} updates:"
        print(
            f"step {self.steps:>10,}  cpu {row['cpu_s']:7.0f}s  {what} {result['exploitability']:.4f}"
            f"  (NashConv {result['nash_conv']:.4f})",
            flush=True,
        )
        return {k: row[k] for k in ("step", "cpu_s", "exploitability", "nash_conv")}

    def cpu_seconds(self) -> float:
        """This process's CPU seconds of training in the run (across resumes), without the exploitability
        measurements: the figure the equilibrium recipe's budget counts."""
        return round(self.cpu_before + time.process_time() - self.cpu_started - self.exploitability_cpu, 2)

    def run(self) -> Path:
        """Train to ``total_steps`` (or the time limit); SIGINT or SIGTERM end the run after the current step or
        minibatch with a checkpoint and ``final.zip``, then raise ``RunInterruptedError``."""
        if tensorboard_available():
            from torch.utils.tensorboard import SummaryWriter

            self.writer = SummaryWriter(str(self.out / "tb"))
        core = self.core
        core.start_clock()
        self.cpu_started, self.exploitability_cpu = time.process_time(), 0.0
        for table in self.tables:
            self._start(table)
        last_saved = None
        c = self.config
        with (
            core.stop,
            rare_collections(),
            RunProgress(c.total_steps, self.steps, c.time_limit, self.progress_bar, c.env) as bar,
        ):
            while core.running():
                self.collect()
                if self.stop:
                    break
                t0 = time.perf_counter()
                stats = self.update()
                self.timers["update"] += time.perf_counter() - t0
                self.steps += self.rollout.count
                self._log(stats)
                bar.update(self.steps)
                if core.checkpoint_due():
                    last_saved = self.save()
            if not core.saved_now(last_saved):
                last_saved = self.save()
            if self.writer is not None:
                self.writer.close()
            return core.finish(last_saved)

    def _log(self, stats: dict[str, float]) -> None:
        spent = sum(self.timers.values()) or 1.0
        games = self.recent
        row = {
            **self.core.row(),
            "cpu_s": self.cpu_seconds(),
            "episodes": self.episodes,
            "truncated": self.truncated,
            "ep_length_mean": float(np.mean([g["length"] for g in games])) if games else "",
            "learner_win_rate": float(np.mean([g["learner_won"] for g in games])) if games else "",
            "env_share": self.timers["env"] / spent,
            "inference_share": self.timers["inference"] / spent,
            "update_share": self.timers["update"] / spent,
            "teacher_share": self.timers["teacher"] / spent,
            **stats,
        }
        self.core.progress.write(row)
        if self.writer is not None:
            for key, value in row.items():
                if key != "step" and isinstance(value, float | int):
                    self.writer.add_scalar(f"train/{key}", value, self.steps)


PROGRESS_COLUMNS = [
    "step", "seconds", "steps_per_s", "episodes", "truncated", "ep_length_mean", "learner_win_rate",
    "policy_loss", "value_loss", "entropy", "approx_kl", "clip_fraction", "explained_variance", "learning_rate",
    "env_share", "inference_share", "teacher_share", "update_share", "imitation_weight", "imitation_loss",
    "teacher_agreement", "epochs", "cpu_s", "ent_coef", "kl_rollout", "kl_magnet", "exact_kl", "critic_loss",
]  # fmt: skip
EXPLOITABILITY_COLUMNS = ["step", "seconds", "cpu_s", "exploitability", "nash_conv", "first_seat_value", "entropy"]


def train_batched(config: BatchedConfig, resume: bool = False, progress_bar: bool = True) -> Path:
    """Run (or resume) a batched self-play run; returns the final checkpoint's zip path."""
    return BatchedTrainer(config, resume=resume, progress_bar=progress_bar).run()
