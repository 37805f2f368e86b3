"""Libertalia's action ids and observation vector.

Actions (``Discrete(508)``), seats relative to the acting player
(0 = self, 1 = next seat to the left, ...)::

      0-29   play r       sunrise: put character r (1-30) face down
     30-59   parrot r     the Parrot is replaced by r from the hand
     60-89   recruit r    the Recruiter takes r from the den back to hand
     90-119  surgeon r    the Surgeon takes r from the discard pile back to hand
    120-126  keep t       the Preacher keeps one token of type t
    127-140  trade t k    the Merchant sells k (2 or 3) tokens of type t
    141-320  gunner o r   the Gunner discards character r from seat o's den
    321-327  booty t      take a token of type t from today's booty
    328-507  sabre o r    the sabre discards character r from neighbour o's den

Token types: chest, jewels, goods, map, relic, sabre, officer.

Observation (float32, 1334 values in [0, 1]): ``LAYOUT``, six seat blocks of
199, seats relative to the observer and padded to six, then 140 shared values;
``LAYOUT.describe()`` is the table in ``envs/libertalia/env.py``'s docstring.
Token types within a field run in the order above.
"""

from __future__ import annotations

import numpy as np

from bidbluff.envs.core import speedups
from bidbluff.envs.core.codec import Action, ActionCodec, ActionKind, positions
from bidbluff.envs.core.fields import Block, Field, Layout
from bidbluff.envs.libertalia.content import BAG, BOOTY_NAMES, CHARACTERS, DAYS, NUM_RANKS
from bidbluff.envs.libertalia.rules import DAY, DECISIONS, DUSK, PARROT, PHASES, LibertaliaState

MAX_PLAYERS = 6
TOKENS = len(BAG)

CODEC = ActionCodec(
    [
        ActionKind("play", (NUM_RANKS,), "sunrise: play character r face down"),
        ActionKind("parrot", (NUM_RANKS,), "replace the Parrot with r from hand"),
        ActionKind("recruit", (NUM_RANKS,), "Recruiter: take r from den to hand"),
        ActionKind("surgeon", (NUM_RANKS,), "Surgeon: take r from discard to hand"),
        ActionKind("keep", (TOKENS,), "Preacher: keep one token of type t"),
        ActionKind("trade", (TOKENS, 2), "Merchant: sell 2 or 3 tokens of type t"),
        ActionKind("gunner", (MAX_PLAYERS, NUM_RANKS), "Gunner: discard r from seat o's den"),
        ActionKind("booty", (TOKENS,), "dusk: take a token of type t"),
        ActionKind("sabre", (MAX_PLAYERS, NUM_RANKS), "sabre: discard r from neighbour o's den"),
    ]
)

_RANKED = ("play", "parrot", "recruit", "surgeon")
_TARGETED = ("gunner", "sabre")


def action_to_id(action: Action, seat: int, num_players: int) -> int:
    kind = action[0]
    if kind in _RANKED:
        return CODEC.encode((kind, action[1] - 1))
    if kind in _TARGETED:
        return CODEC.encode((kind, (action[1] - seat) % num_players, action[2] - 1))
    if kind == "trade":
        return CODEC.encode((kind, action[1], action[2] - 2))
    return CODEC.encode(action)


_AT = {kind.name: CODEC.offset[kind.name] for kind in CODEC.kinds}


def legal_ids(state: LibertaliaState) -> list[int]:
    """Sorted ids of ``state.legal_actions()``, computed from the open decision without building the actions
    (the env asks at every decision; ``tests/test_core.py`` checks it against the actions)."""
    if not state.pending:
        return []
    kind, seat = state.pending
    at = _AT[kind]
    if kind == "play" or kind == "parrot":
        return sorted([at + r - 1 for r in state.hands[seat]])
    if kind == "recruit":
        return sorted([at + r - 1 for r in state.dens[seat]])
    if kind == "surgeon":
        return sorted([at + r - 1 for r in state.discards[seat]])
    if kind == "keep":
        return [at + t for t, c in enumerate(state.den_booty[seat]) if c]
    if kind == "trade":
        return [at + t * 2 + k - 2 for t, c in enumerate(state.den_booty[seat]) for k in (2, 3) if c >= k]
    if kind == "booty":
        return [at + t for t, c in enumerate(state.booty_days[state.day]) if c]
    # gunner or sabre (the rules pick the dens in reach): the target's seat relative to the acting one
    n = state.num_players
    return sorted([at + ((a[1] - seat) % n) * NUM_RANKS + a[2] - 1 for a in state.legal_actions()])


def id_to_action(action_id: int, seat: int, num_players: int) -> Action:
    coded = CODEC.decode(action_id)
    kind = coded[0]
    if kind in _RANKED:
        return (kind, coded[1] + 1)
    if kind in _TARGETED:
        if coded[1] >= num_players:
            raise ValueError(f"action id {action_id} names relative seat {coded[1]} at a {num_players}-seat table")
        return (kind, (seat + coded[1]) % num_players, coded[2] + 1)
    if kind == "trade":
        return (kind, coded[1], coded[2] + 2)
    return coded


def action_to_str(action: Action) -> str:
    kind = action[0]
    if kind in _RANKED:
        return f"{kind} {action[1]} {CHARACTERS[action[1]]}"
    if kind in _TARGETED:
        return f"{kind} P{action[1]} {action[2]} {CHARACTERS[action[2]]}"
    if kind == "trade":
        return f"trade {action[2]} {BOOTY_NAMES[action[1]]}"
    return f"{kind} {BOOTY_NAMES[action[1]]}"


# Observation layout, built once.
LAYOUT = Layout(
    Block(
        "seat",
        (
            Field("present", help="the seat is at the table"),
            Field("colour", MAX_PLAYERS, help="one-hot colour (sets the tie-break numbers)"),
            Field("hand", NUM_RANKS, help="per rank: own hand; another seat's: every card it may hold"),
            Field("unseen", scale=3, help="its cards the others cannot name (own seat too)"),
            Field("discard", NUM_RANKS, help="per rank: its discard pile, the part everyone knows"),
            Field("den", NUM_RANKS, help="per rank: the characters in its den"),
            Field("den_booty", TOKENS, scale=8, help="per token type: the booty in its den"),
            Field("ship", NUM_RANKS, help="per rank: its card on the ship today"),
            Field("acted", help="its ship card has acted today"),
            Field("has_chosen", help="has chosen at sunrise"),
            Field("chosen", NUM_RANKS, help="per rank: its sunrise card (own seat only)"),
            Field("doubloons", scale=80, help="doubloons"),
            Field("score", scale=300, help="score track"),
            Field("targets", NUM_RANKS, help="per rank: what the observer's open Gunner or sabre could hit here"),
        ),
        count=MAX_PLAYERS,
        help="seat k: k seats to the observer's left (0: itself)",
    ),
    Block(
        "shared",
        (
            Field("campaign", 3, help="one-hot"),
            Field("day", DAYS, help="one-hot"),
            Field("phase", 4, help="one-hot: sunrise, parrot, day, dusk"),
            Field("decision", len(DECISIONS), help="one-hot open decision, ``rules.DECISIONS``"),
            Field("picks_left", scale=2, help="dusk: tokens left to take for this card"),
            Field("officer", help="dusk: the card took a Spanish officer"),
            Field("booty_days", (DAYS, TOKENS), scale=6, help="per day and token type: the day's booty"),
            Field("bag", TOKENS, scale=10, help="per token type: tokens in the bag"),
            Field("undealt", NUM_RANKS, help="per rank: never dealt yet"),
            Field("option_ranks", NUM_RANKS, help="per rank: the observer's open decision could pick it"),
            Field("option_tokens", TOKENS, help="per token type: the open decision could take, keep or sell it"),
        ),
    ),
)
SEAT_AT, SEAT_SIZE = LAYOUT.blocks["seat"].at, LAYOUT.blocks["seat"].size
SHARED_AT = LAYOUT.blocks["shared"].at
OBSERVATION_SIZE = LAYOUT.size
_PHASE_INDEX = {p: i for i, p in enumerate(PHASES[:4])}
_DECISION_INDEX = {d: i for i, d in enumerate(DECISIONS)}
(
    _COLOUR,
    _HAND,
    _UNSEEN,
    _DISCARD,
    _DEN,
    _DEN_BOOTY,
    _SHIP,
    _ACTED,
    _HAS_CHOSEN,
    _CHOSEN,
    _DOUBLOONS,
    _SCORE,
    _TARGETS,
) = map(
    LAYOUT.offset,
    (
        "colour",
        "hand",
        "unseen",
        "discard",
        "den",
        "den_booty",
        "ship",
        "acted",
        "has_chosen",
        "chosen",
        "doubloons",
        "score",
        "targets",
    ),
)
(
    _CAMPAIGN,
    _DAY,
    _PHASE,
    _DECISION,
    _PICKS_LEFT,
    _OFFICER,
    _BOOTY_DAYS,
    _BAG,
    _UNDEALT,
    _OPTION_RANKS,
    _OPTION_TOKENS,
) = map(
    LAYOUT.offset,
    (
        "campaign",
        "day",
        "phase",
        "decision",
        "picks_left",
        "officer",
        "booty_days",
        "bag",
        "undealt",
        "option_ranks",
        "option_tokens",
    ),
)
# the encoder divides by these (a division, as the layout declares it: bit-identical to the values read back)
(_UNSEEN_SCALE, _DEN_BOOTY_SCALE, _DOUBLOONS_SCALE, _SCORE_SCALE, _PICKS_SCALE, _BOOTY_DAYS_SCALE, _BAG_SCALE) = map(
    LAYOUT.scale, ("unseen", "den_booty", "doubloons", "score", "picks_left", "booty_days", "bag")
)


def encode(state: LibertaliaState, seat: int) -> np.ndarray:
    """``seat``'s observation: its own cards, and only public facts about the others.

    Where the kernels are built, one C call (``_speedups.libertalia``) writes the seat blocks and the
    public tables (``_public``'s part) with what ``_decision`` gathers; else ``encode_python``.
    """
    kernels = speedups.active
    if kernels is None:
        return encode_python(state, seat)
    ones: list[int] = []
    at: list[int] = []
    value: list[float] = []
    _decision(state, seat, ones, at, value)
    acted = len(state.ship[: state.cursor]) if state.phase in (PARROT, DAY) else 0
    out = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    kernels.libertalia(out, state, seat, acted, ones, at, value)
    return out


def encode_python(state: LibertaliaState, seat: int) -> np.ndarray:
    """``encode`` in numpy, the reference: values gathered in Python lists and written in two numpy calls,
    one for the counts and scores (``at`` / ``value``), one for the 1s (``ones``)."""
    ones: list[int] = []  # positions set to 1
    at: list[int] = []  # positions of the other values ...
    value: list[float] = []  # ... and the values, clipped at 1 below
    _public(state, seat, ones, at, value)
    _decision(state, seat, ones, at, value)
    out = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    out[positions(at)] = value
    np.minimum(out, 1.0, out=out)  # counts are clipped at 1
    out[positions(ones)] = 1.0
    return out


def _public(state: LibertaliaState, seat: int, ones: list[int], at: list[int], value: list[float]) -> None:
    """The seat blocks, the days' booty, the bag and the undealt ranks (``_speedups.libertalia``'s part)."""
    n = state.num_players
    acted = _acted_seats(state)
    ship_of = {owner: rank for owner, rank in state.ship}
    for rel in range(n):
        s = (seat + rel) % n
        base = rel * SEAT_SIZE
        ones += (base, base + _COLOUR + s)
        if s == seat:
            hand, discard = state.hands[s], state.discards[s]
            if state.chosen[s]:
                ones.append(base + _CHOSEN + state.chosen[s] - 1)
        elif state.hidden[s]:
            # possible_hand and known_discard, sharing one set of the hidden cards (the order of ``ones`` is free)
            grouped = {r for g in state.hidden[s] for r in g.members}
            hand = grouped.union(state.hands[s])
            discard = [r for r in state.discards[s] if r not in grouped]
        else:
            hand, discard = state.hands[s], state.discards[s]  # nothing unseen: the public knows them
        if state.hidden[s]:
            # for the observer too: how many of its cards the others cannot name
            at.append(base + _UNSEEN)
            value.append(state.hidden_count(s) / _UNSEEN_SCALE)
        ones += [base + _HAND - 1 + r for r in hand]
        ones += [base + _DISCARD - 1 + r for r in discard]
        ones += [base + _DEN - 1 + r for r in state.dens[s]]
        if s in ship_of:
            ones.append(base + _SHIP + ship_of[s] - 1)
        if s in acted:
            ones.append(base + _ACTED)
        if state.chosen[s]:
            ones.append(base + _HAS_CHOSEN)
        for t, count in enumerate(state.den_booty[s]):
            if count:
                at.append(base + _DEN_BOOTY + t)
                value.append(count / _DEN_BOOTY_SCALE)
        at += (base + _DOUBLOONS, base + _SCORE)
        value += (state.doubloons[s] / _DOUBLOONS_SCALE, state.score[s] / _SCORE_SCALE)
    for day, row in enumerate(state.booty_days):
        for t, count in enumerate(row):
            if count:
                at.append(_BOOTY_DAYS + day * TOKENS + t)
                value.append(count / _BOOTY_DAYS_SCALE)
    for t, count in enumerate(state.bag):
        if count:
            at.append(_BAG + t)
            value.append(count / _BAG_SCALE)
    ones += [_UNDEALT - 1 + r for r in state.undealt]


def _decision(state: LibertaliaState, seat: int, ones: list[int], at: list[int], value: list[float]) -> None:
    """The campaign, the day, the phase, the open decision and what it offers the observer."""
    ones += (_CAMPAIGN + min(state.campaign, 2), _DAY + min(state.day, DAYS - 1))
    if state.phase in _PHASE_INDEX:
        ones.append(_PHASE + _PHASE_INDEX[state.phase])
    if state.pending:
        ones.append(_DECISION + _DECISION_INDEX[state.pending[0]])
    if state.phase == DUSK:
        at += (_PICKS_LEFT, _OFFICER)
        value += (max(0, state.dusk_picks) / _PICKS_SCALE, float(state.dusk_officer))
    if state.pending and state.pending[1] == seat:
        n = state.num_players
        for action in state.legal_actions():
            if action[0] in _TARGETED:
                rel = (action[1] - seat) % n
                ones.append(rel * SEAT_SIZE + _TARGETS + action[2] - 1)
            elif action[0] in _RANKED:
                ones.append(_OPTION_RANKS + action[1] - 1)
            else:
                ones.append(_OPTION_TOKENS + action[1])


if speedups.kernels is not None:
    speedups.kernels.libertalia_layout(
        (
            OBSERVATION_SIZE,
            SEAT_SIZE,
            _COLOUR,
            _HAND,
            _UNSEEN,
            _DISCARD,
            _DEN,
            _DEN_BOOTY,
            _SHIP,
            _ACTED,
            _HAS_CHOSEN,
            _CHOSEN,
            _DOUBLOONS,
            _SCORE,
            _BOOTY_DAYS,
            _BAG,
            _UNDEALT,
            TOKENS,
        ),
        (_UNSEEN_SCALE, _DEN_BOOTY_SCALE, _DOUBLOONS_SCALE, _SCORE_SCALE, _BOOTY_DAYS_SCALE, _BAG_SCALE),
    )


def _acted_seats(state: LibertaliaState) -> set[int]:
    """Seats whose ship card has already resolved in the current phase."""
    if state.phase in (PARROT, DAY):
        return {s for s, _ in state.ship[: state.cursor]}
    return set()
