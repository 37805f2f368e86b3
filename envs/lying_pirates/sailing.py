"""The Sail phase, step by step.

sail          the Betting phase's winner takes a coin and the token; the sail die is rolled (reroll)
sail_window   a priority window before the ships move
move          the winner and the survivors sail; two or more battle for the tile (battle_won)
tile          the tile's Pirate or Treasure die is rolled (reroll)
tile_effect   the tile's effects for the captain who resolves it
after_tile    what the options do after the tile (a Merchant or Navy ship met)
end_of_sail   a ship home wins, two or more fight the final battle; else the Action phase
"""

from __future__ import annotations

import numpy as np

from bidbluff.envs.lying_pirates.battle import start_battle
from bidbluff.envs.lying_pirates.content import ALL_TILES
from bidbluff.envs.lying_pirates.dice import PIRATE_DIE, SAIL_DIE, TREASURE_DIE
from bidbluff.envs.lying_pirates.effects import start_effect
from bidbluff.envs.lying_pirates.frames import (
    ActionPhase,
    Battle,
    Cargo,
    Effect,
    Encounter,
    FinalBattle,
    KeepOne,
    MayorReveal,
    Reroll,
    SailPhase,
    TileRoll,
    Window,
)
from bidbluff.envs.lying_pirates.movement import move_ship, phantom_catches
from bidbluff.envs.lying_pirates.rerolls import offer_reroll
from bidbluff.envs.lying_pirates.stages import goto, stage
from bidbluff.envs.lying_pirates.table import BETTING, SAIL, Table
from bidbluff.envs.lying_pirates.windows import open_window


# Until the winner sails, the table is still in the Betting phase's aftermath: what the reveal set off (the
# Mayor die, cargo to lose) is met first.
@stage(SailPhase, phase=BETTING, awaits=(MayorReveal, Cargo))
def sail(state: Table, frame: SailPhase, rng: np.random.Generator) -> None:
    goto(frame, sail_window)  # the Sail phase begins
    winner = state.result["winner"]
    state.coins[winner] += 1
    for hook in state.hooks.sail_start:
        hook(state)
    state.token = winner
    state.sail_die = SAIL_DIE[int(rng.integers(6))]
    state.finished = []
    offer_reroll(state, [winner], "sail")


@stage(SailPhase, phase=SAIL, awaits=(Reroll,))
def sail_window(state: Table, frame: SailPhase, rng: np.random.Generator) -> None:
    open_window(state, "sail", then=move)


@stage(SailPhase, phase=SAIL, awaits=(Window,))
def move(state: Table, frame: SailPhase, rng: np.random.Generator) -> None:
    movers = [state.result["winner"], *state.result["survivors"]]
    before = list(state.progress)
    for c in movers:
        move_ship(state, c, state.sail_die, "sail")
    for hook in state.hooks.after_move:
        hook(state, movers)
    if state.phantom in movers:
        phantom_catches(state, before)
        if state.over:
            return
    state.say(f"sail {state.sail_die}: {movers} move")
    if len(movers) == 1:
        state.resolver = movers[0]
        goto(frame, tile)
    else:
        start_battle(state, movers, "winner", then=battle_won)


@stage(SailPhase, phase=SAIL, awaits=(Battle,))
def battle_won(state: Table, frame: SailPhase, rng: np.random.Generator) -> None:
    state.resolver = frame.outcome
    goto(frame, tile)


@stage(SailPhase, phase=SAIL)
def tile(state: Table, frame: SailPhase, rng: np.random.Generator) -> None:
    here = ALL_TILES[state.slots[state.position(state.resolver)]]
    goto(frame, tile_effect)
    if here.roll:
        faces = PIRATE_DIE if here.roll == "P" else TREASURE_DIE
        state.pt = TileRoll(here.roll, faces[int(rng.integers(6))], state.resolver)
        offer_reroll(state, [state.resolver], "pt")
    else:
        state.pt = None


@stage(SailPhase, phase=SAIL, awaits=(Reroll,))
def tile_effect(state: Table, frame: SailPhase, rng: np.random.Generator) -> None:
    here = ALL_TILES[state.slots[state.position(state.resolver)]]
    effects = here.bad if state.pt and state.pt.face == "X" else here.good
    state.say(f"C{state.resolver} resolves {here.name}" + (f" ({state.pt.face})" if state.pt else ""))
    start_effect(state, state.resolver, effects, "tile", then=after_tile)


@stage(SailPhase, phase=SAIL, awaits=(Effect,))
def after_tile(state: Table, frame: SailPhase, rng: np.random.Generator) -> None:
    goto(frame, end_of_sail)
    for hook in state.hooks.after_tile:
        hook(state, rng)


@stage(SailPhase, phase=SAIL, awaits=(Encounter, KeepOne))
def end_of_sail(state: Table, frame: SailPhase, rng: np.random.Generator) -> None:
    state.pt = None
    if state.crews.out:
        state.finished = [c for c in state.finished if c not in state.crews.out]  # sunk after reaching the Base
    if len(state.finished) == 1:
        state.end([state.finished[0]])
    elif len(state.finished) > 1:
        state.replace(FinalBattle())
    else:
        state.replace(ActionPhase())
