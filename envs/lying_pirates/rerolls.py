"""Rolls that can be bought again.

A captain who rolled a die may pay a coin (once a round) to reroll it: ``offer_reroll`` calls a ``Reroll``
over the frame that rolled, and each captain in its queue rerolls or keeps.
"""

from __future__ import annotations

import numpy as np

from bidbluff.envs.core.codec import Action
from bidbluff.envs.lying_pirates.content import REROLL_COST
from bidbluff.envs.lying_pirates.dice import PIRATE_DIE, SAIL_DIE, TREASURE_DIE, roll_battle_die
from bidbluff.envs.lying_pirates.frames import Battle, Reroll
from bidbluff.envs.lying_pirates.stages import ASK, Stage, call, done, stage
from bidbluff.envs.lying_pirates.table import REROLL_USED, Table


def reroll_cost(state: Table, c: int, die: str) -> int:
    for free in state.hooks.free_reroll:
        if free(state, c, die):
            return 0
    return REROLL_COST


def can_reroll(state: Table, c: int, die: str) -> bool:
    return c != state.phantom and state.coins[c] >= reroll_cost(state, c, die) and not state.used[c][REROLL_USED]


def offer_reroll(state: Table, rollers: list[int], die: str, then: Stage | None = None) -> None:
    """Those of ``rollers`` who can pay may reroll ``die``; the frame that rolled goes on at ``then``."""
    call(state, Reroll([c for c in rollers if can_reroll(state, c, die)], die), then)


def _asks_reroll(state: Table, r: Reroll) -> tuple[str, int] | None:
    return ("reroll", r.queue[0]) if r.queue else None


@stage(Reroll, asks=_asks_reroll)
def reroll(state: Table, r: Reroll, rng: np.random.Generator) -> bool | None:
    if r.queue:
        return ASK
    done(state)
    return None


@reroll.legal("reroll")
def legal_reroll(state: Table, r: Reroll, seat: int) -> list[Action]:
    return [("reroll",), ("keep",)]


@reroll.on("reroll")
def on_reroll(state: Table, r: Reroll, seat: int, action: Action, rng: np.random.Generator) -> None:
    r.queue.pop(0)
    if action[0] == "keep":
        return
    die = r.die
    state.coins[seat] -= reroll_cost(state, seat, die)
    state.used[seat][REROLL_USED] = True
    if die == "sail":
        state.sail_die = SAIL_DIE[int(rng.integers(6))]
    elif die == "pt":
        faces = PIRATE_DIE if state.pt.die == "P" else TREASURE_DIE
        state.pt.face = faces[int(rng.integers(6))]
    elif die == "battle":
        state.find(Battle).rolls[seat] = roll_battle_die(rng)  # the battle that rolled: the one under the offer
    else:
        state.hooks.reroll_dice[die](state, seat, rng)
    state.say(f"C{seat} pays a coin to reroll")
