"""Action ids and observation of the ``liars_dice_v0`` benchmark.

Actions (``Discrete(409)``)::

      0-203  bid q f      bet that at least q dice show face f (id = (q-1)*6 + f-1)
    204-407  exact q f    "exactly q dice show f", then reveal
        408  liar         "Liar!" to the last bet, then reveal

Quantities run 1..34 (6 captains x 5 dice + 4 special dice).  Faces 1-6 are
laid out for every preset; Lying Pirates' rules never allow a bet on 1s.

Observation (float32, 1,308 values in [0, 1]), seats relative to the observer:
own crew dice as counts per face 1-6 (/ 5); for each special die kind (Pirate
King, Mermaid, Cursed, Ghost) its face one-hot (blank, 1-6) when the observer
holds it; per seat (6): present, still to bet this phase (bettor), dice count
(/ 10), special dice held (4); dice in play (/ 34); the last bet's quantity
(/ 34) and face one-hot (6); the full bet history: for each possible bet, which
seat made it (34 x 6 x 6, one-hot seat).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from envs.core.codec import Action, ActionCodec, ActionKind
from envs.liars_dice.game import MAX_PLAYERS, MAX_QUANTITY, BettingGameState
from envs.lying_pirates.betting import BettingRound, BettingRules, raises_after
from envs.lying_pirates.dice import SPECIALS, Die

FACE_SLOTS = 6
CODEC = ActionCodec(
    [
        ActionKind("bid", (MAX_QUANTITY, FACE_SLOTS), "bet: at least q dice show f"),
        ActionKind("exact", (MAX_QUANTITY, FACE_SLOTS), "exactly q dice show f"),
        ActionKind("liar", (), "call the last bet a lie"),
    ]
)


EXACT_AT = CODEC.offset["exact"]
LIAR_ID = CODEC.offset["liar"]


def legal_action_ids(betting: BettingRound) -> list[int]:
    """Sorted ids of ``betting.legal_actions()``, from the same raises without building the tuples."""
    if betting.outcome:
        return []
    last = (betting.bids[-1][1], betting.bids[-1][2]) if betting.bids else None
    return list(_legal_ids(betting.rules, last, betting.dice_in_play, betting.captains))


@lru_cache(maxsize=4096)
def _legal_ids(rules: BettingRules, last: tuple[int, int] | None, top: int, captains: int) -> tuple[int, ...]:
    """The legal ids depend on nothing else: the rules, the last bet, the dice in play and the captains."""
    ids = [(q - 1) * FACE_SLOTS + f - 1 for q, f in raises_after(rules, last, top, captains)]
    if last:
        if rules.exact:
            q0, f0 = last
            ids += [EXACT_AT + (q0 - 1) * FACE_SLOTS + f0 - 1] + [EXACT_AT + i for i in ids]
        ids.append(LIAR_ID)
    return tuple(sorted(ids))


def action_to_id(action: Action) -> int:
    if action[0] == "liar":
        return CODEC.encode(action)
    return CODEC.encode((action[0], action[1] - 1, action[2] - 1))


def id_to_action(action_id: int) -> Action:
    coded = CODEC.decode(action_id)
    if coded[0] == "liar":
        return coded
    return (coded[0], coded[1] + 1, coded[2] + 1)


def action_to_str(action: Action) -> str:
    if action[0] == "liar":
        return "liar"
    return f"{action[0]} {action[1]}x{action[2]}"


OWN = FACE_SLOTS + len(SPECIALS) * 7
SEAT = 1 + 1 + 1 + len(SPECIALS)
HISTORY = MAX_QUANTITY * FACE_SLOTS * MAX_PLAYERS
OBSERVATION_SIZE = OWN + MAX_PLAYERS * SEAT + 1 + 1 + FACE_SLOTS + HISTORY
_SEATS_AT = OWN
_TABLE_AT = _SEATS_AT + MAX_PLAYERS * SEAT
_HISTORY_AT = _TABLE_AT + 1 + 1 + FACE_SLOTS


_CREW = int(Die.CREW)
_SPECIAL_AT = {int(kind): FACE_SLOTS + i * 7 for i, kind in enumerate(SPECIALS)}  # + face: the one-hot
_SEAT_SPECIAL_AT = {int(kind): 3 + i for i, kind in enumerate(SPECIALS)}


def encode(state: BettingGameState, seat: int) -> np.ndarray:
    # A few dozen values in 1,308: single writes beat building index arrays at this size.
    out = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    betting = state.round
    n = state.num_players
    crew = [0] * FACE_SLOTS
    for kind, face in betting.cups[seat]:
        if kind == _CREW:
            crew[face - 1] += 1
        else:
            out[_SPECIAL_AT[kind] + face] = 1.0
    for face, count in enumerate(crew):
        if count:
            out[face] = count / 5
    bettors = betting.bettors
    cups = betting.cups
    for rel in range(n):
        s = (seat + rel) % n
        at = _SEATS_AT + rel * SEAT
        out[at] = 1.0
        if s in bettors:
            out[at + 1] = 1.0
        cup = cups.get(s, ())
        out[at + 2] = len(cup) / 10
        for kind, _ in cup:
            if kind != _CREW:
                out[at + _SEAT_SPECIAL_AT[kind]] = 1.0
    out[_TABLE_AT] = betting.dice_in_play / MAX_QUANTITY
    bids = betting.bids
    if bids:
        _, q, f = bids[-1]
        out[_TABLE_AT + 1] = q / MAX_QUANTITY
        out[_TABLE_AT + 2 + f - 1] = 1.0
        for who, q, f in bids:
            out[_HISTORY_AT + ((q - 1) * FACE_SLOTS + f - 1) * MAX_PLAYERS + (who - seat) % n] = 1.0
    return out
