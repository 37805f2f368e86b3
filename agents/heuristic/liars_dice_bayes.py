"""A Liar's dice player that reads the other captains' bets as evidence about their dice (``bayes``).

The heuristic (``bidbluff.agents.heuristic.liars_dice``) treats every unseen die as a fair
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
from typing import Any

import numpy as np

from bidbluff.agents.heuristic.liars_dice import _COUNTING, LiarsDiceHeuristic, counts_toward
from bidbluff.envs.liars_dice.codec import FACE_SLOTS, LAYOUT, full
from bidbluff.envs.lying_pirates.dice import FACES, SPECIALS, Die


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


@functools.lru_cache(maxsize=16)
def cup_faces(size: int) -> np.ndarray:
    """``cup_faces(size)[c]``: content c of ``cup_contents`` as ``size`` faces 1-6 (sorted)."""
    faces = np.array(list(itertools.combinations_with_replacement(range(1, FACE_SLOTS + 1), size)), dtype=np.int64)
    faces.flags.writeable = False
    return faces


def bet_weights(crew: int, wild: int, faces_bet: list[int], belief: float) -> tuple[np.ndarray, np.ndarray]:
    """``(posterior, counts)`` over ``cup_contents(crew, wild)`` for a cup whose owner bet on ``faces_bet``
    (0-based faces), under the bettor model of the module docstring."""
    prior, counts = cup_contents(crew, wild)
    weight = prior.copy()
    bet_faces = list(range(1, FACE_SLOTS)) if wild == 1 else list(range(FACE_SLOTS))  # 0-based faces one may bet
    logits = belief * counts[:, bet_faces]
    likely = np.exp(logits - logits.max(axis=1, keepdims=True))
    likely /= likely.sum(axis=1, keepdims=True)
    for face in faces_bet:
        weight *= likely[:, bet_faces.index(face)]
    return weight / weight.sum(), counts


class BetBelief:
    """Determinisations for IS-MCTS that believe the bets: each other cup's crew dice drawn from the posterior
    ``LiarsDiceBayes`` bids on (a plain resample draws them fair, as if bets said nothing), its special dice
    fair.  Built once per search from the searching seat's observation."""

    def __init__(self, observation: dict[str, np.ndarray], belief: float = 1.0) -> None:
        obs = observation["observation"]
        seen = LiarsDiceBayes.read(obs)
        wild = 6 if LiarsDiceHeuristic.classic(observation["action_mask"], seen["last"] is not None) else 1
        faces_bet = LiarsDiceBayes._bets_by_seat(obs)
        self.cups = {rel: bet_weights(crew, wild, faces_bet.get(rel, []), belief)[0] for rel, crew, _ in seen["cups"]}

    def redraw(self, state: Any, seat: int, rng: np.random.Generator) -> Any:
        """``state`` (a determinisation for ``seat``) with every other cup's crew dice drawn again, in place."""
        betting = state.round
        if betting.outcome is not None:
            return state
        n = state.num_players
        for rel, weight in self.cups.items():
            crew = [die for die in betting.cups[(seat + rel) % n] if die[0] == Die.CREW]
            faces = cup_faces(len(crew))[rng.choice(len(weight), p=weight)]
            for die, face in zip(crew, rng.permutation(faces).tolist(), strict=True):
                die[1] = face
        return state


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
        _, faces, seats = np.nonzero(LAYOUT.view(full(obs)).history > 0.5)
        out: dict[int, list[int]] = {}
        for face, seat in zip(faces.tolist(), seats.tolist(), strict=True):
            out.setdefault(seat, []).append(face)
        return out

    def _tables(self, seen: dict, wild: int) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray]]:
        own_mine, own_theirs, fair = super()._tables(seen, wild)
        if self.belief == 0 or not any(seat > 0 for seat in self._faces_bet):
            return own_mine, own_theirs, fair
        pmfs = [np.ones((FACE_SLOTS, 1))]  # per bet face: the count toward it over the unseen dice, so far
        for seat, crew, specials in seen["cups"]:
            weight, counts = bet_weights(crew, wild, self._faces_bet.get(seat, []), self.belief)
            cup = np.zeros((FACE_SLOTS, crew + 1))
            for f in range(FACE_SLOTS):
                cup[f] = np.bincount(counts[:, f], weights=weight, minlength=crew + 1)
            pmfs.append(cup)
            for kind in specials:
                p = np.array(
                    [
                        sum(counts_toward(shown, f, wild) for shown in FACES[Die(kind)]) / 6
                        for f in range(1, FACE_SLOTS + 1)
                    ]
                )
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
        view = LAYOUT.view(full(obs))
        present, sizes, held = view.present.tolist(), view.counts("dice").tolist(), view.special_dice.tolist()
        cups = []  # (relative seat, crew dice, special die kinds) of every other cup
        for rel in range(1, len(present)):
            if present[rel] >= 0.5:
                kinds = [kind for kind, has in zip(SPECIALS, held[rel], strict=True) if has > 0.5]
                cups.append((rel, sizes[rel] - len(kinds), kinds))
        seen["cups"] = cups
        return seen
