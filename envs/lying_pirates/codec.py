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

Observation (float32, values in [0, 1]): six captain blocks (relative seats,
padded), then shared values; ``SEAT_FIELDS`` and ``SHARED_FIELDS`` below give
every offset.  A captain block: present, Phantom, position on the map
(16 one-hot), laps sailed, back on the Base, coins / 20, crew dice / 10,
special dice held (4), hand size / 10, the cards the observer knows it holds
(21 counts / 3: the whole hand for the observer itself; cards passed to it in
the draft or taken from the observer otherwise), unplaced tiles per water
(safe, uncharted, treacherous: a tile's water shows on its back) / 9, out of
this / the next Betting phase, gold / silver / reroll used this round, holds
the Starting Captain token, this round's winner / loser / survivor, in the
battle being fought and its icon (3), the last reveal of its cup (crew faces
1-6 as counts / 10, and each special die's face, 4 x 7), final battle crew / 20.
Shared: own cup while betting (crew faces 1-6 as counts / 10 and special
faces 4 x 7); every bet of this Betting phase (60 x 5 x 6, who made it); the
last bet (quantity / 60, face 5); dice in play / 60; phase (5); open decision
(10); which die a reroll is for (3); the card (21) and tile (25) whose effect
is being decided; sail die (2); Pirate / Treasure die and its face (4); token
direction; the map (16 slots x 25 tiles); cards played this round (21);
discard pile (21, counts / 5); deck size / 83; own draft picks (21); own
unplaced tiles (25); round / 30.

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

The Mayor die's bomb target is a ``target o``.  The observation appends six
option blocks (``EXT_SEAT_FIELDS``, relative seats) and ``EXT_SHARED_FIELDS``
after the base layout: sunk, designated town, town it is in, influence hand
size, influence card played this round, holds the Mayor die, the Mayor die's
face at the last reveal (1 / coin / bomb / blank), captain coaster (8),
Saboteur used, town cards left / 7; shared: which options are on, variant
cards in play (9), the open option decision (11), the town under each slot
(16 x 7), own influence cards (7 counts / 3), influence discard (7 / 3),
influence deck / 21, the influence card being played and its town, the
expansion tiles on the map (16 x 4), the expansion tile being resolved and
own unplaced ones, own cup's Mayor die face, the Merchant and Navy ships'
slots (16 each), the ship being met and its battle die, own drawn cards
waiting for "keep one" (21 + 7), coasters still free (8), cargo left to lose.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from envs.core.codec import Action, ActionCodec, ActionKind, layout
from envs.lying_pirates.cargo import Cargo
from envs.lying_pirates.content import ALL_TILES, CAPTAINS, CARDS, CITY_TILES, INFLUENCE, TILES, TOWNS, VARIANTS
from envs.lying_pirates.dice import BLANK, BOMB, COIN, SPECIALS, Die
from envs.lying_pirates.frames import Battle, Draft, Effect, FinalBattle, Placing, Reroll
from envs.lying_pirates.influence import Influence
from envs.lying_pirates.merchants import Encounter
from envs.lying_pirates.rules import DECISIONS, EXT_DECISIONS
from envs.lying_pirates.state import LyingPiratesState
from envs.lying_pirates.variant_cards import KeepOne

MAX_CAPTAINS = 6
MAX_QUANTITY = 60
MAX_SLOTS = 16
BET_FACES = 5
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
        return CODEC.encode((kind, action[1] - 1, action[2] - 2))
    if kind in _SEATED:
        return CODEC.encode((kind, (action[1] - seat) % captains))
    if kind == "place" and action[1] >= BASE_TILES:
        return FULL_CODEC.encode(("place_new", action[1] - BASE_TILES, action[2]))
    return FULL_CODEC.encode(action)  # the base kinds have the same ids in both codecs


def id_to_action(action_id: int, seat: int, captains: int) -> Action:
    coded = FULL_CODEC.decode(action_id)
    kind = coded[0]
    if kind in ("bid", "exact"):
        return (kind, coded[1] + 1, coded[2] + 2)
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


SEAT_FIELDS = (
    ("present", 1), ("phantom", 1), ("position", MAX_SLOTS), ("laps", 1), ("home", 1), ("coins", 1),
    ("crew", 1), ("specials", len(SPECIALS)), ("hand_size", 1), ("known", KINDS), ("tiles", 3),
    ("excluded", 1), ("next_excluded", 1), ("used", 3), ("token", 1), ("result", 3), ("battling", 1),
    ("icon", 3), ("reveal", 6), ("reveal_specials", len(SPECIALS) * 7), ("final_crew", 1),
)  # fmt: skip
SHARED_FIELDS = (
    ("cup", 6), ("cup_specials", len(SPECIALS) * 7), ("bets", MAX_QUANTITY * BET_FACES * MAX_CAPTAINS),
    ("last_bet", 1 + BET_FACES), ("in_play", 1), ("phase", 5), ("decision", len(DECISIONS)), ("reroll_die", 3),
    ("card", KINDS), ("tile", len(TILES)), ("sail_die", 2), ("pt", 4), ("direction", 1),
    ("map", MAX_SLOTS * len(TILES)), ("played", KINDS), ("discard", KINDS), ("deck", 1), ("picks", KINDS),
    ("own_tiles", len(TILES)), ("round", 1),
)  # fmt: skip


SEAT_AT, SEAT_SIZE = layout(SEAT_FIELDS)
SHARED_AT, SHARED_SIZE = layout(SHARED_FIELDS)
OBSERVATION_SIZE = MAX_CAPTAINS * SEAT_SIZE + SHARED_SIZE
_PHASES = {"betting": 0, "sail": 1, "action": 2, "final": 3}
_DECISION_INDEX = {d: i for i, d in enumerate(DECISIONS)}
_REROLL_DIE = {"sail": 0, "pt": 1, "battle": 2}
_SPECIAL_SLOT = {int(d): i for i, d in enumerate(SPECIALS)}
_CREW_DIE = int(Die.CREW)
_WATER = {"safe": 0, "uncharted": 1, "treacherous": 2}
_POSITION, _PHANTOM, _LAPS, _HOME, _COINS, _CREW, _SPECIALS, _HAND_SIZE, _KNOWN, _TILES = (
    SEAT_AT[f] for f in ("position", "phantom", "laps", "home", "coins", "crew", "specials", "hand_size", "known",
                         "tiles")
)  # fmt: skip
_EXCLUDED, _NEXT_EXCLUDED, _USED, _TOKEN, _RESULT, _BATTLING, _ICON = (
    SEAT_AT[f] for f in ("excluded", "next_excluded", "used", "token", "result", "battling", "icon")
)
_REVEAL, _REVEAL_SPECIALS, _FINAL_CREW = (SEAT_AT[f] for f in ("reveal", "reveal_specials", "final_crew"))


def _cup_faces(ones: list[int], at: list[int], val: list[float], crew_at: int, specials_at: int,
               cup: list[list[int]]) -> None:  # fmt: skip
    """A cup's crew faces as counts / 10 and its special dice's faces one-hot (the Mayor die: elsewhere)."""
    crew = []
    for kind, face in cup:
        if kind == _CREW_DIE:
            crew.append(face - 1)
        elif kind in _SPECIAL_SLOT:
            ones.append(specials_at + _SPECIAL_SLOT[kind] * 7 + face)
    _count(at, val, crew_at, crew, 10)


def _counted(at: list[int], val: list[float], start: int, counts: Iterable[tuple[int, int]], per_one: int) -> None:
    """(index, count) pairs as count / ``per_one`` (at most 1) at ``start`` + index; zero counts skipped."""
    for i, n in counts:
        if n:
            at.append(start + i)
            val.append(min(n / per_one, 1.0))


def _count(at: list[int], val: list[float], start: int, items: list[int], per_one: int) -> None:
    """How often each index occurs in ``items`` (a plain dict: Counter costs more than it saves on lists
    this short)."""
    counts: dict[int, int] = {}
    for i in items:
        counts[i] = counts.get(i, 0) + 1
    _counted(at, val, start, counts.items(), per_one)


def _count_row(at: list[int], val: list[float], start: int, counts: list[int], per_one: int) -> None:
    """A row of counts, mostly all zeros."""
    if any(counts):
        _counted(at, val, start, enumerate(counts), per_one)


def encode(state: LyingPiratesState, seat: int) -> np.ndarray:
    """``seat``'s observation: its own cup and cards, and what the table knows of the others."""
    if state.ext is None:
        return _encode(state, seat, OBSERVATION_SIZE)
    out = _encode(state, seat, FULL_OBSERVATION_SIZE)
    _encode_ext(state, seat, out)
    return out


def _encode(state: LyingPiratesState, seat: int, size: int) -> np.ndarray:
    # Gathered, then written in two calls: the positions set to 1, and (position, value) pairs (each
    # position once, the value already clipped to [0, 1]).
    out = np.zeros(size, dtype=np.float32)
    ones: list[int] = []
    at: list[int] = []
    val: list[float] = []
    c_n = state.captains
    lap = state.lap
    result = state.result or {}
    work = {type(frame): frame for frame in state.stack}  # the work in progress by kind, the topmost of each
    battle, final, placing = work.get(Battle), work.get(FinalBattle), work.get(Placing)
    reveal = state.reveal["cups"] if state.reveal else {}
    holder = state.crews.holder
    if battle:
        rolls, rolling = battle.rolls, battle.rolling
    elif final:
        rolls, rolling = final.rolls, final.rolling
    else:
        rolls, rolling = [], []
    for rel in range(c_n):
        c = (seat + rel) % c_n
        base = rel * SEAT_SIZE
        progress = state.progress[c]
        ones += (base, base + _POSITION + progress % lap)
        if c == state.phantom:
            ones.append(base + _PHANTOM)
        if progress >= lap:
            ones.append(base + _HOME)
        hand = state.hands[c]
        at += (base + _LAPS, base + _COINS, base + _CREW, base + _HAND_SIZE)
        val += (min(progress / (2 * lap), 1.0), min(state.coins[c] / 20, 1.0), min(state.crews.crew[c] / 10, 1.0),
                min(len(hand) / 10, 1.0))  # fmt: skip
        if c == seat:
            _count(at, val, base + _KNOWN, hand, 3)
        else:
            _count_row(at, val, base + _KNOWN, state.known[seat][c], 3)
        if placing is not None and c < state.num_players:
            _count(at, val, base + _TILES, [_WATER[ALL_TILES[t].water] for t in placing.tiles[c]], 9)
        if c in state.excluded:
            ones.append(base + _EXCLUDED)
        if c in state.next_excluded:
            ones.append(base + _NEXT_EXCLUDED)
        if any(state.used[c]):
            ones += [base + _USED + i for i, used in enumerate(state.used[c]) if used]
        if c == state.token:
            ones.append(base + _TOKEN)
        if result:
            ones.append(base + _RESULT + (0 if c == result["winner"] else 1 if c in result["losers"] else 2))
        if c in rolling:
            ones.append(base + _BATTLING)
            if rolls[c] >= 0:
                ones.append(base + _ICON + rolls[c])
        cup = reveal.get(str(c))
        if cup:
            _cup_faces(ones, at, val, base + _REVEAL, base + _REVEAL_SPECIALS, cup)
        if final:
            at.append(base + _FINAL_CREW)
            val.append(min(final.crew[c] / 20, 1.0))
    for i, d in enumerate(SPECIALS):
        c = holder[int(d)]
        if c >= 0:
            ones.append((c - seat) % c_n * SEAT_SIZE + _SPECIALS + i)
    g = MAX_CAPTAINS * SEAT_SIZE
    betting = state.betting
    if betting is not None:
        if seat in betting.cups:
            _cup_faces(ones, at, val, g + SHARED_AT["cup"], g + SHARED_AT["cup_specials"], betting.cups[seat])
        first = g + SHARED_AT["bets"]
        ones += [first + ((q - 1) * BET_FACES + f - 2) * MAX_CAPTAINS + (who - seat) % c_n
                 for who, q, f in betting.bids]  # fmt: skip
        if betting.bids:
            _, q, f = betting.bids[-1]
            at.append(g + SHARED_AT["last_bet"])
            val.append(q / MAX_QUANTITY)
            ones.append(g + SHARED_AT["last_bet"] + 1 + f - 2)
        at.append(g + SHARED_AT["in_play"])
        val.append(min(betting.dice_in_play / MAX_QUANTITY, 1.0))
    if state.phase in _PHASES:
        ones.append(g + SHARED_AT["phase"] + _PHASES[state.phase])
    elif state.phase != "over":
        ones.append(g + SHARED_AT["phase"] + 4)
    if state.pending and state.pending[0] in _DECISION_INDEX:  # the options' decisions: in their own block
        ones.append(g + SHARED_AT["decision"] + _DECISION_INDEX[state.pending[0]])
    reroll = work.get(Reroll)
    if reroll and reroll.die in _REROLL_DIE:
        ones.append(g + SHARED_AT["reroll_die"] + _REROLL_DIE[reroll.die])
    effect = work.get(Effect)
    if effect:
        if effect.card >= 0:
            ones.append(g + SHARED_AT["card"] + effect.card)
        elif effect.source == "tile":
            tile = state.slots[state.position(state.resolver)]
            if tile < BASE_TILES:
                ones.append(g + SHARED_AT["tile"] + tile)
    if state.sail_die:
        ones.append(g + SHARED_AT["sail_die"] + state.sail_die - 1)
    if state.pt:
        ones += (g + SHARED_AT["pt"] + (0 if state.pt.die == "P" else 1),
                 g + SHARED_AT["pt"] + (2 if state.pt.face == "O" else 3))  # fmt: skip
    if state.direction > 0:
        ones.append(g + SHARED_AT["direction"])
    first = g + SHARED_AT["map"]
    ones += [first + slot * len(TILES) + tile for slot, tile in enumerate(state.slots) if 0 <= tile < BASE_TILES]
    _count(at, val, g + SHARED_AT["played"], [card for _, card in state.played], 3)
    _count(at, val, g + SHARED_AT["discard"], state.discard, 5)
    at.append(g + SHARED_AT["deck"])
    val.append(min(len(state.deck) / 83, 1.0))
    draft = work.get(Draft)
    if draft is not None and seat < state.num_players:
        _count(at, val, g + SHARED_AT["picks"], draft.picked[seat], 3)
    if placing is not None and seat < state.num_players:
        first = g + SHARED_AT["own_tiles"]
        ones += [first + t for t in placing.tiles[seat] if t < BASE_TILES]
    at.append(g + SHARED_AT["round"])
    val.append(min(state.round_no / 30, 1.0))
    out[ones] = 1.0
    out[at] = val
    return out


# -- the options' block ---------------------------------------------------------------------------------------
EXT_SEAT_FIELDS = (
    ("out", 1), ("designated", TOWN_N), ("in_town", TOWN_N), ("influence_size", 1), ("influence_used", 1),
    ("mayor", 1), ("reveal_mayor", 4), ("captain", len(CAPTAINS)), ("sabotaged", 1), ("town_cards", 1),
)  # fmt: skip
EXT_SHARED_FIELDS = (
    ("options", 4), ("variants", len(VARIANTS)), ("decision", len(EXT_DECISIONS)), ("towns", MAX_SLOTS * TOWN_N),
    ("own_influence", INFLUENCE_N), ("influence_discard", INFLUENCE_N), ("influence_deck", 1),
    ("playing_card", INFLUENCE_N), ("playing_town", TOWN_N), ("map_new", MAX_SLOTS * len(CITY_TILES)),
    ("tile_new", len(CITY_TILES)), ("own_tiles_new", len(CITY_TILES)), ("cup_mayor", 4), ("merchant", MAX_SLOTS),
    ("navy", MAX_SLOTS), ("encounter", 2), ("encounter_roll", 3), ("reroll_encounter", 1), ("drawn_cards", KINDS),
    ("drawn_influence", INFLUENCE_N), ("captains_free", len(CAPTAINS)), ("cargo_left", 1),
)  # fmt: skip
EXT_SEAT_AT, EXT_SEAT_SIZE = layout(EXT_SEAT_FIELDS)
EXT_SHARED_AT, EXT_SHARED_SIZE = layout(EXT_SHARED_FIELDS)
EXT_AT = OBSERVATION_SIZE  # the options' block starts where the base layout ends
FULL_OBSERVATION_SIZE = OBSERVATION_SIZE + MAX_CAPTAINS * EXT_SEAT_SIZE + EXT_SHARED_SIZE
_EXT_DECISION_INDEX = {d: i for i, d in enumerate(EXT_DECISIONS)}
_MAYOR_FACE = {1: 0, COIN: 1, BOMB: 2, BLANK: 3}


def _mayor_face(cup: list[list[int]] | None) -> int:
    """Index of the Mayor die's face in ``cup`` (1, coin, bomb, blank), or -1 if it is not there."""
    for kind, face in cup or ():
        if kind == Die.MAYOR:
            return _MAYOR_FACE[face]
    return -1


def _encode_ext(state: LyingPiratesState, seat: int, out: np.ndarray) -> None:
    """The options' fields of ``seat``'s observation: only what that seat may know."""
    x = state.ext
    opts = x["options"]
    ones: list[int] = []
    cities = x.get("towns") is not None
    reveal = state.reveal["cups"] if state.reveal else {}
    c_n = state.captains
    for rel in range(c_n):
        c = (seat + rel) % c_n
        base = EXT_AT + rel * EXT_SEAT_SIZE
        if c in state.crews.out:
            ones.append(base + EXT_SEAT_AT["out"])
        if x["captain"][c] >= 0:
            ones.append(base + EXT_SEAT_AT["captain"] + x["captain"][c])
        if x["sabotaged"][c]:
            ones.append(base + EXT_SEAT_AT["sabotaged"])
        if not cities:
            continue
        if x["designated"][c] >= 0:
            ones.append(base + EXT_SEAT_AT["designated"] + x["designated"][c])
        town = x["towns"][state.position(c)]
        if town >= 0:
            ones.append(base + EXT_SEAT_AT["in_town"] + town)
        out[base + EXT_SEAT_AT["influence_size"]] = len(x["influence"][c]) / 10
        if x["influence_used"][c]:
            ones.append(base + EXT_SEAT_AT["influence_used"])
        if state.crews.holder.get(int(Die.MAYOR)) == c:
            ones.append(base + EXT_SEAT_AT["mayor"])
        face = _mayor_face(reveal.get(str(c)))
        if face >= 0:
            ones.append(base + EXT_SEAT_AT["reveal_mayor"] + face)
        out[base + EXT_SEAT_AT["town_cards"]] = len(x["town_cards"][c]) / TOWN_N
    g = EXT_AT + MAX_CAPTAINS * EXT_SEAT_SIZE
    at = g + EXT_SHARED_AT["options"]
    ones += [at + i for i, on in enumerate((cities, bool(opts["abilities"]), bool(opts["merchant_ships"]),
                                            bool(opts["variants"]))) if on]  # fmt: skip
    at = g + EXT_SHARED_AT["variants"]
    ones += [at + i for i, v in enumerate(VARIANTS) if v.name in opts["variants"]]
    if state.pending and state.pending[0] in _EXT_DECISION_INDEX:
        ones.append(g + EXT_SHARED_AT["decision"] + _EXT_DECISION_INDEX[state.pending[0]])
    if x["captain_order"]:
        at = g + EXT_SHARED_AT["captains_free"]
        ones += [at + a for a in range(len(CAPTAINS)) if a not in x["captain"]]
    if x["merchant"] >= 0:
        ones += (g + EXT_SHARED_AT["merchant"] + x["merchant"], g + EXT_SHARED_AT["navy"] + x["navy"])
    work = {type(frame): frame for frame in state.stack}
    enc = work.get(Encounter)
    if enc:
        ones.append(g + EXT_SHARED_AT["encounter"] + (0 if enc.ship == "merchant" else 1))
        if enc.roll >= 0:
            ones.append(g + EXT_SHARED_AT["encounter_roll"] + enc.roll)
    reroll = work.get(Reroll)
    if reroll and reroll.die == "encounter":
        ones.append(g + EXT_SHARED_AT["reroll_encounter"])
    at = g + EXT_SHARED_AT["map_new"]
    ones += [at + slot * len(CITY_TILES) + t - BASE_TILES for slot, t in enumerate(state.slots) if t >= BASE_TILES]
    effect = work.get(Effect)
    if effect and effect.source == "tile":
        tile = state.slots[state.position(state.resolver)]
        if tile >= BASE_TILES:
            ones.append(g + EXT_SHARED_AT["tile_new"] + tile - BASE_TILES)
    placing = work.get(Placing)
    if placing is not None and seat < state.num_players:
        at = g + EXT_SHARED_AT["own_tiles_new"]
        ones += [at + t - BASE_TILES for t in placing.tiles[seat] if t >= BASE_TILES]
    drawn = work.get(KeepOne)
    if drawn and drawn.seat == seat:  # only the drawer sees the two cards
        at = g + EXT_SHARED_AT["drawn_cards" if drawn.what == "card" else "drawn_influence"]
        for k in drawn.cards:
            out[at + k] += 0.5
    if cities:
        at = g + EXT_SHARED_AT["towns"]
        ones += [at + slot * TOWN_N + t for slot, t in enumerate(x["towns"]) if t >= 0]
        at = g + EXT_SHARED_AT["own_influence"]
        for k in x["influence"][seat]:
            out[at + k] += 1 / 3
        at = g + EXT_SHARED_AT["influence_discard"]
        for k in x["influence_discard"]:
            out[at + k] += 1 / 3
        out[g + EXT_SHARED_AT["influence_deck"]] = len(x["influence_deck"]) / 21
        playing = work.get(Influence)
        if playing:
            ones.append(g + EXT_SHARED_AT["playing_card"] + playing.card)
            if playing.town >= 0:
                ones.append(g + EXT_SHARED_AT["playing_town"] + playing.town)
        if state.betting is not None:
            face = _mayor_face(state.betting.cups.get(seat))
            if face >= 0:
                ones.append(g + EXT_SHARED_AT["cup_mayor"] + face)
        cargo = work.get(Cargo)
        if cargo and cargo.queue:
            out[g + EXT_SHARED_AT["cargo_left"]] = cargo.queue[0][1] / 3
    out[ones] = 1.0
    np.minimum(out, 1.0, out=out)
