"""Lying Pirates' observation encoder: ``encode(state, seat)`` gathers one seat's view of the table in the
game's units and lays it out as ``observation.LAYOUT`` (or ``FULL_LAYOUT`` with options on).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import chain, compress
from operator import add
from typing import Any

import numpy as np

from bidbluff.envs.core import speedups
from bidbluff.envs.lying_pirates.action_codec import (
    BASE_TILES,
    BET_FACES,
    KINDS,
    LOWEST_FACE,
    MAX_CAPTAINS,
    TOWN_N,
    WATERS,
)
from bidbluff.envs.lying_pirates.content import (
    ALL_TILES,
    CAPTAINS,
    CITY_TILES,
    VARIANTS,
)
from bidbluff.envs.lying_pirates.dice import BLANK, BOMB, COIN, SPECIALS, Die
from bidbluff.envs.lying_pirates.frames import (
    Battle,
    Cargo,
    Draft,
    Effect,
    Encounter,
    FinalBattle,
    Influence,
    KeepOne,
    Placing,
    Reroll,
)
from bidbluff.envs.lying_pirates.observation import (
    CUP_SPECIALS,
    FULL_LAYOUT,
    LAYOUT,
    PHASES,
    PT_DICE,
    PT_FACES,
    REROLL_DICE,
)
from bidbluff.envs.lying_pirates.table import DECISIONS, EXT_DECISIONS, Table

# Where each field starts (a seat field: in seat block 0; seat block k is k * _SEAT further on).
_SEAT, _OPTION_SEAT = LAYOUT.blocks["seat"].size, FULL_LAYOUT.blocks["option_seat"].size
(
    _PRESENT,
    _PHANTOM,
    _POSITION,
    _LAPS,
    _HOME,
    _COINS,
    _CREW,
    _SPECIALS,
    _HAND_SIZE,
    _KNOWN,
    _TILES,
    _EXCLUDED,
    _NEXT_EXCLUDED,
    _USED,
    _TOKEN,
    _RESULT,
    _BATTLING,
    _ICON,
    _REVEAL,
    _REVEAL_SPECIALS,
    _FINAL_CREW,
) = (LAYOUT.offset(f.name) for f in LAYOUT.blocks["seat"].fields)
(
    _CUP,
    _CUP_SPECIALS_AT,
    _BETS,
    _LAST_QUANTITY,
    _LAST_FACE,
    _IN_PLAY,
    _PHASE,
    _DECISION,
    _REROLL_DIE,
    _CARD,
    _TILE,
    _SAIL_DIE,
    _PT_DIE,
    _PT_FACE,
    _DIRECTION,
    _MAP,
    _PLAYED,
    _DISCARD,
    _DECK,
    _PICKS,
    _OWN_TILES,
    _ROUND,
) = (LAYOUT.offset(f.name) for f in LAYOUT.blocks["shared"].fields)
(
    _OUT,
    _DESIGNATED,
    _IN_TOWN,
    _INFLUENCE_SIZE,
    _INFLUENCE_USED,
    _MAYOR,
    _REVEAL_MAYOR,
    _CAPTAIN,
    _SABOTAGED,
    _TOWN_CARDS,
) = (FULL_LAYOUT.offset(f.name) for f in FULL_LAYOUT.blocks["option_seat"].fields)
(
    _OPTIONS,
    _VARIANTS,
    _OPTION_DECISION,
    _TOWNS,
    _OWN_INFLUENCE,
    _INFLUENCE_DISCARD,
    _INFLUENCE_DECK,
    _PLAYING_CARD,
    _PLAYING_TOWN,
    _MAP_NEW,
    _TILE_NEW,
    _OWN_TILES_NEW,
    _CUP_MAYOR,
    _MERCHANT,
    _NAVY,
    _ENCOUNTER,
    _ENCOUNTER_ROLL,
    _REROLL_ENCOUNTER,
    _DRAWN_CARDS,
    _DRAWN_INFLUENCE,
    _CAPTAINS_FREE,
    _CARGO_LEFT,
) = (FULL_LAYOUT.offset(f.name) for f in FULL_LAYOUT.blocks["option_shared"].fields)
_PHASE_INDEX = {phase: i for i, phase in enumerate(PHASES)}
_OTHER_PHASE = len(PHASES)
_DECISION_INDEX = {d: i for i, d in enumerate(DECISIONS)}
_OPTION_DECISION_INDEX = {d: i for i, d in enumerate(EXT_DECISIONS)}
_REROLL_DIE_INDEX = {die: i for i, die in enumerate(REROLL_DICE)}
_SPECIAL_SLOT = {int(d): i for i, d in enumerate(SPECIALS)}
_HELD = [(int(d), _SPECIALS + i) for i, d in enumerate(SPECIALS)]  # (die, where "holds it" is in seat block 0)
_CREW_DIE, _MAYOR_DIE = int(Die.CREW), int(Die.MAYOR)
_WATER_OF = {t: WATERS.index(tile.water) for t, tile in enumerate(ALL_TILES) if tile.water in WATERS}  # on its back
_MAYOR_FACE = {1: 0, COIN: 1, BOMB: 2, BLANK: 3}
_WINNER, _LOSER, _SURVIVOR = range(3)  # the ``result`` one-hot
_NOTHING_KNOWN = [0] * KINDS


def encode(state: Table, seat: int) -> np.ndarray:
    """``seat``'s observation: its own cup and cards, and what the table knows of the others.

    Every value is gathered in the game's units (``counted``: one position per item; ``at`` / ``values``: the
    rest) and the layout encodes them in one go (``Layout.encode``: divided by the field's scale, clipped).

    Where the kernels are built, one C call (``_speedups.lying_pirates``) gathers and encodes the base game's
    part (``_gather``'s), with what ``_gather_options`` gathers for the options; else ``encode_python``."""
    kernels = speedups.active
    if kernels is None:
        return encode_python(state, seat)
    if state.ext is None:
        out = np.zeros(_SIZE, np.float32)
        kernels.lying_pirates(out, _SCALES, state, seat, (), (), ())
        return out
    counted: list[int] = []
    at: list[int] = []
    values: list[float] = []
    _gather_options(state, seat, {type(frame): frame for frame in state.stack}, counted, at, values)
    out = np.zeros(_FULL_SIZE, np.float32)
    kernels.lying_pirates(out, _FULL_SCALES, state, seat, counted, at, values)
    return out


def encode_python(state: Table, seat: int) -> np.ndarray:
    """``encode`` gathered in Python: the reference the compiled kernel is tested against (its last step,
    ``Layout.encode``, takes its own compiled or numpy path)."""
    counted: list[int] = []
    at: list[int] = []
    values: list[float] = []
    work = {type(frame): frame for frame in state.stack}  # the work in progress by kind, the topmost of each
    _gather(state, seat, work, counted, at, values)
    if state.ext is None:
        return LAYOUT.encode(counted, at, values)
    _gather_options(state, seat, work, counted, at, values)
    return FULL_LAYOUT.encode(counted, at, values)


_SIZE, _FULL_SIZE = LAYOUT.size, FULL_LAYOUT.size
_SCALES, _FULL_SCALES = LAYOUT.value_scales, FULL_LAYOUT.value_scales


def _dice_at() -> list[list[int]]:
    """Per die kind and face: where a cup's fields (crew dice per face 1-6, then each special die's face) put
    it, from the crew field's start; -1 for the Mayor die (its face has a field of its own)."""
    gap = _REVEAL_SPECIALS - _REVEAL
    if gap != _CUP_SPECIALS_AT - _CUP:
        raise ValueError("a cup's fields (crew faces, then the special dice) lie alike in the seat and shared blocks")
    faces = CUP_SPECIALS[1]
    at = [[-1] * (faces + 2) for _ in Die]
    at[_CREW_DIE][1:7] = range(6)
    for kind, slot in _SPECIAL_SLOT.items():
        at[kind][:faces] = range(gap + faces * slot, gap + faces * (slot + 1))
    return at


_DIE_AT = _dice_at()


@dataclass(frozen=True)
class _Seating:
    """Positions that depend only on the number of captains and the observer (built once for each pair)."""

    base: tuple[int, ...]  # per captain: where its seat block starts (its place after the observer)
    present: tuple[int, ...]  # the ``present`` bit of every captain
    position: tuple[int, ...]  # per captain: its ``position`` one-hot's first bit
    home: tuple[int, ...]  # per captain: its ``home`` bit
    scalars: tuple[int, ...]  # ``laps``, ``coins``, ``crew``, ``hand_size`` of every captain, field by field
    reveal: dict[str, int]  # per captain, as the reveal names it: its ``reveal`` field
    result: tuple[int, ...]  # per captain: its ``result`` one-hot's first bit
    used: tuple[int, ...]  # per captain: its three ``used`` bits


def _seating(captains: int, seat: int) -> _Seating:
    base = tuple((c - seat) % captains * _SEAT for c in range(captains))
    return _Seating(
        base=base,
        present=tuple(b + _PRESENT for b in base),
        position=tuple(b + _POSITION for b in base),
        home=tuple(b + _HOME for b in base),
        scalars=tuple(b + field for field in (_LAPS, _COINS, _CREW, _HAND_SIZE) for b in base),
        reveal={str(c): b + _REVEAL for c, b in enumerate(base)},
        result=tuple(b + _RESULT for b in base),
        used=tuple(b + _USED + i for b in base for i in range(3)),
    )


_SEATINGS = {(n, seat): _seating(n, seat) for n in range(2, MAX_CAPTAINS + 1) for seat in range(n)}


def _gather(
    state: Table, seat: int, work: dict[type, Any], counted: list[int], at: list[int], values: list[float]
) -> None:
    c_n = state.captains
    table = _SEATINGS[c_n, seat]
    base = table.base
    lap = state.lap
    progress = state.progress
    hands = state.hands
    counted += table.present
    counted += [b + p % lap for b, p in zip(table.position, progress, strict=True)]
    if max(progress) >= lap:
        counted += [b for b, p in zip(table.home, progress, strict=True) if p >= lap]
    at += table.scalars
    values += [p / lap for p in progress]
    values += state.coins
    values += state.crews.crew
    values += map(len, hands)
    if state.phantom >= 0:
        counted.append(base[state.phantom] + _PHANTOM)
    counted += [base[seat] + _KNOWN + k for k in hands[seat]]
    known = state.known[seat]
    if known.count(_NOTHING_KNOWN) != c_n:  # one list compare per captain, in C: most rows are all zeros
        for c, row in enumerate(known):
            if c != seat and row != _NOTHING_KNOWN:
                at += [base[c] + _KNOWN + k for k, n in enumerate(row) if n]
                values += [n for n in row if n]
    placing = work.get(Placing)
    if placing is not None:
        for c, tiles in enumerate(placing.tiles):
            counted += [base[c] + _TILES + _WATER_OF[t] for t in tiles]
    counted += [base[c] + _EXCLUDED for c in state.excluded]
    counted += [base[c] + _NEXT_EXCLUDED for c in state.next_excluded]
    counted += compress(table.used, chain.from_iterable(state.used))
    if state.token >= 0:
        counted.append(base[state.token] + _TOKEN)
    result = state.result
    if result:
        outcome = [_SURVIVOR] * c_n
        for c in result["losers"]:
            outcome[c] = _LOSER
        outcome[result["winner"]] = _WINNER
        counted += map(add, table.result, outcome)
    fight = work.get(Battle) or work.get(FinalBattle)
    if fight:
        rolls = fight.rolls
        for c in fight.rolling:
            counted.append(base[c] + _BATTLING)
            if rolls[c] >= 0:
                counted.append(base[c] + _ICON + rolls[c])
    if state.reveal:
        reveal_at = table.reveal
        counted += [
            first + _DIE_AT[kind][face]
            for c, cup in state.reveal["cups"].items()
            for first in (reveal_at[c],)
            for kind, face in cup
            if kind != _MAYOR_DIE
        ]
    final = work.get(FinalBattle)
    if final:
        at += [b + _FINAL_CREW for b in base]
        values += final.crew
    holder = state.crews.holder
    counted += [base[c] + held_at for die, held_at in _HELD if (c := holder[die]) >= 0]
    betting = state.betting
    if betting is not None:
        if seat in betting.cups:
            counted += [_CUP + _DIE_AT[kind][face] for kind, face in betting.cups[seat] if kind != _MAYOR_DIE]
        bids = betting.bids
        if bids:
            counted += [
                _BETS + ((q - 1) * BET_FACES + f - LOWEST_FACE) * MAX_CAPTAINS + (who - seat) % c_n
                for who, q, f in bids
            ]
            _, q, f = bids[-1]
            counted.append(_LAST_FACE + f - LOWEST_FACE)
            at.append(_LAST_QUANTITY)
            values.append(q)
        at.append(_IN_PLAY)
        values.append(betting.dice_in_play)
    if state.phase != "over":
        counted.append(_PHASE + _PHASE_INDEX.get(state.phase, _OTHER_PHASE))
    pending = state.pending
    if pending and pending[0] in _DECISION_INDEX:  # the options' decisions: in their own block
        counted.append(_DECISION + _DECISION_INDEX[pending[0]])
    reroll = work.get(Reroll)
    if reroll and reroll.die in _REROLL_DIE_INDEX:
        counted.append(_REROLL_DIE + _REROLL_DIE_INDEX[reroll.die])
    effect = work.get(Effect)
    if effect:
        if effect.card >= 0:
            counted.append(_CARD + effect.card)
        elif effect.source == "tile":
            tile = state.slots[state.position(state.resolver)]
            if tile < BASE_TILES:
                counted.append(_TILE + tile)
    if state.sail_die:
        counted.append(_SAIL_DIE + state.sail_die - 1)
    if state.pt:
        counted += (_PT_DIE + PT_DICE.index(state.pt.die), _PT_FACE + PT_FACES.index(state.pt.face))
    if state.direction > 0:
        counted.append(_DIRECTION)
    counted += _map_bits(tuple(state.slots))
    counted += [_PLAYED + card for _, card in state.played]
    counted += [_DISCARD + card for card in state.discard]
    draft = work.get(Draft)
    if draft is not None and seat < state.num_players:
        counted += [_PICKS + card for card in draft.picked[seat]]
    if placing is not None and seat < state.num_players:
        counted += [_OWN_TILES + t for t in placing.tiles[seat] if t < BASE_TILES]
    at += (_DECK, _ROUND)
    values += (len(state.deck), state.round_no)


@lru_cache(maxsize=64)
def _map_bits(slots: tuple[int, ...]) -> tuple[int, ...]:
    """The ``map`` one-hots of a map (maps change only while the tiles are placed)."""
    return tuple(_MAP + slot * BASE_TILES + tile for slot, tile in enumerate(slots) if 0 <= tile < BASE_TILES)


def _mayor_face(cup: list[list[int]] | None) -> int:
    """Index of the Mayor die's face in ``cup`` (1, coin, bomb, blank), or -1 if it is not there."""
    for kind, face in cup or ():
        if kind == _MAYOR_DIE:
            return _MAYOR_FACE[face]
    return -1


def _gather_options(
    state: Table, seat: int, work: dict[type, Any], counted: list[int], at: list[int], values: list[float]
) -> None:
    """The options' fields of ``seat``'s observation: only what that seat may know."""
    x = state.ext
    opts = x["options"]
    cities = x.get("towns") is not None
    reveal = state.reveal["cups"] if state.reveal else {}
    c_n = state.captains
    for rel in range(c_n):
        c = (seat + rel) % c_n
        base = rel * _OPTION_SEAT
        if c in state.crews.out:
            counted.append(base + _OUT)
        if x["captain"][c] >= 0:
            counted.append(base + _CAPTAIN + x["captain"][c])
        if x["sabotaged"][c]:
            counted.append(base + _SABOTAGED)
        if not cities:
            continue
        if x["designated"][c] >= 0:
            counted.append(base + _DESIGNATED + x["designated"][c])
        town = x["towns"][state.position(c)]
        if town >= 0:
            counted.append(base + _IN_TOWN + town)
        if x["influence_used"][c]:
            counted.append(base + _INFLUENCE_USED)
        if state.crews.holder.get(_MAYOR_DIE) == c:
            counted.append(base + _MAYOR)
        face = _mayor_face(reveal.get(str(c)))
        if face >= 0:
            counted.append(base + _REVEAL_MAYOR + face)
        at += (base + _INFLUENCE_SIZE, base + _TOWN_CARDS)
        values += (len(x["influence"][c]), len(x["town_cards"][c]))
    flags = (cities, opts["abilities"], opts["merchant_ships"], opts["variants"])
    counted += [_OPTIONS + i for i, on in enumerate(flags) if on]
    counted += [_VARIANTS + i for i, v in enumerate(VARIANTS) if v.name in opts["variants"]]
    if state.pending and state.pending[0] in _OPTION_DECISION_INDEX:
        counted.append(_OPTION_DECISION + _OPTION_DECISION_INDEX[state.pending[0]])
    if x["captain_order"]:
        counted += [_CAPTAINS_FREE + a for a in range(len(CAPTAINS)) if a not in x["captain"]]
    if x["merchant"] >= 0:
        counted += (_MERCHANT + x["merchant"], _NAVY + x["navy"])
    encounter = work.get(Encounter)
    if encounter:
        counted.append(_ENCOUNTER + (0 if encounter.ship == "merchant" else 1))
        if encounter.roll >= 0:
            counted.append(_ENCOUNTER_ROLL + encounter.roll)
    reroll = work.get(Reroll)
    if reroll and reroll.die == "encounter":
        counted.append(_REROLL_ENCOUNTER)
    counted += [
        _MAP_NEW + slot * len(CITY_TILES) + t - BASE_TILES for slot, t in enumerate(state.slots) if t >= BASE_TILES
    ]
    effect = work.get(Effect)
    if effect and effect.source == "tile":
        tile = state.slots[state.position(state.resolver)]
        if tile >= BASE_TILES:
            counted.append(_TILE_NEW + tile - BASE_TILES)
    placing = work.get(Placing)
    if placing is not None and seat < state.num_players:
        counted += [_OWN_TILES_NEW + t - BASE_TILES for t in placing.tiles[seat] if t >= BASE_TILES]
    drawn = work.get(KeepOne)
    if drawn and drawn.seat == seat:  # only the drawer sees the two cards
        first = _DRAWN_CARDS if drawn.what == "card" else _DRAWN_INFLUENCE
        counted += [first + k for k in drawn.cards]
    if not cities:
        return
    counted += [_TOWNS + slot * TOWN_N + t for slot, t in enumerate(x["towns"]) if t >= 0]
    counted += [_OWN_INFLUENCE + k for k in x["influence"][seat]]
    counted += [_INFLUENCE_DISCARD + k for k in x["influence_discard"]]
    at.append(_INFLUENCE_DECK)
    values.append(len(x["influence_deck"]))
    playing = work.get(Influence)
    if playing:
        counted.append(_PLAYING_CARD + playing.card)
        if playing.town >= 0:
            counted.append(_PLAYING_TOWN + playing.town)
    if state.betting is not None:
        face = _mayor_face(state.betting.cups.get(seat))
        if face >= 0:
            counted.append(_CUP_MAYOR + face)
    cargo = work.get(Cargo)
    if cargo and cargo.queue:
        at.append(_CARGO_LEFT)
        values.append(cargo.queue[0][1])


if speedups.kernels is not None:
    # the kernel's copy of ``_gather``'s offsets and tables, in the order of ``lying_pirates_layout``'s ints
    speedups.kernels.lying_pirates_layout(
        (
            _SEAT,
            _PRESENT,
            _PHANTOM,
            _POSITION,
            _LAPS,
            _HOME,
            _COINS,
            _CREW,
            _HAND_SIZE,
            _KNOWN,
            _TILES,
            _EXCLUDED,
            _NEXT_EXCLUDED,
            _USED,
            _TOKEN,
            _RESULT,
            _BATTLING,
            _ICON,
            _REVEAL,
            _FINAL_CREW,
            _CUP,
            _BETS,
            _LAST_QUANTITY,
            _LAST_FACE,
            _IN_PLAY,
            _PHASE,
            _DECISION,
            _REROLL_DIE,
            _CARD,
            _TILE,
            _SAIL_DIE,
            _PT_DIE,
            _PT_FACE,
            _DIRECTION,
            _MAP,
            _PLAYED,
            _DISCARD,
            _DECK,
            _PICKS,
            _OWN_TILES,
            _ROUND,
            BET_FACES,
            LOWEST_FACE,
            MAX_CAPTAINS,
            BASE_TILES,
            _MAYOR_DIE,
            _OTHER_PHASE,
            _WINNER,
            _LOSER,
            _SURVIVOR,
        ),
        _DIE_AT,
        [_WATER_OF.get(t, -1) for t in range(len(ALL_TILES))],
        [(die, held_at) for die, held_at in _HELD],
        _PHASE_INDEX,
        _DECISION_INDEX,
        _REROLL_DIE_INDEX,
        {die: i for i, die in enumerate(PT_DICE)},
        {face: i for i, face in enumerate(PT_FACES)},
        (Placing, Battle, FinalBattle, Reroll, Effect, Draft),
    )
