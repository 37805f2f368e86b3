"""The rulebook's Variants as options: captain abilities, variant cards, Merchant Ships; and sunk captains.

A mixin of ``LyingPiratesState`` like ``cities.CitiesMixin``; its data lives
in ``state.ext`` (absent in a base game):

    options          the setup options: expansion, abilities, variants, merchant_ships
    captain          each captain's coaster (index into ``CAPTAINS``; -1: none, the Phantom's)
    captain_order    "chosen": the players still to choose a coaster, in turn order
    sabotaged        the Saboteur used her once-per-game ability
    merchant, navy   the slots of the Merchant Ship and the Navy Ship (-1 without them)
    encounter        the ship being met and the battle die rolled for it

Every rule here is a stand-in (captain abilities, variant cards but for the
names the sources give) or the rulebook's text (Merchant Ships); see
``docs/rules/lying_pirates.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from envs.core.codec import Action
from envs.lying_pirates.battle import BATTLE_DIE, Icon
from envs.lying_pirates.content import (
    BARTER_COST,
    BIG_CUP,
    CAPTAIN_INDEX,
    CAPTAINS,
    NAVY_CREW_LOSS,
    NAVY_PRIZE,
    RAID_LOOT_CARD_COINS,
    RAID_LOOT_COINS,
    SABOTAGE_COST,
    TREACHEROUS,
)
from envs.lying_pirates.dice import CREW_LIMIT, Die

if TYPE_CHECKING:
    from envs.lying_pirates.rules import LyingPiratesState

ABILITY_MODES = ("dealt", "chosen")


def new_options(state: LyingPiratesState, rng: np.random.Generator, abilities: str | None,
                merchant_ships: bool) -> dict[str, Any]:  # fmt: skip
    """The variants' setup: coasters dealt (or left to choose), the Merchant and Navy ships' tiles."""
    c, n = state.captains, state.num_players
    ext: dict[str, Any] = {"captain": [-1] * c, "captain_order": [], "sabotaged": [False] * c,
                           "merchant": -1, "navy": -1, "encounter": None}  # fmt: skip
    if abilities == "dealt":
        dealt = rng.permutation(len(CAPTAINS))
        ext["captain"][:n] = [int(a) for a in dealt[:n]]
    elif abilities == "chosen":
        ext["captain_order"] = [(state.token + i) % n for i in range(n)]
    if merchant_ships:
        # one Merchant and one Navy ship on random tiles, never the Base (rulebook)
        merchant, navy = rng.choice(np.arange(1, len(state.slots)), 2, replace=False)
        ext["merchant"], ext["navy"] = int(merchant), int(navy)
    return ext


class VariantsMixin:
    """Captain abilities, variant cards, Merchant Ships and Instant Death for ``LyingPiratesState``."""

    # -- what is in play ---------------------------------------------------------------------------------
    def variant(self: LyingPiratesState, name: str) -> bool:
        return self.ext is not None and name in self.ext["options"]["variants"]

    def has(self: LyingPiratesState, c: int, ability: str) -> bool:
        return self.ext is not None and self.ext["captain"][c] == CAPTAIN_INDEX[ability]

    def is_out(self: LyingPiratesState, c: int) -> bool:
        """Sunk: lost every die under "Instant Death"."""
        return c in self.crews.out

    def alive_captains(self: LyingPiratesState) -> list[int]:
        return [c for c in range(self.captains) if c not in self.crews.out]

    def _can_lose_die(self: LyingPiratesState, c: int) -> bool:
        crews = self.crews
        if crews.crew[c] > 1 or (crews.mortal and crews.crew[c] == 1):
            return True
        return any(d != Die.CURSED or c in crews.cursed_spare for d in crews.specials(c))

    # -- captain abilities -------------------------------------------------------------------------------
    def _apply_abilities(self: LyingPiratesState) -> None:
        """Abilities that change the crew rules live in ``Crews``."""
        crews = self.crews
        crews.limits = [BIG_CUP if self.has(c, "big_cup") else CREW_LIMIT for c in range(self.captains)]
        crews.cursed_spare = [c for c in range(self.captains) if self.has(c, "cursed_spare")]

    def _stage_captain(self: LyingPiratesState, rng: np.random.Generator) -> None:
        order = self.ext["captain_order"]
        if not order:
            self.stage = self._setup_stage()
            return
        self.pending = ["captain", order[0]]

    def _legal_captain(self: LyingPiratesState, seat: int) -> list[Action]:
        taken = set(self.ext["captain"])
        return [("captain", a) for a in range(len(CAPTAINS)) if a not in taken]

    def _on_captain(self: LyingPiratesState, seat: int, action: Action, rng: np.random.Generator) -> None:
        self.ext["captain"][seat] = action[1]
        self.ext["captain_order"].pop(0)
        self._apply_abilities()
        self._say(f"C{seat} is {CAPTAINS[action[1]].name}")
        self.pending = []

    def card_cost(self: LyingPiratesState, c: int, base: int) -> int:
        return 1 if self.has(c, "cheap_cards") else base

    def reroll_cost(self: LyingPiratesState, c: int, die: str, base: int) -> int:
        if self.variant("Deep Pockets") or (die == "sail" and self.has(c, "free_sail_reroll")):
            return 0
        return base

    def _can_sabotage(self: LyingPiratesState, c: int) -> bool:
        return (self.has(c, "sabotage") and not self.ext["sabotaged"][c] and self.coins[c] >= SABOTAGE_COST
                and any(not self.on_base(t) for t in self.alive_captains() if t != c))  # fmt: skip

    def _sabotage(self: LyingPiratesState, c: int) -> None:
        self.ext["sabotaged"][c] = True
        self.coins[c] -= SABOTAGE_COST
        self._say(f"C{c} sabotages")
        self._start_effect(c, (("hit_crew", 1),), "ability", -1, "window")

    def _brawler_tiebreak(self: LyingPiratesState, tied: list[int], looking_for: str) -> list[int]:
        """Brawler Bess in a tie: she wins it (a battle for a winner) or is spared (for a loser)."""
        bess = [c for c in tied if self.has(c, "wins_ties")]
        if not bess or len(tied) < 2:
            return tied
        return bess if looking_for == "winner" else [c for c in tied if c not in bess]

    # -- variant cards in the round ------------------------------------------------------------------------
    def _bounty(self: LyingPiratesState) -> None:
        winner = self.result["winner"]
        for c in self.result["losers"]:
            if self.coins[c] > 0 and not self.is_out(c):
                self.coins[c] -= 1
                self.coins[winner] += 1

    def _supply_drop(self: LyingPiratesState, rng: np.random.Generator) -> None:
        for p in self.players():
            if len(self.hands[p]) < 2:
                self._draw(p, rng)

    def _kraken_wakes(self: LyingPiratesState) -> None:
        for c in self.alive_captains():
            if self.water(c) == TREACHEROUS:
                self.crews.lose(c, 1)

    def _check_last_standing(self: LyingPiratesState) -> None:
        """Instant Death: the game goes on without sunk captains until one player is left."""
        alive = [p for p in range(self.num_players) if p not in self.crews.out]
        if self.phantom >= 0:
            if len(alive) == 1:
                self._end(alive)  # the other player sank: the one left wins
            elif not alive:
                self._end([self.phantom])
        elif len(alive) <= 1:
            self._end(alive)  # none left: the farthest ship ranks first (no winner)

    # -- Merchant Ships (rulebook, fan-inspired) ----------------------------------------------------------------
    def _stage_encounter(self: LyingPiratesState, rng: np.random.Generator) -> None:
        """After the tile event, the captain who resolved it meets a ship on that tile."""
        c = self.resolver
        self.stage = "end_of_sail"
        if self.is_out(c) or self.ext["encounter"] is not None:
            return
        at = self.position(c)
        if at == self.ext["merchant"] and c != self.phantom:  # optional: the Phantom makes no choice, skips it
            self.ext["encounter"] = {"ship": "merchant", "roll": -1}
            self.pending = ["merchant", c]
        elif at == self.ext["navy"]:  # mandatory
            self.ext["encounter"] = {"ship": "navy", "roll": -1}
            self._encounter_roll(c, rng, "navy_result")

    def _encounter_roll(self: LyingPiratesState, c: int, rng: np.random.Generator, then: str) -> None:
        self.ext["encounter"]["roll"] = int(BATTLE_DIE[int(rng.integers(8))])
        self._offer_reroll([c], "encounter", then)  # the reroll rule covers "your battle die"

    def _legal_merchant(self: LyingPiratesState, seat: int) -> list[Action]:
        actions: list[Action] = [("pass",)]
        if self.coins[seat] >= BARTER_COST and (self.deck or self.discard):
            actions.append(("barter",))
        return [*actions, ("raid",)]

    def _on_merchant(self: LyingPiratesState, seat: int, action: Action, rng: np.random.Generator) -> None:
        self.pending = []
        if action[0] == "pass":
            self.ext["encounter"] = None
            self.stage = "end_of_sail"
        elif action[0] == "barter":
            self.ext["encounter"] = None
            self.coins[seat] -= BARTER_COST
            self._say(f"C{seat} barters with the Merchant")
            self._buy(seat, "card", 1, rng, "end_of_sail")
        else:
            self._encounter_roll(seat, rng, "raid_result")

    def _stage_raid_result(self: LyingPiratesState, rng: np.random.Generator) -> None:
        c, roll = self.resolver, self.ext["encounter"]["roll"]
        self._say(f"C{c} raids the Merchant: {Icon(roll).name.lower()}")
        if roll == Icon.SWORDS:
            self.pending = ["loot", c]
            return
        if roll == Icon.SKULL:
            self.coins[c] = 0  # lose all your coins
        self.ext["encounter"] = None
        self.stage = "end_of_sail"

    def _legal_loot(self: LyingPiratesState, seat: int) -> list[Action]:
        return [("loot_card",), ("loot_coins",)]

    def _on_loot(self: LyingPiratesState, seat: int, action: Action, rng: np.random.Generator) -> None:
        self.pending = []
        self.ext["encounter"] = None
        self.stage = "end_of_sail"
        if action[0] == "loot_coins":
            self.coins[seat] += RAID_LOOT_COINS
        else:
            self.coins[seat] += RAID_LOOT_CARD_COINS
            self._draw(seat, rng)

    def _stage_navy_result(self: LyingPiratesState, rng: np.random.Generator) -> None:
        c, roll = self.resolver, self.ext["encounter"]["roll"]
        self._say(f"C{c} meets the Navy: {Icon(roll).name.lower()}")
        if roll == Icon.SWORDS:
            self.coins[c] += NAVY_PRIZE
        elif roll == Icon.SKULL:
            self.crews.lose(c, NAVY_CREW_LOSS)
        self.ext["encounter"] = None
        self.stage = "end_of_sail"
