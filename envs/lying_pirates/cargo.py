"""Cities of Greed's cargo losses and the Mayor die at the reveal.

A captain who loses a cargo chooses a coin, an action card or a crew die (``Cargo``: the captains still to
lose, in order).  The Mayor die's holder, when its cup is revealed, gains a coin or (bomb) makes a captain
of its choice lose a cargo (``MayorReveal``); the Phantom's bomb is aimed by a battle of the players.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from bidbluff.envs.core.codec import Action
from bidbluff.envs.lying_pirates.cards import lose_card
from bidbluff.envs.lying_pirates.dice import BOMB, COIN, Die
from bidbluff.envs.lying_pirates.dice_rolls import start_battle
from bidbluff.envs.lying_pirates.frames import Effect, Frame
from bidbluff.envs.lying_pirates.hooks import Hooks

if TYPE_CHECKING:
    from bidbluff.envs.lying_pirates.state import LyingPiratesState as State


@dataclass
class Cargo(Frame):
    """Captains still to lose cargo, in order: [seat, how many]; each chooses a coin, a card or a crew die."""

    first: ClassVar[str] = "cargo"
    queue: list[list[int]]


@dataclass
class MayorReveal(Frame):
    """The Mayor die at the reveal: a coin, or a bomb (a cargo from a captain its holder chooses)."""

    first: ClassVar[str] = "mayor_reveal"


# -- cargo: a coin, an action card or a crew die, the victim's choice ---------------------------------------
def lose_cargo(state: State, victims: list[list[int]]) -> None:
    state.push(Cargo([list(v) for v in victims if v[1] > 0]))


def _can_lose_die(state: State, c: int) -> bool:
    crews = state.crews
    if crews.crew[c] > 1 or (crews.mortal and crews.crew[c] == 1):
        return True
    return any(d != Die.CURSED or c in crews.cursed_spare for d in crews.specials(c))


def _cargo_choices(state: State, c: int) -> list[Action]:
    actions: list[Action] = []
    if state.coins[c] > 0:
        actions.append(("drop_coin",))
    actions += [("drop_card", k) for k in sorted(set(state.hands[c]))]
    if _can_lose_die(state, c):
        actions.append(("drop_crew",))
    return actions


def next_cargo(state: State, frame: Cargo, rng: np.random.Generator) -> None:
    queue = frame.queue
    while queue:
        c = queue[0][0]
        choices = [] if state.is_out(c) else _cargo_choices(state, c)
        if not choices:
            queue.pop(0)  # nothing left to lose
            continue
        if c == state.phantom:
            # The Phantom is no player: it gives a coin if it has one, else a crew die (ruling).
            _drop(state, frame, c, choices[0] if choices[0][0] == "drop_coin" else ("drop_crew",))
            continue
        state.pending = ["cargo", c]
        return
    state.pop()


def legal_cargo(state: State, frame: Cargo, seat: int) -> list[Action]:
    return _cargo_choices(state, seat)


def on_cargo(state: State, frame: Cargo, seat: int, action: Action, rng: np.random.Generator) -> None:
    state.pending = []
    _drop(state, frame, seat, action)


def _drop(state: State, frame: Cargo, c: int, action: Action) -> None:
    queue = frame.queue
    queue[0][1] -= 1
    if queue[0][1] <= 0:
        queue.pop(0)
    if action[0] == "drop_coin":
        state.coins[c] -= 1
    elif action[0] == "drop_card":
        lose_card(state, c, action[1])
    else:
        state.crews.lose(c, 1)
    state.say(f"C{c} loses a cargo ({action[0][5:]})")


# -- the Mayor die at the reveal ------------------------------------------------------------------------------
def _after_betting(state: State) -> None:
    if state.crews.holder.get(int(Die.MAYOR), -1) >= 0:
        state.push(MayorReveal())


def mayor_reveal(state: State, frame: MayorReveal, rng: np.random.Generator) -> None:
    holder = state.crews.holder[int(Die.MAYOR)]
    cup = state.reveal["cups"].get(str(holder)) if holder >= 0 else None
    face = next((f for kind, f in cup if kind == Die.MAYOR), -1) if cup else -1
    if face == BOMB and _bomb_targets(state, holder):
        state.say(f"C{holder}'s Mayor die shows a bomb")
        if holder == state.phantom:
            # The Phantom's single-target effects are aimed by a battle of the players (rulebook).
            players = [p for p in state.players() if p != holder]
            if len(players) == 1:
                state.pop()
                lose_cargo(state, [[players[0], 1]])
            else:
                frame.stage = "bomb_battle"
                start_battle(state, players, "loser")
            return
        frame.stage = "bomb"
        return
    state.pop()
    if face == COIN:
        state.coins[holder] += 1
        state.say(f"C{holder}'s Mayor die shows a coin")


def _bomb_targets(state: State, holder: int) -> list[int]:
    return [c for c in state.alive_captains() if c != holder]


def ask_bomb_target(state: State, frame: MayorReveal, rng: np.random.Generator) -> None:
    state.pending = ["bomb", state.crews.holder[int(Die.MAYOR)]]


def legal_bomb(state: State, frame: MayorReveal, seat: int) -> list[Action]:
    return [("target", t) for t in _bomb_targets(state, seat)]


def on_bomb(state: State, frame: MayorReveal, seat: int, action: Action, rng: np.random.Generator) -> None:
    state.pending = []
    state.pop()
    lose_cargo(state, [[action[1], 1]])


def bomb_battle(state: State, frame: MayorReveal, rng: np.random.Generator) -> None:
    state.pop()
    lose_cargo(state, [[frame.outcome, 1]])


def _cargo_verb(state: State, e: Effect, n: int, rng: np.random.Generator) -> bool:
    """The expansion's tiles: the actor loses ``n`` cargo (its choice each time)."""
    if e.actor != state.phantom or _cargo_choices(state, e.actor):
        lose_cargo(state, [[e.actor, n]])
        return True
    return False


def register(hooks: Hooks) -> None:
    hooks.after_betting.append(_after_betting)
    hooks.effect_verbs["cargo"] = _cargo_verb


STAGES = {
    "cargo": (Cargo, next_cargo, {"cargo": (legal_cargo, on_cargo)}),
    "mayor_reveal": (MayorReveal, mayor_reveal, {}),
    "bomb": (MayorReveal, ask_bomb_target, {"bomb": (legal_bomb, on_bomb)}),
    "bomb_battle": (MayorReveal, bomb_battle, {}),
}
