"""A tabular control for self-play PPO on ``liars_dice_v0`` at 2 players x 1 die: why the deep run does not converge.

The batched trainer (``bidbluff.training.batched``) mixes three things that can each stop the last iterate from
reaching an equilibrium: the algorithm (PPO's update in a zero-sum game), the sampling noise of a finite rollout,
and the network (function approximation over the padded 1,308-value observation).  This module keeps the
algorithm and removes the rest, one at a time:

- ``Tree``: the bridge's game (``bidbluff.envs.liars_dice.openspiel``) walked once into flat arrays (nodes by
  depth, one row per information state: its player, legal bridge actions, a padded action mask).  Exact
  expectations over it are a few vectorised passes: ``evaluate`` (reach probabilities, values, each information
  state's visit probability and on-policy Q values), ``best_response_values`` and ``exploitability`` (cross-checked
  against ``bidbluff.training.exploitability.nash_conv`` in the tests).
- ``TabularControl``: a softmax policy with one logit row per information state and a value table, trained by the
  batched trainer's update: ``ppo_loss`` (imported, not copied), per-seat GAE (``segment_gae``), per-minibatch
  advantage normalisation, Adam with eps 1e-5 and gradient clipping.  ``mode="sampled"`` collects whole self-play
  episodes from the tree (every seat the learner, as the trainer does with ``--pool-fraction 0``) until a rollout
  holds ``rollout_steps`` decisions; ``mode="exact"`` replaces the rollout by its expectation: the loss is the
  on-policy-weighted sum over every information state and action, with the true advantages ``Q - V`` (the ideal
  critic), so there is neither sampling noise nor a learned value; ``mode="closed"`` takes MMD's closed-form step
  at every information state instead of gradient steps (the reference for what the PPO-form losses aim at);
  ``mode="dilated"`` takes MMD's step over the sequence form instead (``dilated_step``), the form its guarantee
  is for.
- The MMD variant (Sokota et al., ICLR 2023, as its deep PPO form in Rudolph et al.'s benchmark): the same loss plus
  ``kl_coef`` x the reverse KL ``KL(pi || magnet)`` at every visited information state, with the entropy bonus.
  The magnet trails the learner in logit space (``magnet_rate``: 1 = the rollout's own policy, the benchmark's
  choice; 0 = the uniform policy, a fixed magnet; between, an exponential average), and the entropy and KL
  coefficients follow a schedule (``Schedule``).
- ``TabularControl.run`` logs every ``eval_every`` updates: exact exploitability of the last iterate (as it samples)
  and of the reach-weighted average of the iterates, on-policy entropy, the KL between successive iterates,
  and per-seat value and advantage statistics.

Run it with ``python -m bidbluff.training.tabular_control --help`` (drivers for the write-up live in
``bench/convergence/``).
"""

from __future__ import annotations

import argparse
import csv
import functools
import math
import time
from collections import deque
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import numpy as np
import pyspiel
import torch
from torch import nn

from bidbluff.envs.liars_dice import openspiel as bridge_module
from bidbluff.training.batched import ppo_loss, segment_gae

CHANCE, DECISION, TERMINAL = 0, 1, 2
MASKED = -1e8


# -- the tree -----------------------------------------------------------------------------------------------
@dataclass
class Tree:
    """The 2-player bridge game as arrays.  Nodes are numbered breadth first, so a node's children are
    contiguous (``first_child .. first_child + n_children``) and ``levels[d]`` holds the nodes at depth ``d``."""

    preset: str
    dice: int
    keys: list[str]  # information state strings (the bridge's, as ``exploitability.game_tree`` names them)
    player: np.ndarray  # (N,) who decides at each information state
    actions: list[list[int]]  # (N, k) legal bridge actions of each information state
    mask: np.ndarray  # (N, A) legal action slots
    kind: np.ndarray  # (M,) CHANCE, DECISION or TERMINAL
    parent: np.ndarray  # (M,) -1 at the root
    slot: np.ndarray  # (M,) the action slot (or chance outcome) that led here from the parent
    edge_prob: np.ndarray  # (M,) the chance probability of the edge into this node (1 after a decision)
    info: np.ndarray  # (M,) information state of a decision node (-1 elsewhere)
    first_child: np.ndarray  # (M,)
    n_children: np.ndarray  # (M,)
    payoff: np.ndarray  # (M,) the first seat's utility at a terminal node (the second's is its negative)
    levels: list[np.ndarray]
    representative: np.ndarray  # (N,) one decision node of each information state
    seconds: float = 0.0

    @property
    def num_infostates(self) -> int:
        return len(self.keys)

    @property
    def num_actions(self) -> int:
        return self.mask.shape[1]

    @property
    def num_nodes(self) -> int:
        return len(self.kind)

    def index(self) -> dict[str, int]:
        return {key: i for i, key in enumerate(self.keys)}


@functools.lru_cache(maxsize=4)
def build_tree(preset: str = "lying_pirates", dice: int = 1) -> Tree:
    """Walk the bridge's 2-player game breadth first (a few seconds at 1 die)."""
    start = time.perf_counter()
    game = bridge_module.load(2, dice, preset)
    kind, parent, slot, edge_prob, info, first_child, n_children, payoff, depth = ([] for _ in range(9))
    keys: list[str] = []
    index: dict[str, int] = {}
    players: list[int] = []
    actions: list[list[int]] = []
    queue: deque[tuple[bridge_module.Position, int]] = deque([(bridge_module.Position(game.setting), 0)])
    parent.append(-1)
    slot.append(0)
    edge_prob.append(1.0)
    depth.append(0)
    node = 0
    while queue:
        position, d = queue.popleft()
        player = position.current_player()
        first_child.append(len(kind) + len(queue) + 1)
        if player == pyspiel.PlayerId.TERMINAL:
            kind.append(TERMINAL)
            info.append(-1)
            scores = position.engine.scores()
            if abs(scores[0] + scores[1]) > 1e-9:
                raise ValueError(f"{game}: not zero-sum at a terminal ({scores})")
            payoff.append(float(scores[0]))
            n_children.append(0)
            node += 1
            continue
        payoff.append(0.0)
        if player == pyspiel.PlayerId.CHANCE:
            kind.append(CHANCE)
            info.append(-1)
            outcomes = position.chance_outcomes()
            moves = [a for a, _ in outcomes]
            probs = [p for _, p in outcomes]
        else:
            kind.append(DECISION)
            key = position.information_state(player)
            i = index.get(key)
            if i is None:
                i = index[key] = len(keys)
                keys.append(key)
                players.append(player)
                actions.append(position.legal_actions())
            info.append(i)
            moves = actions[i]
            probs = [1.0] * len(moves)
        n_children.append(len(moves))
        for s, (a, p) in enumerate(zip(moves, probs, strict=True)):
            child = position.copy()
            child.apply(a)
            queue.append((child, d + 1))
            parent.append(node)
            slot.append(s)
            edge_prob.append(p)
            depth.append(d + 1)
        node += 1
    width = max(len(a) for a in actions)
    mask = np.zeros((len(keys), width), dtype=bool)
    for i, acts in enumerate(actions):
        mask[i, : len(acts)] = True
    depth_arr = np.asarray(depth)
    info_arr = np.asarray(info, dtype=np.int64)
    representative = np.full(len(keys), -1, dtype=np.int64)
    decision_nodes = np.flatnonzero(info_arr >= 0)
    representative[info_arr[decision_nodes[::-1]]] = decision_nodes[::-1]
    same_depth = depth_arr[decision_nodes] == depth_arr[representative[info_arr[decision_nodes]]]
    if not same_depth.all():
        raise ValueError("an information state spans several depths: the level-wise best response needs one")
    tree = Tree(
        preset=preset,
        dice=dice,
        keys=keys,
        player=np.asarray(players, dtype=np.int64),
        actions=actions,
        mask=mask,
        kind=np.asarray(kind, dtype=np.int8),
        parent=np.asarray(parent, dtype=np.int64),
        slot=np.asarray(slot, dtype=np.int64),
        edge_prob=np.asarray(edge_prob, dtype=np.float64),
        info=info_arr,
        first_child=np.asarray(first_child, dtype=np.int64),
        n_children=np.asarray(n_children, dtype=np.int64),
        payoff=np.asarray(payoff, dtype=np.float64),
        levels=[np.flatnonzero(depth_arr == d) for d in range(int(depth_arr.max()) + 1)],
        representative=representative,
    )
    tree.seconds = time.perf_counter() - start
    return tree


def uniform_policy(tree: Tree) -> np.ndarray:
    """Every legal action equally likely: (N, A), zero on padding."""
    return tree.mask / tree.mask.sum(1, keepdims=True)


def policy_dict(tree: Tree, policy: np.ndarray) -> dict[str, np.ndarray]:
    """``policy`` keyed by information state, as ``bidbluff.training.exploitability.nash_conv`` takes it."""
    return {key: policy[i, : len(tree.actions[i])].copy() for i, key in enumerate(tree.keys)}


def policy_array(tree: Tree, policy: dict[str, np.ndarray]) -> np.ndarray:
    out = np.zeros(tree.mask.shape)
    for i, key in enumerate(tree.keys):
        out[i, : len(tree.actions[i])] = policy[key]
    return out


# -- exact expectations -----------------------------------------------------------------------------------------
@dataclass
class Evaluation:
    """One policy's exact quantities over the tree."""

    value: float  # the first seat's expected utility
    visit: np.ndarray  # (N,) probability that the information state is reached in an episode
    own_reach: np.ndarray  # (N,) the acting seat's own reach probability of the information state
    q: np.ndarray  # (N, A) the acting seat's expected utility after each action, given the state is reached
    v: np.ndarray  # (N,) the acting seat's expected utility at the state (sum of pi x q)
    # per node (M,): kept so that drawing positions needs no second pass over the tree
    node_reach: np.ndarray = field(repr=False)  # (2, M) each seat's own reach
    node_chance: np.ndarray = field(repr=False)  # (M,) chance's reach
    node_value: np.ndarray = field(repr=False)  # (M,) the first seat's expected utility

    @property
    def advantages(self) -> np.ndarray:
        return self.q - self.v[:, None]

    @property
    def decisions_per_episode(self) -> float:
        return float(self.visit.sum())


def _edge_weights(tree: Tree, policy: np.ndarray) -> np.ndarray:
    """The probability of the edge into each node: chance odds, or the policy at the parent's state."""
    w = tree.edge_prob.copy()
    has_parent = tree.parent >= 0
    kids = np.flatnonzero(has_parent)
    par = tree.parent[kids]
    decided = tree.kind[par] == DECISION
    w[kids[decided]] = policy[tree.info[par[decided]], tree.slot[kids[decided]]]
    return w


def _reaches(tree: Tree, policy: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(reach of each seat's own choices (2, M), chance reach (M,))."""
    reach = np.ones((2, tree.num_nodes))
    chance = np.ones(tree.num_nodes)
    for level in tree.levels[1:]:
        par = tree.parent[level]
        reach[:, level] = reach[:, par]
        chance[level] = chance[par]
        pk = tree.kind[par]
        dec = pk == DECISION
        who = tree.player[tree.info[par[dec]]]
        reach[who, level[dec]] *= w[level[dec]]
        ch = pk == CHANCE
        chance[level[ch]] *= w[level[ch]]
    return reach, chance


def _values(tree: Tree, w: np.ndarray) -> np.ndarray:
    """The first seat's expected utility at every node."""
    v = tree.payoff.copy()
    for level in reversed(tree.levels[1:]):
        v += np.bincount(tree.parent[level], weights=w[level] * v[level], minlength=tree.num_nodes)
    return v


def evaluate(tree: Tree, policy: np.ndarray) -> Evaluation:
    """Visit probabilities, Q and V at every information state, and the game value, under ``policy``."""
    w = _edge_weights(tree, policy)
    reach, chance = _reaches(tree, policy, w)
    v = _values(tree, w)
    n, a = tree.mask.shape
    kids = np.flatnonzero(tree.parent >= 0)
    par = tree.parent[kids]
    dec = tree.kind[par] == DECISION
    kids, par = kids[dec], par[dec]
    infos = tree.info[par]
    who = tree.player[infos]
    sign = np.where(who == 0, 1.0, -1.0)
    cf = chance[par] * reach[1 - who, par]  # everyone else's share of reaching the parent
    q_sum = np.bincount(infos * a + tree.slot[kids], weights=cf * sign * v[kids], minlength=n * a).reshape(n, a)
    decision_nodes = np.flatnonzero(tree.kind == DECISION)
    di = tree.info[decision_nodes]
    dw = tree.player[di]
    cf_nodes = chance[decision_nodes] * reach[1 - dw, decision_nodes]
    cf_reach = np.bincount(di, weights=cf_nodes, minlength=n)
    own = reach[tree.player, tree.representative]
    q = np.divide(q_sum, cf_reach[:, None], out=np.zeros_like(q_sum), where=cf_reach[:, None] > 0)
    values = (policy * q).sum(1)
    return Evaluation(float(v[0]), own * cf_reach, own, q, values, reach, chance, v)


def regularised(tree: Tree, reg: np.ndarray) -> Tree:
    """The same tree with each information state's regulariser ``reg`` (N,) charged at its decision nodes
    to the seat that decides there: the first seat's utility loses its own states' terms and gains the
    second's, so the game stays zero-sum.  ``evaluate`` on it gives the regularised (soft) values, whose Q
    include every later state's regulariser, as a reward transformation (R-NaD) puts them in the return."""
    decision_nodes = np.flatnonzero(tree.kind == DECISION)
    infos = tree.info[decision_nodes]
    payoff = tree.payoff.copy()
    payoff[decision_nodes] += np.where(tree.player[infos] == 0, -1.0, 1.0) * reg[infos]
    return replace(tree, payoff=payoff)


def best_response_values(tree: Tree, policy: np.ndarray) -> tuple[float, float]:
    """Each seat's expected utility when it best-responds and the other plays ``policy``."""
    w = _edge_weights(tree, policy)
    reach, chance = _reaches(tree, policy, w)
    n, a = tree.mask.shape
    out = []
    for seat in (0, 1):
        sign = 1.0 if seat == 0 else -1.0
        br = sign * tree.payoff.copy()
        cf = chance * reach[1 - seat]
        for level in reversed(tree.levels[1:]):
            par = tree.parent[level]
            pk = tree.kind[par]
            mine = (pk == DECISION) & (tree.player[np.maximum(tree.info[par], 0)] == seat)
            other = ~mine
            br += np.bincount(par[other], weights=w[level[other]] * br[level[other]], minlength=tree.num_nodes)
            kids, kp = level[mine], par[mine]
            if len(kids) == 0:
                continue
            infos = tree.info[kp]
            gain = np.bincount(infos * a + tree.slot[kids], weights=cf[kp] * br[kids], minlength=n * a).reshape(n, a)
            gain = np.where(tree.mask, gain, -np.inf)
            best = gain.argmax(1)
            parents = np.unique(kp)
            br[parents] = br[tree.first_child[parents] + best[tree.info[parents]]]
        out.append(float(br[0]))
    return out[0], out[1]


def exploitability(tree: Tree, policy: np.ndarray) -> float:
    """NashConv / 2 (the two best-response values' mean; the policy's own values cancel in a zero-sum game)."""
    b0, b1 = best_response_values(tree, policy)
    return 0.5 * (b0 + b1)


def masked_log(tree: Tree, policy: np.ndarray) -> np.ndarray:
    """``log policy`` over each state's legal actions (0 on padding; a zero probability stays finite)."""
    return np.log(np.where(tree.mask, np.maximum(policy, 1e-300), 1.0))


def dilated_step(
    tree: Tree, policy: np.ndarray, log_magnet: np.ndarray, eta: float, ent_coef: float, kl_coef: float
) -> np.ndarray:
    """MMD's step over the sequence form with the dilated entropy (Sokota et al.; OpenSpiel's ``mmd_dilated``),
    for both seats at once from ``policy``.  Bottom-up, each information state's new policy is ``softmax(Y / c)``
    with ``Y = eta g + (the values of the seat's next states below each action) + eta kl_coef log magnet +
    log pi_t`` and ``c = 1 + eta (ent_coef + kl_coef)``; its value ``c logsumexp(Y / c)`` joins its parent's
    ``Y``.  ``g`` is the counterfactual payoff: terminals weighed by chance and the other seat's reach, not by
    the state's own.  So a state's regulariser counts with the seat's own reach only, and a state the other
    seat rarely leads to is held near the magnet; the behavioural step (``closed``) weighs both alike."""
    w = _edge_weights(tree, policy)
    reach, chance = _reaches(tree, policy, w)
    n, a = tree.mask.shape
    c = 1.0 + eta * (ent_coef + kl_coef)
    base = np.where(tree.mask, eta * kl_coef * log_magnet + masked_log(tree, policy), -np.inf)
    new = policy.copy()
    for seat in (0, 1):
        sign = 1.0 if seat == 0 else -1.0
        t = np.where(tree.kind == TERMINAL, eta * sign * tree.payoff * chance * reach[1 - seat], 0.0)
        for level in reversed(tree.levels[1:]):
            par = tree.parent[level]
            mine = (tree.kind[par] == DECISION) & (tree.player[np.maximum(tree.info[par], 0)] == seat)
            other = ~mine
            t += np.bincount(par[other], weights=t[level[other]], minlength=tree.num_nodes)
            if not mine.any():
                continue
            infos = tree.info[par[mine]]
            y = np.bincount(infos * a + tree.slot[level[mine]], weights=t[level[mine]], minlength=n * a)
            rows = np.unique(infos)
            y_rows = y.reshape(n, a)[rows] + base[rows]
            top = y_rows.max(1, keepdims=True)
            z = np.exp((y_rows - top) / c)
            total = z.sum(1, keepdims=True)
            new[rows] = z / total
            t[tree.representative[rows]] = (top + c * np.log(total)).ravel()
    return new


def entropy(policy: np.ndarray) -> np.ndarray:
    logp = np.log(np.where(policy > 0, policy, 1.0))
    return -(policy * logp).sum(1)


def kl(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """KL(p || q) per row (q > 0 wherever p > 0)."""
    ratio = np.where(p > 0, p / np.where(q > 0, q, 1.0), 1.0)
    return (p * np.log(ratio)).sum(1)


def observation_table(tree: Tree, compact: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Each information state's env observation (the 1,308 values; ``compact``: only the columns that vary over
    the tree) and the env action id of each of its action slots (0 on padding)."""
    from bidbluff.envs.liars_dice import codec
    from bidbluff.training.exploitability import game_tree

    bridge = game_tree(2, tree.dice, tree.preset)
    obs = np.zeros((tree.num_infostates, codec.OBSERVATION_SIZE), dtype=np.float32)
    ids = np.zeros(tree.mask.shape, dtype=np.int64)
    for i, key in enumerate(tree.keys):
        info = bridge.infostates[key]
        obs[i, list(info.observation[0])] = info.observation[1]
        ids[i, : len(tree.actions[i])] = [bridge.setting.env_action(a) for a in tree.actions[i]]
    if compact:
        obs = obs[:, obs.std(0) > 0]
    return obs, ids


# -- the learner ------------------------------------------------------------------------------------------------
@dataclass
class Schedule:
    """A coefficient over training progress ``f`` in [0, 1]: constant, linear to ``end``, or ``start / sqrt(1 +
    k t)`` (the 1/sqrt(t) decay of MMD's analysis, ``k`` = ``rate`` per update)."""

    start: float
    end: float | None = None
    kind: str = "constant"  # constant | linear | sqrt
    rate: float = 0.0

    def at(self, progress: float, update: int) -> float:
        if self.kind == "linear":
            end = 0.0 if self.end is None else self.end
            return self.start + (end - self.start) * min(max(progress, 0.0), 1.0)
        if self.kind == "sqrt":
            value = self.start / math.sqrt(1.0 + self.rate * update)
            return max(value, self.end or 0.0)
        return self.start

    @classmethod
    def parse(cls, text: str) -> Schedule:
        """``0.1`` | ``linear:0.1:0.0`` | ``sqrt:0.1:0.001:0.01`` (start, rate per update, floor)."""
        parts = text.split(":")
        if len(parts) == 1:
            return cls(float(parts[0]))
        if parts[0] == "linear":
            return cls(float(parts[1]), float(parts[2]) if len(parts) > 2 else 0.0, "linear")
        if parts[0] == "sqrt":
            return cls(float(parts[1]), float(parts[3]) if len(parts) > 3 else 0.0, "sqrt", float(parts[2]))
        raise ValueError(f"a schedule is a number, linear:START:END or sqrt:START:RATE:FLOOR, not {text!r}")


@dataclass
class ControlConfig:
    """One tabular run.  The defaults are the batched trainer's update as the issue configured it."""

    preset: str = "lying_pirates"
    mode: str = "sampled"  # sampled | exact | closed | dilated
    total_steps: int = 3_000_000  # decisions (in exact mode: updates x rollout_steps, for a like-for-like axis)
    rollout_steps: int = 2048
    num_games: int = 64  # games sampled side by side (sampled mode)
    n_epochs: int = 8
    minibatch_size: int = 2048
    learning_rate: float = 2.5e-4
    anneal_lr: bool = True
    optimizer: str = "adam"  # adam | sgd
    gamma: float = 0.99
    gae_lambda: float = 0.95
    clip_range: float = 0.025
    ent_coef: Schedule = field(default_factory=lambda: Schedule(0.1))
    vf_coef: float = 0.0625
    max_grad_norm: float = 0.5
    normalize_advantages: bool = True
    critic: str = "learned"  # learned | exact (sampled mode: GAE bootstraps from the true V of the iterate)
    kl_coef: Schedule = field(default_factory=lambda: Schedule(0.0))
    magnet_rate: float = 1.0  # the magnet's step toward the learner's logits after each update (1: the rollout's)
    magnet_every: int = 0  # > 0: instead, the magnet becomes a copy of the learner every this many updates
    magnet_source: str = "policy"  # what the magnet copies or trails: policy, or average (the average strategy)
    soft_values: bool = False  # exact and closed modes: Q includes the later states' regularisers (``regularised``)
    policy_net: str = ""  # "": the table; "TRUNK:W1,W2": an ActorCritic's policy on each state's env observation
    compact_obs: bool = False  # the network sees only the observation's columns that vary over the tree
    value_learning_rate: float = 0.0  # the value table's (0: learning_rate)
    state_samples: int = 0  # exact mode, > 0: the states weighed by this many on-policy draws, not their visit odds
    sampled_moves: bool = False  # with state_samples: one move drawn per drawn decision, not every move weighed
    hidden_states: bool = False  # with state_samples: the draws are positions (both cups), each stepping on its own
    # advantages given both cups, not on its information state's: the noise of the hidden die alone
    eval_every: int = 10  # updates
    seed: int = 0


@dataclass
class Batch:
    infos: np.ndarray
    slots: np.ndarray
    log_probs: np.ndarray
    values: np.ndarray
    advantages: np.ndarray
    returns: np.ndarray
    seats: np.ndarray
    episodes: int


class TabularControl:
    """A softmax policy table and a value table, trained by the batched trainer's PPO update (or its
    expectation), with MMD's reverse-KL-to-magnet term as an option."""

    def __init__(self, tree: Tree, config: ControlConfig) -> None:
        if config.mode not in ("sampled", "exact", "closed", "dilated"):
            raise ValueError(f"mode must be sampled, exact, closed or dilated, not {config.mode!r}")
        draws = {"sampled_moves": "draws a move at each drawn state", "hidden_states": "draws positions"}
        for name, what in draws.items():
            if getattr(config, name) and not (config.mode == "exact" and config.state_samples > 0):
                raise ValueError(f"{name} {what}: it needs mode exact, state_samples > 0")
        if config.soft_values and config.mode == "sampled":
            raise ValueError("soft_values needs the exact values: mode exact or closed, not sampled")
        if config.mode in ("closed", "dilated") and config.policy_net:
            raise ValueError("the closed-form MMD steps need the table, not a network")
        if config.magnet_source not in ("policy", "average"):
            raise ValueError(f"magnet_source must be policy or average, not {config.magnet_source!r}")
        if config.mode == "dilated" and config.soft_values:
            raise ValueError("the dilated step carries the later states' regularisers itself: no soft_values")
        self.tree, self.config = tree, config
        self.rng = np.random.default_rng(config.seed)
        torch.manual_seed(config.seed)
        n, a = tree.mask.shape
        self.mask = torch.from_numpy(tree.mask)
        self.values = nn.Parameter(torch.zeros(n, dtype=torch.float64))
        self.magnet = torch.zeros(n, a, dtype=torch.float64)  # logits; zeros = the uniform policy
        self.net: nn.Module | None = None
        if config.policy_net:
            from bidbluff.agents.networks import ActorCritic
            from bidbluff.envs.liars_dice import codec

            obs, self.ids = observation_table(tree, config.compact_obs)
            self.obs = torch.from_numpy(obs)
            trunk, _, widths = config.policy_net.partition(":")
            self.net = ActorCritic(obs.shape[1], codec.CODEC.n, int(trunk), [int(w) for w in widths.split(",")])
            self.ids_t = torch.from_numpy(self.ids)
            policy_params = list(self.net.parameters())
        else:
            self.logits = nn.Parameter(torch.zeros(n, a, dtype=torch.float64))
            policy_params = [self.logits]
        self.params = [*policy_params, self.values]
        groups = [
            {"params": policy_params, "lr": config.learning_rate},
            {"params": [self.values], "lr": config.value_learning_rate or config.learning_rate},
        ]
        if config.optimizer == "adam":
            self.optimizer: torch.optim.Optimizer = torch.optim.Adam(groups, lr=config.learning_rate, eps=1e-5)
        elif config.optimizer == "sgd":
            self.optimizer = torch.optim.SGD(groups, lr=config.learning_rate)
        else:
            raise ValueError(f"optimizer must be adam or sgd, not {config.optimizer!r}")
        self.steps = 0
        self.updates = 0
        self.average = np.zeros((n, a))  # sum over iterates of own reach x policy (the average strategy)
        self.width = max(a, int(tree.n_children.max()))
        self.chance_rows = self._chance_rows()
        self._final: dict[int, float] = {}  # the first seat's payoff of each game of the wave being sampled

    # -- the policy ------------------------------------------------------------------------------------
    def logit_rows(self, rows: torch.Tensor | None = None) -> torch.Tensor:
        """The policy's logits over the action slots of ``rows`` (every information state when None)."""
        if self.net is None:
            return self.logits if rows is None else self.logits[rows]
        obs, ids = (self.obs, self.ids_t) if rows is None else (self.obs[rows], self.ids_t[rows])
        return self.net.logits(obs).gather(1, ids).double()

    def log_policy(self, logits: torch.Tensor | None = None, rows: torch.Tensor | None = None) -> torch.Tensor:
        theta = self.logit_rows(rows) if logits is None else logits
        mask = self.mask if rows is None else self.mask[rows]
        return torch.log_softmax(torch.where(mask, theta, torch.full_like(theta, MASKED)), dim=-1)

    def policy(self) -> np.ndarray:
        with torch.no_grad():
            return self.log_policy().exp().numpy() * self.tree.mask

    def magnet_policy(self) -> torch.Tensor:
        return self.log_policy(self.magnet).exp()

    def average_policy(self) -> np.ndarray:
        total = self.average.sum(1, keepdims=True)
        out = np.where(total > 0, self.average / np.where(total > 0, total, 1.0), uniform_policy(self.tree))
        return out

    # -- sampling --------------------------------------------------------------------------------------
    def _chance_rows(self) -> np.ndarray:
        """(M, width) the chance odds of each chance node's children (zeros elsewhere)."""
        t = self.tree
        rows = np.zeros((t.num_nodes, self.width))
        for node in np.flatnonzero(t.kind == CHANCE):
            k = t.n_children[node]
            rows[node, :k] = t.edge_prob[t.first_child[node] : t.first_child[node] + k]
        return rows

    def sample(self, policy: np.ndarray, exact_values: np.ndarray | None = None) -> Batch:
        """Whole self-play episodes (every seat follows ``policy``) until ``rollout_steps`` decisions, with
        per-seat GAE as the batched trainer computes it (``segment_gae``, the reward after a seat's last
        decision)."""
        t, c = self.tree, self.config
        with torch.no_grad():
            table_values = self.values.numpy().copy() if exact_values is None else exact_values
        padded = np.zeros((t.num_infostates, self.width))
        padded[:, : t.num_actions] = policy
        cols: dict[str, list[np.ndarray]] = {k: [] for k in ("infos", "slots", "logp", "values", "adv", "ret", "seat")}
        count = episodes = 0
        while count < c.rollout_steps:
            nodes = np.zeros(c.num_games, dtype=np.int64)
            game_ids = np.arange(c.num_games)
            steps: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # (games, infos, slots) of each decision
            while len(nodes):
                kinds = t.kind[nodes]
                alive = kinds != TERMINAL
                nodes, game_ids, kinds = nodes[alive], game_ids[alive], kinds[alive]
                if not len(nodes):
                    break
                rows = self.chance_rows[nodes].copy()
                dec = kinds == DECISION
                infos = t.info[nodes[dec]]
                rows[dec] = padded[infos]
                u = self.rng.random(len(nodes))[:, None]
                choice = (np.cumsum(rows, 1) < u * rows.sum(1, keepdims=True)).sum(1)
                choice = np.minimum(choice, t.n_children[nodes] - 1)
                steps.append((game_ids[dec], infos, choice[dec]))
                nodes = t.first_child[nodes] + choice
                terminal_now = t.kind[nodes] == TERMINAL
                if terminal_now.any():
                    for g, node in zip(game_ids[terminal_now], nodes[terminal_now], strict=True):
                        self._final[g] = t.payoff[node]
            # per-seat sequences
            per_game: dict[int, list[tuple[int, int]]] = {}
            for games, infos, slots in steps:
                for g, i, s in zip(games.tolist(), infos.tolist(), slots.tolist(), strict=True):
                    per_game.setdefault(g, []).append((i, s))
            for g, decisions in per_game.items():
                final = self._final[g]
                for seat in (0, 1):
                    mine = [(i, s) for i, s in decisions if t.player[i] == seat]
                    if not mine:
                        continue
                    infos = np.array([i for i, _ in mine])
                    slots = np.array([s for _, s in mine])
                    vals = table_values[infos].astype(np.float32)
                    reward = final if seat == 0 else -final
                    adv, ret = segment_gae(vals, reward, True, 0.0, c.gamma, c.gae_lambda)
                    cols["infos"].append(infos)
                    cols["slots"].append(slots)
                    cols["logp"].append(np.log(policy[infos, slots]))
                    cols["values"].append(vals)
                    cols["adv"].append(adv)
                    cols["ret"].append(ret)
                    cols["seat"].append(np.full(len(mine), seat))
                    count += len(mine)
                episodes += 1
        return Batch(
            *(np.concatenate(cols[k]) for k in ("infos", "slots", "logp", "values", "adv", "ret", "seat")),
            episodes=episodes,
        )

    # -- the update ------------------------------------------------------------------------------------
    def learning_rate(self) -> float:
        c = self.config
        return c.learning_rate * max(0.0, 1.0 - self.steps / c.total_steps) if c.anneal_lr else c.learning_rate

    def _regularisers(
        self, log_pi: torch.Tensor, kl_coef: float, rows: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Per-row entropy and reverse KL to the magnet (exact over the row's actions); ``rows``: which
        information states ``log_pi`` holds (all of them when None)."""
        mask = self.mask if rows is None else self.mask[rows]
        pi = log_pi.exp() * mask
        ent = -(pi * torch.where(mask, log_pi, torch.zeros_like(log_pi))).sum(-1)
        if kl_coef == 0.0:
            return ent, torch.zeros_like(ent)
        log_magnet = self.log_policy(self.magnet)
        if rows is not None:
            log_magnet = log_magnet[rows]
        diff = torch.where(mask, log_pi - log_magnet, torch.zeros_like(log_pi))
        return ent, (pi * diff).sum(-1)

    def _step(self, loss: torch.Tensor) -> None:
        self.optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(self.params, self.config.max_grad_norm)
        self.optimizer.step()

    def update_sampled(self, batch: Batch, ent_coef: float, kl_coef: float) -> dict[str, float]:
        c = self.config
        n = len(batch.infos)
        infos = torch.from_numpy(batch.infos)
        slots = torch.from_numpy(batch.slots)
        old = torch.from_numpy(batch.log_probs)
        advantages = torch.from_numpy(batch.advantages).double()
        returns = torch.from_numpy(batch.returns).double()
        gen = torch.Generator().manual_seed(int(self.rng.integers(2**62)))
        stats: dict[str, float] = {}
        for _ in range(c.n_epochs):
            order = torch.randperm(n, generator=gen)
            for start in range(0, n, c.minibatch_size):
                idx = order[start : start + c.minibatch_size]
                rows = infos[idx]
                log_pi = self.log_policy(rows=rows)
                new_log_prob = log_pi.gather(1, slots[idx, None]).squeeze(1)
                adv = advantages[idx]
                if c.normalize_advantages and len(idx) > 1:
                    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                ent_rows, kl_rows = self._regularisers(log_pi, kl_coef, rows)
                loss, stats = ppo_loss(
                    new_log_prob, old[idx].double(), adv, self.values[rows], returns[idx], ent_rows,
                    c.clip_range, c.vf_coef, ent_coef,
                )  # fmt: skip
                if kl_coef:
                    loss = loss + kl_coef * kl_rows.mean()
                    stats["kl_magnet"] = float(kl_rows.mean().detach())
                self._step(loss)
        return stats

    def update_exact(self, ev: Evaluation, policy: np.ndarray, ent_coef: float, kl_coef: float) -> dict[str, float]:
        """The expectation of the sampled loss: each (state, action) weighted by its on-policy frequency.  With
        ``state_samples``, only the states are sampled (a multinomial draw of that many decisions from the visit
        odds) and every action there keeps its exact advantage: the noise of which states a rollout meets, apart
        from the noise of the moves and returns it sees there.  With ``sampled_moves`` as well, each drawn decision
        also draws its move from the policy and steps on that move alone, by its exact advantage: a rollout's
        one-move step without the noise of the return.  With ``hidden_states``, the draws are positions, and each
        steps on its advantages given both cups (``draw_positions``): the noise of the die the mover cannot see,
        without that of the moves after."""
        c = self.config
        share = ev.visit / ev.visit.sum()  # share of the rollout's decisions at each state
        advantages, rows = ev.advantages, None
        if c.state_samples:
            if c.hidden_states:
                rows, counts, advantages = self.draw_positions(policy, ev)
            else:
                counts = self.rng.multinomial(c.state_samples, share)
                rows = np.flatnonzero(counts)
                counts, advantages = counts[rows], advantages[rows]
            share = counts / c.state_samples
            policy = policy[rows]
        mask = self.mask if rows is None else self.mask[rows]
        weight = torch.from_numpy(share)
        pi_old = torch.from_numpy(policy)
        # each (state, move)'s share of the step: the state's times the policy's chance of the move, or drawn
        moves = weight[:, None] * pi_old
        if c.sampled_moves:
            drawn = np.stack([self.rng.multinomial(k, p / p.sum()) for k, p in zip(counts, policy, strict=True)])
            moves = torch.from_numpy(drawn / c.state_samples)
        adv = torch.from_numpy(np.where(mask.numpy(), advantages, 0.0))
        if c.normalize_advantages:
            std = math.sqrt(float((moves * adv.pow(2)).sum()))
            adv = adv / (std + 1e-8)
        log_old = torch.log(torch.where(mask, pi_old, torch.ones_like(pi_old)))
        row_index = None if rows is None else torch.from_numpy(rows)
        stats: dict[str, float] = {}
        for _ in range(c.n_epochs):
            log_pi = self.log_policy(rows=row_index)
            ratio = torch.where(mask, (log_pi - log_old).exp(), torch.zeros_like(log_pi))
            clipped = ratio.clamp(1 - c.clip_range, 1 + c.clip_range)
            surrogate = torch.max(-adv * ratio, -adv * clipped)
            policy_loss = (moves * surrogate).sum()
            ent_rows, kl_rows = self._regularisers(log_pi, kl_coef, row_index)
            loss = policy_loss - ent_coef * (weight * ent_rows).sum() + kl_coef * (weight * kl_rows).sum()
            self._step(loss)
            stats = {"policy_loss": float(policy_loss.detach()), "entropy": float((weight * ent_rows).sum().detach())}
        return stats

    def draw_positions(self, policy: np.ndarray, ev: Evaluation) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``state_samples`` on-policy draws of positions (decision nodes: both cups known), as a rollout meets
        them.  Returns each drawn position's information state (repeated where several positions of one state
        are drawn), its number of draws, and its advantages given both cups (exact: ``q - sum(pi q)`` from the
        position's own values).  Averaged over the hidden die by its odds, they are the state's advantages.
        ``ev`` is ``policy``'s evaluation, whose node arrays give the odds and values."""
        tree = self.tree
        reach, chance, v = ev.node_reach, ev.node_chance, ev.node_value
        nodes = np.flatnonzero(tree.kind == DECISION)
        odds = chance[nodes] * reach[0, nodes] * reach[1, nodes]
        counts = self.rng.multinomial(self.config.state_samples, odds / odds.sum())
        drawn = np.flatnonzero(counts)
        nodes = nodes[drawn]
        infos = tree.info[nodes]
        slots = np.arange(tree.num_actions)
        legal = slots < tree.n_children[nodes][:, None]  # a decision node's children are its moves, slot order
        kids = np.where(legal, tree.first_child[nodes][:, None] + slots, 0)
        sign = np.where(tree.player[infos] == 0, 1.0, -1.0)[:, None]  # v is the first seat's utility
        q = np.where(legal, sign * v[kids], 0.0)
        advantages = np.where(legal, q - (policy[infos] * q).sum(1, keepdims=True), 0.0)
        return infos, counts[drawn], advantages

    def update_closed(self, ev: Evaluation, policy: np.ndarray, ent_coef: float, kl_coef: float) -> None:
        """MMD's closed-form step at every information state (Sokota et al., behavioural form with on-policy Q):
        ``pi' = argmax <pi, Q> - ent_coef H(pi) ... - kl_coef KL(pi || magnet) - KL(pi || pi_t) / lr``, i.e.
        ``log pi' ~ (log pi_t + lr (Q + kl_coef log magnet)) / (1 + lr (ent_coef + kl_coef))``, in payoff units
        (no advantage normalisation; ``learning_rate`` is the step ``eta``)."""
        eta = self.learning_rate()
        with torch.no_grad():
            log_pi = torch.log(torch.where(self.mask, torch.from_numpy(policy), torch.ones(1, dtype=torch.float64)))
            log_magnet = self.log_policy(self.magnet)
            q = torch.from_numpy(np.where(self.tree.mask, ev.q, 0.0))
            new = (log_pi + eta * (q + kl_coef * log_magnet)) / (1.0 + eta * (ent_coef + kl_coef))
            self.logits.copy_(torch.where(self.mask, new, torch.zeros_like(new)))

    # -- the run ---------------------------------------------------------------------------------------
    def iterate(self) -> dict[str, float]:
        """One rollout (or its expectation) and one update; returns its statistics."""
        c = self.config
        progress = self.steps / c.total_steps
        ent_coef, kl_coef = c.ent_coef.at(progress, self.updates), c.kl_coef.at(progress, self.updates)
        for group in self.optimizer.param_groups:
            group["lr"] = self.learning_rate()
        policy = self.policy()
        ev = evaluate(self.tree, policy)
        self.average += ev.own_reach[:, None] * policy
        if c.soft_values:
            reg = kl_coef * kl(policy, np.maximum(self.magnet_policy().numpy(), 1e-300)) - ent_coef * entropy(policy)
            soft = evaluate(regularised(self.tree, reg), policy)
            ev = replace(ev, q=soft.q, v=soft.v)
        row: dict[str, float] = {"ent_coef": ent_coef, "kl_coef": kl_coef, "learning_rate": self.learning_rate()}
        if c.mode in ("exact", "closed", "dilated"):
            if c.mode == "exact":
                row |= self.update_exact(ev, policy, ent_coef, kl_coef)
            elif c.mode == "closed":
                self.update_closed(ev, policy, ent_coef, kl_coef)
            else:
                with torch.no_grad():
                    log_magnet = self.log_policy(self.magnet).numpy()
                    new = dilated_step(self.tree, policy, log_magnet, self.learning_rate(), ent_coef, kl_coef)
                    self.logits.copy_(torch.from_numpy(masked_log(self.tree, new)))
            self.steps += c.rollout_steps
            adv = ev.advantages
            for seat in (0, 1):
                mine = self.tree.player == seat
                w = ev.visit[mine][:, None] * policy[mine]
                row[f"adv_std_seat{seat}"] = math.sqrt(float((w * adv[mine] ** 2).sum() / w.sum()))
        else:
            batch = self.sample(policy, ev.v if c.critic == "exact" else None)
            row |= self.update_sampled(batch, ent_coef, kl_coef)
            self.steps += len(batch.infos)
            for seat in (0, 1):
                a = batch.advantages[batch.seats == seat]
                row[f"adv_mean_seat{seat}"] = float(a.mean())
                row[f"adv_std_seat{seat}"] = float(a.std())
                row[f"return_mean_seat{seat}"] = float(batch.returns[batch.seats == seat].mean())
        self.updates += 1
        if c.magnet_every <= 0 or self.updates % c.magnet_every == 0:
            with torch.no_grad():
                if c.magnet_source == "average":
                    source = torch.from_numpy(masked_log(self.tree, self.average_policy()))
                else:
                    source = self.logit_rows().detach().clone()
                if c.magnet_every > 0:
                    self.magnet = source
                else:
                    self.magnet += c.magnet_rate * (source - self.magnet)
        new = self.policy()
        share = ev.visit / ev.visit.sum()
        row["kl_successive"] = float((share * kl(policy, np.maximum(new, 1e-300))).sum())
        row["value_seat0"] = ev.value
        row["onpolicy_entropy"] = float((share * entropy(policy)).sum())
        return row

    def run(self, log: str | Path | None = None, time_limit: float | None = None) -> list[dict[str, float]]:
        """Train to ``total_steps`` (or ``time_limit`` seconds); a row every ``eval_every`` updates."""
        c = self.config
        rows: list[dict[str, float]] = []
        started = time.process_time()
        writer = None
        handle = None
        try:
            while self.steps < c.total_steps:
                row = self.iterate()
                if self.updates % c.eval_every == 0 or self.steps >= c.total_steps:
                    row = {
                        "update": self.updates,
                        "step": self.steps,
                        "cpu_seconds": round(time.process_time() - started, 2),
                        "exploitability": exploitability(self.tree, self.policy()),
                        "exploitability_average": exploitability(self.tree, self.average_policy()),
                        **row,
                    }
                    rows.append(row)
                    if log is not None:
                        if writer is None:
                            handle = open(log, "w", newline="")  # noqa: SIM115 - kept open for the run
                            writer = csv.DictWriter(handle, fieldnames=list(row), extrasaction="ignore")
                            writer.writeheader()
                        writer.writerow(row)
                        handle.flush()  # type: ignore[union-attr]
                    print(
                        f"update {row['update']} step {row['step']} cpu {row['cpu_seconds']}s "
                        f"expl {row['exploitability']:.4f} avg {row['exploitability_average']:.4f} "
                        f"ent {row['onpolicy_entropy']:.3f} kl {row['kl_successive']:.2e} v0 {row['value_seat0']:+.4f}",
                        flush=True,
                    )
                if time_limit is not None and time.process_time() - started > time_limit:
                    break
        finally:
            if handle is not None:
                handle.close()
        return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The tabular control of self-play PPO / MMD at 2 players x 1 die")
    defaults = ControlConfig()
    for name, value in asdict(defaults).items():
        flag = "--" + name.replace("_", "-")
        if isinstance(value, bool):
            parser.add_argument(flag, type=lambda s: s.lower() in ("1", "true", "yes"), default=value)
        elif isinstance(value, dict):  # a Schedule
            parser.add_argument(flag, type=Schedule.parse, default=getattr(defaults, name))
        else:
            parser.add_argument(flag, type=type(value), default=value)
    parser.add_argument("--log", help="CSV of the evaluation rows")
    parser.add_argument("--time-limit", type=float, help="CPU seconds")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    config = ControlConfig(**{k: getattr(args, k) for k in asdict(defaults)})
    tree = build_tree(config.preset)
    print(f"{config.preset}: {tree.num_infostates} information states, {tree.num_nodes} nodes ({tree.seconds:.1f}s)")
    print(config)
    TabularControl(tree, config).run(args.log, args.time_limit)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
