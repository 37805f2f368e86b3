"""Spytails' components as data: cards, characters, the special deck, missions, events.

Cards are integer types.  A suited card is ``suit * 13 + rank - 2`` with ranks
2..14 (J 11, Q 12, K 13, A 14); the three no-suit specials follow as 52-54.
Copies of a type are interchangeable, so hands, decks and piles are lists of
types.  The special deck's counts, the missions and the events are stand-ins
(the source shows none of them in full); ``docs/rules/spytails.md`` lists
each one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache

# -- cards ------------------------------------------------------------------------------
SUITS = ("Stalk", "Codebreaking", "Surveillance", "Intimidation")
STALK, CODEBREAKING, SURVEILLANCE, INTIMIDATION = range(4)
PLAIN_SUITS = (STALK, CODEBREAKING, SURVEILLANCE)  # the basic decks' suits; Mimic's cards
RANKS_PER_SUIT = 13
JACK, QUEEN, KING, ACE = 11, 12, 13, 14
SHREW_RANKS = (2, 3)
ALPHA_STRIKE, GHOST_MOVE, SKUNK_BOMB = 52, 53, 54
NUM_CARDS = 55
NO_SUIT = -1
LOW_ACE = 1  # face value of an ace played low


def card(suit: int, rank: int) -> int:
    """Type of the suited card ``rank`` (2..14) of ``suit``."""
    return suit * RANKS_PER_SUIT + rank - 2


CARD_SUIT = tuple(c // RANKS_PER_SUIT if c < ALPHA_STRIKE else NO_SUIT for c in range(NUM_CARDS))
CARD_RANK = tuple(c % RANKS_PER_SUIT + 2 if c < ALPHA_STRIKE else 0 for c in range(NUM_CARDS))
ACES = tuple(card(s, ACE) for s in range(len(SUITS)))
_RANK_NAMES = {JACK: "J", QUEEN: "Q", KING: "K", ACE: "A"}
_SPECIAL_NAMES = ("Alpha Strike", "Ghost Move", "Skunk Bomb")


def _card_name(c: int) -> str:
    if c >= ALPHA_STRIKE:
        return _SPECIAL_NAMES[c - ALPHA_STRIKE]
    return f"{_RANK_NAMES.get(CARD_RANK[c], CARD_RANK[c])} {SUITS[CARD_SUIT[c]]}"


CARD_NAMES = tuple(_card_name(c) for c in range(NUM_CARDS))

# Each player's basic deck: 4-10 in the three plain suits (21 cards).
BASIC_DECK = tuple(card(s, r) for s in PLAIN_SUITS for r in range(4, 11))

# The shared special deck (stand-in counts, 71 cards).  At most 2 x players
# cards leave it per round and at most 8 rounds have a reinforcement after
# them, so it never runs dry: 4 players take at most 7 x 8 = 56.
SPECIAL_COUNTS: dict[int, int] = {
    **{card(s, r): 2 for s in range(len(SUITS)) for r in (2, 3, JACK, QUEEN, KING, ACE)},
    **{card(INTIMIDATION, r): 2 for r in range(4, 11)},
    ALPHA_STRIKE: 3,
    GHOST_MOVE: 3,
    SKUNK_BOMB: 3,
}
SPECIAL_DECK = tuple(sorted(c for c, k in SPECIAL_COUNTS.items() for _ in range(k)))

CARD_TEXT = {
    ACE: "plays as 14 or as 1; as 1 it is a shrew",
    2: "shrew: the winner loses 1 influence",
    3: "shrew: the winner loses 1 influence",
    JACK: "winning card: refresh your regroup token",
    QUEEN: "winning card: draw 1 card",
    KING: "winning card: gain 1 influence",
}
SPECIAL_TEXT = {
    ALPHA_STRIKE: "no suit, any turn: the first Alpha Strike wins",
    GHOST_MOVE: "no suit, any turn: always loses",
    SKUNK_BOMB: "no suit, any turn: no winner, the same leader leads again",
}

# -- characters ---------------------------------------------------------------------------
CHARACTERS = ("Alka", "Mimic", "Mirage", "Echo")
ALKA, MIMIC, MIRAGE, ECHO = range(4)
POWER_TEXT = (
    "passive: whenever drawing, draw one more (starts with 8)",
    "flip: the suited card you play counts as intimidation",
    "flip: play off-suit although able to follow",
    "flip: swap one hand card with one card of your discard pile",
)

# -- the table ------------------------------------------------------------------------------
START_INFLUENCE = 10
HAND_SIZE = 7
OPERATIONS = 7
MAX_BID = 5
MAX_STAKE = 10
LEVERAGE_TOKENS = 6
LEVERAGE_VALUE = 5
LEVERAGE_PENALTY = 8
MAX_EXTRA_ROUNDS = 3
MAX_ROUNDS = 6 + MAX_EXTRA_ROUNDS
ROW_REWARDS = (2, 3, 4)  # mission reward token under each slot of the row


def rounds_for(num_players: int) -> int:
    """Rounds in a game: 5 with four players, 6 with two or three."""
    return 5 if num_players == 4 else 6


# -- missions (stand-ins except Doppelganger's name and "exactly two operations") ---------
@dataclass(frozen=True)
class SeatRound:
    """What one seat did in the round just played; all of it public."""

    wins: int
    bid: int
    met_forecast: bool
    won_first: bool
    won_last: bool
    winning_cards: tuple[tuple[int, bool, bool], ...]  # (card, played low, mimicked) per operation won
    shrew_wins: int  # operations won that held a shrew
    ghosted: bool  # used the ghost token or played a Ghost Move


MissionTest = Callable[[SeatRound, tuple[SeatRound, ...]], bool]


@dataclass(frozen=True)
class Mission:
    name: str
    text: str
    test: MissionTest  # (this seat, every seat) -> met


def _value(play: tuple[int, bool, bool]) -> int:
    return LOW_ACE if play[1] else CARD_RANK[play[0]]


def _is_intimidation(play: tuple[int, bool, bool]) -> bool:
    return play[2] or CARD_SUIT[play[0]] == INTIMIDATION


MISSIONS = (
    Mission("Double Agent", "won exactly two operations", lambda me, table: me.wins == 2),
    Mission(
        "Doppelganger",
        "won as many operations as another player",
        lambda me, table: sum(other.wins == me.wins for other in table) > 1,
    ),
    Mission("Lie Low", "won no operation", lambda me, table: me.wins == 0),
    Mission("Mastermind", "won four or more operations", lambda me, table: me.wins >= 4),
    Mission("Opening Gambit", "won the first operation", lambda me, table: me.won_first),
    Mission("Last Word", "won the seventh operation", lambda me, table: me.won_last),
    Mission(
        "Heavy Hand",
        "won an operation with an intimidation card",
        lambda me, table: any(_is_intimidation(p) for p in me.winning_cards),
    ),
    Mission(
        "Royal Seal",
        "won an operation with a J, Q or K",
        lambda me, table: any(CARD_RANK[p[0]] in (JACK, QUEEN, KING) for p in me.winning_cards),
    ),
    Mission(
        "Underdog",
        "won an operation with a suited card of value 6 or less",
        lambda me, table: any(CARD_SUIT[p[0]] != NO_SUIT and _value(p) <= 6 for p in me.winning_cards),
    ),
    Mission("Shrew Wrangler", "won an operation that held a shrew", lambda me, table: me.shrew_wins > 0),
    Mission("Sure Thing", "met a forecast of three or more", lambda me, table: me.met_forecast and me.bid >= 3),
    Mission("Ghost Protocol", "used the ghost token or played a Ghost Move", lambda me, table: me.ghosted),
)


# -- events (stand-ins): rule changes for the round they are in force -----------------------
@dataclass(frozen=True)
class RoundRules:
    """The rules of one round, as the events in force leave them."""

    ghost: bool = True  # ghost tokens may be used
    regroup: bool = True  # regroup tokens may be used
    power: bool = True  # power tokens may be flipped (Alka's passive always works)
    trump: bool = True  # intimidation beats the led suit
    lowest_wins: bool = False  # the lowest eligible card wins instead of the highest
    forecast_gain: int = 1  # a met forecast gains this many times its stake
    stake_cap: int = MAX_STAKE
    shrew_cost: int = 1  # influence the winner pays per shrew


@dataclass(frozen=True)
class Event:
    name: str
    text: str
    changes: dict[str, int | bool]  # RoundRules fields it sets


EVENTS = (
    Event("Radio Silence", "ghost tokens cannot be used", {"ghost": False}),
    Event("Frozen Assets", "regroup tokens cannot be used", {"regroup": False}),
    Event("Blackout", "power tokens cannot be flipped (Alka still draws one more)", {"power": False}),
    Event("Martial Law", "intimidation is no trump: only the led suit can win", {"trump": False}),
    Event("Double Cross", "the lowest eligible card wins each operation", {"lowest_wins": True}),
    Event("High Stakes", "a met forecast gains twice its stake", {"forecast_gain": 2}),
    Event("Audit", "stakes are at most 3", {"stake_cap": 3}),
    Event("Shrew Season", "each shrew costs the winner 2 influence", {"shrew_cost": 2}),
)

# The mission/event deck: missions first, then events.
ROW_CARDS: tuple[Mission | Event, ...] = (*MISSIONS, *EVENTS)
NUM_ROW_CARDS = len(ROW_CARDS)


def is_mission(row_card: int) -> bool:
    return row_card < len(MISSIONS)


@lru_cache(maxsize=4096)
def round_rules(row: tuple[int, ...]) -> RoundRules:
    """The rules while the mission/event cards ``row`` are in force."""
    rules = RoundRules()
    for c in row:
        if not is_mission(c):
            rules = replace(rules, **ROW_CARDS[c].changes)
    return rules
