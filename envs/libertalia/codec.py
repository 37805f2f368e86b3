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

Observation (float32, 1334 values in [0, 1]): six seat blocks of 199, seats
relative to the observer and padded to six, then 140 shared values.  A seat
block holds: present; colour one-hot (6, sets the tie-break numbers); hand (30:
own cards, or for an opponent every card it may hold); unseen cards / 3 (own
seat too: how many of its cards the others cannot name);
discard pile (30, the part everyone knows); den characters (30); den booty
(7, count / 8); ship card (30); its ship card has acted today; has chosen at
sunrise; chosen card (30, own seat only); doubloons / 80; score / 300; the
characters in its den that the observer's open Gunner or sabre decision could
hit (30).
Shared: campaign (3), day (6), phase (4: sunrise, parrot, day, dusk), open
decision (9, see ``rules.DECISIONS``), tokens left to take for this card / 2,
the card took a Spanish officer, the booty of the six days (6 x 7, count / 6),
the bag (7, count / 10), ranks never yet dealt (30), and what the open decision
is about when it is the observer's: the characters it could pick (30)
and the token types it could take, keep or sell (7).  Counts are clipped at 1.
"""

from __future__ import annotations

import numpy as np

from envs.core.codec import Action, ActionCodec, ActionKind, layout, positions
from envs.libertalia.content import BAG, BOOTY_NAMES, CHARACTERS, DAYS, NUM_RANKS
from envs.libertalia.rules import DAY, DECISIONS, DUSK, PARROT, PHASES, LibertaliaState

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
SEAT_FIELDS = (
    ("present", 1), ("colour", MAX_PLAYERS), ("hand", NUM_RANKS), ("unseen", 1),
    ("discard", NUM_RANKS), ("den", NUM_RANKS), ("den_booty", TOKENS), ("ship", NUM_RANKS),
    ("acted", 1), ("has_chosen", 1), ("chosen", NUM_RANKS), ("doubloons", 1), ("score", 1),
    ("targets", NUM_RANKS),
)  # fmt: skip
SHARED_FIELDS = (
    ("campaign", 3), ("day", DAYS), ("phase", 4), ("decision", len(DECISIONS)), ("picks_left", 1),
    ("officer", 1), ("booty_days", DAYS * TOKENS), ("bag", TOKENS), ("undealt", NUM_RANKS),
    ("option_ranks", NUM_RANKS), ("option_tokens", TOKENS),
)  # fmt: skip


SEAT_AT, SEAT_SIZE = layout(SEAT_FIELDS)
SHARED_AT, SHARED_SIZE = layout(SHARED_FIELDS)
OBSERVATION_SIZE = MAX_PLAYERS * SEAT_SIZE + SHARED_SIZE
_PHASE_INDEX = {p: i for i, p in enumerate(PHASES[:4])}
_DECISION_INDEX = {d: i for i, d in enumerate(DECISIONS)}
_COLOUR, _HAND, _UNSEEN, _DISCARD, _DEN = (SEAT_AT[f] for f in ("colour", "hand", "unseen", "discard", "den"))
_DEN_BOOTY, _SHIP, _ACTED, _HAS_CHOSEN = (SEAT_AT[f] for f in ("den_booty", "ship", "acted", "has_chosen"))
_CHOSEN, _DOUBLOONS, _SCORE, _TARGETS = (SEAT_AT[f] for f in ("chosen", "doubloons", "score", "targets"))


_G = MAX_PLAYERS * SEAT_SIZE  # the shared block's start
_CAMPAIGN, _DAY, _PHASE, _DECISION = (_G + SHARED_AT[f] for f in ("campaign", "day", "phase", "decision"))
_PICKS_LEFT, _OFFICER, _BOOTY_DAYS = (_G + SHARED_AT[f] for f in ("picks_left", "officer", "booty_days"))
_BAG, _UNDEALT, _OPTION_RANKS = (_G + SHARED_AT[f] for f in ("bag", "undealt", "option_ranks"))
_OPTION_TOKENS = _G + SHARED_AT["option_tokens"]


def encode(state: LibertaliaState, seat: int) -> np.ndarray:
    """``seat``'s observation: its own cards, and only public facts about the others.

    Values are gathered in Python lists and written in two numpy calls: one for
    the counts and scores (``at`` / ``value``), one for the 1s (``ones``).
    """
    out = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    ones: list[int] = []  # positions set to 1
    at: list[int] = []  # positions of the other values ...
    value: list[float] = []  # ... and the values, clipped at 1 below
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
            hand, discard = state.possible_hand(s), state.known_discard(s)
        else:
            hand, discard = state.hands[s], state.discards[s]  # nothing unseen: the public knows them
        if state.hidden[s]:
            # for the observer too: how many of its cards the others cannot name
            at.append(base + _UNSEEN)
            value.append(state.hidden_count(s) / 3)
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
                value.append(count / 8)
        at += (base + _DOUBLOONS, base + _SCORE)
        value += (state.doubloons[s] / 80, state.score[s] / 300)
    ones += (_CAMPAIGN + min(state.campaign, 2), _DAY + min(state.day, DAYS - 1))
    if state.phase in _PHASE_INDEX:
        ones.append(_PHASE + _PHASE_INDEX[state.phase])
    if state.pending:
        ones.append(_DECISION + _DECISION_INDEX[state.pending[0]])
    if state.phase == DUSK:
        at += (_PICKS_LEFT, _OFFICER)
        value += (max(0, state.dusk_picks) / 2, float(state.dusk_officer))
    for day, row in enumerate(state.booty_days):
        for t, count in enumerate(row):
            if count:
                at.append(_BOOTY_DAYS + day * TOKENS + t)
                value.append(count / 6)
    for t, count in enumerate(state.bag):
        if count:
            at.append(_BAG + t)
            value.append(count / 10)
    ones += [_UNDEALT - 1 + r for r in state.undealt]
    if state.pending and state.pending[1] == seat:
        for action in state.legal_actions():
            if action[0] in _TARGETED:
                rel = (action[1] - seat) % n
                ones.append(rel * SEAT_SIZE + _TARGETS + action[2] - 1)
            elif action[0] in _RANKED:
                ones.append(_OPTION_RANKS + action[1] - 1)
            else:
                ones.append(_OPTION_TOKENS + action[1])
    out[positions(at)] = value
    np.minimum(out, 1.0, out=out)  # counts are clipped at 1
    out[positions(ones)] = 1.0
    return out


def _acted_seats(state: LibertaliaState) -> set[int]:
    """Seats whose ship card has already resolved in the current phase."""
    if state.phase in (PARROT, DAY):
        return {s for s, _ in state.ship[: state.cursor]}
    return set()
