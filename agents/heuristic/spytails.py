"""The Spytails heuristic for ``spytails_v0``: it forecasts the count it is likeliest to hit and plays
to hit it exactly.

It decodes its observation through the named views of ``bidbluff.envs.spytails.codec.LAYOUT``.

* **Forecast**: every hand card gets two chances from what the others may hold
  (each seat's hidden cards and hand size give, card by card, the chance that it
  holds a card that tops ours, and the chance that it must: it holds the suit
  but nothing under our card): that the card *can* win an operation when played
  to win, and that it *must* win one however it is played (a card no one tops
  wins wherever it follows suit).  How much the table wants operations (the bids
  made, the fair share for the rest) sets how often a seat that could top a card
  does.  The ducking tools it holds (the ghost token, Mirage's flip, Ghost Moves,
  Skunk Bombs, a card more than the seven operations) each take part of the forced
  win off its most dangerous card.  The count of forced wins F and of possible
  wins W is then computed exactly over the cards (a small dynamic programme); a
  forecast k is hit when F <= k <= W, each of the k - F wins it has to go and take
  coming off with a fixed chance.  The forecast is the k most likely to be hit
  (missions that pay for a count add a little).  The stake follows the hit chance
  (Kelly's fraction of its influence, more in the last round); in the revision
  pass it forecasts again with every bid known and changes only for a clear gain.
* **Operations**: still short of its forecast, it wins with the cheapest card
  that is likely to hold (the chance that a later seat tops it comes from the
  same card chances), last in the operation with the cheapest winner; it flips
  Mimic when that is the only way to win; when it cannot win, it sheds its
  strongest card beyond those it still needs and keeps its low cards for ducking.
  At its forecast (or past it, or when it can no longer reach it) it **ducks**:
  it plays its strongest card that does not win (a card that does not win now
  cannot win later, so the dangerous ones go first), leads the card most likely
  to be topped (a low card the others must top; a Ghost Move when no card is),
  and when every card would win it uses a ducking tool: the ghost token, Mirage's
  flip, a Skunk Bomb; and otherwise the winner most likely to be topped, or its
  most dangerous card.  Aces go high to win and low to duck.
* **Reinforcements**: cards that give control (Alpha Strikes, Ghost Moves,
  Skunk Bombs, aces, shrews, trumps) before middle cards; it removes a middle
  card (7 or 8 first) for good.
* Repays leverage whenever it may; picks Alka, then Mirage, when characters are
  chosen.

``heuristic@2026-11`` (``bidbluff.agents.heuristic.spytails_2026_11``) is the
first heuristic, kept for comparisons.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from bidbluff.agents.base import SeededAgent, legal_ids
from bidbluff.envs.core.fields import hot
from bidbluff.envs.spytails.codec import CODEC, LAYOUT
from bidbluff.envs.spytails.content import (
    ACE,
    ALKA,
    ALPHA_STRIKE,
    CARD_RANK,
    CARD_SUIT,
    GHOST_MOVE,
    INTIMIDATION,
    MAX_BID,
    MIMIC,
    MIRAGE,
    MISSIONS,
    NO_SUIT,
    NUM_CARDS,
    OPERATIONS,
    ROW_REWARDS,
    SHREW_RANKS,
    SKUNK_BOMB,
    SUITS,
    RoundRules,
    is_mission,
    round_rules,
)
from bidbluff.envs.spytails.rules import DECISIONS

_OFF = CODEC.offset
Play = tuple[int, bool, bool]  # (card, played low, mimicked); card -1 for a ghost token


def wins(trick: list[Play], rules: RoundRules) -> int | None:
    """Index in ``trick`` of the winning play, or None (the engine's ``winning_play`` on what a seat sees)."""
    plays = [(i, c, low, mimic) for i, (c, low, mimic) in enumerate(trick) if c >= 0]
    if any(c == SKUNK_BOMB for _, c, _, _ in plays):
        return None
    for i, c, _, _ in plays:
        if c == ALPHA_STRIKE:
            return i
    suited = [
        (i, INTIMIDATION if mimic else CARD_SUIT[c], 1 if low else CARD_RANK[c])
        for i, c, low, mimic in plays
        if CARD_SUIT[c] != NO_SUIT
    ]
    if not suited:
        return None
    target = suited[0][1]
    if rules.trump and any(s == INTIMIDATION for _, s, _ in suited):
        target = INTIMIDATION
    best = None
    for i, s, v in suited:
        if s != target:
            continue
        if best is None or (v < best[1] if rules.lowest_wins else v > best[1]):
            best = (i, v)
    return best[0] if best else None


def power(c: int, low: bool, rules: RoundRules) -> int:
    """How high a suited play ranks within its suit under this round's rules (higher beats lower)."""
    value = 1 if low else CARD_RANK[c]
    return 15 - value if rules.lowest_wins else value


def strength(c: int, low: bool, rules: RoundRules) -> float:
    """How strong a play is overall: to choose the cheapest winner, or the most dangerous card to shed."""
    if c == ALPHA_STRIKE:
        return 100.0
    if CARD_SUIT[c] == NO_SUIT:
        return 0.0
    return power(c, low, rules) + (30.0 if CARD_SUIT[c] == INTIMIDATION and rules.trump else 0.0)


def control_value(c: int) -> float:
    """How much a card helps hit a forecast exactly (reinforcements): sure winners and sure losers
    give control, middle cards the least."""
    if c == ALPHA_STRIKE:
        return 10.0
    if c == GHOST_MOVE:
        return 8.0
    if c == SKUNK_BOMB:
        return 7.0
    rank = CARD_RANK[c]
    if rank == ACE:
        return 8.0  # high to win, low to duck
    if CARD_SUIT[c] == INTIMIDATION:
        return 4.0 + max(0, rank - 8) * 0.5 if rank not in SHREW_RANKS else 5.0
    if rank in SHREW_RANKS:
        return 5.0  # ducks under anything, and costs whoever wins the operation
    return {13: 5.0, 12: 4.5, 11: 4.0, 10: 4.0, 9: 3.0, 4: 5.0, 5: 4.0, 6: 2.5, 8: 2.0, 7: 1.5}[rank]


def chance_holds(pool: np.ndarray, in_hand: int, wanted: np.ndarray, total: int | None = None) -> float:
    """Chance that ``in_hand`` cards drawn from ``pool`` (counts per card) hold at least one ``wanted`` card
    (``total``: the pool's size, when known)."""
    total = int(pool.sum()) if total is None else total
    good = int(pool @ wanted)
    if in_hand <= 0 or good == 0:
        return 0.0
    if total - good < in_hand:
        return 1.0
    miss = 1.0
    for i in range(in_hand):
        miss *= (total - good - i) / (total - i)
    return 1.0 - miss


_SUIT_MASKS = tuple(np.array([CARD_SUIT[c] == s for c in range(NUM_CARDS)]) for s in range(len(SUITS)))
_ALPHA_MASK = np.arange(NUM_CARDS) == ALPHA_STRIKE
_SKUNK_MASK = np.arange(NUM_CARDS) == SKUNK_BOMB


@dataclass
class Seat:
    """What the observer knows of another seat's hand: cards surely held, the pool the rest come from."""

    known: np.ndarray  # counts per card
    pool: np.ndarray  # counts per card, its void suits left out
    in_hand: int  # cards of the pool in its hand
    need: int  # operations it still wants (its bid less its wins; 0 when unknown or reached)
    bid_known: bool
    # answers of ``holds`` by mask: one decision asks about the same suits and beaters many times (the masks
    # are long-lived arrays: module constants or ``beaters``/``duckers``' cached ones)
    asked: dict[int, float] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self.total = int(self.pool.sum())

    def holds(self, wanted: np.ndarray) -> float:
        key = id(wanted)
        if key not in self.asked:
            sure = bool(self.known @ wanted)
            self.asked[key] = 1.0 if sure else chance_holds(self.pool, self.in_hand, wanted, self.total)
        return self.asked[key]


@lru_cache(maxsize=512)
def beaters(c: int, low: bool, lowest_wins: bool) -> np.ndarray:
    """The cards that top the suited play (``c``, ``low``) in its own suit, and the Alpha Strike."""
    rules = RoundRules(lowest_wins=lowest_wins)
    mine = power(c, low, rules)
    top = _ALPHA_MASK.copy()
    for other in range(ALPHA_STRIKE):
        if CARD_SUIT[other] == CARD_SUIT[c]:
            # an opponent's ace goes high or low as it likes: it tops what either side tops
            sides = (False, True) if CARD_RANK[other] == ACE else (False,)
            top[other] = max(power(other, side, rules) for side in sides) > mine
    top.flags.writeable = False
    return top


@lru_cache(maxsize=512)
def duckers(c: int, low: bool, lowest_wins: bool) -> np.ndarray:
    """The cards of the play's suit that follow it without topping it (lower, or equal: the earlier wins)."""
    rules = RoundRules(lowest_wins=lowest_wins)
    mine = power(c, low, rules)
    under = np.zeros(NUM_CARDS, dtype=bool)
    for other in range(ALPHA_STRIKE):
        if CARD_SUIT[other] == CARD_SUIT[c]:
            sides = (False, True) if CARD_RANK[other] == ACE else (False,)
            under[other] = min(power(other, side, rules) for side in sides) <= mine
    under.flags.writeable = False
    return under


def chance_topped(c: int, low: bool, seats: list[Seat], rules: RoundRules, willing: float) -> float:
    """Chance that one of ``seats`` tops the play.  A seat that wants a win tops it whenever it holds a
    higher card of its suit (or, void in that suit, a trump); one that does not tops it when it must (it
    holds the suit but no card under ours), and otherwise with chance ``willing``."""
    own = CARD_SUIT[c]
    if own == NO_SUIT:
        return 0.0 if c == ALPHA_STRIKE else 1.0
    higher = beaters(c, low, rules.lowest_wins)
    under = duckers(c, low, rules.lowest_wins)
    trumps = _SUIT_MASKS[INTIMIDATION] if rules.trump and own != INTIMIDATION else None
    suit_mask = _SUIT_MASKS[own]
    safe = 1.0
    for seat in seats:
        above = seat.holds(higher)
        forced = above * (1.0 - seat.holds(under))
        can = above
        if trumps is not None:
            void = 1.0 - seat.holds(suit_mask)
            can = 1.0 - (1.0 - can) * (1.0 - void * seat.holds(trumps))
        safe *= 1.0 - (can if seat.need > 0 else forced + willing * max(0.0, can - forced))
    return 1.0 - safe


# -- the forecast model: how often each card can win, and must win ----------------------------------
CAN_WIN_IF_TOPPABLE = 0.15  # a card others could top still wins this often (they duck, or play it elsewhere)
WIN_WHEN_HUNTING = 0.8  # a card that can win does so this often when played for it (timing, following suit)
MUST_WIN_FREE = 0.65  # a card no one tops wins this often however it is played (void elsewhere: discarded)
TOPPED_WHEN_DUCKING = 0.6  # a toppable card is topped this often when its owner ducks
TOOL_RELIEF = 0.6  # each ducking tool takes this share of the forced win off the most dangerous card
ALPHA_WINS = 0.9
# A win it has to go and take (not one forced on it) comes off this often: the card has to be played where
# it wins, and the lead that comes with it has to be given away again.  Against three players that only
# duck, a forecast two above its forced wins is hit about a third of the time.
VOLUNTARY_HIT = 0.8
DANGEROUS = 8  # a card this strong (an 8 and up, any trump) tends to win an operation led low
# The model leaves out how well ducking works: measured against the first heuristic, a forecast it gives
# 0.55 is hit 0.70 of the time, one it gives 0.65 is hit 0.85 (the stake reads the chance this much higher)
HIT_UNDERSTATED = 0.0


def card_chances(c: int, seats: list[Seat], rules: RoundRules, appetite: float) -> tuple[float, float]:
    """(chance ``c`` can win an operation, chance it must) at forecast time; an ace takes its better side."""
    if c == ALPHA_STRIKE:
        skunk = 1.0 - math.prod(1.0 - s.holds(_SKUNK_MASK) for s in seats)
        chance = ALPHA_WINS * (1.0 - 0.5 * skunk)
        return chance, chance
    if CARD_SUIT[c] == NO_SUIT:
        return 0.0, 0.0
    sides = (False, True) if CARD_RANK[c] == ACE else (False,)
    can, must = 0.0, 1.0
    for low in sides:
        toppable = chance_topped(c, low, seats, rules, willing=1.0)
        forced = chance_topped(c, low, seats, rules, willing=0.0)  # topped by those that must
        can = max(can, WIN_WHEN_HUNTING * (1.0 - toppable * (1.0 - min(0.9, CAN_WIN_IF_TOPPABLE / appetite))))
        topped = forced + (toppable - forced) * min(0.95, TOPPED_WHEN_DUCKING * appetite)
        must = min(must, MUST_WIN_FREE * (1.0 - topped))
    return can, min(can, must)


def hit_chances(chances: list[tuple[float, float]], tools: int) -> np.ndarray:
    """``p[k]``: chance of hitting k: the forced wins F and possible wins W of the cards satisfy F <= k <= W,
    and each of the k - F wins it must go and take comes off (``VOLUNTARY_HIT`` each).

    Each tool relieves the card most likely to be forced of part of its forced win."""
    ordered = sorted(chances, key=lambda cm: -cm[1])
    relieved = [(can, must * (1.0 - TOOL_RELIEF) if i < tools else must) for i, (can, must) in enumerate(ordered)]
    size = OPERATIONS + 1
    dist = np.zeros((size, size))  # [F, W]
    dist[0, 0] = 1.0
    for can, must in relieved:
        step = np.zeros_like(dist)
        step[1:, 1:] += dist[:-1, :-1] * must
        step[:, 1:] += dist[:, :-1] * (can - must)
        step += dist * (1.0 - can)
        step[:, -1] += dist[:, -1] * (can - must)  # W saturates at seven operations
        step[-1, -1] += dist[-1, -1] * must
        dist = step
    f_index, w_index = np.indices(dist.shape)
    return np.array(
        [
            (dist * VOLUNTARY_HIT ** np.maximum(0, k - f_index))[(f_index <= k) & (k <= w_index)].sum()
            for k in range(MAX_BID + 1)
        ]
    )


def mission_bonus(row: list[int], rules: RoundRules) -> np.ndarray:
    """Influence a count k earns from the row's missions that pay for a count, shared with one other seat
    on average."""
    bonus = np.zeros(MAX_BID + 1)
    for slot, c in enumerate(row):
        if not is_mission(c):
            continue
        share = ROW_REWARDS[slot] / 2
        name = MISSIONS[c].name
        if name == "Lie Low":
            bonus[0] += share
        elif name == "Double Agent":
            bonus[2] += share
        elif name == "Mastermind":
            bonus[4:] += share
        elif name == "Sure Thing":
            bonus[3:] += share
    return bonus


class SpytailsReader(SeededAgent):
    """What every Spytails heuristic reads from its observation, and the dispatch of its decisions.

    A player takes each open decision of ``rules.DECISIONS`` in the method named after it (``_bid``,
    ``_play``, ...); a player class that lacks one is refused when it is defined, not mid-game.

    The card trades (regroup, Echo, reinforcements, removal) are made here, each player ranking cards by its
    own ``card_value``: it takes the deck's unknown top card when no display card is worth ``TAKE_TOP_UNDER``,
    and removes its least valued card only when that is worth less than ``REMOVE_UNDER``.
    """

    card_value: Callable[[int], float]
    TAKE_TOP_UNDER: float
    REMOVE_UNDER: float

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        missing = [d for d in DECISIONS if not callable(getattr(cls, f"_{d}", None))]
        if missing:
            raise TypeError(f"{cls.__name__} has no method _<decision> for the decisions {missing} (of {DECISIONS})")
        if not callable(getattr(cls, "card_value", None)):
            raise TypeError(f"{cls.__name__} has no card_value: the value its card trades rank cards by")

    @staticmethod
    def hand(obs: np.ndarray) -> list[int]:
        counts = LAYOUT.view(obs).counts("hand")[0]
        return [c for c in range(NUM_CARDS) for _ in range(counts[c])]

    @staticmethod
    def rules(obs: np.ndarray) -> RoundRules:
        return round_rules(tuple(int(np.argmax(r)) for r in LAYOUT.view(obs).row if r.any()))

    @staticmethod
    def trick(obs: np.ndarray) -> tuple[list[Play], int]:
        """The operation so far, in play order, and the number of seats at the table."""
        view = LAYOUT.view(obs)
        n = int((view.present > 0.5).sum())
        placed = []
        seats = zip(view.operation_order[:n], view.operation_card[:n], view.operation_flags[:n].tolist(), strict=True)
        for order, card, flags in seats:
            place = hot(order)
            if place < 0:
                continue
            low, mimic, ghost = (v > 0.5 for v in flags)
            placed.append((place, (-1 if ghost else hot(card), low, mimic)))
        return [p for _, p in sorted(placed)], n

    def act(self, observation: dict[str, np.ndarray], agent: str) -> int:
        legal = [int(i) for i in legal_ids(observation, agent)]
        obs = observation["observation"]
        decision = DECISIONS[LAYOUT.view(obs).index("decision")]
        choice = getattr(self, f"_{decision}")(obs, legal)
        return choice if choice in legal else int(self.rng.choice(legal))

    def _repay(self, obs: np.ndarray, legal: list[int]) -> int:
        return _OFF["repay"]  # the rules leave one move

    def _regroup(self, obs: np.ndarray, legal: list[int]) -> int:
        if _OFF["confirm"] in legal:
            return _OFF["confirm"]
        picks = [i for i in legal if _OFF["discard"] <= i < _OFF["discard"] + NUM_CARDS]
        return min(picks, key=lambda i: self.card_value(i - _OFF["discard"]))

    def _echo_take(self, obs: np.ndarray, legal: list[int]) -> int:
        return max(legal, key=lambda i: self.card_value(i - _OFF["echo_take"]))

    def _echo_give(self, obs: np.ndarray, legal: list[int]) -> int:
        return min(legal, key=lambda i: self.card_value(i - _OFF["echo_give"]))

    def _reinforce(self, obs: np.ndarray, legal: list[int]) -> int:
        takes = [i for i in legal if _OFF["take"] <= i < _OFF["take"] + NUM_CARDS]
        best = max(takes, key=lambda i: self.card_value(i - _OFF["take"]), default=None)
        if best is None or (self.card_value(best - _OFF["take"]) < self.TAKE_TOP_UNDER and _OFF["take_top"] in legal):
            return _OFF["take_top"]
        return best

    def _remove(self, obs: np.ndarray, legal: list[int]) -> int:
        removes = [i for i in legal if _OFF["remove"] <= i < _OFF["remove"] + NUM_CARDS]
        worst = min(removes, key=lambda i: self.card_value(i - _OFF["remove"]), default=None)
        if worst is not None and self.card_value(worst - _OFF["remove"]) < self.REMOVE_UNDER:
            return worst
        return _OFF["remove_none"]


def card_options(legal: list[int]) -> list[tuple[int, int, bool]]:
    """(action id, card, played low) of every card play in ``legal``."""
    options = []
    for i in legal:
        if _OFF["play"] <= i < _OFF["play"] + NUM_CARDS:
            options.append((i, i - _OFF["play"], False))
        elif _OFF["play_low"] <= i < _OFF["play_low"] + len(SUITS):
            options.append((i, (i - _OFF["play_low"]) * 13 + ACE - 2, True))
    return options


@dataclass
class Turn:
    """A card play as this seat sees it: its options split by whether they win the operation now."""

    legal: list[int]
    winners: list[tuple[int, int, bool]]  # (action id, card, played low)
    losers: list[tuple[int, int, bool]]
    topped: Callable[[int, bool], float]  # chance that a later seat tops this play
    rules: RoundRules
    leading: bool
    last: bool
    need: int  # operations still to win for the forecast

    def strength(self, option: tuple[int, int, bool]) -> float:
        return strength(option[1], option[2], self.rules)


class SpytailsHeuristic(SpytailsReader):
    """Forecasts the count it is likeliest to hit and plays to hit it; see the module docstring."""

    name = "heuristic"
    card_value = staticmethod(control_value)
    TAKE_TOP_UNDER = 5.0
    REMOVE_UNDER = 3.0  # a 6, 7 or 8: middle cards give the least control

    # -- the table as this seat sees it ----------------------------------------------------------------
    @staticmethod
    def seats(obs: np.ndarray) -> list[Seat]:
        """The other seats, clockwise from the next one."""
        view = LAYOUT.view(obs)
        n = int((view.present > 0.5).sum())
        known, pool = view.counts("hand"), view.counts("hidden")
        sizes, bids, won, voids = view.counts("hand_size"), view.bid, view.won, view.voids
        out = []
        for s in range(1, n):
            fits = pool[s].copy()
            for suit in range(len(SUITS)):
                if voids[s, suit] > 0.5:
                    fits[_SUIT_MASKS[suit]] = 0
            bid = hot(bids[s])
            need = max(0, bid - hot(won[s])) if bid >= 0 else 0
            out.append(Seat(known[s], fits, max(0, int(sizes[s]) - int(known[s].sum())), need, bid >= 0))
        return out

    @staticmethod
    def tools(obs: np.ndarray, rules: RoundRules, hand: list[int]) -> int:
        """Ducking tools at hand for the round: ghost token, Mirage, Ghost Moves, Skunk Bombs, spare cards."""
        view = LAYOUT.view(obs)
        used = view.tokens_used[0] > 0.5
        count = sum(c in (GHOST_MOVE, SKUNK_BOMB) for c in hand)
        count += max(0, len(hand) - OPERATIONS)
        if rules.ghost and not used[0] and view.decoded("influence")[0] >= 2:
            count += 1
        if rules.power and not used[2] and hot(view.character[0]) == MIRAGE:
            count += 1
        return count

    def forecast(self, obs: np.ndarray) -> np.ndarray:
        """Per count k (0..5): the chance of hitting it."""
        rules = self.rules(obs)
        hand = self.hand(obs)
        seats = self.seats(obs)
        # how hungry the table is: known bids count as they are, unknown ones at the fair share
        fair = OPERATIONS / (len(seats) + 1)
        wanted = sum(s.need if s.bid_known else fair for s in seats) + fair
        appetite = float(np.clip(wanted / OPERATIONS, 0.5, 1.6))
        chances = [card_chances(c, seats, rules, appetite) for c in hand]
        return hit_chances(chances, self.tools(obs, rules, hand))

    def best_forecast(self, obs: np.ndarray) -> tuple[int, float]:
        """The count to forecast and its chance of being hit."""
        hit = self.forecast(obs)
        row = [int(np.argmax(r)) for r in LAYOUT.view(obs).row if r.any()]
        value = hit + 0.05 * mission_bonus(row, self.rules(obs)) * hit
        bid = int(np.argmax(value))
        return bid, float(hit[bid])

    # -- deciding ---------------------------------------------------------------------------------------
    def _character(self, obs: np.ndarray, legal: list[int]) -> int:
        for character in (ALKA, MIRAGE):
            if _OFF["character"] + character in legal:
                return _OFF["character"] + character
        return legal[0]

    def _bid(self, obs: np.ndarray, legal: list[int]) -> int:
        return _OFF["bid"] + self.best_forecast(obs)[0]

    def _stake(self, obs: np.ndarray, legal: list[int]) -> int:
        view = LAYOUT.view(obs)
        bid = hot(view.bid[0])
        hit = self.forecast(obs)[bid] if bid >= 0 else 0.5
        hit = min(0.95, hit + HIT_UNDERSTATED)
        rules = self.rules(obs)
        gain = rules.forecast_gain
        # Kelly's fraction for a bet paying ``gain`` to 1; the last round is for winning, not for keeping
        fraction = max(0.0, (hit * (gain + 1) - 1) / gain)
        if view.final_round > 0.5:
            fraction = min(1.0, fraction * 1.5)
        bankroll = view.decoded("influence")[0]
        stakes = sorted(i - _OFF["stake"] + 1 for i in legal)
        want = round(fraction * bankroll)
        want = min(want, int(bankroll) - 1)  # keep 1 for the ghost token and a shrew
        want = max(stakes[0], min(want, stakes[-1]))
        return _OFF["stake"] + want - 1

    def _revise(self, obs: np.ndarray, legal: list[int]) -> int:
        view = LAYOUT.view(obs)
        bid = hot(view.bid[0])
        hit = self.forecast(obs)
        best = int(np.argmax(hit))
        if bid >= 0 and best != bid and hit[best] > hit[bid] + 0.1:
            return _OFF["change_forecast"]
        return _OFF["keep_forecast"]

    def _play(self, obs: np.ndarray, legal: list[int]) -> int:
        options = card_options(legal)
        if not options:
            return legal[0]
        trick, n = self.trick(obs)
        rules = self.rules(obs)
        view = LAYOUT.view(obs)
        mimic = view.armed[0] > 0.5
        seats = self.seats(obs)
        me = len(trick)
        later = seats[: n - 1 - me]  # the seats still to play in this operation, in order
        bid = hot(view.bid[0])
        need = (bid if bid >= 0 else 0) - hot(view.won[0])
        ops_left = OPERATIONS - max(0, hot(view.operation))
        hunting = 0 < need <= ops_left

        def winning(c: int, low: bool) -> bool:
            return wins([*trick, (c, low, mimic and CARD_SUIT[c] != NO_SUIT)], rules) == me

        def topped(c: int, low: bool) -> float:
            if mimic and CARD_SUIT[c] != NO_SUIT:
                c = c % 13 + INTIMIDATION * 13  # a Mimic card counts as the intimidation card of its rank
            return chance_topped(c, low, later, rules, willing=0.2)

        turn = Turn(
            legal,
            [o for o in options if winning(o[1], o[2])],
            [o for o in options if not winning(o[1], o[2])],
            topped,
            rules,
            leading=not trick,
            last=not later,
            need=need,
        )
        return self.hunt(obs, turn) if hunting else self.duck(obs, turn)

    def hunt(self, obs: np.ndarray, turn: Turn) -> int:
        """Short of the forecast: win with the cheapest card likely to hold."""
        winners, topped = turn.winners, turn.topped
        if winners:
            if turn.last:
                return min(winners, key=turn.strength)[0]
            holding = [o for o in winners if topped(o[1], o[2]) < 0.25]
            if holding:
                return min(holding, key=turn.strength)[0]
            return min(winners, key=lambda o: (topped(o[1], o[2]), -turn.strength(o)))[0]
        view = LAYOUT.view(obs)
        if _OFF["power"] in turn.legal and hot(view.character[0]) == MIMIC and view.armed[0] < 0.5:
            return _OFF["power"]  # Mimic turns a plain card into a trump: the only way to win here
        # cannot win: keep the strongest cards it still needs and the low ones it ducks with once the forecast
        # is reached; shed the strongest card beyond what it needs (it would win when it must not), else a
        # shrew (it costs whoever wins), else the weakest
        hand = sorted((strength(c, False, turn.rules) for c in self.hand(obs)), reverse=True)
        spare = [o for o in turn.losers if turn.strength(o) < hand[min(turn.need, len(hand)) - 1] and not o[2]]
        dangerous = [o for o in spare if turn.strength(o) >= DANGEROUS]
        if dangerous:
            return max(dangerous, key=turn.strength)[0]
        return min(turn.losers, key=lambda o: (CARD_RANK[o[1]] not in SHREW_RANKS and not o[2], turn.strength(o)))[0]

    def duck(self, obs: np.ndarray, turn: Turn) -> int:
        """At (or past) the forecast, or unable to reach it: lose the operation."""
        view = LAYOUT.view(obs)
        winners, losers, topped, legal = turn.winners, turn.losers, turn.topped, turn.legal
        if turn.leading:  # the card most likely to be topped
            scored = []
            for o in winners + losers:
                c = o[1]
                if c == GHOST_MOVE:
                    score = 0.9
                elif c == SKUNK_BOMB:
                    score = 0.5  # no winner, but the lead comes back
                elif c == ALPHA_STRIKE:
                    score = 0.0
                else:
                    score = topped(c, o[2])
                scored.append((score, turn.strength(o), o[0]))
            score, _, best = max(scored)
            stake = view.decoded("stake")[0]
            if score < 0.5 and _OFF["ghost"] in legal and stake >= 2:
                return _OFF["ghost"]
            return best
        if losers:
            return max(losers, key=lambda o: (turn.strength(o), o[2]))[0]
        # every card wins now: a tool, else the winner likeliest to be topped by a later seat
        chances = [(topped(o[1], o[2]), turn.strength(o), o[0]) for o in winners]
        best_chance = max(chances)
        if best_chance[0] >= 0.7:
            return best_chance[2]
        if _OFF["ghost"] in legal:
            return _OFF["ghost"]
        if _OFF["power"] in legal and hot(view.character[0]) == MIRAGE and view.armed[1] < 0.5:
            return _OFF["power"]
        if best_chance[0] > 0.2:
            return best_chance[2]
        # a win it cannot avoid: spend its most dangerous card on it
        return max(winners, key=turn.strength)[0]
