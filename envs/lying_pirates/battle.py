"""Battles, decided in one place: a battle for a winner or a loser, and each roll of the final battle.

In a battle everyone in it rolls the battle die (and may buy a reroll); the best roll (for a winner) or the
worst (for a loser) stays in, and the tied roll again until one captain is left, whom the battle hands back
to the frame that called it.  The final battle's rolls (``final_roll_lost``) are the rulebook's too: a skull
loses a die, else the worst roll does; the tied worst roll again, and so does everyone if all would be out.
"""

from __future__ import annotations

import numpy as np

from bidbluff.envs.lying_pirates.dice import BATTLE_DIE, Icon, roll_battle_die
from bidbluff.envs.lying_pirates.frames import Battle, FinalBattle, Reroll
from bidbluff.envs.lying_pirates.rerolls import offer_reroll
from bidbluff.envs.lying_pirates.stages import Stage, call, done, goto, stage
from bidbluff.envs.lying_pirates.table import Table

__all__ = ["BATTLE_DIE", "Icon", "final_roll_lost", "standing", "start_battle"]


def standing(rolling: list[int], rolls: list[int], looking_for: str) -> list[int]:
    """Who of ``rolling`` stays in the battle after a roll: the best rolls for a winner, the worst for a loser."""
    pick = max if looking_for == "winner" else min
    best = pick(rolls[c] for c in rolling)
    return [c for c in rolling if rolls[c] == best]


def final_roll_lost(f: FinalBattle, alive: list[int]) -> list[int]:
    """One roll of the final battle's ``rolling``: who lose a crew die (none: the tied or everyone roll again).

    ``alive`` are the captains still in, in turn order; the frame's crews, rollers and battles move on."""
    skulls = [c for c in f.rolling if f.rolls[c] == Icon.SKULL]
    if skulls:
        losers = skulls
    else:
        worst = min(f.rolls[c] for c in f.rolling)
        losers = [c for c in f.rolling if f.rolls[c] == worst]
        if len(losers) > 1:
            f.rolling = losers  # no clear loser yet: the tied worst roll again
            return []
    if all(f.crew[c] == 1 for c in losers) and set(losers) == set(alive):
        return []  # everyone left would be out together: they roll again
    for c in losers:
        f.crew[c] -= 1
    f.battles += 1
    left = [c for c in alive if f.crew[c] > 0]
    f.rolling = left if len(left) > 1 else []
    return losers


def start_battle(state: Table, rolling: list[int], looking_for: str, then: Stage | None = None) -> None:
    """``rolling`` battle for a ``looking_for`` ("winner" or "loser"); the caller goes on at ``then`` with the
    captain found as its ``outcome``."""
    call(state, Battle(state.turn_order(state.token, rolling), looking_for, [-1] * state.captains), then)


@stage(Battle)
def battle_roll(state: Table, b: Battle, rng: np.random.Generator) -> None:
    for c in b.rolling:
        b.rolls[c] = roll_battle_die(rng)
    offer_reroll(state, b.rolling, "battle", then=battle_resolve)


@stage(Battle, awaits=(Reroll,))
def battle_resolve(state: Table, b: Battle, rng: np.random.Generator) -> None:
    b.rolling = standing(b.rolling, b.rolls, b.looking_for)
    for tiebreak in state.hooks.battle_tiebreak:
        b.rolling = tiebreak(state, b.rolling, b.looking_for)
    if len(b.rolling) == 1:
        b.result = b.rolling[0]
        state.say(f"battle for a {b.looking_for}: C{b.result}")
        done(state, b.result)
    else:
        goto(b, battle_roll)
