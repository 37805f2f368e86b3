"""Spytails' action ids and observation vector.

Actions (``Discrete(364)``); cards are the 55 types of ``content`` (suit * 13 +
rank - 2 for the four suits, then Alpha Strike 52, Ghost Move 53, Skunk Bomb 54)::

      0-3    character c    setup ("chosen" characters): Alka, Mimic, Mirage, Echo
      4-9    bid b          forecast: bid b (0-5) operations
     10-19   stake k        forecast: stake k (1-10) influence       (id 10 + k - 1)
     20      keep_forecast  revision pass: keep the forecast
     21      change_forecast  revision pass: take the stake back, bid and stake again
     22-76   play t         play card t (an ace as 14, "high")
     77-80   play_low s     play the ace of suit s as 1
     81      ghost          ghost token: pay 1 influence, play no card this operation
     82      regroup        regroup token: choose cards to discard, then draw as many
     83      power          power token (Mimic, Mirage: the next card; Echo: a swap)
     84-138  discard t      regroup: choose one more copy of t to discard
     139     confirm        regroup: discard the chosen cards and draw
     140-194 echo_take t    Echo: take t from the discard pile into the hand
     195-249 echo_give t    Echo: put t from the hand on the discard pile
     250-304 take t         reinforcements: take t from the display
     305     take_top       reinforcements: take the top of the special deck, unseen
     306-360 remove t       reinforcements: remove a card t from deck or discard for good
     361     remove_none    reinforcements: remove nothing
     362     repay          debriefing: repay one leverage token (-5 influence)
     363     keep_leverage  debriefing: repay no more this round

Ghost, regroup and power are offered alongside the card plays (and, for regroup
and Echo's power, alongside the forecast's bid and revision) while unused.

Observation (float32, 1605 values in [0, 1]): ``LAYOUT``, four seat blocks of
318, seats relative to the observer (0 = self, 1 = next clockwise) and padded
to four, then 333 shared values; ``LAYOUT.describe()`` is the table in
``envs/spytails/env.py``'s docstring.  Per-card fields index the 55 card types
above; card counts are count / 3, clipped at 1.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bidbluff.envs.core import speedups
from bidbluff.envs.core.codec import Action, ActionCodec, ActionKind
from bidbluff.envs.core.fields import Block, Field, Layout
from bidbluff.envs.spytails.content import (
    ACE,
    CARD_NAMES,
    CARD_RANK,
    CARD_SUIT,
    CHARACTERS,
    INTIMIDATION,
    MAX_BID,
    MAX_ROUNDS,
    MAX_STAKE,
    NO_SUIT,
    NUM_CARDS,
    NUM_ROW_CARDS,
    OPERATIONS,
    ROW_REWARDS,
    SPECIAL_DECK,
    SUITS,
)
from bidbluff.envs.spytails.rules import (
    DEBRIEFING,
    DECISIONS,
    FORECAST,
    GHOST_TOKEN,
    OPERATIONS_PHASE,
    PHASES,
    REINFORCE,
    SpytailsState,
)

MAX_PLAYERS = 4

CODEC = ActionCodec(
    [
        ActionKind("character", (len(CHARACTERS),), "setup: take character c"),
        ActionKind("bid", (MAX_BID + 1,), "forecast: bid b operations"),
        ActionKind("stake", (MAX_STAKE,), "forecast: stake k + 1 influence"),
        ActionKind("keep_forecast", (), "revision: keep the forecast"),
        ActionKind("change_forecast", (), "revision: forecast again"),
        ActionKind("play", (NUM_CARDS,), "play card t (an ace high)"),
        ActionKind("play_low", (len(SUITS),), "play the ace of suit s as 1"),
        ActionKind("ghost", (), "ghost token: pay 1, play no card"),
        ActionKind("regroup", (), "regroup token: choose cards to redraw"),
        ActionKind("power", (), "power token"),
        ActionKind("discard", (NUM_CARDS,), "regroup: choose one more t to discard"),
        ActionKind("confirm", (), "regroup: discard the chosen cards, draw"),
        ActionKind("echo_take", (NUM_CARDS,), "Echo: take t from the discard pile"),
        ActionKind("echo_give", (NUM_CARDS,), "Echo: discard t from the hand"),
        ActionKind("take", (NUM_CARDS,), "reinforcements: take t from the display"),
        ActionKind("take_top", (), "reinforcements: take the special deck's top"),
        ActionKind("remove", (NUM_CARDS,), "reinforcements: remove t for good"),
        ActionKind("remove_none", (), "reinforcements: remove nothing"),
        ActionKind("repay", (), "repay one leverage token"),
        ActionKind("keep_leverage", (), "repay no more"),
    ]
)


# The engine's action of every id (the codec's, but a stake of k influence is ``("stake", k)``), and back:
# the env looks both up at every step.
ACTIONS: tuple[Action, ...] = tuple(
    ("stake", coded[1] + 1) if coded[0] == "stake" else coded for coded in map(CODEC.decode, range(CODEC.n))
)
_IDS = {action: i for i, action in enumerate(ACTIONS)}


def action_to_id(action: Action) -> int:
    try:
        return _IDS[action]
    except KeyError:
        raise ValueError(f"{action!r} is not a Spytails action") from None


def id_to_action(action_id: int) -> Action:
    if not 0 <= action_id < CODEC.n:
        raise ValueError(f"action id {action_id} is outside 0..{CODEC.n - 1}")
    return ACTIONS[action_id]


def legal_ids(state: SpytailsState) -> list[int]:
    """Sorted ids of ``state.legal_actions()``."""
    return sorted(map(_IDS.__getitem__, state.legal_actions()))


_WORDS = {
    "keep_forecast": "keep forecast",
    "change_forecast": "change forecast",
    "ghost": "ghost token",
    "regroup": "regroup",
    "power": "power",
    "confirm": "confirm regroup",
    "take_top": "take top of special deck",
    "remove_none": "remove nothing",
    "repay": "repay leverage",
    "keep_leverage": "keep leverage",
}


def action_to_str(action: Action) -> str:
    kind = action[0]
    if kind in _WORDS:
        return _WORDS[kind]
    if kind == "character":
        return f"character {CHARACTERS[action[1]]}"
    if kind in ("bid", "stake"):
        return f"{kind} {action[1]}"
    if kind == "play_low":
        return f"play A {SUITS[action[1]]} low"
    name = CARD_NAMES[action[1]]
    if kind == "play":
        return f"play {name} high" if CARD_RANK[action[1]] == ACE else f"play {name}"
    return f"{kind.replace('_', ' ')} {name}"


# Observation layout, built once.
_CARDS = 3  # copies of a card type that a count field reads as 1
LAYOUT = Layout(
    Block(
        "seat",
        (
            Field("present", help="the seat is at the table"),
            Field("character", len(CHARACTERS), help="one-hot character"),
            Field("teammate", help="partnership: same team as the observer (self too)"),
            Field("start", help="holds the start token"),
            Field("leader", help="leads this operation"),
            Field("to_act", help="is to decide"),
            Field("influence", scale=40, help="influence (a hidden simultaneous forecast's stake counted back in)"),
            Field("stake", scale=MAX_STAKE, help="committed stake"),
            Field("bid", MAX_BID + 1, help="one-hot bid, when visible"),
            Field("forecast_made", help="has a forecast"),
            Field("leverage", scale=6, help="leverage tokens"),
            Field("won", OPERATIONS + 1, help="one-hot operations won"),
            Field("tokens_used", 3, help="ghost, regroup, power token used"),
            Field("hand_size", scale=16, help="cards in hand"),
            Field("deck_size", scale=40, help="cards in deck"),
            Field("voids", len(SUITS), help="per suit: showed void in it since it last drew"),
            Field("hand", NUM_CARDS, scale=_CARDS, help="own hand; another seat's: the cards all know it holds"),
            Field("hidden", NUM_CARDS, scale=_CARDS, help="own deck; another seat's: its other cards, hand or deck"),
            Field("discard", NUM_CARDS, scale=_CARDS, help="its discard pile"),
            Field("played", NUM_CARDS, scale=_CARDS, help="its cards played this round"),
            Field("operation_card", NUM_CARDS, help="one-hot: its card in this operation"),
            Field("operation_order", MAX_PLAYERS, help="one-hot: its place in the operation's order"),
            Field("operation_flags", 3, help="ace played low, mimicked (intimidation), ghost token"),
        ),
        count=MAX_PLAYERS,
        help="seat k: k seats clockwise from the observer (0: itself)",
    ),
    Block(
        "shared",
        (
            Field("round", MAX_ROUNDS, help="one-hot"),
            Field("final_round", help="this round is the last"),
            Field("operation", OPERATIONS, help="one-hot, during operations"),
            Field("phase", 4, help="one-hot: setup, forecast, operations, debriefing"),
            Field("forecast_pass", 2, help="one-hot: first, revision"),
            Field("decision", len(DECISIONS), help="one-hot open decision, ``rules.DECISIONS``"),
            Field("led_suit", len(SUITS), help="one-hot"),
            Field("armed", 2, help="armed power: Mimic, Mirage"),
            Field("row", (len(ROW_REWARDS), NUM_ROW_CARDS), help="per slot: the mission/event card, one-hot"),
            Field("display", NUM_CARDS, scale=_CARDS, help="the reinforcement display"),
            Field("special_unseen", NUM_CARDS, scale=_CARDS, help="the special deck's unseen cards"),
            Field("special_known", NUM_CARDS, scale=_CARDS, help="the special deck's public bottom cards"),
            Field("special_deck_size", scale=len(SPECIAL_DECK), help="cards in the special deck"),
            Field("leverage_supply", scale=6, help="leverage tokens in the supply"),
            Field("selection", NUM_CARDS, scale=_CARDS, help="the observer's own regroup selection"),
            Field("reinforce_turn", 2 * MAX_PLAYERS, help="one-hot reinforcement turn"),
            Field("options", 2, help="partnership, simultaneous forecasts"),
            Field("revealed", help="forecasts revealed"),
        ),
    ),
)
SEAT_AT, SEAT_SIZE = LAYOUT.blocks["seat"].at, LAYOUT.blocks["seat"].size
SHARED_AT = LAYOUT.blocks["shared"].at
OBSERVATION_SIZE = LAYOUT.size
_PHASE_INDEX = {p: i for i, p in enumerate(PHASES[:4])}
_DECISION_INDEX = {d: i for i, d in enumerate(DECISIONS)}
_ARMED_INDEX = {"mimic": 0, "mirage": 1}
_EMPTY = np.zeros(OBSERVATION_SIZE, np.float32)
_COPY = np.float32(1.0 / _CARDS)  # what one card copy adds to a count field (float32 sums: 1, 2, 3 copies read
# 1/3, 2/3 and 1, as count * (1/3) does)
(
    _CHARACTER,
    _TEAMMATE,
    _START,
    _LEADER,
    _TO_ACT,
    _INFLUENCE,
    _STAKE,
    _BID,
    _MADE,
    _LEVERAGE,
    _WON,
    _TOKENS,
    _HAND_SIZE,
    _DECK_SIZE,
    _VOIDS,
    _HAND,
    _HIDDEN,
    _DISCARD,
    _PLAYED,
    _OP_CARD,
    _OP_ORDER,
    _OP_FLAGS,
) = _SEAT_OFFSETS = tuple(LAYOUT.offset(f.name) for f in LAYOUT.blocks["seat"].fields[1:])
(
    _ROUND,
    _FINAL,
    _OPERATION,
    _PHASE,
    _PASS,
    _DECISION,
    _LED,
    _ARMED,
    _ROW,
    _DISPLAY,
    _UNSEEN,
    _KNOWN,
    _SPECIAL_SIZE,
    _SUPPLY,
    _SELECTION,
    _REINFORCE,
    _OPTIONS,
    _REVEALED,
) = _SHARED_OFFSETS = tuple(LAYOUT.offset(f.name) for f in LAYOUT.blocks["shared"].fields)
(
    _INFLUENCE_SCALE,
    _STAKE_SCALE,
    _LEVERAGE_SCALE,
    _HAND_SIZE_SCALE,
    _DECK_SIZE_SCALE,
    _SPECIAL_SIZE_SCALE,
    _SUPPLY_SCALE,
) = _SCALES = tuple(
    map(
        LAYOUT.scale,
        ("influence", "stake", "leverage", "hand_size", "deck_size", "special_deck_size", "leverage_supply"),
    )
)


@dataclass(frozen=True)
class _Seating:
    """The positions that depend only on the table size and the observer, built once for each pair."""

    base: tuple[int, ...]  # per seat: where its block starts (its place clockwise from the observer)
    present: tuple[int, ...]  # the ``present`` bit of every seat at the table
    piles: np.ndarray  # where each card pile ``encode`` counts goes, in the order it lists them
    values: np.ndarray  # where each scalar ``encode`` computes goes, in its order


def _seating(n: int, seat: int) -> _Seating:
    base = tuple((s - seat) % n * SEAT_SIZE for s in range(n))
    piles = [b + f for b in base for f in (_HAND, _HIDDEN, _DISCARD)]
    piles += [b + _PLAYED for b in base] + [_DISPLAY, _UNSEEN, _KNOWN, _SELECTION]
    values = [b + f for b in base for f in (_INFLUENCE, _STAKE, _LEVERAGE, _HAND_SIZE, _DECK_SIZE)]
    values += [_SPECIAL_SIZE, _SUPPLY]
    return _Seating(
        base=base,
        present=tuple(rel * SEAT_SIZE for rel in range(n)),
        piles=np.array(piles, np.intp),
        values=np.array(values, np.intp),
    )


_SEATINGS = {(n, seat): _seating(n, seat) for n in range(2, MAX_PLAYERS + 1) for seat in range(n)}
_NO_CARDS: list[int] = []


def encode(state: SpytailsState, seat: int) -> np.ndarray:
    """``seat``'s observation: its own cards, and only public facts about the others.

    Where the kernels are built, one C call (``_speedups.spytails``) gathers what ``_gather`` gathers and writes
    it as ``encode_python`` does; else ``encode_python``, the reference."""
    kernels = speedups.active
    if kernels is None:
        return encode_python(state, seat)
    out = _EMPTY.copy()
    kernels.spytails(out, _COPY, state, seat)
    return out


def encode_python(state: SpytailsState, seat: int) -> np.ndarray:
    """``encode`` in numpy, the reference: every card pile is counted in one ``add.at`` (each pile's cards
    shifted by where it goes); the one-hots and the scalars are written in one ``put`` each (numpy's per-call
    cost, not the values, is what an observation of this size spends)."""
    table, piles, hot, values = _gather(state, seat)
    cards: list[int] = []
    for pile in piles:
        cards += pile
    at = table.piles.repeat(list(map(len, piles)))
    at += np.frombuffer(bytearray(cards), np.uint8)  # card types fit a byte: the cheapest way into numpy
    out = _EMPTY.copy()
    np.add.at(out, at, _COPY)
    out.put(hot, 1.0)
    out.put(table.values, values)
    np.minimum(out, 1.0, out=out)
    return out


def _gather(state: SpytailsState, seat: int) -> tuple[_Seating, list[list[int]], list[int], list[float]]:
    """``seat``'s view as card piles (in ``table.piles``' order), positions set to 1 (``hot``) and the
    scalars (in ``table.values``' order)."""
    n = state.num_players
    table = _SEATINGS[n, seat]
    base = table.base
    hot = list(table.present)  # positions set to 1
    # the piles every seat shows: its own hand and deck, or what the others know of theirs
    piles: list[list[int]] = []
    for s in range(n):
        if s == seat:
            piles += (state.hands[s], state.decks[s], state.discards[s])
        else:
            piles += (state.known[s], state.pool[s], state.discards[s])
    played: list[list[int]] = [[] for _ in range(n)]  # each seat's cards played this round
    for _, trick in state.round_ops:
        for s, c, _, _ in trick:
            if c >= 0:
                played[s].append(c)
    for place, (s, c, low, mimic) in enumerate(state.trick):
        b = base[s]
        hot.append(b + _OP_ORDER + place)
        if c == GHOST_TOKEN:
            hot.append(b + _OP_FLAGS + 2)
            continue
        played[s].append(c)
        hot.append(b + _OP_CARD + c)
        if low:
            hot.append(b + _OP_FLAGS)
        if mimic:
            hot.append(b + _OP_FLAGS + 1)
    pending = state.pending
    if pending:
        acting = pending[1]
        hot.append(base[acting] + _TO_ACT)
        hot.append(_DECISION + _DECISION_INDEX[pending[0]])
        selection = state.selection if acting == seat and pending[0] == "regroup" else _NO_CARDS
    else:
        selection = _NO_CARDS
    known = state.special_known
    piles += played
    piles += (state.display, state.special_deck[known:], state.special_deck[:known], selection)
    hot.append(base[state.start] + _START)
    phase = state.phase
    if phase == OPERATIONS_PHASE:
        hot.append(base[state.leader] + _LEADER)
    teams, revealed = state.teams, state.revealed
    team = teams[seat] if teams else -1
    values: list[float] = []  # in the order of ``table.values``
    for s, b, character, stake, bid, influence, leverage, won, ghost, regroup, power, voids, hand, deck in zip(
        range(n),
        base,
        state.characters,
        state.stakes,
        state.bids,
        state.influence,
        state.leverage,
        state.won,
        state.ghost_used,
        state.regroup_used,
        state.power_used,
        state.voids,
        state.hands,
        state.decks,
        strict=True,
    ):
        hot.append(b + _WON + won)
        if character >= 0:
            hot.append(b + _CHARACTER + character)
        if teams and teams[s] == team:
            hot.append(b + _TEAMMATE)
        if stake >= 0:
            hot.append(b + _MADE)
        else:
            stake = 0
        if revealed or s == seat:
            values += (influence / _INFLUENCE_SCALE, stake / _STAKE_SCALE)
            if bid >= 0:
                hot.append(b + _BID + bid)
        else:
            values += ((influence + stake) / _INFLUENCE_SCALE, 0.0)
        values += (leverage / _LEVERAGE_SCALE, len(hand) / _HAND_SIZE_SCALE, len(deck) / _DECK_SIZE_SCALE)
        if ghost:
            hot.append(b + _TOKENS)
        if regroup:
            hot.append(b + _TOKENS + 1)
        if power:
            hot.append(b + _TOKENS + 2)
        for suit in voids:
            hot.append(b + _VOIDS + suit)
    values += (len(state.special_deck) / _SPECIAL_SIZE_SCALE, state.leverage_supply / _SUPPLY_SCALE)
    hot.append(_ROUND + min(state.round, MAX_ROUNDS - 1))
    if state.round == state.last_round:
        hot.append(_FINAL)
    if phase in _PHASE_INDEX:
        hot.append(_PHASE + _PHASE_INDEX[phase])
    if phase == OPERATIONS_PHASE and state.operation < OPERATIONS:
        hot.append(_OPERATION + state.operation)
        led = state.led_suit()
        if led != NO_SUIT:
            hot.append(_LED + led)
    elif phase == FORECAST:
        hot.append(_PASS + state.forecast_pass)
    elif phase == DEBRIEFING and state.debrief_step == REINFORCE and state.reinforce_turn < 2 * n:
        hot.append(_REINFORCE + state.reinforce_turn)
    if state.armed:
        hot.append(_ARMED + _ARMED_INDEX[state.armed])
    for slot, c in enumerate(state.row):
        hot.append(_ROW + slot * NUM_ROW_CARDS + c)
    if state.mode == "partnership":
        hot.append(_OPTIONS)
    if state.forecast_mode == "simultaneous":
        hot.append(_OPTIONS + 1)
    if revealed:
        hot.append(_REVEALED)
    return table, piles, hot, values


if speedups.kernels is not None:
    # the kernel's copy of ``_gather``'s offsets and tables, in the order of ``spytails_layout``'s ints
    speedups.kernels.spytails_layout(
        (
            SEAT_SIZE,
            _SEATINGS[2, 0].present[0],
            *_SEAT_OFFSETS,
            *_SHARED_OFFSETS,
            MAX_PLAYERS,
            MAX_ROUNDS,
            OPERATIONS,
            NUM_ROW_CARDS,
            GHOST_TOKEN,
            NO_SUIT,
            INTIMIDATION,
            OBSERVATION_SIZE,
        ),
        _SCALES,
        CARD_SUIT,
        _DECISION_INDEX,
        _PHASE_INDEX,
        _ARMED_INDEX,
        (OPERATIONS_PHASE, FORECAST, DEBRIEFING, REINFORCE, "regroup", "partnership", "simultaneous"),
    )
