"""Determinisations for IS-MCTS in Liar's dice that read the bets as the policy that made them would have.

``belief=bayes`` (``bidbluff.agents.heuristic.liars_dice_bayes.BetBelief``) weighs each other cup by a simple bettor
model.  ``belief=prior`` (``PolicyBelief``) weighs it by the search's own prior instead (a network, or the
heuristic's distribution): the other captains are taken to play that policy, so a cup is as likely as

    P(cup | bets) ∝ P(cup) * prod over the owner's bets t of  pi(bet_t | the owner's observation before bet_t)

with ``pi`` the policy over the legal ids at that point.  The owner's observation depends on its own cup and
the public bets only, so the posterior is exact and separate per cup: every content of a cup (at most 252 for
five crew dice) goes through one batched forward pass.  With ``others=prior`` the search is then a Bayesian
best response to a table that plays the prior.

With ``others=prior+heuristic`` a captain may play either policy (even odds before any bet), and the posterior
is joint over the policy and the cup: ``P(model, cup | bets) ∝ P(model) P(cup) prod_t pi_model(bet_t | ...)``.
The two are near-deterministic and often agree, so a few bets usually tell them apart where it matters (Bayesian
opponent identification, as in Southey et al.'s "Bayes' bluff").  Which policy each captain plays has a prior
that puts ``SAME_POLICY`` on the whole table playing one of them, so that a table of networks, or of heuristics,
is told from the bets of all its captains together, while a mixed table is still allowed.  Each policy trembles
(``TREMBLE``), so that a bet it never makes lowers a model's weight instead of ruling out every cup.  Special dice
keep the determinisation's draw (their owner's observation of them is taken as the draw).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np

from bidbluff.agents.evaluators import Network, Prior
from bidbluff.agents.heuristic.liars_dice_bayes import BetBelief, cup_contents, cup_faces
from bidbluff.envs.liars_dice.codec import FACE_SLOTS, LAYOUT, action_to_id, legal_action_ids
from bidbluff.envs.lying_pirates.dice import Die

_CREW_AT, _CREW_SCALE = LAYOUT.offset("crew"), LAYOUT.scale("crew")
# The prior chance that the other captains all play one policy (a table of networks, of heuristics); else each
# plays its own, drawn alike.
SAME_POLICY = 0.5
# A policy that rules moves out (the heuristic) still errs now and then in this model, so that a bet it would never
# make, as its owner plays another policy, weighs the cups alike instead of ruling every one out.
TREMBLE = 0.01


def past_decisions(game: Any, state: Any, owner: int) -> list[tuple[np.ndarray, list[int], int]]:
    """Every bet ``owner`` made this phase: ``(its observation just before, the legal ids then, the bet's id)``,
    its observation built from ``state``'s cup for ``owner``."""
    betting = state.round
    out = []
    for t, (who, quantity, face) in enumerate(betting.bids):
        if who != owner:
            continue
        then = state.clone()
        then.round.bids = [list(bid) for bid in betting.bids[:t]]
        then.round.turn = then.round.bettors.index(owner)
        out.append((game.encode(then, owner), legal_action_ids(then.round), action_to_id(("bid", quantity, face))))
    return out


class PolicyBelief(BetBelief):
    """Each other cup's posterior under a policy (module doc), or, given several ``models`` (policies the other
    captains may play), the joint posterior over which one each captain plays and its cup: a captain whose bets
    one model would not make is soon taken to play another.  Built once per search from a determinisation for
    ``seat`` (only its public part and the cups' sizes are read).  ``cache`` (any dict, kept across searches)
    holds each past bet's likelihoods: a captain's earlier bets are read again at every later decision."""

    def __init__(self, game: Any, state: Any, seat: int, models: Sequence[Prior], cache: dict | None = None) -> None:
        betting = state.round
        n = state.num_players
        cache = {} if cache is None else cache
        logs: dict[int, np.ndarray] = {}  # relative seat -> log P(cup) P(its bets | model, cup), (models, contents)
        for rel in range(1, n):
            owner = (seat + rel) % n
            size = sum(1 for kind, _ in betting.cups.get(owner, ()) if kind == Die.CREW)
            if not size:
                continue
            fair, _ = cup_contents(size, 1)  # the dice's own odds do not depend on the wild face
            log = np.tile(np.log(fair), (len(models), 1))
            decisions = past_decisions(game, state, owner)
            for m, model in enumerate(models):
                for observation, legal, bet in decisions:
                    key = (id(model), observation.tobytes(), bet)
                    if key not in cache:
                        cache[key] = _log_likelihood(model, observation, legal, bet, size, owner)
                    log[m] += cache[key]
            logs[rel] = log
        self.seats = list(logs)
        # each seat's cup given its model, and how well each model explains its bets (log evidence)
        evidence = {rel: np.logaddexp.reduce(log, axis=1) for rel, log in logs.items()}
        self.given = {rel: np.exp(log - evidence[rel][:, None]) for rel, log in logs.items()}
        m = len(models)
        self.assignments, self.chances = assignments([evidence[rel] for rel in self.seats], m)
        self.joint = {}  # relative seat -> (models, contents) posterior, the assignments summed out
        for j, rel in enumerate(self.seats):
            plays = np.bincount([a[j] for a in self.assignments], weights=self.chances, minlength=m)
            self.joint[rel] = plays[:, None] * self.given[rel]
        # BetBelief.redraw draws from the cups' posterior, every model together
        self.cups = {rel: joint.sum(axis=0) for rel, joint in self.joint.items()}

    def draw(self, state: Any, seat: int, rng: np.random.Generator) -> tuple[Any, dict[int, int]]:
        """``state`` (a determinisation for ``seat``) with every other cup drawn again in place, jointly with the
        model its owner plays: ``(state, {owner seat: index into models})``."""
        betting = state.round
        if betting.outcome is not None:
            return state, {}
        n = state.num_players
        assignment = self.assignments[int(rng.choice(len(self.assignments), p=self.chances))]
        drawn = {}
        for rel, model in zip(self.seats, assignment, strict=True):
            owner = (seat + rel) % n
            weight = self.given[rel][model]
            crew = [die for die in betting.cups[owner] if die[0] == Die.CREW]
            faces = cup_faces(len(crew))[rng.choice(len(weight), p=weight)]
            for die, face in zip(crew, rng.permutation(faces).tolist(), strict=True):
                die[1] = face
            drawn[owner] = model
        return state, drawn


def assignments(evidence: Sequence[np.ndarray], models: int) -> tuple[list[tuple[int, ...]], np.ndarray]:
    """Which of ``models`` policies each seat plays, given each seat's log evidence for every model: every
    assignment and its posterior chance.  A table plays one policy with chance ``SAME_POLICY`` (the evidence then
    pools over its seats), else each seat its own."""
    k, m = len(evidence), models
    every = list(itertools.product(range(m), repeat=k))
    prior = [(1 - SAME_POLICY) / m**k + (SAME_POLICY / m if len(set(a)) <= 1 else 0.0) for a in every]
    log_post = np.log(prior) + np.array([sum(e[i] for e, i in zip(evidence, a, strict=True)) for a in every])
    post = np.exp(log_post - log_post.max())
    return every, post / post.sum()


def _log_likelihood(
    model: Prior, observation: np.ndarray, legal: list[int], bet: int, size: int, owner: int
) -> np.ndarray:
    """log P(bet | the owner's observation with each content of its ``size`` crew dice) under ``model``, the
    model trembling (``TREMBLE``)."""
    shown = (cup_faces(size)[:, :, None] == np.arange(1, FACE_SLOTS + 1)).sum(axis=1) / _CREW_SCALE
    block = np.repeat(observation[None], len(shown), axis=0)
    block[:, _CREW_AT : _CREW_AT + FACE_SLOTS] = shown
    at = legal.index(bet)
    if isinstance(model, Network):  # one batched forward pass
        logits, _ = model.infer(block)
        chosen = logits[:, legal].astype(np.float64)
        chosen = np.exp(chosen - chosen.max(axis=1, keepdims=True))
        likely = chosen[:, at] / chosen.sum(axis=1)
    else:  # a prior without batches (the heuristic): one call a content
        likely = np.array([model.policy(row, legal, owner)[at] for row in block])
    return np.log(likely * (1 - TREMBLE) + TREMBLE / len(legal))
