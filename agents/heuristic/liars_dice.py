"""A probability-minded Liar's dice player for ``liars_dice_v0``.

It decodes its observation (layout in ``envs.lying_pirates.betting_codec``):
its own dice, every cup's size and which special dice each seat holds, and
the last bet.  The dice it cannot see are independent: a crew die counts
toward a bet face with probability 1/3 (the face or the wild one; 1/6 when
the bet is on the wild face itself), a special die with the share of its six
faces that count.  The number of unseen dice that count is then a sum of
Bernoulli variables (Poisson binomial), computed exactly.

Policy (each option valued by the chance it turns out right):

* "Liar!" when the last bet is less likely to hold than the best raise it
  could make, or when the bet is clearly unlikely;
* "exactly" when the exact count is likely enough (and likelier than the
  other options);
* otherwise the raise most likely to hold, preferring small steps, with an
  occasional plausible bluff so that it is not fully predictable.

The rules variant is read from the mask: Lying Pirates' rules never allow a
bet on 1s and always allow "exactly" after a bet; the classic preset allows
bets on 1s and has no "exactly" (6s wild).
"""

from __future__ import annotations

import numpy as np

from agents.base import SeededAgent, legal_ids
from envs.lying_pirates.betting_codec import CODEC, FACE_SLOTS, OWN, SEAT
from envs.lying_pirates.betting_game import MAX_PLAYERS, MAX_QUANTITY
from envs.lying_pirates.dice import FACES, SPECIALS, Die

_BID, _EXACT, _LIAR = CODEC.offset["bid"], CODEC.offset["exact"], CODEC.offset["liar"]
_SEATS_AT = OWN
_TABLE_AT = OWN + MAX_PLAYERS * SEAT


def poisson_binomial(probs: list[float]) -> np.ndarray:
    """``pmf[k]``: probability that exactly k of independent events with ``probs`` happen."""
    pmf = np.zeros(len(probs) + 1)
    pmf[0] = 1.0
    for i, p in enumerate(probs):
        pmf[1 : i + 2] = pmf[1 : i + 2] * (1 - p) + pmf[: i + 1] * p
        pmf[0] *= 1 - p
    return pmf


def counts_toward(face_shown: int, bet_face: int, wild: int) -> bool:
    return face_shown == bet_face or (face_shown == wild and bet_face != wild)


class LiarsDiceHeuristic(SeededAgent):
    """Bids from the odds of the unseen dice; see the module docstring."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, liar_margin: float = 0.0, sure_liar: float = 0.7,
                 exact_threshold: float = 0.45, bluff_rate: float = 0.08) -> None:  # fmt: skip
        super().__init__(seed)
        self.liar_margin = liar_margin
        self.sure_liar = sure_liar
        self.exact_threshold = exact_threshold
        self.bluff_rate = bluff_rate

    # -- reading the observation ------------------------------------------------
    @staticmethod
    def read(obs: np.ndarray) -> dict:
        crew = np.rint(obs[:FACE_SLOTS] * 5).astype(int)  # own crew dice per face 1-6
        own_specials = []  # (kind, face) of the special dice in the own cup
        for i, kind in enumerate(SPECIALS):
            onehot = obs[FACE_SLOTS + i * 7 : FACE_SLOTS + (i + 1) * 7]
            if onehot.any():
                own_specials.append((kind, int(np.argmax(onehot))))
        unseen: list[int] = []  # die kinds in the other cups
        for rel in range(1, MAX_PLAYERS):
            at = _SEATS_AT + rel * SEAT
            if obs[at] < 0.5:
                continue
            size = round(float(obs[at + 2]) * 10)
            kinds = [SPECIALS[i] for i in range(len(SPECIALS)) if obs[at + 3 + i] > 0.5]
            unseen += [Die.CREW] * (size - len(kinds)) + kinds
        last = None
        if obs[_TABLE_AT + 2 : _TABLE_AT + 2 + FACE_SLOTS].any():
            q = round(float(obs[_TABLE_AT + 1]) * MAX_QUANTITY)
            last = (q, int(np.argmax(obs[_TABLE_AT + 2 : _TABLE_AT + 2 + FACE_SLOTS])) + 1)
        return {"crew": crew, "own_specials": own_specials, "unseen": unseen, "last": last}

    @staticmethod
    def classic(mask: np.ndarray, has_bid: bool) -> bool:
        """Classic preset (6s wild, no "exactly") or Lying Pirates' rules, told by the mask."""
        if has_bid:
            return not mask[_EXACT:_LIAR].any()
        return bool(mask[_BID : _EXACT : FACE_SLOTS].any())  # some "q x 1" bid is open

    # -- odds ------------------------------------------------------------------------
    def _tables(self, seen: dict, wild: int) -> tuple[dict[int, int], dict[int, int], dict[int, np.ndarray]]:
        """Per bet face: own dice that count (for an own bet, and for another's), and the unseen pmf."""
        own_mine, own_theirs, pmf = {}, {}, {}
        for face in range(1, FACE_SLOTS + 1):
            n = sum(int(seen["crew"][f - 1]) for f in range(1, 7) if counts_toward(f, face, wild))
            n += sum(counts_toward(f, face, wild) for _, f in seen["own_specials"])
            own_theirs[face] = n
            cursed = [f for k, f in seen["own_specials"] if k == Die.CURSED]
            own_mine[face] = 0 if cursed and cursed[0] == face else n  # the Cursed die negates its face
            probs = [sum(counts_toward(f, face, wild) for f in FACES[Die(k)]) / 6 for k in seen["unseen"]]
            pmf[face] = poisson_binomial(probs)
        return own_mine, own_theirs, pmf

    @staticmethod
    def _at_least(pmf: np.ndarray, k: int) -> float:
        return 1.0 if k <= 0 else float(pmf[k:].sum()) if k < len(pmf) else 0.0

    @staticmethod
    def _exactly(pmf: np.ndarray, k: int) -> float:
        return float(pmf[k]) if 0 <= k < len(pmf) else 0.0

    # -- deciding ----------------------------------------------------------------------
    def act(self, observation: dict[str, np.ndarray], agent: str) -> int:
        legal = legal_ids(observation, agent)
        mask = observation["action_mask"]
        seen = self.read(observation["observation"])
        wild = 6 if self.classic(mask, seen["last"] is not None) else 1
        own_mine, own_theirs, pmf = self._tables(seen, wild)

        raises, exacts, liar = [], [], None
        for i in legal:
            i = int(i)
            if i == _LIAR:
                q0, f0 = seen["last"]
                liar = 1.0 - self._at_least(pmf[f0], q0 - own_theirs[f0])
            elif i >= _EXACT:
                q, f = divmod(i - _EXACT, FACE_SLOTS)
                exacts.append((self._exactly(pmf[f + 1], q + 1 - own_mine[f + 1]), i))
            else:
                q, f = divmod(i - _BID, FACE_SLOTS)
                raises.append((self._at_least(pmf[f + 1], q + 1 - own_mine[f + 1]), q + 1, i))

        best_raise = max((p for p, _, _ in raises), default=0.0)
        best_exact = max(exacts, default=(0.0, -1))
        if best_exact[0] >= max(self.exact_threshold, liar or 0.0, best_raise):
            return best_exact[1]
        if liar is not None and (liar + self.liar_margin >= best_raise or liar >= self.sure_liar):
            return _LIAR
        if not raises:  # nothing else is open
            return int(best_exact[1] if best_exact[1] >= 0 else legal[0])
        if self.rng.random() < self.bluff_rate:
            plausible = [i for p, _, i in raises if p >= 0.35]
            if plausible:
                return int(self.rng.choice(plausible))
        q_min = min(q for _, q, _ in raises)
        return max(raises, key=lambda r: (r[0] - 0.03 * (r[1] - q_min), -r[1]))[2]
