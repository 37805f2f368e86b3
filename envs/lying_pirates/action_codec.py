"""Lying Pirates' action ids: the structured actions of the engine as flat ids, and back.

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

The Mayor die's bomb target is a ``target o``.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from bidbluff.envs.core.codec import Action, ActionCodec, ActionKind
from bidbluff.envs.lying_pirates.betting import BettingRound
from bidbluff.envs.lying_pirates.content import (
    ALL_TILES,
    CAPTAINS,
    CARDS,
    CITY_TILES,
    INFLUENCE,
    SAFE,
    TILES,
    TOWNS,
    TREACHEROUS,
    UNCHARTED,
)

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
