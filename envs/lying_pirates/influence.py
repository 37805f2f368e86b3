"""Cities of Greed's influence cards: played in the Action phase's window for a town (attack: its captains
lose a cargo each; bonus: a coin each, two and the Mayor die for a player in its own town), bought for a
coin, drawn by the expansion's tiles; and the towns the captains are in.
"""

from __future__ import annotations

import numpy as np

from bidbluff.envs.core.codec import Action
from bidbluff.envs.lying_pirates.cargo import lose_cargo
from bidbluff.envs.lying_pirates.content import (
    INFLUENCE,
    INFLUENCE_COST,
    MAYOR_BONUS,
    TOWNS,
)
from bidbluff.envs.lying_pirates.dice import Die
from bidbluff.envs.lying_pirates.frames import Effect, Influence
from bidbluff.envs.lying_pirates.hooks import Hooks
from bidbluff.envs.lying_pirates.stages import ASK, call, done, stage
from bidbluff.envs.lying_pirates.table import ACTION, Table


# -- where captains are ------------------------------------------------------------------------------
def town_of(state: Table, c: int) -> int:
    """The town under the tile ``c``'s ship is on (-1 on the Base or before towns are placed)."""
    return state.ext["towns"][state.position(c)]


def in_town(state: Table, town: int) -> list[int]:
    """Captains in ``town`` (on a tile whose town card is ``town``), in turn order from the token."""
    return [c for c in state.turn_order(state.token, state.alive_captains()) if town_of(state, c) == town]


# -- influence cards in the Action phase's priority window ------------------------------------------------
def _window_actions(state: Table, seat: int) -> list[Action]:
    if state.phase != ACTION:
        return []
    x = state.ext
    actions: list[Action] = []
    if not x["influence_used"][seat]:
        actions += [("influence", k) for k in sorted(set(x["influence"][seat]))]
    if state.coins[seat] >= INFLUENCE_COST and (x["influence_deck"] or x["influence_discard"]):
        actions.append(("buy_influence",))
    return actions


def _buy_influence(state: Table, seat: int, action: Action, rng: np.random.Generator) -> None:
    state.coins[seat] -= INFLUENCE_COST
    state.hooks.buy(state, seat, "influence", rng)


def _play_influence(state: Table, seat: int, action: Action, rng: np.random.Generator) -> None:
    x = state.ext
    kind = action[1]
    x["influence"][seat].remove(kind)
    x["influence_discard"].append(kind)
    x["influence_used"][seat] = True
    state.say(f"C{seat} plays the influence card {INFLUENCE[kind].name}")
    call(state, Influence(seat, kind))


@stage(Influence, asks=lambda state, frame: ("influence_town" if frame.town < 0 else "influence_mode", frame.seat))
def influence(state: Table, frame: Influence, rng: np.random.Generator) -> bool:
    """The player names the card's town, then attack or bonus."""
    return ASK


@influence.legal("influence_town")
def legal_influence_town(state: Table, frame: Influence, seat: int) -> list[Action]:
    return [("town", t) for t in INFLUENCE[frame.card].towns]


@influence.on("influence_town")
def on_influence_town(state: Table, frame: Influence, seat: int, action: Action, rng: np.random.Generator) -> None:
    frame.town = action[1]


@influence.legal("influence_mode")
def legal_influence_mode(state: Table, frame: Influence, seat: int) -> list[Action]:
    return [("attack",), ("bonus",)]


@influence.on("influence_mode")
def on_influence_mode(state: Table, frame: Influence, seat: int, action: Action, rng: np.random.Generator) -> None:
    town = frame.town
    done(state)
    present = in_town(state, town)
    if action[0] == "attack":
        # every captain in the town loses one cargo, the player too if there (video: "all players")
        state.say(f"C{seat} attacks {TOWNS[town]}: {present} lose a cargo")
        lose_cargo(state, [[c, 1] for c in present])
        return
    for c in present:
        state.coins[c] += 1
    if state.ext["designated"][seat] == town and seat in present:
        # own town while there: 2 coins in all (not 1) and the Mayor die
        state.coins[seat] += MAYOR_BONUS - 1
        state.crews.take_special(seat, Die.MAYOR)
    state.say(f"C{seat} plays for {TOWNS[town]}'s bonus: {present} gain coins")


# -- drawing influence cards ---------------------------------------------------------------------------------
def draw_influence(state: Table, c: int, rng: np.random.Generator) -> int:
    """Top influence card (the discard reshuffled when the deck is empty), or -1."""
    x = state.ext
    if c == state.phantom:
        return -1
    if not x["influence_deck"]:
        deck = list(x["influence_discard"])
        rng.shuffle(deck)
        x["influence_deck"], x["influence_discard"] = [int(k) for k in deck], []
    return x["influence_deck"].pop() if x["influence_deck"] else -1


def take_influence(state: Table, c: int, k: int) -> None:
    hand = state.ext["influence"][c]
    hand.append(k)
    hand.sort()


def _influence_verb(state: Table, e: Effect, n: int, rng: np.random.Generator) -> bool:
    """The expansion's tiles: draw ``n`` influence cards."""
    for _ in range(n):
        k = draw_influence(state, e.actor, rng)
        if k >= 0:
            take_influence(state, e.actor, k)
    return False


# -- hidden information --------------------------------------------------------------------------------------------
def _resample_hidden(state: Table, seat: int, rng: np.random.Generator) -> None:
    """Others' influence cards and the influence deck (with another's drawn pair) are redrawn together."""
    x = state.ext
    others = [c for c in range(state.captains) if c != seat]
    pool = list(x["influence_deck"])
    for c in others:
        pool += x["influence"][c]
    drawn = state.drawn("influence")
    hidden_pair = drawn is not None and drawn.seat != seat
    if hidden_pair:
        pool += drawn.cards
    pool.sort()
    pool = [pool[i] for i in rng.permutation(len(pool))]
    if hidden_pair:
        drawn.cards, pool = [int(k) for k in pool[:2]], pool[2:]
    for c in others:
        k = len(x["influence"][c])
        x["influence"][c], pool = sorted(int(v) for v in pool[:k]), pool[k:]
    x["influence_deck"] = [int(v) for v in pool]


def _reset_influence_used(state: Table) -> None:
    state.ext["influence_used"] = [False] * state.captains


def register(hooks: Hooks) -> None:
    hooks.round_start.append(_reset_influence_used)
    hooks.window_actions.append(_window_actions)
    hooks.window_acts.update(influence=_play_influence, buy_influence=_buy_influence)
    hooks.effect_verbs["influence"] = _influence_verb
    hooks.draw["influence"] = draw_influence
    hooks.take["influence"] = take_influence
    hooks.resample_hidden.append(_resample_hidden)
