"""Priority windows: the captains in turn order act or pass until every one has passed in a row.

One ``Window`` frame serves the Sail phase's window (before the ships move), the Action phase's and the
final battle's (``final_battle``: its own actions, the same turns).  In the phases' windows a captain
plays an action card, buys one, draws one with an empty hand, passes the Cursed die, or takes an
option's action (``Hooks.window_actions``).
"""

from __future__ import annotations

import numpy as np

from bidbluff.envs.core.codec import Action
from bidbluff.envs.lying_pirates.cards import draw, may_play, spend_card
from bidbluff.envs.lying_pirates.content import CARDS
from bidbluff.envs.lying_pirates.effects import start_effect
from bidbluff.envs.lying_pirates.frames import Cargo, Effect, Influence, KeepOne, Window
from bidbluff.envs.lying_pirates.stages import ASK, Stage, call, done, stage
from bidbluff.envs.lying_pirates.table import Table


def open_window(state: Table, kind: str, then: Stage | None = None) -> None:
    """A window of ``kind`` ("sail", "action") for the captains afloat; the caller goes on at ``then``."""
    call(state, Window(kind, state.turn_order(state.token, state.players())), then)


def next_turn(state: Table, w: Window) -> bool | None:
    """The next captain's turn (ASK), or the window closes after a full round of passes."""
    if state.crews.out:
        while w.passes < len(w.order) and state.is_out(w.seat):
            w.took_turn(passed=True)  # a sunk captain's turn passes by itself
    if w.passes >= len(w.order):
        done(state)
        return None
    return ASK


@stage(Window, asks=lambda state, w: ("window", w.seat), awaits=(Effect, Cargo, KeepOne, Influence))
def window(state: Table, w: Window, rng: np.random.Generator) -> bool | None:
    return next_turn(state, w)


@window.legal("window")
def legal_window(state: Table, w: Window, seat: int) -> list[Action]:
    actions: list[Action] = [("pass",)]
    for k in sorted(set(state.hands[seat])):
        if not CARDS[k].reaction and may_play(state, seat, k):
            actions.append(("play", k))
    if state.coins[seat] >= state.hooks.card_cost(state, seat) and (state.deck or state.discard):
        actions.append(("buy",))
    if not state.hands[seat] and (state.deck or state.discard):
        actions.append(("draw",))
    if state.crews.can_pass_curse(seat):
        actions += [("curse", t) for t in range(state.captains) if t != seat and not state.is_out(t)]
    for more in state.hooks.window_actions:
        actions += more(state, seat)
    return actions


@window.on("window")
def on_window(state: Table, w: Window, seat: int, action: Action, rng: np.random.Generator) -> None:
    w.took_turn(passed=action[0] == "pass")
    if action[0] == "pass":
        return
    if action[0] == "play":
        spend_card(state, seat, action[1])
        state.say(f"C{seat} plays {CARDS[action[1]].name}")
        start_effect(state, seat, CARDS[action[1]].effect, "card", action[1])
    elif action[0] == "buy":
        state.coins[seat] -= state.hooks.card_cost(state, seat)
        state.hooks.buy(state, seat, "card", rng)
    elif action[0] == "draw":
        draw(state, seat, rng)
    elif action[0] == "curse":
        state.crews.pass_curse(seat, action[1])
        state.say(f"C{seat} passes the Cursed die to C{action[1]}")
    else:
        state.hooks.window_acts[action[0]](state, seat, action, rng)
