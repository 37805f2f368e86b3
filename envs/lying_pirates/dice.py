"""Lying Pirates' dice as data.  Face 0 is a blank face."""

from __future__ import annotations

from enum import IntEnum

BLANK = 0
WILD = 1
BET_FACES = (2, 3, 4, 5, 6)


class Die(IntEnum):
    """Crew dice that go in a cup.  Only one special die of each kind exists."""

    CREW = 0
    PIRATE_KING = 1
    MERMAID = 2
    CURSED = 3
    GHOST = 4


DIE_NAMES = ("crew", "Pirate King", "Mermaid", "Cursed", "Ghost")
FACES: dict[Die, tuple[int, ...]] = {
    Die.CREW: (1, 2, 3, 4, 5, 6),
    Die.PIRATE_KING: (1, 1, 1, 6, 6, 6),
    Die.MERMAID: (1, 1, 6, 6, BLANK, BLANK),
    Die.CURSED: (2, 3, 4, 5, BLANK, BLANK),
    Die.GHOST: (1, 1, 1, BLANK, BLANK, BLANK),  # from the video
}
SPECIALS = (Die.PIRATE_KING, Die.MERMAID, Die.CURSED, Die.GHOST)
CREW_LIMIT = 10
