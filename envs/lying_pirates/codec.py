"""Lying Pirates' action ids and observation vector.

Actions (``Discrete(1062)``), seats relative to the acting captain (0 = self,
then the captains in seat order; the Phantom is the last seat of a
two-player game)::

       0-299   bid q f      bet q (1-60) dice show f (2-6)        id = (q-1)*5 + f-2
     300-599   exact q f    "exactly q dice show f"
         600   liar         "Liar!"
         601   reroll       pay a coin to reroll the die just rolled (also in the final battle)
         602   keep         keep the die as it is
         603   pass         priority window, reaction or final battle: do nothing / let the card through
     604-624   play k       play action card kind k (window, reaction, final battle)
         625   buy          buy an action card for 2 coins (final battle: a crew die for 2 coins)
         626   draw         draw a card for free (empty hand)
     627-632   curse o      pass the Cursed die to seat o, returning two crew dice
     633-638   target o     the card or tile effect hits seat o
         639   advance      catch-up: sacrifice a crew die to sail one tile (or agree to)
         640   stop         catch-up: stop (or refuse)
    641-1040   place t s    collaborative map: put tile t on slot s  id = 641 + 16t + s
   1041-1061   pick k       card draft: pass a card of kind k

Observation (float32, values in [0, 1]): ``LAYOUT``, six captain blocks
(relative seats, padded) then the shared values, every field with its scale;
``LAYOUT.describe()`` is the table in ``envs/lying_pirates/env.py``'s
docstring, and ``view(obs)`` gives named views over an observation.

With any option on (``expansion``, ``abilities``, ``variants``,
``merchant_ships``; ``has_options``) the layout grows, the base layout kept
as it is in front (``FULL_CODEC``: ``Discrete(1326)``, observation 3504)::

   1062-1125   place_new t s    collaborative map: expansion tile t (0-3) on slot s
   1126-1237   town_place t s   slot town t (0-6) under slot s     id = 1126 + 16t + s
   1238-1244   town_choose t    take town t as your designated town
   1245-1251   return_influence k   give back influence card kind k (setup; "draw two, keep one")
   1252-1258   influence k      play influence card kind k (Action phase window)
   1259-1265   town t           the town of the card played
        1266   attack           the town's captains lose a cargo each
        1267   bonus            the town's captains gain a coin (own town while there: 2 and the Mayor die)
        1268   buy_influence    buy an influence card for 1 coin
        1269   drop_coin        lose a coin as cargo
   1270-1290   drop_card k      lose an action card of kind k as cargo
        1291   drop_crew        lose a crew die as cargo
   1292-1312   return_card k    "draw two, keep one": discard the drawn card of kind k
   1313-1320   captain a        take captain coaster a (abilities="chosen")
        1321   ability          use your captain's ability (Saboteur Sly)
        1322   barter           Merchant Ship: buy an action card for 1 coin
        1323   raid             Merchant Ship: roll your battle die
        1324   loot_card        raid won: draw a card and gain a coin
        1325   loot_coins       raid won: gain 3 coins

The Mayor die's bomb target is a ``target o``.  The observation
(``FULL_LAYOUT``) appends six option blocks (relative seats) and the options'
shared values after the base layout.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import chain, compress
from operator import add
from typing import Any

import numpy as np

from bidbluff.envs.core.codec import Action, ActionCodec, ActionKind
from bidbluff.envs.core.fields import Block, Field, Layout, View
from bidbluff.envs.lying_pirates.betting import BettingRound
from bidbluff.envs.lying_pirates.cargo import Cargo
from bidbluff.envs.lying_pirates.content import (
    ALL_TILES,
    CAPTAINS,
    CARDS,
    CITY_TILES,
    DECK_SIZE,
    INFLUENCE,
    INFLUENCE_DECK,
    SAFE,
    TILES,
    TOWNS,
    TREACHEROUS,
    UNCHARTED,
    VARIANTS,
)
from bidbluff.envs.lying_pirates.dice import BLANK, BOMB, COIN, SPECIALS, Die
from bidbluff.envs.lying_pirates.frames import Battle, Draft, Effect, FinalBattle, Placing, Reroll
from bidbluff.envs.lying_pirates.influence import Influence
from bidbluff.envs.lying_pirates.merchants import Encounter
from bidbluff.envs.lying_pirates.options import has_options
from bidbluff.envs.lying_pirates.rules import DECISIONS, EXT_DECISIONS
from bidbluff.envs.lying_pirates.state import LyingPiratesState
from bidbluff.envs.lying_pirates.variant_cards import KeepOne

MAX_CAPTAINS = 6
MAX_QUANTITY = 60
MAX_SLOTS = 16
BET_FACES = 5
LOWEST_FACE = 2  # bets name faces 2-6 (1s are wild): face f is bet face f - 2
KINDS = len(CARDS)

CODEC = ActionCodec(
    [
        ActionKind("bid", (MAX_QUANTITY, BET_FACES), "bet: at least q dice show f"),
        ActionKind("exact", (MAX_QUANTITY, BET_FACES), "exactly q dice show f"),
        ActionKind("liar", (), "call the last bet a lie"),
        ActionKind("reroll", (), "pay a coin to reroll"),
        ActionKind("keep", (), "keep the roll"),
        ActionKind("pass", (), "do nothing now"),
        ActionKind("play", (KINDS,), "play an action card"),
        ActionKind("buy", (), "buy a card (final battle: a crew die)"),
        ActionKind("draw", (), "free draw with an empty hand"),
        ActionKind("curse", (MAX_CAPTAINS,), "pass the Cursed die"),
        ActionKind("target", (MAX_CAPTAINS,), "choose the captain an effect hits"),
        ActionKind("advance", (), "catch-up: sacrifice a crew die, sail a tile"),
        ActionKind("stop", (), "catch-up: stop"),
        ActionKind("place", (len(TILES), MAX_SLOTS), "place a tile on a slot"),
        ActionKind("pick", (KINDS,), "draft: pass a card of this kind"),
    ]
)
_SEATED = ("curse", "target")
BASE_TILES = len(TILES)
TOWN_N, INFLUENCE_N = len(TOWNS), len(INFLUENCE)
WATERS = (SAFE, UNCHARTED, TREACHEROUS)
# Appended after the base kinds when an option is on: every base id keeps its meaning.
FULL_CODEC = ActionCodec(
    [
        *CODEC.kinds,
        ActionKind("place_new", (len(CITY_TILES), MAX_SLOTS), "place an expansion tile on a slot"),
        ActionKind("town_place", (TOWN_N, MAX_SLOTS), "slot a town card under a slot's tile"),
        ActionKind("town_choose", (TOWN_N,), "take a town as your designated town"),
        ActionKind("return_influence", (INFLUENCE_N,), "give back an influence card"),
        ActionKind("influence", (INFLUENCE_N,), "play an influence card"),
        ActionKind("town", (TOWN_N,), "pick a town of the influence card"),
        ActionKind("attack", (), "the town's captains lose a cargo"),
        ActionKind("bonus", (), "the town's captains gain a coin"),
        ActionKind("buy_influence", (), "buy an influence card for 1 coin"),
        ActionKind("drop_coin", (), "lose a coin as cargo"),
        ActionKind("drop_card", (KINDS,), "lose an action card as cargo"),
        ActionKind("drop_crew", (), "lose a crew die as cargo"),
        ActionKind("return_card", (KINDS,), "draw two, keep one: discard this one"),
        ActionKind("captain", (len(CAPTAINS),), "take a captain coaster"),
        ActionKind("ability", (), "use your captain's ability"),
        ActionKind("barter", (), "Merchant: buy a card for 1 coin"),
        ActionKind("raid", (), "Merchant: roll your battle die"),
        ActionKind("loot_card", (), "raid won: a card and a coin"),
        ActionKind("loot_coins", (), "raid won: 3 coins"),
    ]
)


def action_to_id(action: Action, seat: int, captains: int) -> int:
    kind = action[0]
    if kind in ("bid", "exact"):
        return CODEC.encode((kind, action[1] - 1, action[2] - LOWEST_FACE))
    if kind in _SEATED:
        return CODEC.encode((kind, (action[1] - seat) % captains))
    if kind == "place" and action[1] >= BASE_TILES:
        return FULL_CODEC.encode(("place_new", action[1] - BASE_TILES, action[2]))
    return FULL_CODEC.encode(action)  # the base kinds have the same ids in both codecs


def id_to_action(action_id: int, seat: int, captains: int) -> Action:
    actions = _actions_for(seat, captains)
    if 0 <= action_id < len(actions) and actions[action_id] is not None:
        return actions[action_id]
    return _decode(action_id, seat, captains)  # says what is wrong with the id


def _decode(action_id: int, seat: int, captains: int) -> Action:
    coded = FULL_CODEC.decode(action_id)
    kind = coded[0]
    if kind in ("bid", "exact"):
        return (kind, coded[1] + 1, coded[2] + LOWEST_FACE)
    if kind in _SEATED:
        if coded[1] >= captains:
            raise ValueError(f"action id {action_id} names relative seat {coded[1]} with {captains} captains")
        return (kind, (seat + coded[1]) % captains)
    if kind == "place_new":
        return ("place", coded[1] + BASE_TILES, coded[2])
    return coded


def action_to_str(action: Action) -> str:
    kind = action[0]
    if kind in ("bid", "exact"):
        return f"{kind} {action[1]}x{action[2]}"
    if kind in _SEATED:
        return f"{kind} C{action[1]}"
    if kind in ("play", "pick", "drop_card", "return_card"):
        return f"{kind} {CARDS[action[1]].name}"
    if kind == "place":
        return f"place {ALL_TILES[action[1]].name} on {action[2]}"
    if kind == "town_place":
        return f"town {TOWNS[action[1]]} under {action[2]}"
    if kind in ("town_choose", "town"):
        return f"{kind} {TOWNS[action[1]]}"
    if kind in ("influence", "return_influence"):
        return f"{kind} {INFLUENCE[action[1]].name}"
    if kind == "captain":
        return f"captain {CAPTAINS[action[1]].name}"
    return kind


@cache
def _actions_for(seat: int, captains: int) -> list[Action | None]:
    """Per id, the engine action it is for ``seat`` at a table of ``captains`` (built once per pair); None for
    a relative seat beyond the table."""
    actions: list[Action | None] = []
    for i in range(FULL_CODEC.n):
        coded = FULL_CODEC.decode(i)
        beyond = coded[0] in _SEATED and coded[1] >= captains
        actions.append(None if beyond else _decode(i, seat, captains))
    return actions


@cache
def _ids_for(seat: int, captains: int) -> dict[Action, int]:
    """Every engine action ``seat`` may take at a table of ``captains``, to its id."""
    return {action: i for i, action in enumerate(_actions_for(seat, captains)) if action is not None}


def action_ids(actions: Iterable[Action], seat: int, captains: int) -> list[int]:
    """Sorted ids of ``seat``'s engine ``actions`` (the legal mask's), one table lookup each."""
    try:
        return sorted(map(_ids_for(seat, captains).__getitem__, actions))
    except (KeyError, TypeError):  # not an action of this game: action_to_id says which, in words
        return sorted(action_to_id(a, seat, captains) for a in actions)


_BET_IDS: dict[tuple, tuple[int, ...]] = {}
_BET_IDS_KEPT = 4096


def bet_ids(betting: BettingRound) -> list[int]:
    """Sorted ids of ``betting.legal_actions()``: up to a few hundred bets, which depend only on the rules,
    the last bet, the dice in play and the captains (``BettingRound.raises``), so each set is converted once."""
    if betting.outcome:
        return []
    last = (betting.bids[-1][1], betting.bids[-1][2]) if betting.bids else None
    key = (betting.rules, last, betting.dice_in_play, betting.captains)
    ids = _BET_IDS.get(key)
    if ids is None:
        if len(_BET_IDS) >= _BET_IDS_KEPT:
            _BET_IDS.clear()
        ids = _BET_IDS[key] = tuple(action_ids(betting.legal_actions(), 0, betting.captains))  # no seat in a bet
    return list(ids)


# -- the observation ------------------------------------------------------------------------------------------
# The base game's layout, and with any option on the full one: the base layout in front as it is, the options'
# blocks after it.  ``LAYOUT.describe()`` / ``FULL_LAYOUT.describe()`` are the tables in env.py's docstring.
PHASES = ("betting", "sail", "action", "final")  # the phase one-hot, then "another phase" (none: the game is over)
REROLL_DICE = ("sail", "pt", "battle")  # the dice a base-game reroll is for
PT_DICE, PT_FACES = ("P", "T"), ("O", "X")  # the Pirate / Treasure die and its faces
_SEAT_HELP = "seat k: k captains on from the observer (0: itself)"
_CUP_SPECIALS = (len(SPECIALS), 7)  # per special die (pirate king, mermaid, cursed, ghost): its face, one-hot
LAYOUT = Layout(
    Block(
        "seat",
        (
            Field("present", help="the seat is at the table"),
            Field("phantom", help="it is the Phantom (two players)"),
            Field("position", MAX_SLOTS, help="one-hot: its slot on the map"),
            Field("laps", scale=2, help="laps sailed (tiles sailed / the map's slots)"),
            Field("home", help="back on the Base after a full lap"),
            Field("coins", scale=20, help="coins"),
            Field("crew", scale=10, help="crew dice"),
            Field("specials", len(SPECIALS), help="per special die (pirate king, mermaid, cursed, ghost): it holds it"),
            Field("hand_size", scale=10, help="action cards in hand"),
            Field(
                "known", KINDS, scale=3, help="per card kind: the cards the observer knows it holds (its own: the hand)"
            ),
            Field("tiles", len(WATERS), scale=9, help="unplaced tiles per water (safe, uncharted, treacherous)"),
            Field("excluded", help="out of this Betting phase"),
            Field("next_excluded", help="out of the next Betting phase"),
            Field("used", 3, help="gold card, silver card, reroll used this round"),
            Field("token", help="holds the Starting Captain token"),
            Field("result", 3, help="one-hot: this round's winner, loser, survivor"),
            Field("battling", help="in the battle being fought"),
            Field("icon", 3, help="one-hot: its battle die (skull, dagger, swords)"),
            Field("reveal", 6, scale=10, help="its cup at the last reveal: crew dice per face 1-6"),
            Field(
                "reveal_specials", _CUP_SPECIALS, help="its cup at the last reveal: each special die's face, one-hot"
            ),
            Field("final_crew", scale=20, help="its crew in the final battle"),
        ),
        count=MAX_CAPTAINS,
        help=_SEAT_HELP,
    ),
    Block(
        "shared",
        (
            Field("cup", 6, scale=10, help="own cup while betting: crew dice per face 1-6"),
            Field("cup_specials", _CUP_SPECIALS, help="own cup: each special die's face, one-hot"),
            Field(
                "bets",
                (MAX_QUANTITY, BET_FACES, MAX_CAPTAINS),
                help="every bet of this Betting phase, quantity x face 2-6: the seat that made it, one-hot",
            ),
            Field("last_quantity", scale=MAX_QUANTITY, help="the last bet's quantity"),
            Field("last_face", BET_FACES, help="one-hot: the last bet's face 2-6"),
            Field("in_play", scale=MAX_QUANTITY, help="dice in play"),
            Field("phase", 5, help="one-hot: Betting, Sail, Action, final battle, other (none: over)"),
            Field("decision", len(DECISIONS), help="one-hot: the open decision, ``rules.DECISIONS``"),
            Field("reroll_die", 3, help="one-hot: the die a reroll is for (sail, Pirate / Treasure, battle)"),
            Field("card", KINDS, help="one-hot: the card whose effect is being decided"),
            Field("tile", BASE_TILES, help="one-hot: the tile whose effect is being decided"),
            Field("sail_die", 2, help="one-hot: the sail die's face (1, 2)"),
            Field("pt_die", 2, help="one-hot: the tile's die rolled (Pirate, Treasure)"),
            Field("pt_face", 2, help="one-hot: its face (O, X)"),
            Field("direction", help="the token turns clockwise"),
            Field("map", (MAX_SLOTS, BASE_TILES), help="per slot: its tile, one-hot"),
            Field("played", KINDS, scale=3, help="per card kind: played this round"),
            Field("discard", KINDS, scale=5, help="per card kind: in the discard pile"),
            Field("deck", scale=DECK_SIZE, help="cards in the deck"),
            Field("picks", KINDS, scale=3, help="per card kind: own draft picks"),
            Field("own_tiles", BASE_TILES, help="own unplaced tiles"),
            Field("round", scale=30, help="the round"),
        ),
        help="the table, and the observer's own cup, picks and tiles",
    ),
)
FULL_LAYOUT = Layout(
    *LAYOUT.blocks.values(),
    Block(
        "option_seat",
        (
            Field("out", help="sunk (out of the game)"),
            Field("designated", TOWN_N, help="one-hot: its designated town"),
            Field("in_town", TOWN_N, help="one-hot: the town it is in"),
            Field("influence_size", scale=10, help="influence cards in hand"),
            Field("influence_used", help="played an influence card this round"),
            Field("mayor", help="holds the Mayor die"),
            Field("reveal_mayor", 4, help="one-hot: the Mayor die's face at the last reveal (1, coin, bomb, blank)"),
            Field("captain", len(CAPTAINS), help="one-hot: its captain coaster"),
            Field("sabotaged", help="Saboteur Sly's ability used"),
            Field("town_cards", scale=TOWN_N, help="town cards left to slot"),
        ),
        count=MAX_CAPTAINS,
        help=_SEAT_HELP,
    ),
    Block(
        "option_shared",
        (
            Field("options", 4, help="on: the expansion, abilities, Merchant Ships, variant cards"),
            Field("variants", len(VARIANTS), help="per variant card: in play"),
            Field(
                "option_decision", len(EXT_DECISIONS), help="one-hot: the open option decision, ``rules.EXT_DECISIONS``"
            ),
            Field("towns", (MAX_SLOTS, TOWN_N), help="per slot: the town under it, one-hot"),
            Field("own_influence", INFLUENCE_N, scale=3, help="per influence card kind: own hand"),
            Field("influence_discard", INFLUENCE_N, scale=3, help="per influence card kind: discarded"),
            Field("influence_deck", scale=INFLUENCE_DECK, help="influence cards in the deck"),
            Field("playing_card", INFLUENCE_N, help="one-hot: the influence card being played"),
            Field("playing_town", TOWN_N, help="one-hot: its town"),
            Field("map_new", (MAX_SLOTS, len(CITY_TILES)), help="per slot: its expansion tile, one-hot"),
            Field("tile_new", len(CITY_TILES), help="one-hot: the expansion tile being resolved"),
            Field("own_tiles_new", len(CITY_TILES), help="own unplaced expansion tiles"),
            Field("cup_mayor", 4, help="one-hot: the Mayor die's face in the own cup"),
            Field("merchant", MAX_SLOTS, help="one-hot: the Merchant Ship's slot"),
            Field("navy", MAX_SLOTS, help="one-hot: the Navy Ship's slot"),
            Field("encounter", 2, help="one-hot: the ship being met (Merchant, Navy)"),
            Field("encounter_roll", 3, help="one-hot: the battle die rolled for it"),
            Field("reroll_encounter", help="the reroll open is for that die"),
            Field("drawn_cards", KINDS, scale=2, help='per card kind: own drawn cards waiting for "keep one"'),
            Field("drawn_influence", INFLUENCE_N, scale=2, help="the same for influence cards"),
            Field("captains_free", len(CAPTAINS), help="per captain coaster: still free"),
            Field("cargo_left", scale=3, help="cargo the captain losing it has still to lose"),
        ),
        help="the options",
    ),
)
OBSERVATION_SIZE, FULL_OBSERVATION_SIZE = LAYOUT.size, FULL_LAYOUT.size
_LAYOUT_OF_SIZE = {LAYOUT.size: LAYOUT, FULL_LAYOUT.size: FULL_LAYOUT}


def layout_for(options: dict[str, Any]) -> Layout:
    """The observation layout of a game set up with ``options`` (the env's spaces depend on it)."""
    return FULL_LAYOUT if has_options(options) else LAYOUT


def view(obs: np.ndarray) -> View:
    """Named views over a ``lying_pirates_v0`` observation of either layout, told apart by its size."""
    layout = _LAYOUT_OF_SIZE.get(obs.shape[-1]) if obs.ndim else None
    if layout is None:
        raise ValueError(
            f"a lying_pirates_v0 observation has {LAYOUT.size} values, or {FULL_LAYOUT.size} with "
            f"options on, not shape {obs.shape}"
        )
    return layout.view(obs)


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


def encode(state: LyingPiratesState, seat: int) -> np.ndarray:
    """``seat``'s observation: its own cup and cards, and what the table knows of the others.

    Every value is gathered in the game's units (``counted``: one position per item; ``at`` / ``values``: the
    rest) and the layout encodes them in one go (``Layout.encode``: divided by the field's scale, clipped)."""
    counted: list[int] = []
    at: list[int] = []
    values: list[float] = []
    work = {type(frame): frame for frame in state.stack}  # the work in progress by kind, the topmost of each
    _gather(state, seat, work, counted, at, values)
    if state.ext is None:
        return LAYOUT.encode(counted, at, values)
    _gather_options(state, seat, work, counted, at, values)
    return FULL_LAYOUT.encode(counted, at, values)


def _dice_at() -> list[list[int]]:
    """Per die kind and face: where a cup's fields (crew dice per face 1-6, then each special die's face) put
    it, from the crew field's start; -1 for the Mayor die (its face has a field of its own)."""
    gap = _REVEAL_SPECIALS - _REVEAL
    if gap != _CUP_SPECIALS_AT - _CUP:
        raise ValueError("a cup's fields (crew faces, then the special dice) lie alike in the seat and shared blocks")
    faces = _CUP_SPECIALS[1]
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
    state: LyingPiratesState, seat: int, work: dict[type, Any], counted: list[int], at: list[int], values: list[float]
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
    state: LyingPiratesState, seat: int, work: dict[type, Any], counted: list[int], at: list[int], values: list[float]
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
