"""The first Spytails heuristic (to 2026-11), kept as the agent spec ``heuristic@2026-11``.

The shipped Spytails network's figures up to 2026-12 were measured against it;
``bidbluff.agents.heuristic.spytails`` is the heuristic now.  It plays to meet its forecast:

* **Forecast**: the bid is the rounded sum of each hand card's rough chance to
  win an operation (Alpha Strikes, high intimidation, aces and face cards
  count most; Ghost Moves and Skunk Bombs nothing); the stake is moderate (3,
  2 when the estimate sits between two bids); the revision pass keeps it.
* **Operations**: it works out who wins the operation so far with the rules in
  force (the row's events included).  Still short of its bid, it wins with its
  cheapest winning card when it plays last, or with a safe winner (a trump,
  a face card, an Alpha Strike) before that, and sheds its weakest card (a
  shrew by preference) when it cannot win.  At its bid it ducks with its
  strongest card that does not win (a card that does not win now cannot win
  later), playing an ace low when ducking and high when winning.
* **Reinforcements**: takes the strongest display card (or the deck's top
  when the display is poor) and removes a weak basic card for good.
* Repays leverage whenever it may; keeps its tokens (a regroup or Echo swap
  started by someone else's policy is finished sensibly).
"""

from __future__ import annotations

import numpy as np

from bidbluff.agents.heuristic.spytails import SpytailsReader, wins
from bidbluff.envs.core.fields import hot
from bidbluff.envs.spytails.codec import CODEC, LAYOUT
from bidbluff.envs.spytails.content import (
    ACE,
    ALPHA_STRIKE,
    CARD_RANK,
    CARD_SUIT,
    GHOST_MOVE,
    INTIMIDATION,
    JACK,
    NO_SUIT,
    NUM_CARDS,
    SKUNK_BOMB,
)

_OFF = CODEC.offset
_PLAIN_WIN = {ACE: 0.8, 13: 0.65, 12: 0.55, 11: 0.45, 10: 0.35, 9: 0.2, 8: 0.1, 7: 0.05}


def win_chance(c: int) -> float:
    """Rough chance that card ``c`` wins an operation, for the forecast."""
    if c == ALPHA_STRIKE:
        return 0.9
    if CARD_SUIT[c] == NO_SUIT:
        return 0.0
    rank = CARD_RANK[c]
    if CARD_SUIT[c] == INTIMIDATION:
        return 0.95 if rank >= 12 else 0.75 if rank >= 9 else 0.55
    return _PLAIN_WIN.get(rank, 0.0)


def strength(c: int, low: bool = False) -> float:
    """How strong a play is (for choosing the cheapest winner or the strongest duck)."""
    if c == ALPHA_STRIKE:
        return 100.0
    if CARD_SUIT[c] == NO_SUIT:
        return 0.0
    rank = 1 if low else CARD_RANK[c]
    return rank + (30.0 if CARD_SUIT[c] == INTIMIDATION else 0.0)


def keep_value(c: int) -> float:
    """How much a card is worth keeping (reinforcements, regroup, Echo, shedding)."""
    if c == ALPHA_STRIKE:
        return 10.0
    if c == SKUNK_BOMB:
        return 4.0
    if c == GHOST_MOVE:
        return 3.0
    rank = CARD_RANK[c]
    if CARD_SUIT[c] == INTIMIDATION:
        return 5.0 + max(0, rank - 9) * 0.8 if rank > 3 else 1.0
    if rank in (2, 3):
        return 0.5
    return {ACE: 6.0, 13: 5.0, 12: 4.0, 11: 3.0}.get(rank, (rank - 4) / 3)


class FirstSpytailsHeuristic(SpytailsReader):
    """Forecasts from hand strength and plays to meet it; see the module docstring."""

    name = "heuristic@2026-11"
    card_value = staticmethod(keep_value)
    TAKE_TOP_UNDER = 4.0
    REMOVE_UNDER = 1.0

    def _character(self, obs: np.ndarray, legal: list[int]) -> int:
        return legal[0]  # Alka (an extra card) when free

    def estimate(self, obs: np.ndarray) -> float:
        return 1.3 * sum(win_chance(c) for c in self.hand(obs))

    def _bid(self, obs: np.ndarray, legal: list[int]) -> int:
        bid = int(np.clip(round(self.estimate(obs)), 0, 5))
        return _OFF["bid"] + bid

    def _stake(self, obs: np.ndarray, legal: list[int]) -> int:
        est = self.estimate(obs)
        want = 3 if abs(est - round(est)) < 0.3 or est > 5 else 2
        stakes = [i for i in legal if i - _OFF["stake"] + 1 <= want]
        return max(stakes) if stakes else min(legal)

    def _revise(self, obs: np.ndarray, legal: list[int]) -> int:
        return _OFF["keep_forecast"]

    def _play(self, obs: np.ndarray, legal: list[int]) -> int:
        trick, n = self.trick(obs)
        rules = self.rules(obs)
        view = LAYOUT.view(obs)
        mimic = view.armed[0] > 0.5
        options = []  # (action id, card, low)
        for i in legal:
            if _OFF["play"] <= i < _OFF["play"] + NUM_CARDS:
                options.append((i, i - _OFF["play"], False))
            elif _OFF["play_low"] <= i < _OFF["play_low"] + 4:
                s = i - _OFF["play_low"]
                options.append((i, s * 13 + ACE - 2, True))
        if not options:
            return legal[0]
        won = hot(view.won[0])
        bid = max(0, hot(view.bid[0]))  # no bid seen: 0
        need = bid - won
        last = len(trick) == n - 1
        me = len(trick)

        def winning(c: int, low: bool) -> bool:
            return wins([*trick, (c, low, mimic and CARD_SUIT[c] != NO_SUIT)], rules) == me

        winners = [o for o in options if winning(o[1], o[2])]
        losers = [o for o in options if not winning(o[1], o[2])]
        if need > 0:
            if not trick:  # leading: the strongest card, played high
                return max(options, key=lambda o: (strength(o[1], o[2]), not o[2]))[0]
            if winners:
                if last:
                    return min(winners, key=lambda o: strength(o[1], o[2]))[0]
                safe = [o for o in winners if strength(o[1], o[2]) >= JACK]
                pool = safe or winners
                pick = min if safe else max
                return pick(pool, key=lambda o: strength(o[1], o[2]))[0]
            return min(losers, key=lambda o: (keep_value(o[1]) - (0.5 if o[2] else 0.0), o[0]))[0]
        # at (or past) the bid: duck
        if losers:
            if not trick:
                return min(losers, key=lambda o: strength(o[1], o[2]))[0]
            return max(losers, key=lambda o: (strength(o[1], o[2]), o[2]))[0]
        if _OFF["ghost"] in legal:  # every card would win: 1 influence beats losing the stake
            return _OFF["ghost"]
        return min(options, key=lambda o: strength(o[1], o[2]))[0]
