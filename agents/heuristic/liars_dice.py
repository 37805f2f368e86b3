"""A probability-minded Liar's dice player for ``liars_dice_v0``.

It decodes its observation through the named views of ``bidbluff.envs.liars_dice.codec.LAYOUT``:
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

import functools

import numpy as np

from bidbluff.agents.base import SeededAgent, legal_ids
from bidbluff.envs.liars_dice.codec import CODEC, FACE_SLOTS, LAYOUT, full
from bidbluff.envs.lying_pirates.dice import FACES, SPECIALS, Die

_BID, _EXACT, _LIAR = CODEC.offset["bid"], CODEC.offset["exact"], CODEC.offset["liar"]
_FACE_FIELDS = [kind.name.lower() for kind in SPECIALS]  # the codec's face one-hot of each special die


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


# _COUNTING[wild][bet face - 1, shown face - 1]: a die showing that face counts toward a bet on that face
_COUNTING = {
    wild: np.array([[counts_toward(shown, bet, wild) for shown in range(1, 7)] for bet in range(1, 7)], dtype=np.int64)
    for wild in (1, 6)
}


@functools.lru_cache(maxsize=4096)
def unseen_odds(unseen: tuple[int, ...], wild: int) -> tuple[np.ndarray, np.ndarray]:
    """``(exactly, at_least)``, rows = bet faces 1-6, columns k = 0 .. len(unseen) + 1: the chance that
    exactly / at least k of the ``unseen`` dice (kinds) count toward a bet on that face.

    Cached: the dice a seat cannot see change only when a cup changes size.
    """
    n = len(unseen)
    exactly = np.zeros((FACE_SLOTS, n + 2))
    at_least = np.zeros((FACE_SLOTS, n + 2))
    for face in range(1, FACE_SLOTS + 1):
        probs = [sum(counts_toward(f, face, wild) for f in FACES[Die(k)]) / 6 for k in unseen]
        pmf = poisson_binomial(probs)
        exactly[face - 1, : n + 1] = pmf
        at_least[face - 1, : n + 1] = pmf[::-1].cumsum()[::-1]
    at_least[:, 0] = 1.0
    exactly.flags.writeable = at_least.flags.writeable = False
    return exactly, at_least


class LiarsDiceHeuristic(SeededAgent):
    """Bids from the odds of the unseen dice; see the module docstring."""

    name = "heuristic"

    def __init__(
        self,
        seed: int | None = None,
        liar_margin: float = 0.0,
        sure_liar: float = 0.7,
        exact_threshold: float = 0.45,
        bluff_rate: float = 0.08,
    ) -> None:
        super().__init__(seed)
        self.liar_margin = liar_margin
        self.sure_liar = sure_liar
        self.exact_threshold = exact_threshold
        self.bluff_rate = bluff_rate

    # -- reading the observation ------------------------------------------------
    @staticmethod
    def read(obs: np.ndarray) -> dict:
        view = LAYOUT.view(full(obs))
        present, sizes, held = view.present.tolist(), view.counts("dice").tolist(), view.special_dice.tolist()
        # (kind, face) of the special dice in the own cup: relative seat 0's special dice are ours
        mine = zip(SPECIALS, _FACE_FIELDS, held[0], strict=True)
        own_specials = [(kind, view.index(name)) for kind, name, has in mine if has > 0.5]
        unseen: list[int] = []  # die kinds in the other cups
        for rel in range(1, len(present)):
            if present[rel] < 0.5:
                continue
            kinds = [kind for kind, has in zip(SPECIALS, held[rel], strict=True) if has > 0.5]
            unseen += [Die.CREW] * (sizes[rel] - len(kinds)) + kinds
        face = view.index("last_face")
        last = (view.counts("last_quantity"), face + 1) if face >= 0 else None
        return {"crew": view.counts("crew"), "own_specials": own_specials, "unseen": unseen, "last": last}

    @staticmethod
    def classic(mask: np.ndarray, has_bid: bool) -> bool:
        """Classic preset (6s wild, no "exactly") or Lying Pirates' rules, told by the mask."""
        if has_bid:
            return not mask[_EXACT:_LIAR].any()
        return bool(mask[_BID:_EXACT:FACE_SLOTS].any())  # some "q x 1" bid is open

    # -- odds ------------------------------------------------------------------------
    def _tables(self, seen: dict, wild: int) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray]]:
        """Per bet face (index face - 1): own dice that count for an own bet and for another's bet, and the
        unseen dice's odds (``unseen_odds``)."""
        counting = _COUNTING[wild]
        own_theirs = counting @ seen["crew"][:6]
        for _, f in seen["own_specials"]:
            if 1 <= f <= 6:
                own_theirs = own_theirs + counting[:, f - 1]
        own_mine = own_theirs.copy()
        cursed = [f for k, f in seen["own_specials"] if k == Die.CURSED]
        if cursed and 1 <= cursed[0] <= FACE_SLOTS:
            own_mine[cursed[0] - 1] = 0  # the Cursed die negates its face
        return own_mine, own_theirs, unseen_odds(tuple(sorted(int(k) for k in seen["unseen"])), wild)

    # -- deciding ----------------------------------------------------------------------
    def act(self, observation: dict[str, np.ndarray], agent: str) -> int:
        choice, bluffs = self.decide(observation, agent)
        if bluffs is not None and self.rng.random() < self.bluff_rate and bluffs:
            return int(self.rng.choice(bluffs))
        return choice

    def probabilities(self, observation: dict[str, np.ndarray]) -> np.ndarray:
        """What ``act`` draws from: its choice or, at ``bluff_rate``, one of the plausible bluffs."""
        choice, bluffs = self.decide(observation, self.name)
        out = np.zeros(CODEC.n)
        out[choice] = 1.0
        if bluffs:
            out *= 1.0 - self.bluff_rate
            out[bluffs] += self.bluff_rate / len(bluffs)
        return out

    def decide(self, observation: dict[str, np.ndarray], agent: str) -> tuple[int, list[int] | None]:
        """The action chosen on the odds, and the plausible bluffs that may replace it (None: no bluffing
        here, the choice is sure)."""
        legal = legal_ids(observation, agent)
        mask = observation["action_mask"]
        seen = self.read(observation["observation"])
        wild = 6 if self.classic(mask, seen["last"] is not None) else 1
        own_mine, own_theirs, (exactly, at_least) = self._tables(seen, wild)
        top = exactly.shape[1] - 1  # counts past the unseen dice: impossible (column of zeros)

        liar = None
        if (legal == _LIAR).any():
            q0, f0 = seen["last"]
            liar = 1.0 - float(at_least[f0 - 1, np.clip(q0 - own_theirs[f0 - 1], 0, top)])
        exact_ids = legal[(legal >= _EXACT) & (legal < _LIAR)]
        q, f = np.divmod(exact_ids - _EXACT, FACE_SLOTS)
        need = q + 1 - own_mine[f]
        p_exact = np.where(need < 0, 0.0, exactly[f, np.clip(need, 0, top)])
        exacts = list(zip(p_exact.tolist(), exact_ids.tolist(), strict=True))
        bid_ids = legal[legal < _EXACT]
        q, f = np.divmod(bid_ids - _BID, FACE_SLOTS)
        p_raise = at_least[f, np.clip(q + 1 - own_mine[f], 0, top)]
        raises = list(zip(p_raise.tolist(), (q + 1).tolist(), bid_ids.tolist(), strict=True))

        best_raise = max((p for p, _, _ in raises), default=0.0)
        best_exact = max(exacts, default=(0.0, -1))
        if best_exact[0] >= max(self.exact_threshold, liar or 0.0, best_raise):
            return best_exact[1], None
        if liar is not None and (liar + self.liar_margin >= best_raise or liar >= self.sure_liar):
            return _LIAR, None
        if not raises:  # nothing else is open
            return int(best_exact[1] if best_exact[1] >= 0 else legal[0]), None
        plausible = [i for p, _, i in raises if p >= 0.35]
        q_min = min(q for _, q, _ in raises)
        return max(raises, key=lambda r: (r[0] - 0.03 * (r[1] - q_min), -r[1]))[2], plausible
