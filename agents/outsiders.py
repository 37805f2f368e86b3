"""Rules-based players of another style than each game's heuristic, to judge agents by opponents they were
not trained against.  Training never seats them (no league, self-play run or teacher names them); they are
agent specs for tournaments and evaluations only:

==================  ==============================================================================
``lowball``         spytails_v0: forecasts only its sure winners (Alpha Strikes, top trumps), usually
                    0, stakes a flat 3, and ducks every other operation
``odds``            liars_dice_v0 and lying_pirates_v0's betting: a fixed-threshold bidder; it calls
                    "Liar!" on any bet less likely than even, and otherwise bids the face it holds
                    most of, jumping to the highest quantity that is still even odds
``myopic``          libertalia_v0: plays the card worth most today, keeping nothing for later days
``outsider``        the game's player above
==================  ==============================================================================

Each reads only its observation (the named views of the game's codec) and plays any legal action the
option tables allow.  Where a decision is not what sets the style apart (Lying Pirates' board and cards,
Libertalia's booty and targets) they take it as the heuristic does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from bidbluff.agents.heuristic.liars_dice import LiarsDiceHeuristic
from bidbluff.agents.heuristic.libertalia import (
    LibertaliaHeuristic,
    View,
)
from bidbluff.agents.heuristic.lying_pirates import LyingPiratesHeuristic, _Bettor
from bidbluff.agents.heuristic.spytails import SpytailsReader, card_options, wins
from bidbluff.envs.core.fields import hot
from bidbluff.envs.liars_dice.codec import CODEC as LD_CODEC
from bidbluff.envs.liars_dice.codec import FACE_SLOTS
from bidbluff.envs.spytails.codec import CODEC as SPY_CODEC
from bidbluff.envs.spytails.codec import LAYOUT as SPY_LAYOUT
from bidbluff.envs.spytails.content import (
    ACE,
    ALPHA_STRIKE,
    CARD_RANK,
    CARD_SUIT,
    GHOST_MOVE,
    INTIMIDATION,
    MAX_BID,
    NO_SUIT,
    QUEEN,
    SHREW_RANKS,
    SKUNK_BOMB,
)

_SPY = SPY_CODEC.offset
_LD_BID, _LD_EXACT, _LD_LIAR = LD_CODEC.offset["bid"], LD_CODEC.offset["exact"], LD_CODEC.offset["liar"]


# -- Spytails: forecast low, duck ----------------------------------------------------------------------
def sure_winner(c: int, trump: bool, lowest_wins: bool) -> bool:
    """A card the lowball player counts on to win: an Alpha Strike, or a top trump in a normal round."""
    if c == ALPHA_STRIKE:
        return True
    return trump and not lowest_wins and CARD_SUIT[c] == INTIMIDATION and CARD_RANK[c] >= QUEEN


def duck_value(c: int) -> float:
    """How much the lowball player likes a card: ducking cards most, high cards least."""
    if c in (GHOST_MOVE, SKUNK_BOMB):
        return 20.0
    if c == ALPHA_STRIKE:
        return 15.0
    rank = CARD_RANK[c]
    if rank in SHREW_RANKS or rank == ACE:
        return 12.0
    return 14.0 - rank  # a 4 ducks under more than a 10


class SpytailsLowball(SpytailsReader):
    """Forecasts its sure winners (often none), stakes 3, and ducks; see the module docstring."""

    name = "lowball"
    STAKE = 3
    card_value = staticmethod(duck_value)
    TAKE_TOP_UNDER = 12.0
    REMOVE_UNDER = 6.0  # a 9 to a king: it wins when it must not

    def _character(self, obs: np.ndarray, legal: list[int]) -> int:
        return legal[0]

    def _bid(self, obs: np.ndarray, legal: list[int]) -> int:
        rules = self.rules(obs)
        sure = sum(sure_winner(c, rules.trump, rules.lowest_wins) for c in self.hand(obs))
        return _SPY["bid"] + min(sure, MAX_BID)

    def _stake(self, obs: np.ndarray, legal: list[int]) -> int:
        return min(legal, key=lambda i: abs(i - _SPY["stake"] + 1 - self.STAKE))

    def _revise(self, obs: np.ndarray, legal: list[int]) -> int:
        return _SPY["keep_forecast"]

    def _play(self, obs: np.ndarray, legal: list[int]) -> int:
        options = card_options(legal)
        if not options:
            return legal[0]
        trick, _ = self.trick(obs)
        rules = self.rules(obs)
        view = SPY_LAYOUT.view(obs)
        mimic = view.armed[0] > 0.5
        need = max(0, hot(view.bid[0])) - hot(view.won[0])
        me = len(trick)

        def rank(o: tuple[int, int, bool]) -> int:
            if CARD_SUIT[o[1]] == NO_SUIT:
                return 0
            return 1 if o[2] else CARD_RANK[o[1]]

        winners = [
            o for o in options if wins([*trick, (o[1], o[2], mimic and CARD_SUIT[o[1]] != NO_SUIT)], rules) == me
        ]
        losers = [o for o in options if o not in winners]
        if need > 0:
            alpha = [o for o in winners if o[1] == ALPHA_STRIKE]
            if alpha:
                return alpha[0][0]
            if winners:
                return max(winners, key=rank)[0]
            return min(losers, key=rank)[0]
        if not trick:  # leading: a Ghost Move, else the lowest card
            ghost_moves = [o for o in options if o[1] == GHOST_MOVE]
            return ghost_moves[0][0] if ghost_moves else min(options, key=lambda o: rank(o) or 99)[0]
        if losers:
            return max(losers, key=rank)[0]
        if _SPY["ghost"] in legal:
            return _SPY["ghost"]
        return min(winners, key=rank)[0]


# -- Liar's dice: a fixed-threshold bidder ---------------------------------------------------------------
EVEN = 0.5  # a bet is believed when at least this likely


class LiarsDiceOdds(LiarsDiceHeuristic):
    """Believes a bet at even odds or better; bids its strongest face as high as even odds allow.

    It shares only the heuristic's reading of the observation and its exact odds of the unseen dice; the
    policy is its own: no comparison of calling with raising, no bluffs, jumps instead of small steps."""

    name = "odds"

    def decide(self, observation: dict[str, np.ndarray], agent: str) -> tuple[int, list[int] | None]:
        legal = np.flatnonzero(observation["action_mask"])
        seen = self.read(observation["observation"])
        wild = 6 if self.classic(observation["action_mask"], seen["last"] is not None) else 1
        own_mine, own_theirs, (exactly, at_least) = self._tables(seen, wild)
        top = exactly.shape[1] - 1
        if seen["last"] is not None and (legal == _LD_LIAR).any():
            q0, f0 = seen["last"]
            holds = float(at_least[f0 - 1, np.clip(q0 - own_theirs[f0 - 1], 0, top)])
            exact_id = _LD_EXACT + (q0 - 1) * FACE_SLOTS + f0 - 1
            if holds < EVEN:
                spot_on = float(exactly[f0 - 1, np.clip(q0 - own_theirs[f0 - 1], 0, top)])
                # "exactly" when the bet is more likely spot on than beaten (where the rules allow it)
                if exact_id in legal and spot_on > 1.0 - holds - spot_on:
                    return int(exact_id), None
                return _LD_LIAR, None
        bids = legal[legal < _LD_EXACT]
        if not len(bids):
            return int(legal[0]), None
        q, f = np.divmod(bids - _LD_BID, FACE_SLOTS)
        chance = at_least[f, np.clip(q + 1 - own_mine[f], 0, top)]
        # its strongest face: the one with the most of its own dice toward it
        believed = chance >= EVEN
        if believed.any():
            strongest = max(set(f[believed].tolist()), key=lambda face: (own_mine[face], face))
            pick = np.flatnonzero(believed & (f == strongest))
            return int(bids[pick[np.argmax(q[pick])]]), None  # as high as even odds allow
        if seen["last"] is not None and (legal == _LD_LIAR).any():
            return _LD_LIAR, None
        return int(bids[np.argmax(chance)]), None  # an opening bet that must be made


# -- Lying Pirates: the threshold bidder at the betting, the heuristic elsewhere ---------------------------
class _OddsBettor(LiarsDiceOdds):
    """``LiarsDiceOdds`` handed Lying Pirates' decoded betting view (as the heuristic's own bettor is)."""

    read = staticmethod(_Bettor.read)
    classic = staticmethod(_Bettor.classic)


class LyingPiratesOdds(LyingPiratesHeuristic):
    """Bets as ``LiarsDiceOdds`` (calls any bet below even odds, jumps on its strongest face); sails,
    fights and plays cards as the heuristic does."""

    name = "odds"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.bettor = _OddsBettor(seed=seed)


# -- Libertalia: today's best card, no plan for the days left ------------------------------------------
class LibertaliaMyopic(LibertaliaHeuristic):
    """Plays the card worth most today (booty, ability and den, valued as the heuristic values them), with no
    plan for the days left: the heuristic keeps strong cards for richer days, this player spends them now.
    Takes booty and targets as the heuristic does."""

    name = "myopic"

    def choose_card(self, view: View, candidates: list[int], exact_place: dict[int, int] | None = None) -> int:
        odds = {c: self._place_odds(view, c) for c in candidates}

        def today(c: int) -> float:
            place = exact_place.get(c) if exact_place else None
            return self.card_value(view, view.day, c, place, odds[c])

        return max(candidates, key=today)


OUTSIDERS: dict[str, dict[str, Callable[..., Any]]] = {
    "lowball": {"spytails_v0": SpytailsLowball},
    "odds": {"liars_dice_v0": LiarsDiceOdds, "lying_pirates_v0": LyingPiratesOdds},
    "myopic": {"libertalia_v0": LibertaliaMyopic},
}


def make_outsider(kind: str, env_name: str | None, seed: int | None = None) -> Any:
    """The outside-style player ``kind`` (``outsider``: the game's one) of ``env_name``."""
    games = {game: cls for players in OUTSIDERS.values() for game, cls in players.items()}
    table = games if kind == "outsider" else OUTSIDERS[kind]
    if env_name not in table:
        where = ", ".join(f"{name} ({', '.join(players)})" for name, players in OUTSIDERS.items())
        raise ValueError(f"agent spec {kind!r} has no player for {env_name!r}; outside-style players: {where}")
    return table[env_name](seed=seed)
