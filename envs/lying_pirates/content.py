"""Lying Pirates' tiles, maps and action cards, as data.

No public source gives the Tile Legend or the action deck, so both are the
project's stand-ins (rulings, "Content to design as stand-ins"): thematic, kept
as tables an owner of the physical game can replace.  Every effect is a tuple
``(verb, amount)`` that ``effects.py`` carries out; ``docs/rules/lying_pirates.md``
lists each one with its text.

Verbs (the actor is the captain resolving the tile or playing the card):
    coins n         actor gains n coins (loses -n, never below 0)
    crew n          actor gains n crew dice (loses -n, never the last one)
    move n          actor's ship moves n tiles (back when negative)
    draw n          actor draws n action cards
    special d       actor takes special die d
    discard n       actor discards n random cards
    token           actor takes the Starting Captain token and turns it over
    hit_crew n      a target captain loses n crew dice          (attack)
    hit_coins n     a target captain loses n coins               (attack)
    steal_crew n    a crew die goes from a target to the actor   (attack)
    steal_coins n   n coins go from a target to the actor        (attack)
    steal_card n    a random card goes from a target's hand      (attack)
    push n          a target's ship moves back n tiles           (attack)
    duel n          actor duels a target; the loser loses n crew (attack)
    broadside n     every other captain loses n crew dice        (attack, no target)
    brawl n         every captain off the Base battles for a loser, who loses n crew
    kraken n        every captain in treacherous waters loses n crew dice
"""

from __future__ import annotations

from dataclasses import dataclass

from bidbluff.envs.lying_pirates.dice import Die

# What things cost, and what a game starts with.
START_COINS = 2
CARD_COST = 2
CREW_COST = 2  # final battle: one crew die for two coins
REROLL_COST = 1
SUNK_PENALTY = 100  # a sunk captain's score: tiles sailed less this, below every ship still sailing

SAFE, UNCHARTED, TREACHEROUS, BASE = "safe", "uncharted", "treacherous", "base"
TARGETED = frozenset({"hit_crew", "hit_coins", "steal_crew", "steal_coins", "steal_card", "push", "duel"})
NEGATIVE = TARGETED | {"broadside", "brawl", "kraken"}  # the Base tile makes a captain immune to these from cards


@dataclass(frozen=True)
class Tile:
    name: str
    water: str
    roll: str  # "" (no roll), "P" (Pirate die) or "T" (Treasure die); an O face picks ``good``
    good: tuple[tuple, ...]
    bad: tuple[tuple, ...] = ()

    def text(self) -> str:
        said = "; ".join(" ".join(map(str, e)) for e in self.good)
        if not self.roll:
            return said
        other = "; ".join(" ".join(map(str, e)) for e in self.bad)
        return f"roll the {'Pirate' if self.roll == 'P' else 'Treasure'} die: O: {said} / X: {other}"


TILES: tuple[Tile, ...] = (
    Tile("Start/End", BASE, "", ()),
    # safe waters: good effects
    Tile("Recruit Crew", SAFE, "", (("crew", 2),)),
    Tile("Steal a Crewmember", SAFE, "", (("steal_crew", 1),)),
    Tile("Pirate King", SAFE, "", (("special", Die.PIRATE_KING),)),
    Tile("Mermaid's Lagoon", SAFE, "", (("special", Die.MERMAID),)),
    Tile("Treasure Cove", SAFE, "", (("coins", 2),)),
    Tile("Trade Winds", SAFE, "", (("draw", 1),)),
    Tile("Safe Harbour", SAFE, "", (("coins", 1), ("crew", 1))),
    Tile("Fair Winds", SAFE, "", (("move", 1),)),
    # uncharted waters: a roll picks the good (O) or the bad (X) outcome
    Tile("Caught by the Navy", UNCHARTED, "P", (("coins", -1),), (("crew", -2),)),
    Tile("Gamble", UNCHARTED, "T", (("coins", 3),), (("coins", -2),)),
    Tile("Change of Wind", UNCHARTED, "P", (("token", 1),), (("move", -1),)),
    Tile("Duel", UNCHARTED, "T", (("steal_coins", 2),), (("duel", 1),)),
    Tile("Ghost Ship", UNCHARTED, "P", (("special", Die.GHOST),), (("crew", -1),)),
    Tile("Cursed Idol", UNCHARTED, "T", (("coins", 2),), (("special", Die.CURSED),)),
    Tile("Message in a Bottle", UNCHARTED, "T", (("draw", 2),), (("discard", 1),)),
    # treacherous waters: mostly bad
    Tile("Fire your Cannons", TREACHEROUS, "P", (("hit_crew", 2),), (("crew", -1),)),
    Tile("Mutiny", TREACHEROUS, "", (("crew", -2),)),
    Tile("Kraken", TREACHEROUS, "", (("kraken", 1), ("crew", -1))),
    Tile("Broken Compass", TREACHEROUS, "", (("move", -2),)),
    Tile("Whirlpool", TREACHEROUS, "", (("move", -1), ("coins", -1))),
    Tile("Reef", TREACHEROUS, "", (("crew", -1), ("coins", -1))),
    Tile("Storm", TREACHEROUS, "", (("discard", 2),)),
    Tile("Sea Serpent", TREACHEROUS, "T", (("coins", 3),), (("crew", -3),)),
    Tile("Doldrums", TREACHEROUS, "", (("coins", -2),)),
)
TILE_INDEX = {t.name: i for i, t in enumerate(TILES)}

# Maps: slot 0 is the Base; the other slots lie in three waters in sailing order.
MAP_WATERS = {
    "base": (BASE,) + (SAFE,) * 3 + (UNCHARTED,) * 4 + (TREACHEROUS,) * 4,
    "extended": (BASE,) + (SAFE,) * 5 + (UNCHARTED,) * 5 + (TREACHEROUS,) * 5,
}
HAND_SIZE = {"base": 6, "extended": 7}
# The rulebook's first-game layout, clockwise from Start/End; the extended map
# adds two safe, one uncharted and one treacherous tile to it (stand-in).
FIRST_GAME = {
    "base": (
        "Start/End",
        "Recruit Crew",
        "Steal a Crewmember",
        "Pirate King",
        "Caught by the Navy",
        "Gamble",
        "Change of Wind",
        "Duel",
        "Fire your Cannons",
        "Mutiny",
        "Kraken",
        "Broken Compass",
    ),
    "extended": (
        "Start/End",
        "Recruit Crew",
        "Steal a Crewmember",
        "Pirate King",
        "Mermaid's Lagoon",
        "Treasure Cove",
        "Caught by the Navy",
        "Gamble",
        "Change of Wind",
        "Duel",
        "Cursed Idol",
        "Fire your Cannons",
        "Mutiny",
        "Kraken",
        "Whirlpool",
        "Broken Compass",
    ),
}

GOLD, SILVER = "gold", "silver"
MOVE, ATTACK, DEFEND = "move", "attack", "defend"


@dataclass(frozen=True)
class Card:
    name: str
    metal: str  # gold: Sail or Action phase; silver: Action phase only
    icon: str  # move, attack, or defend (defence and crew)
    count: int
    effect: tuple[tuple, ...]
    final_battle: bool = False  # may be played once per battle of the final battle
    reaction: bool = False  # played by a targeted captain to cancel an attack card

    @property
    def unique(self) -> bool:
        return self.count == 1

    def text(self) -> str:
        if self.reaction:
            return "reaction: cancel an attack card that targets you"
        said = "; ".join(" ".join(map(str, e)) for e in self.effect)
        return said + (" (also in the final battle)" if self.final_battle else "")


CARDS: tuple[Card, ...] = (
    Card("Full Sail", GOLD, MOVE, 6, (("move", 1),)),
    Card("Crosswind", GOLD, MOVE, 4, (("push", 1),)),
    Card("Cannon Volley", GOLD, ATTACK, 5, (("hit_crew", 1),), final_battle=True),
    Card("Boarding Party", GOLD, ATTACK, 4, (("steal_crew", 1),)),
    Card("Plunder", GOLD, ATTACK, 5, (("steal_coins", 2),)),
    Card("Pickpocket", GOLD, ATTACK, 4, (("steal_card", 1),)),
    Card("Challenge", GOLD, ATTACK, 4, (("duel", 1),)),
    Card("Broadside", GOLD, ATTACK, 1, (("broadside", 1),), final_battle=True),
    Card("Grog Barrel", GOLD, DEFEND, 5, (("crew", 1),)),
    Card("Second Wind", GOLD, DEFEND, 3, (("crew", 1),), final_battle=True),
    Card("Hull Plating", GOLD, DEFEND, 4, (), reaction=True),
    Card("Tailwind", SILVER, MOVE, 5, (("move", 1),)),
    Card("Anchor Chain", SILVER, MOVE, 3, (("push", 1),)),
    Card("Sabotage", SILVER, ATTACK, 4, (("hit_coins", 2),)),
    Card("Mutinous Whispers", SILVER, ATTACK, 4, (("hit_crew", 1),)),
    Card("Brawl", SILVER, ATTACK, 3, (("brawl", 1),)),
    Card("Smuggler's Cache", SILVER, DEFEND, 5, (("coins", 2),)),
    Card("Press Gang", SILVER, DEFEND, 4, (("crew", 1),)),
    Card("Treasure Map", SILVER, DEFEND, 4, (("draw", 2),)),
    Card("Parley", SILVER, DEFEND, 5, (), reaction=True),
    Card("Mermaid's Song", SILVER, DEFEND, 1, (("special", Die.MERMAID),)),
)
CARD_INDEX = {c.name: i for i, c in enumerate(CARDS)}
DECK_SIZE = sum(c.count for c in CARDS)  # 83, as the box holds


def is_attack(card: Card) -> bool:
    return any(verb in NEGATIVE for verb, _ in card.effect)


def needs_target(effects: tuple[tuple, ...]) -> bool:
    return any(verb in TARGETED for verb, _ in effects)


# -- Cities of Greed (expansion="cities_of_greed") ------------------------------------------------------------
# The video names two of the seven towns (Eastport, the Abandoned Lighthouse); the other five are stand-ins.
TOWNS: tuple[str, ...] = (
    "Eastport",
    "Abandoned Lighthouse",
    "Port Royale",
    "Skull Rock",
    "Tortuga Bay",
    "Coral Keep",
    "Greedwater",
)
TOWN_INDEX = {name: i for i, name in enumerate(TOWNS)}


@dataclass(frozen=True)
class Influence:
    """An influence card: three towns (stand-in deck: the seven lines of a Fano plane, so every
    two towns share exactly one card kind and every town is on three kinds), ``count`` copies."""

    towns: tuple[int, int, int]
    count: int

    @property
    def name(self) -> str:
        return " / ".join(TOWNS[t] for t in self.towns)


INFLUENCE: tuple[Influence, ...] = (
    Influence((0, 1, 2), 3),
    Influence((0, 3, 4), 3),
    Influence((0, 5, 6), 3),
    Influence((1, 3, 5), 3),
    Influence((1, 4, 6), 3),
    Influence((2, 3, 6), 3),
    Influence((2, 4, 5), 3),
)
INFLUENCE_DECK = sum(card.count for card in INFLUENCE)  # 21 (stand-in)
INFLUENCE_DRAW, INFLUENCE_KEEP = 3, 2  # setup: draw three, keep two (video)
INFLUENCE_COST = 1
MAYOR_BONUS = 2  # bonus on your own town while there: 2 coins (and the Mayor die)

# The expansion's new tiles (stand-ins; the video only says there are some).  Extra verbs:
#     influence n   actor draws n influence cards
#     cargo n       actor loses n cargo (a coin, an action card or a crew die each: the actor's choice)
CITY_TILES: tuple[Tile, ...] = (
    Tile("Town Hall", SAFE, "", (("special", Die.MAYOR),)),
    Tile("Tax Office", SAFE, "", (("coins", 1), ("influence", 1))),
    Tile("Smugglers' Market", UNCHARTED, "T", (("coins", 2), ("influence", 1)), (("cargo", 1),)),
    Tile("Pillaged Port", TREACHEROUS, "P", (("coins", 1),), (("cargo", 2),)),
)
ALL_TILES: tuple[Tile, ...] = TILES + CITY_TILES  # indices 0-24 are the base tiles, as the base codec has them
ALL_TILE_INDEX = {t.name: i for i, t in enumerate(ALL_TILES)}
# With the expansion the first-game layouts take the new tiles in place of one base tile per water (stand-in).
CITY_SWAPS = {
    "Steal a Crewmember": "Town Hall",
    "Gamble": "Smugglers' Market",
    "Broken Compass": "Pillaged Port",
    "Treasure Cove": "Tax Office",
}


# -- Captain abilities (abilities="dealt" or "chosen") ------------------------------------------------------------
@dataclass(frozen=True)
class Captain:
    """A captain coaster's ability (stand-ins: the abilities on the coasters' backs are not public)."""

    name: str
    ability: str  # the key captains.py looks up
    text: str


CAPTAINS: tuple[Captain, ...] = (
    Captain("Quartermaster Quinn", "big_cup", "her cup holds up to 12 dice, not 10"),
    Captain("Old Salt Silas", "cursed_spare", "may give up the Cursed die in place of his last crew die"),
    Captain("Navigator Nell", "free_sail_reroll", "rerolls the sail die for free (still once per round)"),
    Captain("Smuggler Sam", "cheap_cards", "buys action cards for 1 coin, not 2"),
    Captain("Brawler Bess", "wins_ties", "wins every tie of a battle she is tied in (for a loser: she is spared)"),
    Captain("Treasurer Tobias", "betting_bonus", "gains 1 more coin for winning a Betting phase"),
    Captain("Recruiter Rosa", "extra_recruit", "gains 1 more crew die whenever a tile or card gives her crew"),
    Captain(
        "Saboteur Sly",
        "sabotage",
        "once per game, in a priority window: pay 2 coins, a captain off the Base loses a crew die",
    ),
)
CAPTAIN_INDEX = {c.ability: i for i, c in enumerate(CAPTAINS)}
BIG_CUP = 12
SABOTAGE_COST = 2


# -- Variant cards (variants=[...]) ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Variant:
    """A variant card: a rule change for the whole game (stand-ins, but for the names the sources give)."""

    name: str
    text: str
    source: str  # "stand-in" or where the sources name it


VARIANTS: tuple[Variant, ...] = (
    Variant(
        "Instant Death",
        "a captain can lose every die: that captain is out and the game goes on without it",
        "named by the rulings; effect as the rulings say",
    ),
    Variant("Rich Harbour", "every captain starts with 4 coins, not 2", "stand-in"),
    Variant("Strong Winds", "the Betting phase's winner sails one tile more than the sail die", "stand-in"),
    Variant("Bounty", "each loser of a Betting phase pays its winner a coin (if they have one)", "stand-in"),
    Variant("Deep Pockets", "rerolls cost nothing (still once per round)", "stand-in"),
    Variant(
        "Supply Drop", "at the start of each Action phase every player with fewer than 2 cards draws one", "stand-in"
    ),
    Variant("Pirate Code", 'no "exactly" calls', "stand-in"),
    Variant(
        "Kraken Wakes",
        "at the end of each round every captain in treacherous waters loses a crew die",
        "stand-in (the Kraken meeple the rulebook mentions)",
    ),
    Variant(
        "Draw Two, Keep One",
        "buying an action or influence card draws two and keeps one, the other discarded",
        "Cities of Greed's official variant card (video)",
    ),
)
VARIANT_INDEX = {v.name: i for i, v in enumerate(VARIANTS)}
RICH_START_COINS = 4


# -- Merchant Ships (merchant_ships=True; the rulebook's fan-inspired variant, exactly) -----------------------------
BARTER_COST = 1  # Barter: buy one action card for 1 coin instead of 2
RAID_LOOT_COINS = 3  # Raid won: draw a card and gain 1 coin, or gain 3 coins
RAID_LOOT_CARD_COINS = 1
NAVY_PRIZE = 4  # Navy, crossed swords: gain 4 coins
NAVY_CREW_LOSS = 2  # Navy, skull: lose 2 crew dice
