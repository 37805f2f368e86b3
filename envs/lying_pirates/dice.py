"""Lying Pirates' dice as data, and their rolls.  Face 0 is a blank face; the Mayor die (Cities of Greed) adds two
icon faces."""

from __future__ import annotations

from enum import IntEnum

import numpy as np

BLANK = 0
WILD = 1
# The Mayor die's icon faces: they count toward no bet (like a blank) and act at the reveal.
COIN, BOMB = 7, 8
BET_FACES = (2, 3, 4, 5, 6)


class Die(IntEnum):
    """Crew dice that go in a cup.  Only one special die of each kind exists."""

    CREW = 0
    PIRATE_KING = 1
    MERMAID = 2
    CURSED = 3
    GHOST = 4
    MAYOR = 5  # Cities of Greed only


DIE_NAMES = ("crew", "Pirate King", "Mermaid", "Cursed", "Ghost", "Mayor")
FACES: dict[Die, tuple[int, ...]] = {
    Die.CREW: (1, 2, 3, 4, 5, 6),
    Die.PIRATE_KING: (1, 1, 1, 6, 6, 6),
    Die.MERMAID: (1, 1, 6, 6, BLANK, BLANK),
    Die.CURSED: (2, 3, 4, 5, BLANK, BLANK),
    Die.GHOST: (1, 1, 1, BLANK, BLANK, BLANK),  # from the video
    Die.MAYOR: (1, 1, COIN, BOMB, BLANK, BLANK),  # the video's Cities of Greed segment
}
# The base game's special dice: the observation and the liars_dice benchmark are laid out on these four.
SPECIALS = (Die.PIRATE_KING, Die.MERMAID, Die.CURSED, Die.GHOST)
CITY_SPECIALS = (*SPECIALS, Die.MAYOR)  # with the Cities of Greed expansion
CREW_LIMIT = 10

# The dice that never go in a cup: the sail die, the Pirate and Treasure dice of a tile (O: the good outcome).
SAIL_DIE = (1, 1, 1, 2, 2, 2)
PIRATE_DIE = "XXOOOO"
TREASURE_DIE = "XXXOOO"


class Icon(IntEnum):
    """Battle die icons, ordered by strength: swords beat dagger, dagger beats skull."""

    SKULL = 0
    DAGGER = 1
    SWORDS = 2


# d8: crossed swords x3, dagger x3, skull x2 (stand-in counts, rulings "Dice").
BATTLE_DIE = (Icon.SWORDS,) * 3 + (Icon.DAGGER,) * 3 + (Icon.SKULL,) * 2


def roll_die(kind: int, rng: np.random.Generator) -> int:
    """A face of a cup's die of ``kind``."""
    return FACES[Die(kind)][int(rng.integers(6))]


def roll_battle_die(rng: np.random.Generator) -> int:
    return int(BATTLE_DIE[int(rng.integers(8))])
