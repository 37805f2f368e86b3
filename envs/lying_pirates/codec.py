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
"""

from __future__ import annotations

import numpy as np

from envs.core.codec import Action, ActionCodec, ActionKind, layout
from envs.lying_pirates.content import CARDS, TILES
from envs.lying_pirates.dice import SPECIALS, Die
from envs.lying_pirates.rules import DECISIONS, LyingPiratesState

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


def action_to_id(action: Action, seat: int, captains: int) -> int:
    kind = action[0]
    if kind in ("bid", "exact"):
        return CODEC.encode((kind, action[1] - 1, action[2] - 2))
    if kind in _SEATED:
        return CODEC.encode((kind, (action[1] - seat) % captains))
    return CODEC.encode(action)


def id_to_action(action_id: int, seat: int, captains: int) -> Action:
    coded = CODEC.decode(action_id)
    kind = coded[0]
    if kind in ("bid", "exact"):
        return (kind, coded[1] + 1, coded[2] + 2)
    if kind in _SEATED:
        if coded[1] >= captains:
            raise ValueError(f"action id {action_id} names relative seat {coded[1]} with {captains} captains")
        return (kind, (seat + coded[1]) % captains)
    return coded


def action_to_str(action: Action) -> str:
    kind = action[0]
    if kind in ("bid", "exact"):
        return f"{kind} {action[1]}x{action[2]}"
    if kind in _SEATED:
        return f"{kind} C{action[1]}"
    if kind in ("play", "pick"):
        return f"{kind} {CARDS[action[1]].name}"
    if kind == "place":
        return f"place {TILES[action[1]].name} on {action[2]}"
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
_WATER = {"safe": 0, "uncharted": 1, "treacherous": 2}
_POSITION, _PHANTOM, _LAPS, _HOME, _COINS, _CREW, _SPECIALS, _HAND_SIZE, _KNOWN, _TILES = (
    SEAT_AT[f] for f in ("position", "phantom", "laps", "home", "coins", "crew", "specials", "hand_size", "known",
                         "tiles")
)  # fmt: skip
_EXCLUDED, _NEXT_EXCLUDED, _USED, _TOKEN, _RESULT, _BATTLING, _ICON = (
    SEAT_AT[f] for f in ("excluded", "next_excluded", "used", "token", "result", "battling", "icon")
)
_REVEAL, _REVEAL_SPECIALS, _FINAL_CREW = (SEAT_AT[f] for f in ("reveal", "reveal_specials", "final_crew"))


def _cup_faces(ones: list[int], out: np.ndarray, at: int, at_specials: int, cup: list[list[int]]) -> None:
    for kind, face in cup:
        if kind == Die.CREW:
            out[at + face - 1] += 0.1
        else:
            ones.append(at_specials + _SPECIAL_SLOT[kind] * 7 + face)


def encode(state: LyingPiratesState, seat: int) -> np.ndarray:
    """``seat``'s observation: its own cup and cards, and what the table knows of the others."""
    out = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    ones: list[int] = []  # positions set to 1, written in one go at the end
    c_n = state.captains
    lap = state.lap
    result = state.result or {}
    battle = state.battle
    reveal = state.reveal["cups"] if state.reveal else {}
    holder = state.crews.holder
    if battle:
        rolls, rolling = battle["rolls"], battle["rolling"]
    elif state.final:
        rolls, rolling = state.final["rolls"], state.final["rolling"]
    else:
        rolls, rolling = [], []
    for rel in range(c_n):
        c = (seat + rel) % c_n
        base = rel * SEAT_SIZE
        ones += (base, base + _POSITION + state.position(c))
        if c == state.phantom:
            ones.append(base + _PHANTOM)
        progress = state.progress[c]
        out[base + _LAPS] = progress / (2 * lap)
        if progress >= lap:
            ones.append(base + _HOME)
        out[base + _COINS] = state.coins[c] / 20
        out[base + _CREW] = state.crews.crew[c] / 10
        ones += [base + _SPECIALS + i for i, d in enumerate(SPECIALS) if holder[int(d)] == c]
        hand = state.hands[c]
        out[base + _HAND_SIZE] = len(hand) / 10
        at = base + _KNOWN
        if c == seat:
            for k in hand:
                out[at + k] += 1 / 3
        else:
            out[at : at + KINDS] = state.known[seat][c]
            out[at : at + KINDS] /= 3
        if state.placing is not None and c < state.num_players:
            for t in state.placing["tiles"][c]:
                out[base + _TILES + _WATER[TILES[t].water]] += 1 / 9
        if c in state.excluded:
            ones.append(base + _EXCLUDED)
        if c in state.next_excluded:
            ones.append(base + _NEXT_EXCLUDED)
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
            _cup_faces(ones, out, base + _REVEAL, base + _REVEAL_SPECIALS, cup)
        if state.final:
            out[base + _FINAL_CREW] = state.final["crew"][c] / 20
    g = MAX_CAPTAINS * SEAT_SIZE
    betting = state.betting
    if betting is not None:
        if seat in betting.cups:
            _cup_faces(ones, out, g + SHARED_AT["cup"], g + SHARED_AT["cup_specials"], betting.cups[seat])
        at = g + SHARED_AT["bets"]
        ones += [at + ((q - 1) * BET_FACES + f - 2) * MAX_CAPTAINS + (who - seat) % c_n for who, q, f in betting.bids]
        if betting.bids:
            _, q, f = betting.bids[-1]
            out[g + SHARED_AT["last_bet"]] = q / MAX_QUANTITY
            ones.append(g + SHARED_AT["last_bet"] + 1 + f - 2)
        out[g + SHARED_AT["in_play"]] = betting.dice_in_play / MAX_QUANTITY
    if state.phase in _PHASES:
        ones.append(g + SHARED_AT["phase"] + _PHASES[state.phase])
    elif state.phase != "over":
        ones.append(g + SHARED_AT["phase"] + 4)
    if state.pending:
        ones.append(g + SHARED_AT["decision"] + _DECISION_INDEX[state.pending[0]])
    if state.reroll:
        ones.append(g + SHARED_AT["reroll_die"] + _REROLL_DIE[state.reroll["die"]])
    if state.effect:
        if state.effect["card"] >= 0:
            ones.append(g + SHARED_AT["card"] + state.effect["card"])
        elif state.resolver >= 0:
            ones.append(g + SHARED_AT["tile"] + state.slots[state.position(state.resolver)])
    if state.sail_die:
        ones.append(g + SHARED_AT["sail_die"] + state.sail_die - 1)
    if state.pt:
        ones += (g + SHARED_AT["pt"] + (0 if state.pt["die"] == "P" else 1),
                 g + SHARED_AT["pt"] + (2 if state.pt["face"] == "O" else 3))  # fmt: skip
    if state.direction > 0:
        ones.append(g + SHARED_AT["direction"])
    at = g + SHARED_AT["map"]
    ones += [at + slot * len(TILES) + tile for slot, tile in enumerate(state.slots) if tile >= 0]
    at = g + SHARED_AT["played"]
    for _, card in state.played:
        out[at + card] += 1 / 3
    at = g + SHARED_AT["discard"]
    for card in state.discard:
        out[at + card] += 1 / 5
    out[g + SHARED_AT["deck"]] = len(state.deck) / 83
    if state.draft is not None and seat < state.num_players:
        at = g + SHARED_AT["picks"]
        for card in state.draft["picked"][seat]:
            out[at + card] += 1 / 3
    if state.placing is not None and seat < state.num_players:
        at = g + SHARED_AT["own_tiles"]
        ones += [at + t for t in state.placing["tiles"][seat]]
    out[g + SHARED_AT["round"]] = state.round_no / 30
    out[ones] = 1.0
    np.minimum(out, 1.0, out=out)  # counts and scales are clipped at 1
    return out


def _counts(cards: list[int]) -> list[int]:
    counts = [0] * KINDS
    for k in cards:
        counts[k] += 1
    return counts
