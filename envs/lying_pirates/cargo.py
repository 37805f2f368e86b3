"""Cities of Greed's cargo losses and the Mayor die at the reveal.

A captain who loses a cargo chooses a coin, an action card or a crew die (``Cargo``: the captains still to
lose, in order).  The Mayor die's holder, when its cup is revealed, gains a coin or (bomb) makes a captain
of its choice lose a cargo (``MayorReveal``); the Phantom's bomb is aimed by a battle of the players.
"""

from __future__ import annotations

import numpy as np

from bidbluff.envs.core.codec import Action
from bidbluff.envs.lying_pirates.battle import start_battle
from bidbluff.envs.lying_pirates.cards import lose_card
from bidbluff.envs.lying_pirates.dice import BOMB, COIN, Die
from bidbluff.envs.lying_pirates.frames import Battle, Cargo, Effect, MayorReveal
from bidbluff.envs.lying_pirates.hooks import Hooks
from bidbluff.envs.lying_pirates.stages import ASK, call, done, goto, stage
from bidbluff.envs.lying_pirates.table import Table


# -- cargo: a coin, an action card or a crew die, the victim's choice ---------------------------------------
def lose_cargo(state: Table, victims: list[list[int]]) -> None:
    call(state, Cargo([list(v) for v in victims if v[1] > 0]))


def _can_lose_die(state: Table, c: int) -> bool:
    crews = state.crews
    if crews.crew[c] > 1 or (crews.mortal and crews.crew[c] == 1):
        return True
    return any(d != Die.CURSED or c in crews.cursed_spare for d in crews.specials(c))


def _cargo_choices(state: Table, c: int) -> list[Action]:
    actions: list[Action] = []
    if state.coins[c] > 0:
        actions.append(("drop_coin",))
    actions += [("drop_card", k) for k in sorted(set(state.hands[c]))]
    if _can_lose_die(state, c):
        actions.append(("drop_crew",))
    return actions


@stage(Cargo, asks=lambda state, frame: ("cargo", frame.queue[0][0]) if frame.queue else None)
def cargo(state: Table, frame: Cargo, rng: np.random.Generator) -> bool | None:
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
        return ASK
    done(state)
    return None


@cargo.legal("cargo")
def legal_cargo(state: Table, frame: Cargo, seat: int) -> list[Action]:
    return _cargo_choices(state, seat)


@cargo.on("cargo")
def on_cargo(state: Table, frame: Cargo, seat: int, action: Action, rng: np.random.Generator) -> None:
    _drop(state, frame, seat, action)


def _drop(state: Table, frame: Cargo, c: int, action: Action) -> None:
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
def _after_betting(state: Table) -> None:
    if state.crews.holder.get(int(Die.MAYOR), -1) >= 0:
        call(state, MayorReveal())


@stage(MayorReveal)
def mayor_reveal(state: Table, frame: MayorReveal, rng: np.random.Generator) -> None:
    holder = state.crews.holder[int(Die.MAYOR)]
    cup = state.reveal["cups"].get(str(holder)) if holder >= 0 else None
    face = next((f for kind, f in cup if kind == Die.MAYOR), -1) if cup else -1
    if face == BOMB and _bomb_targets(state, holder):
        state.say(f"C{holder}'s Mayor die shows a bomb")
        if holder == state.phantom:
            # The Phantom's single-target effects are aimed by a battle of the players (rulebook).
            players = [p for p in state.players() if p != holder]
            if len(players) == 1:
                done(state)
                lose_cargo(state, [[players[0], 1]])
            else:
                start_battle(state, players, "loser", then=bomb_battle)
            return
        goto(frame, bomb)
        return
    done(state)
    if face == COIN:
        state.coins[holder] += 1
        state.say(f"C{holder}'s Mayor die shows a coin")


def _bomb_targets(state: Table, holder: int) -> list[int]:
    return [c for c in state.alive_captains() if c != holder]


@stage(MayorReveal, asks=lambda state, frame: ("bomb", state.crews.holder[int(Die.MAYOR)]))
def bomb(state: Table, frame: MayorReveal, rng: np.random.Generator) -> bool:
    """The Mayor die's holder picks the captain its bomb hits."""
    return ASK


@bomb.legal("bomb")
def legal_bomb(state: Table, frame: MayorReveal, seat: int) -> list[Action]:
    return [("target", t) for t in _bomb_targets(state, seat)]


@bomb.on("bomb")
def on_bomb(state: Table, frame: MayorReveal, seat: int, action: Action, rng: np.random.Generator) -> None:
    done(state)
    lose_cargo(state, [[action[1], 1]])


@stage(MayorReveal, awaits=(Battle,))
def bomb_battle(state: Table, frame: MayorReveal, rng: np.random.Generator) -> None:
    done(state)
    lose_cargo(state, [[frame.outcome, 1]])


def _cargo_verb(state: Table, e: Effect, n: int, rng: np.random.Generator) -> bool:
    """The expansion's tiles: the actor loses ``n`` cargo (its choice each time)."""
    if e.actor != state.phantom or _cargo_choices(state, e.actor):
        lose_cargo(state, [[e.actor, n]])
        return True
    return False


def register(hooks: Hooks) -> None:
    hooks.after_betting.append(_after_betting)
    hooks.effect_verbs["cargo"] = _cargo_verb
