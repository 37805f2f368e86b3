"""Determinisations for IS-MCTS in Liar's dice that read the bets as a network would have made them.

``belief=bayes`` (``agents.heuristic.liars_dice_bayes.BetBelief``) weighs each other cup by a simple bettor
model.  ``belief=network`` (``PolicyBelief``) weighs it by the search's own prior network instead: the other
captains are taken to play that network's policy, so a cup is as likely as

    P(cup | bets) ∝ P(cup) * prod over the owner's bets t of  pi(bet_t | the owner's observation before bet_t)

with ``pi`` the network's policy over the legal ids at that point.  The owner's observation depends on its
own cup and the public bets only, so the posterior is exact and separate per cup: every content of a cup
(at most 252 for five crew dice) goes through one batched forward pass with all the other cups' contents.
With ``others=prior`` the search is then a Bayesian best response to a table that plays the network.
Special dice keep the determinisation's draw (their owner's observation of them is taken as the draw).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from agents.evaluators import Network
from agents.heuristic.liars_dice_bayes import BetBelief, cup_contents, cup_faces
from envs.liars_dice.codec import FACE_SLOTS, LAYOUT, action_to_id, legal_action_ids
from envs.lying_pirates.dice import Die

_CREW_AT, _CREW_SCALE = LAYOUT.offset("crew"), LAYOUT.scale("crew")


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
    """``BetBelief``'s redraw over each other cup's posterior under ``network``'s policy (module doc).  Built
    once per search from a determinisation for ``seat`` (only its public part and the cups' sizes are read)."""

    def __init__(self, game: Any, state: Any, seat: int, network: Network) -> None:
        betting = state.round
        n = state.num_players
        rows, pieces, total = [], [], 0  # pieces: (relative seat, first row, legal ids, the bet's id)
        logs: dict[int, np.ndarray] = {}
        for rel in range(1, n):
            owner = (seat + rel) % n
            size = sum(1 for kind, _ in betting.cups.get(owner, ()) if kind == Die.CREW)
            if not size:
                continue
            prior, _ = cup_contents(size, 1)  # the prior does not depend on the wild face
            logs[rel] = np.log(prior)
            shown = (cup_faces(size)[:, :, None] == np.arange(1, FACE_SLOTS + 1)).sum(axis=1) / _CREW_SCALE
            for observation, legal, bet in past_decisions(game, state, owner):
                block = np.repeat(observation[None], len(prior), axis=0)
                block[:, _CREW_AT : _CREW_AT + FACE_SLOTS] = shown
                pieces.append((rel, total, legal, bet))
                rows.append(block)
                total += len(block)
        if rows:
            logits, _ = network.infer(np.concatenate(rows))
            for rel, first, legal, bet in pieces:
                chosen = logits[first : first + len(logs[rel]), legal].astype(np.float64)
                top = chosen.max(axis=1)
                log_norm = top + np.log(np.exp(chosen - top[:, None]).sum(axis=1))  # log-softmax over the legal ids
                logs[rel] += chosen[:, legal.index(bet)] - log_norm
        self.cups = {}
        for rel, log in logs.items():
            weight = np.exp(log - log.max())
            self.cups[rel] = weight / weight.sum()
