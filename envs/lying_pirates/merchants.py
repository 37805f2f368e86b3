"""Merchant Ships (``merchant_ships=True``, rulebook, fan-inspired): a Merchant and a Navy ship on two tiles.

After the Sail phase's tile event the captain who resolved it meets the ship on that tile: the Merchant
(optional: barter for a card at one coin, or raid it with a battle die), or the Navy (mandatory: a battle
die decides a prize or a loss).  The ships' slots are ``ext["merchant"]`` and ``ext["navy"]``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from bidbluff.envs.core.codec import Action
from bidbluff.envs.lying_pirates.battle import Icon
from bidbluff.envs.lying_pirates.cards import draw
from bidbluff.envs.lying_pirates.content import (
    BARTER_COST,
    NAVY_CREW_LOSS,
    NAVY_PRIZE,
    RAID_LOOT_CARD_COINS,
    RAID_LOOT_COINS,
)
from bidbluff.envs.lying_pirates.dice_rolls import offer_reroll
from bidbluff.envs.lying_pirates.frames import Frame
from bidbluff.envs.lying_pirates.hooks import Hooks
from bidbluff.envs.lying_pirates.rules import roll_battle_die

if TYPE_CHECKING:
    from bidbluff.envs.lying_pirates.state import LyingPiratesState as State


@dataclass
class Encounter(Frame):
    """The ship being met (``ship``: "merchant" or "navy") and the battle die rolled for it."""

    first: ClassVar[str] = "encounter"
    ship: str
    roll: int = -1


def new_ships(state: State, rng: np.random.Generator) -> dict[str, int]:
    """One Merchant and one Navy ship on random tiles, never the Base (rulebook)."""
    merchant, navy = rng.choice(np.arange(1, len(state.slots)), 2, replace=False)
    return {"merchant": int(merchant), "navy": int(navy)}


def _meet(state: State, rng: np.random.Generator) -> None:
    c = state.resolver
    if state.is_out(c):
        return
    at = state.position(c)
    if at == state.ext["merchant"] and c != state.phantom:  # optional: the Phantom makes no choice, skips it
        state.push(Encounter("merchant"))
    elif at == state.ext["navy"]:  # mandatory
        state.push(Encounter("navy", stage="navy_result"))
        _roll(state, state.stack[-1], c, rng)


def _roll(state: State, frame: Encounter, c: int, rng: np.random.Generator) -> None:
    frame.roll = roll_battle_die(rng)
    offer_reroll(state, [c], "encounter")  # the reroll rule covers "your battle die"


def _reroll(state: State, c: int, rng: np.random.Generator) -> None:
    state.find(Encounter).roll = roll_battle_die(rng)


def ask_merchant(state: State, frame: Encounter, rng: np.random.Generator) -> None:
    state.pending = ["merchant", state.resolver]


def legal_merchant(state: State, frame: Encounter, seat: int) -> list[Action]:
    actions: list[Action] = [("pass",)]
    if state.coins[seat] >= BARTER_COST and (state.deck or state.discard):
        actions.append(("barter",))
    return [*actions, ("raid",)]


def on_merchant(state: State, frame: Encounter, seat: int, action: Action, rng: np.random.Generator) -> None:
    state.pending = []
    if action[0] == "pass":
        state.pop()
    elif action[0] == "barter":
        state.pop()
        state.coins[seat] -= BARTER_COST
        state.say(f"C{seat} barters with the Merchant")
        state.hooks.buy(state, seat, "card", rng)
    else:
        frame.stage = "raid_result"
        _roll(state, frame, seat, rng)


def raid_result(state: State, frame: Encounter, rng: np.random.Generator) -> None:
    c = state.resolver
    state.say(f"C{c} raids the Merchant: {Icon(frame.roll).name.lower()}")
    if frame.roll == Icon.SWORDS:
        state.pending = ["loot", c]
        return
    if frame.roll == Icon.SKULL:
        state.coins[c] = 0  # lose all your coins
    state.pop()


def legal_loot(state: State, frame: Encounter, seat: int) -> list[Action]:
    return [("loot_card",), ("loot_coins",)]


def on_loot(state: State, frame: Encounter, seat: int, action: Action, rng: np.random.Generator) -> None:
    state.pending = []
    state.pop()
    if action[0] == "loot_coins":
        state.coins[seat] += RAID_LOOT_COINS
    else:
        state.coins[seat] += RAID_LOOT_CARD_COINS
        draw(state, seat, rng)


def navy_result(state: State, frame: Encounter, rng: np.random.Generator) -> None:
    c = state.resolver
    state.say(f"C{c} meets the Navy: {Icon(frame.roll).name.lower()}")
    if frame.roll == Icon.SWORDS:
        state.coins[c] += NAVY_PRIZE
    elif frame.roll == Icon.SKULL:
        state.crews.lose(c, NAVY_CREW_LOSS)
    state.pop()


def register(hooks: Hooks) -> None:
    hooks.after_tile.append(_meet)
    hooks.reroll_dice["encounter"] = _reroll


STAGES = {
    "encounter": (Encounter, ask_merchant, {"merchant": (legal_merchant, on_merchant)}),
    "raid_result": (Encounter, raid_result, {"loot": (legal_loot, on_loot)}),
    "navy_result": (Encounter, navy_result, {}),
}
