"""Action ids and observation of the ``liars_dice_v0`` benchmark.

Actions (``Discrete(409)``)::

      0-203  bid q f      bet that at least q dice show face f (id = (q-1)*6 + f-1)
    204-407  exact q f    "exactly q dice show f", then reveal
        408  liar         "Liar!" to the last bet, then reveal

Quantities run 1..34 (6 captains x 5 dice + 4 special dice).  Faces 1-6 are
laid out for every preset; Lying Pirates' rules never allow a bet on 1s.

Observation (float32, 1,308 values in [0, 1]): ``LAYOUT``, the observer's own
dice, a block per seat (6, relative to the observer), then the table: dice in
play, the last bet and the full bet history (for each possible bet, which seat
made it); ``LAYOUT.describe()`` is the table in ``envs/liars_dice/env.py``'s
docstring.  The compact observation (``observation="compact"``) is the same vector
cut to the values a table of that many dice (with or without special dice) can set
(``compact_columns``): a small table's network then reads a few hundred inputs.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from bidbluff.envs.core import speedups
from bidbluff.envs.core.codec import Action, ActionCodec, ActionKind
from bidbluff.envs.core.fields import Block, Field, Layout
from bidbluff.envs.liars_dice.game import MAX_DICE, MAX_PLAYERS, MAX_QUANTITY, BettingGameState
from bidbluff.envs.lying_pirates.betting import BettingRound, BettingRules, raises_after
from bidbluff.envs.lying_pirates.dice import SPECIALS, Die

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
    return list(legal_mask(betting)[0])


def legal_mask(betting: BettingRound) -> tuple[tuple[int, ...], np.ndarray]:
    """``legal_action_ids`` as a tuple, and its int8 mask (read-only: shared by every phase at that bet)."""
    if betting.outcome:
        return (), _NO_MASK
    bids = betting.bids
    last = (bids[-1][1], bids[-1][2]) if bids else None
    return _legal(betting.rules, last, betting.dice_in_play, betting.captains)


@lru_cache(maxsize=4096)
def _legal(
    rules: BettingRules, last: tuple[int, int] | None, top: int, captains: int
) -> tuple[tuple[int, ...], np.ndarray]:
    """The legal ids depend on nothing else: the rules, the last bet, the dice in play and the captains."""
    ids = [(q - 1) * FACE_SLOTS + f - 1 for q, f in raises_after(rules, last, top, captains)]
    if last:
        if rules.exact:
            q0, f0 = last
            ids += [EXACT_AT + (q0 - 1) * FACE_SLOTS + f0 - 1] + [EXACT_AT + i for i in ids]
        ids.append(LIAR_ID)
    ids.sort()
    mask = np.zeros(CODEC.n, dtype=np.int8)
    mask.put(ids, 1)
    mask.flags.writeable = False
    return tuple(ids), mask


_NO_MASK = np.zeros(CODEC.n, dtype=np.int8)
_NO_MASK.flags.writeable = False


def action_to_id(action: Action) -> int:
    if action[0] == "liar":
        return CODEC.encode(action)
    return CODEC.encode((action[0], action[1] - 1, action[2] - 1))


def _id_to_action(action_id: int) -> Action:
    coded = CODEC.decode(action_id)
    if coded[0] == "liar":
        return coded
    return (coded[0], coded[1] + 1, coded[2] + 1)


# every id's action, decoded once: the env turns an id into an action at every step
_ACTIONS = tuple(_id_to_action(i) for i in range(CODEC.n))


def id_to_action(action_id: int) -> Action:
    return _ACTIONS[action_id] if 0 <= action_id < CODEC.n else _id_to_action(action_id)


def action_to_str(action: Action) -> str:
    if action[0] == "liar":
        return "liar"
    return f"{action[0]} {action[1]}x{action[2]}"


LAYOUT = Layout(
    Block(
        "own",
        (
            Field("crew", FACE_SLOTS, scale=5, help="per face 1-6: own crew dice"),
            *(
                Field(kind.name.lower(), 1 + FACE_SLOTS, help="one-hot face (blank, 1-6) when the observer holds it")
                for kind in SPECIALS
            ),
        ),
        help="the observer's cup",
    ),
    Block(
        "seat",
        (
            Field("present", help="the seat is at the table"),
            Field("bettor", help="still to bet this phase"),
            Field("dice", scale=10, help="dice in its cup"),
            Field("special_dice", len(SPECIALS), help="per special die kind: it holds it"),
        ),
        count=MAX_PLAYERS,
        help="seat k: k seats after the observer in turn order (0: itself)",
    ),
    Block(
        "table",
        (
            Field("dice_in_play", scale=MAX_QUANTITY, help="dice in every cup"),
            Field("last_quantity", scale=MAX_QUANTITY, help="the last bet's quantity"),
            Field("last_face", FACE_SLOTS, help="one-hot: the last bet's face"),
            Field(
                "history", (MAX_QUANTITY, FACE_SLOTS, MAX_PLAYERS), help="per bet q x f: the seat that made it, one-hot"
            ),
        ),
        help="the bets",
    ),
)
OWN = LAYOUT.blocks["own"].size
SEAT = LAYOUT.blocks["seat"].size
HISTORY = LAYOUT.field("history").width
OBSERVATION_SIZE = LAYOUT.size
_SEATS_AT, _TABLE_AT, _HISTORY_AT = LAYOUT.start["seat"], LAYOUT.start["table"], LAYOUT.offset("history")


_CREW = int(Die.CREW)
_CREW_FACES = LAYOUT.offset("crew")
_SPECIAL_AT = {int(kind): LAYOUT.offset(kind.name.lower()) for kind in SPECIALS}  # + face: the one-hot
_PRESENT, _BETTOR, _DICE, _SPECIAL_DICE = map(LAYOUT.offset, ("present", "bettor", "dice", "special_dice"))
_SEAT_SPECIAL_AT = {int(kind): _SPECIAL_DICE + i for i, kind in enumerate(SPECIALS)}
_IN_PLAY, _LAST_QUANTITY, _LAST_FACE = map(LAYOUT.offset, ("dice_in_play", "last_quantity", "last_face"))
_CREW_SCALE, _DICE_SCALE, _IN_PLAY_SCALE, _QUANTITY_SCALE = map(
    LAYOUT.scale, ("crew", "dice", "dice_in_play", "last_quantity")
)


def encode(state: BettingGameState, seat: int) -> np.ndarray:
    """``seat``'s observation: one C call (``_speedups.liars_dice``) where the kernels are built, else
    ``encode_python``."""
    kernels = speedups.active
    if kernels is None:
        return encode_python(state, seat)
    betting = state.round
    out = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    cups = betting.cups
    kernels.liars_dice(out, None, cups[seat], cups, betting.bettors, state.num_players, seat, None, betting.bids)
    return out


def encode_compact(state: BettingGameState, seat: int, columns: np.ndarray) -> np.ndarray:
    """``encode(state, seat)[columns]`` (``columns``: a ``compact_columns`` array), written straight into the
    short vector where the kernels are built."""
    kernels = speedups.active
    if kernels is None:
        return encode_python(state, seat)[columns]
    betting = state.round
    out = np.zeros(len(columns), dtype=np.float32)
    cups = betting.cups
    kernels.liars_dice(
        out,
        _remap(columns),
        cups[seat],
        cups,
        betting.bettors,
        state.num_players,
        seat,
        None,  # the dice in play, counted from the cups
        betting.bids,
    )
    return out


def encode_python(state: BettingGameState, seat: int) -> np.ndarray:
    """``encode`` in numpy, the reference.  A few dozen values in 1,308: single writes beat building index
    arrays at this size."""
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
            out[_CREW_FACES + face] = count / _CREW_SCALE
    bettors = betting.bettors
    cups = betting.cups
    for rel in range(n):
        s = (seat + rel) % n
        at = rel * SEAT
        out[at + _PRESENT] = 1.0
        if s in bettors:
            out[at + _BETTOR] = 1.0
        cup = cups.get(s, ())
        out[at + _DICE] = len(cup) / _DICE_SCALE
        for kind, _ in cup:
            if kind != _CREW:
                out[at + _SEAT_SPECIAL_AT[kind]] = 1.0
    out[_IN_PLAY] = betting.dice_in_play / _IN_PLAY_SCALE
    bids = betting.bids
    if bids:
        _, q, f = bids[-1]
        out[_LAST_QUANTITY] = q / _QUANTITY_SCALE
        out[_LAST_FACE + f - 1] = 1.0
        for who, q, f in bids:
            out[_HISTORY_AT + ((q - 1) * FACE_SLOTS + f - 1) * MAX_PLAYERS + (who - seat) % n] = 1.0
    return out


if speedups.kernels is not None:
    speedups.kernels.liars_dice_layout(
        (
            OBSERVATION_SIZE,
            _CREW,
            _CREW_FACES,
            SEAT,
            _PRESENT,
            _BETTOR,
            _DICE,
            _IN_PLAY,
            _LAST_QUANTITY,
            _LAST_FACE,
            _HISTORY_AT,
            FACE_SLOTS,
            MAX_PLAYERS,
        ),
        (_CREW_SCALE, _DICE_SCALE, _IN_PLAY_SCALE, _QUANTITY_SCALE),
        [_SPECIAL_AT.get(kind, -1) for kind in range(max(_SPECIAL_AT) + 1)],
        [_SEAT_SPECIAL_AT.get(kind, -1) for kind in range(max(_SEAT_SPECIAL_AT) + 1)],
    )

_REMAPS: dict[int, tuple[np.ndarray, np.ndarray]] = {}  # id(columns) -> (columns, its remap); columns kept alive


def _remap(columns: np.ndarray) -> np.ndarray:
    """Each full position's place in the compact vector of ``columns`` (-1: none), kept per columns array."""
    kept = _REMAPS.get(id(columns))
    if kept is not None and kept[0] is columns:
        return kept[1]
    if len(_REMAPS) >= 64:
        _REMAPS.clear()
    remap = np.full(OBSERVATION_SIZE, -1, np.intp)
    remap[columns] = np.arange(len(columns))
    remap.flags.writeable = False
    _REMAPS[id(columns)] = (columns, remap)
    return remap


OBSERVATIONS = ("full", "compact")


@lru_cache(maxsize=16)
def compact_columns(dice: int, specials: bool = False) -> np.ndarray:
    """The positions of ``LAYOUT`` that a table of up to six captains with ``dice`` crew dice each (and, with
    ``specials``, any of the special dice) can set, in layout order: the compact observation is
    ``encode(...)[compact_columns(...)]``.  Bets above the dice in play, and the special dice's fields in a
    game without them, are always zero there.  Every (dice, specials) gives a size of its own, so a reader
    of the compact vector knows its table from its length (``full``)."""
    top = MAX_PLAYERS * dice + (len(SPECIALS) if specials else 0)
    kinds = [int(kind) for kind in SPECIALS] if specials else []
    keep = list(range(_CREW_FACES, _CREW_FACES + FACE_SLOTS))
    for kind in kinds:
        keep += range(_SPECIAL_AT[kind], _SPECIAL_AT[kind] + 1 + FACE_SLOTS)
    for rel in range(MAX_PLAYERS):
        at = rel * SEAT  # the seat fields are at copy 0; copy k is SEAT values on
        keep += [at + _PRESENT, at + _BETTOR, at + _DICE]
        keep += [at + _SEAT_SPECIAL_AT[kind] for kind in kinds]
    keep += [_IN_PLAY, _LAST_QUANTITY, *range(_LAST_FACE, _LAST_FACE + FACE_SLOTS)]
    keep += range(_HISTORY_AT, _HISTORY_AT + top * FACE_SLOTS * MAX_PLAYERS)
    return np.array(sorted(keep), dtype=np.int64)


_COMPACT_BY_SIZE = {
    len(compact_columns(dice, specials)): compact_columns(dice, specials)
    for dice in range(1, MAX_DICE + 1)
    for specials in (False, True)
}


def full(obs: np.ndarray) -> np.ndarray:
    """``obs`` in the full layout: as it is, or a compact observation put back in place (the values it
    drops are zero).  What the heuristics and the information-set keys read."""
    if len(obs) == OBSERVATION_SIZE:
        return obs
    columns = _COMPACT_BY_SIZE.get(len(obs))
    if columns is None:
        raise ValueError(f"an observation of {len(obs)} values is neither liars_dice_v0's full one nor a compact one")
    out = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    out[columns] = obs
    return out
