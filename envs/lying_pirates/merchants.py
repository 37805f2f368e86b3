"""Merchant Ships (``merchant_ships=True``, rulebook, fan-inspired): a Merchant and a Navy ship on two tiles.

After the Sail phase's tile event the captain who resolved it meets the ship on that tile: the Merchant
(optional: barter for a card at one coin, or raid it with a battle die), or the Navy (mandatory: a battle
die decides a prize or a loss).  The ships' slots are ``ext["merchant"]`` and ``ext["navy"]``.
"""

from __future__ import annotations

import numpy as np

from bidbluff.envs.core.codec import Action
from bidbluff.envs.lying_pirates.cards import draw
from bidbluff.envs.lying_pirates.content import (
    BARTER_COST,
    NAVY_CREW_LOSS,
    NAVY_PRIZE,
    RAID_LOOT_CARD_COINS,
    RAID_LOOT_COINS,
)
from bidbluff.envs.lying_pirates.dice import Icon, roll_battle_die
from bidbluff.envs.lying_pirates.frames import Encounter, Reroll
from bidbluff.envs.lying_pirates.hooks import Hooks
from bidbluff.envs.lying_pirates.rerolls import offer_reroll
from bidbluff.envs.lying_pirates.stages import ASK, call, done, goto, stage
from bidbluff.envs.lying_pirates.table import Table


def new_ships(state: Table, rng: np.random.Generator) -> dict[str, int]:
    """One Merchant and one Navy ship on random tiles, never the Base (rulebook)."""
    merchant, navy = rng.choice(np.arange(1, len(state.slots)), 2, replace=False)
    return {"merchant": int(merchant), "navy": int(navy)}


def _meet(state: Table, rng: np.random.Generator) -> None:
    c = state.resolver
    if state.is_out(c):
        return
    at = state.position(c)
    if at == state.ext["merchant"] and c != state.phantom:  # optional: the Phantom makes no choice, skips it
        call(state, Encounter("merchant"))
    elif at == state.ext["navy"]:  # mandatory
        navy = Encounter("navy", stage=navy_result.name)
        call(state, navy)
        _roll(state, navy, c, rng)


def _roll(state: Table, frame: Encounter, c: int, rng: np.random.Generator) -> None:
    frame.roll = roll_battle_die(rng)
    offer_reroll(state, [c], "encounter")  # the reroll rule covers "your battle die"


def _reroll(state: Table, c: int, rng: np.random.Generator) -> None:
    state.find(Encounter).roll = roll_battle_die(rng)


@stage(Encounter, asks=lambda state, frame: ("merchant", state.resolver))
def encounter(state: Table, frame: Encounter, rng: np.random.Generator) -> bool:
    """The captain who resolved the tile may barter with the Merchant, raid it, or pass."""
    return ASK


@encounter.legal("merchant")
def legal_merchant(state: Table, frame: Encounter, seat: int) -> list[Action]:
    actions: list[Action] = [("pass",)]
    if state.coins[seat] >= BARTER_COST and (state.deck or state.discard):
        actions.append(("barter",))
    return [*actions, ("raid",)]


@encounter.on("merchant")
def on_merchant(state: Table, frame: Encounter, seat: int, action: Action, rng: np.random.Generator) -> None:
    if action[0] == "pass":
        done(state)
    elif action[0] == "barter":
        done(state)
        state.coins[seat] -= BARTER_COST
        state.say(f"C{seat} barters with the Merchant")
        state.hooks.buy(state, seat, "card", rng)
    else:
        goto(frame, raid_result)
        _roll(state, frame, seat, rng)


def _asks_loot(state: Table, frame: Encounter) -> tuple[str, int] | None:
    return ("loot", state.resolver) if frame.roll == Icon.SWORDS else None  # crossed swords: a choice of loot


@stage(Encounter, asks=_asks_loot, awaits=(Reroll,))
def raid_result(state: Table, frame: Encounter, rng: np.random.Generator) -> bool | None:
    c = state.resolver
    state.say(f"C{c} raids the Merchant: {Icon(frame.roll).name.lower()}")
    if frame.roll == Icon.SWORDS:
        return ASK
    if frame.roll == Icon.SKULL:
        state.coins[c] = 0  # lose all your coins
    done(state)
    return None


@raid_result.legal("loot")
def legal_loot(state: Table, frame: Encounter, seat: int) -> list[Action]:
    return [("loot_card",), ("loot_coins",)]


@raid_result.on("loot")
def on_loot(state: Table, frame: Encounter, seat: int, action: Action, rng: np.random.Generator) -> None:
    done(state)
    if action[0] == "loot_coins":
        state.coins[seat] += RAID_LOOT_COINS
    else:
        state.coins[seat] += RAID_LOOT_CARD_COINS
        draw(state, seat, rng)


@stage(Encounter, awaits=(Reroll,))
def navy_result(state: Table, frame: Encounter, rng: np.random.Generator) -> None:
    c = state.resolver
    state.say(f"C{c} meets the Navy: {Icon(frame.roll).name.lower()}")
    if frame.roll == Icon.SWORDS:
        state.coins[c] += NAVY_PRIZE
    elif frame.roll == Icon.SKULL:
        state.crews.lose(c, NAVY_CREW_LOSS)
    done(state)


def register(hooks: Hooks) -> None:
    hooks.after_tile.append(_meet)
    hooks.reroll_dice["encounter"] = _reroll
