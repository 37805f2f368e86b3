"""Libertalia's components as data: characters, tie-break numbers, booty."""

from __future__ import annotations

from enum import IntEnum

COLOURS = ("Yellow", "Red", "Blue", "Green", "Black", "Grey")
NUM_RANKS = 30
CAMPAIGNS = 3
DAYS = 6
START_DOUBLOONS = 10
DEAL_SIZES = (9, 6, 6)  # shared ranks dealt at the start of campaigns 1, 2, 3


class Booty(IntEnum):
    CHEST = 0
    JEWELS = 1
    GOODS = 2
    MAP = 3
    RELIC = 4
    SABRE = 5
    OFFICER = 6


BOOTY_NAMES = ("chest", "jewels", "goods", "map", "relic", "sabre", "officer")
BAG = (4, 6, 10, 8, 10, 6, 6)  # 50 tokens
BOOTY_VALUE = (5, 3, 1, 0, -3, 0, 0)  # maps score per set of three
MAP_SET_VALUE = 12

# Rank -> name.  Index 0 is unused so that CHARACTERS[rank] reads naturally.
CHARACTERS = (
    None,
    "Parrot", "Monkey", "Beggar", "Recruiter", "Cabin Boy", "Preacher",
    "Barkeep", "Waitress", "Carpenter", "French Officer", "Voodoo Witch",
    "Freed Slave", "Mutineer", "Brute", "Gunner", "Topman", "Spanish Spy",
    "Cook", "Bosun", "Armorer", "Merchant", "Surgeon", "Treasurer", "Gambler",
    "Governor's Daughter", "Quartermaster", "Granny Wata", "First Mate",
    "Captain", "Spanish Governor",
)  # fmt: skip


class Rank(IntEnum):
    PARROT = 1
    MONKEY = 2
    BEGGAR = 3
    RECRUITER = 4
    CABIN_BOY = 5
    PREACHER = 6
    BARKEEP = 7
    WAITRESS = 8
    CARPENTER = 9
    FRENCH_OFFICER = 10
    VOODOO_WITCH = 11
    FREED_SLAVE = 12
    MUTINEER = 13
    BRUTE = 14
    GUNNER = 15
    TOPMAN = 16
    SPANISH_SPY = 17
    COOK = 18
    BOSUN = 19
    ARMORER = 20
    MERCHANT = 21
    SURGEON = 22
    TREASURER = 23
    GAMBLER = 24
    GOVERNORS_DAUGHTER = 25
    QUARTERMASTER = 26
    GRANNY_WATA = 27
    FIRST_MATE = 28
    CAPTAIN = 29
    SPANISH_GOVERNOR = 30


# Cyclic shift k per rank (rules §7): the number on a card of colour c is
# ((c + k) mod 6) + 1, so Yellow's Parrot is 1 and Grey's Parrot is 6.
_TIE_SHIFT = (
    None,
    0, 1, 2, 3, 4, 5, 5, 0, 1, 2, 3, 4, 4, 5, 0,
    1, 2, 3, 3, 4, 5, 0, 1, 2, 2, 3, 4, 5, 0, 1,
)  # fmt: skip


def tie_break(colour: int, rank: int) -> int:
    """The printed tie-break number (1-6) of ``colour``'s card ``rank``: lower sits left."""
    return (colour + _TIE_SHIFT[rank]) % 6 + 1


# What each character does, in a line: shown beside the ship in the text board.
ABILITY_TEXT = {
    Rank.PARROT: "Sunrise: discard the Parrot and play another card from your hand in its place.",
    Rank.MONKEY: "Day: move all your cursed relics to the den of the player on your left.",
    Rank.BEGGAR: "Day: the owner of the highest card on the ship gives you 3 doubloons.",
    Rank.RECRUITER: "Day: take one character from your den back into your hand.",
    Rank.CABIN_BOY: "Dusk: take no booty.",
    Rank.PREACHER: "Day: discard all your booty but one of your choice. Anchor: +5.",
    Rank.BARKEEP: "Night: +1.",
    Rank.WAITRESS: "Night: discard a treasure map for +3.",
    Rank.CARPENTER: "Day: lose half your doubloons (rounded down). Anchor: +10.",
    Rank.FRENCH_OFFICER: "Day: +5 if you have fewer than 9 doubloons.",
    Rank.VOODOO_WITCH: "Day: +2 per character in your discard pile.",
    Rank.FREED_SLAVE: "Night: +2 per character in your den ranked above 12.",
    Rank.MUTINEER: "Night: discard the lowest other character in your den, +2.",
    Rank.BRUTE: "Day: discard the highest character on the ship.",
    Rank.GUNNER: "Day: pay 3, then discard a character of your choice from any den.",
    Rank.TOPMAN: "Anchor: +5 if no den holds fewer characters than yours.",
    Rank.SPANISH_SPY: "Day: discard your Spanish officers; draw a booty token from the bag for each.",
    Rank.COOK: "Dusk: take two booty tokens.",
    Rank.BOSUN: "Night: +2 per character in your den ranked below 19.",
    Rank.ARMORER: "Night: +1 per sabre.",
    Rank.MERCHANT: "Day: trade 2 identical booty tokens for +3 or 3 for +5.",
    Rank.SURGEON: "Day: take a discarded character of yours back into your hand, unseen.",
    Rank.TREASURER: "Anchor: +1 per chest, jewels and goods.",
    Rank.GAMBLER: "Day: pay 1 per booty token. Anchor: +8.",
    Rank.GOVERNORS_DAUGHTER: "Anchor: +6 if no other den holds a Governor's Daughter, else -3.",
    Rank.QUARTERMASTER: "Day: +1 per booty token. Anchor: -8.",
    Rank.GRANNY_WATA: "Night: +2 if yours is the only Granny Wata in a den; else all of them are discarded.",
    Rank.FIRST_MATE: "Anchor: +1 per character in your den.",
    Rank.CAPTAIN: "Day: +3. Anchor: -3 per cursed relic.",
    Rank.SPANISH_GOVERNOR: "Day: discard all characters in your den.",
}
