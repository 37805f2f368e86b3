"""Lying Pirates' observation layout: every field of the vector, its shape and its scale, and named views.

Observation (float32, values in [0, 1]): ``LAYOUT``, six captain blocks
(relative seats, padded) then the shared values, every field with its scale;
``LAYOUT.describe()`` is the table in ``envs/lying_pirates/env.py``'s
docstring, and ``view(obs)`` gives named views over an observation.  With
any option on, ``FULL_LAYOUT`` appends six option blocks (relative seats) and
the options' shared values after the base layout, which stays as it is.

The encoder that fills it is ``encoder.encode``.
"""

from __future__ import annotations

import numpy as np

from bidbluff.envs.core.fields import Block, Field, Layout, View
from bidbluff.envs.lying_pirates.action_codec import (
    BASE_TILES,
    BET_FACES,
    INFLUENCE_N,
    KINDS,
    MAX_CAPTAINS,
    MAX_QUANTITY,
    MAX_SLOTS,
    TOWN_N,
    WATERS,
)
from bidbluff.envs.lying_pirates.content import (
    CAPTAINS,
    CITY_TILES,
    DECK_SIZE,
    INFLUENCE_DECK,
    VARIANTS,
)
from bidbluff.envs.lying_pirates.dice import SPECIALS
from bidbluff.envs.lying_pirates.table import DECISIONS, EXT_DECISIONS

# The base game's layout, and with any option on the full one: the base layout in front as it is, the options'
# blocks after it.  ``LAYOUT.describe()`` / ``FULL_LAYOUT.describe()`` are the tables in env.py's docstring.
PHASES = ("betting", "sail", "action", "final")  # the phase one-hot, then "another phase" (none: the game is over)
REROLL_DICE = ("sail", "pt", "battle")  # the dice a base-game reroll is for
PT_DICE, PT_FACES = ("P", "T"), ("O", "X")  # the Pirate / Treasure die and its faces
_SEAT_HELP = "seat k: k captains on from the observer (0: itself)"
CUP_SPECIALS = (len(SPECIALS), 7)  # per special die (pirate king, mermaid, cursed, ghost): its face, one-hot
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
            Field("reveal_specials", CUP_SPECIALS, help="its cup at the last reveal: each special die's face, one-hot"),
            Field("final_crew", scale=20, help="its crew in the final battle"),
        ),
        count=MAX_CAPTAINS,
        help=_SEAT_HELP,
    ),
    Block(
        "shared",
        (
            Field("cup", 6, scale=10, help="own cup while betting: crew dice per face 1-6"),
            Field("cup_specials", CUP_SPECIALS, help="own cup: each special die's face, one-hot"),
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


def view(obs: np.ndarray) -> View:
    """Named views over a ``lying_pirates_v0`` observation of either layout, told apart by its size."""
    layout = _LAYOUT_OF_SIZE.get(obs.shape[-1]) if obs.ndim else None
    if layout is None:
        raise ValueError(
            f"a lying_pirates_v0 observation has {LAYOUT.size} values, or {FULL_LAYOUT.size} with "
            f"options on, not shape {obs.shape}"
        )
    return layout.view(obs)
