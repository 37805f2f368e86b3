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

from typing import TYPE_CHECKING

import numpy as np

from bidbluff.envs.lying_pirates.content import ALL_TILES
from bidbluff.envs.lying_pirates.dice_rolls import offer_reroll, start_battle
from bidbluff.envs.lying_pirates.effects import start_effect
from bidbluff.envs.lying_pirates.frames import ActionPhase, FinalBattle, SailPhase, TileRoll
from bidbluff.envs.lying_pirates.movement import move_ship, phantom_catches
from bidbluff.envs.lying_pirates.rules import PIRATE_DIE, SAIL_DIE, TREASURE_DIE
from bidbluff.envs.lying_pirates.windows import open_window

if TYPE_CHECKING:
    from bidbluff.envs.lying_pirates.state import LyingPiratesState as State


def sail(state: State, frame: SailPhase, rng: np.random.Generator) -> None:
    state.phase = "sail"
    winner = state.result["winner"]
    state.coins[winner] += 1
    for hook in state.hooks.sail_start:
        hook(state)
    state.token = winner
    state.sail_die = SAIL_DIE[int(rng.integers(6))]
    state.finished = []
    frame.stage = "sail_window"
    offer_reroll(state, [winner], "sail")


def sail_window(state: State, frame: SailPhase, rng: np.random.Generator) -> None:
    frame.stage = "move"
    open_window(state, "sail")


def move(state: State, frame: SailPhase, rng: np.random.Generator) -> None:
    movers = [state.result["winner"], *state.result["survivors"]]
    before = list(state.progress)
    for c in movers:
        move_ship(state, c, state.sail_die, "sail")
    for hook in state.hooks.after_move:
        hook(state, movers)
    if state.phantom in movers:
        phantom_catches(state, before)
        if state.phase == "over":
            return
    state.say(f"sail {state.sail_die}: {movers} move")
    if len(movers) == 1:
        state.resolver = movers[0]
        frame.stage = "tile"
    else:
        frame.stage = "battle_won"
        start_battle(state, movers, "winner")


def battle_won(state: State, frame: SailPhase, rng: np.random.Generator) -> None:
    state.resolver = frame.outcome
    frame.stage = "tile"


def tile(state: State, frame: SailPhase, rng: np.random.Generator) -> None:
    here = ALL_TILES[state.slots[state.position(state.resolver)]]
    frame.stage = "tile_effect"
    if here.roll:
        faces = PIRATE_DIE if here.roll == "P" else TREASURE_DIE
        state.pt = TileRoll(here.roll, faces[int(rng.integers(6))], state.resolver)
        offer_reroll(state, [state.resolver], "pt")
    else:
        state.pt = None


def tile_effect(state: State, frame: SailPhase, rng: np.random.Generator) -> None:
    here = ALL_TILES[state.slots[state.position(state.resolver)]]
    effects = here.bad if state.pt and state.pt.face == "X" else here.good
    state.say(f"C{state.resolver} resolves {here.name}" + (f" ({state.pt.face})" if state.pt else ""))
    frame.stage = "after_tile"
    start_effect(state, state.resolver, effects, "tile")


def after_tile(state: State, frame: SailPhase, rng: np.random.Generator) -> None:
    frame.stage = "end_of_sail"
    for hook in state.hooks.after_tile:
        hook(state, rng)


def end_of_sail(state: State, frame: SailPhase, rng: np.random.Generator) -> None:
    state.pt = None
    if state.crews.out:
        state.finished = [c for c in state.finished if c not in state.crews.out]  # sunk after reaching the Base
    if len(state.finished) == 1:
        state.end([state.finished[0]])
    elif len(state.finished) > 1:
        state.replace(FinalBattle())
    else:
        state.replace(ActionPhase())


STAGES = {
    "sail": (SailPhase, sail, {}),
    "sail_window": (SailPhase, sail_window, {}),
    "move": (SailPhase, move, {}),
    "battle_won": (SailPhase, battle_won, {}),
    "tile": (SailPhase, tile, {}),
    "tile_effect": (SailPhase, tile_effect, {}),
    "after_tile": (SailPhase, after_tile, {}),
    "end_of_sail": (SailPhase, end_of_sail, {}),
}
