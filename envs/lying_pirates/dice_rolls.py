"""Rolls that can be bought again, and battles.

A captain who rolled a die may pay a coin (once a round) to reroll it: ``offer_reroll`` pushes a
``Reroll`` over the frame that rolled, and each captain in its queue rerolls or keeps.  A battle rolls
the battle die for everyone in it (with a reroll offer) and keeps the best (or worst) until one is left,
whom it hands to the frame under it as that frame's ``outcome``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from bidbluff.envs.core.codec import Action
from bidbluff.envs.lying_pirates.frames import Battle, Reroll
from bidbluff.envs.lying_pirates.rules import (
    PIRATE_DIE,
    REROLL_COST,
    REROLL_USED,
    SAIL_DIE,
    TREASURE_DIE,
    roll_battle_die,
)

if TYPE_CHECKING:
    from bidbluff.envs.lying_pirates.state import LyingPiratesState as State


def reroll_cost(state: State, c: int, die: str) -> int:
    for free in state.hooks.free_reroll:
        if free(state, c, die):
            return 0
    return REROLL_COST


def can_reroll(state: State, c: int, die: str) -> bool:
    return c != state.phantom and state.coins[c] >= reroll_cost(state, c, die) and not state.used[c][REROLL_USED]


def offer_reroll(state: State, rollers: list[int], die: str) -> None:
    state.push(Reroll([c for c in rollers if can_reroll(state, c, die)], die))


def next_reroll(state: State, frame: Reroll, rng: np.random.Generator) -> None:
    if frame.queue:
        state.pending = ["reroll", frame.queue[0]]
    else:
        state.pop()


def legal_reroll(state: State, frame: Reroll, seat: int) -> list[Action]:
    return [("reroll",), ("keep",)]


def on_reroll(state: State, frame: Reroll, seat: int, action: Action, rng: np.random.Generator) -> None:
    frame.queue.pop(0)
    state.pending = []
    if action[0] == "keep":
        return
    die = frame.die
    state.coins[seat] -= reroll_cost(state, seat, die)
    state.used[seat][REROLL_USED] = True
    if die == "sail":
        state.sail_die = SAIL_DIE[int(rng.integers(6))]
    elif die == "pt":
        faces = PIRATE_DIE if state.pt.die == "P" else TREASURE_DIE
        state.pt.face = faces[int(rng.integers(6))]
    elif die == "battle":
        battle = state.stack[-2]  # the battle that rolled
        battle.rolls[seat] = roll_battle_die(rng)
    else:
        state.hooks.reroll_dice[die](state, seat, rng)
    state.say(f"C{seat} pays a coin to reroll")


# Battles ----------------------------------------------------------------------------------
def start_battle(state: State, rolling: list[int], looking_for: str) -> None:
    state.push(Battle(state.turn_order(state.token, rolling), looking_for, [-1] * state.captains))


def battle_roll(state: State, frame: Battle, rng: np.random.Generator) -> None:
    for c in frame.rolling:
        frame.rolls[c] = roll_battle_die(rng)
    frame.stage = "battle_resolve"
    offer_reroll(state, frame.rolling, "battle")


def battle_resolve(state: State, frame: Battle, rng: np.random.Generator) -> None:
    pick = max if frame.looking_for == "winner" else min
    best = pick(frame.rolls[c] for c in frame.rolling)
    frame.rolling = [c for c in frame.rolling if frame.rolls[c] == best]
    for tiebreak in state.hooks.battle_tiebreak:
        frame.rolling = tiebreak(state, frame.rolling, frame.looking_for)
    if len(frame.rolling) == 1:
        frame.result = frame.rolling[0]
        state.say(f"battle for a {frame.looking_for}: C{frame.result}")
        state.pop()
        state.stack[-1].outcome = frame.result  # the frame that started the battle goes on with it
    else:
        frame.stage = "battle_roll"


STAGES = {
    "reroll": (Reroll, next_reroll, {"reroll": (legal_reroll, on_reroll)}),
    "battle_roll": (Battle, battle_roll, {}),
    "battle_resolve": (Battle, battle_resolve, {}),
}
