"""A Liar's dice player that reads the other captains' bets as evidence about their dice (``bayes``).

The heuristic (``agents.heuristic.liars_dice``) treats every unseen die as a fair
die, so a bet tells it nothing.  But captains bet on faces they hold.  This
player keeps the heuristic's policy and replaces its odds by a posterior: each
opponent's crew dice, a priori fair, are weighed by how likely they make the
faces that opponent bet on, under a simple model of a bettor

    P(bets on face f | its cup) ∝ exp(belief * count of its dice that count toward f)

(``belief`` 0 is the heuristic again).  A cup of at most five crew dice has at
most 252 distinct contents, so the posterior is exact: every content with its
multinomial prior, times the likelihood of every bet that cup's owner made.  The
count toward each face is then convolved over the opponents (their special dice
keep the heuristic's fair odds).
"""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np

from agents.heuristic.liars_dice import _COUNTING, LiarsDiceHeuristic, counts_toward
from envs.liars_dice.codec import FACE_SLOTS, LAYOUT
from envs.lying_pirates.dice import FACES, SPECIALS, Die


@functools.lru_cache(maxsize=16)
def cup_contents(size: int, wild: int) -> tuple[np.ndarray, np.ndarray]:
    """Every content of a cup of ``size`` crew dice: ``(prior, counts)`` where ``counts[c, f - 1]`` is how many of
    content c's dice count toward a bet on face f (the face itself or the wild one) and ``prior[c]`` its chance."""
    contents = list(itertools.combinations_with_replacement(range(FACE_SLOTS), size))
    shown = np.zeros((len(contents), FACE_SLOTS), dtype=np.int64)
    for c, faces in enumerate(contents):
        for face in faces:
            shown[c, face] += 1
    prior = np.array([math.factorial(size) / math.prod(math.factorial(k) for k in row) for row in shown.tolist()])
    prior /= FACE_SLOTS**size
    counts = shown @ _COUNTING[wild].T
    prior.flags.writeable = counts.flags.writeable = False
    return prior, counts


class LiarsDiceBayes(LiarsDiceHeuristic):
    """The heuristic's policy on odds that believe the bets; see the module docstring."""

    name = "bayes"

    def __init__(self, seed: int | None = None, belief: float = 1.0, **policy: float) -> None:
        super().__init__(seed, **policy)
        self.belief = belief

    def decide(self, observation: dict[str, np.ndarray], agent: str) -> tuple[int, list[int] | None]:
        # read here, not in ``act``: ``probabilities`` decides too
        self._faces_bet = self._bets_by_seat(observation["observation"])
        return super().decide(observation, agent)

    @staticmethod
    def _bets_by_seat(obs: np.ndarray) -> dict[int, list[int]]:
        """Relative seat -> the faces (0-based) of every bet it made this phase."""
        _, faces, seats = np.nonzero(LAYOUT.view(obs).history > 0.5)
        out: dict[int, list[int]] = {}
        for face, seat in zip(faces.tolist(), seats.tolist(), strict=True):
            out.setdefault(seat, []).append(face)
        return out

    def _tables(self, seen: dict, wild: int) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray]]:
        own_mine, own_theirs, fair = super()._tables(seen, wild)
        if self.belief == 0 or not any(seat > 0 for seat in self._faces_bet):
            return own_mine, own_theirs, fair
        bet_faces = list(range(1, FACE_SLOTS)) if wild == 1 else list(range(FACE_SLOTS))  # 0-based faces one may bet
        pmfs = [np.ones((FACE_SLOTS, 1))]  # per bet face: the count toward it over the unseen dice, so far
        for seat, crew, specials in seen["cups"]:
            prior, counts = cup_contents(crew, wild)
            weight = prior.copy()
            logits = self.belief * counts[:, bet_faces]
            likely = np.exp(logits - logits.max(axis=1, keepdims=True))
            likely /= likely.sum(axis=1, keepdims=True)
            for face in self._faces_bet.get(seat, []):
                weight *= likely[:, bet_faces.index(face)]
            weight /= weight.sum()
            cup = np.zeros((FACE_SLOTS, crew + 1))
            for f in range(FACE_SLOTS):
                cup[f] = np.bincount(counts[:, f], weights=weight, minlength=crew + 1)
            pmfs.append(cup)
            for kind in specials:
                p = np.array([sum(counts_toward(shown, f, wild) for shown in FACES[Die(kind)]) / 6
                              for f in range(1, FACE_SLOTS + 1)])  # fmt: skip
                pmfs.append(np.stack([1 - p, p], axis=1))
        total = functools.reduce(lambda a, b: np.stack([np.convolve(x, y) for x, y in zip(a, b, strict=True)]), pmfs)
        n = total.shape[1] - 1
        exactly = np.zeros((FACE_SLOTS, n + 2))
        at_least = np.zeros((FACE_SLOTS, n + 2))
        exactly[:, : n + 1] = total
        at_least[:, : n + 1] = total[:, ::-1].cumsum(axis=1)[:, ::-1]
        at_least[:, 0] = 1.0
        return own_mine, own_theirs, (exactly, at_least)

    @staticmethod
    def read(obs: np.ndarray) -> dict:
        seen = LiarsDiceHeuristic.read(obs)
        view = LAYOUT.view(obs)
        present, sizes, held = view.present.tolist(), view.counts("dice").tolist(), view.special_dice.tolist()
        cups = []  # (relative seat, crew dice, special die kinds) of every other cup
        for rel in range(1, len(present)):
            if present[rel] >= 0.5:
                kinds = [kind for kind, has in zip(SPECIALS, held[rel], strict=True) if has > 0.5]
                cups.append((rel, sizes[rel] - len(kinds), kinds))
        seen["cups"] = cups
        return seen
