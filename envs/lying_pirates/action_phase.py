"""The Action phase: the Phantom plays its top card, a priority window, then the catch-up.

The catch-up: the captains tied last may each sacrifice a crew die to sail one tile (all of them, or
none: one refusal stops them all); reaching another ship lets the captains then tied last go on.  Then
the round ends and the next Betting phase begins.
"""

from __future__ import annotations

import numpy as np

from bidbluff.envs.core.codec import Action
from bidbluff.envs.lying_pirates.content import CARDS
from bidbluff.envs.lying_pirates.effects import start_effect
from bidbluff.envs.lying_pirates.frames import ActionPhase, BettingPhase, CatchUp, Effect, Window
from bidbluff.envs.lying_pirates.stages import ASK, goto, stage
from bidbluff.envs.lying_pirates.table import ACTION, Table
from bidbluff.envs.lying_pirates.windows import open_window


@stage(ActionPhase, phase=ACTION)
def action(state: Table, frame: ActionPhase, rng: np.random.Generator) -> None:
    for hook in state.hooks.action_start:
        hook(state, rng)
    goto(frame, action_window)
    if state.phantom >= 0 and state.phantom_pile and not state.is_out(state.phantom):
        card = state.phantom_pile.pop()
        state.discard.append(card)
        state.played.append([state.phantom, card])
        state.say(f"the Phantom plays {CARDS[card].name}")
        start_effect(state, state.phantom, CARDS[card].effect, "card", card)


@stage(ActionPhase, phase=ACTION, awaits=(Effect,))
def action_window(state: Table, frame: ActionPhase, rng: np.random.Generator) -> None:
    state.replace(CatchUp())
    open_window(state, "action")


def last_players(state: Table) -> list[int]:
    """The players tied last on the map."""
    last = min(state.progress[p] for p in state.players())
    return [p for p in state.players() if state.progress[p] == last]


def _waiting(state: Table, cu: CatchUp) -> list[int]:
    return [c for c in state.turn_order(state.token, cu.group) if c not in cu.asked]


def _asks_catchup(state: Table, cu: CatchUp) -> tuple[str, int] | None:
    if cu.group is None or len(cu.accepted) != len(cu.asked):
        return None
    waiting = _waiting(state, cu)
    return ("catchup", waiting[0]) if waiting else None


@stage(CatchUp, phase=ACTION, asks=_asks_catchup, awaits=(Window,))
def catchup(state: Table, cu: CatchUp, rng: np.random.Generator) -> bool | None:
    if cu.group is None:
        cu.group = last_players(state)
    group = cu.group
    if not all(_can_step(state, c) for c in group):
        _end_round(state)
        return None
    if _waiting(state, cu):
        return ASK
    if len(cu.accepted) < len(group):
        _end_round(state)
        return None
    for c in group:
        state.crews.lose(c, 1)
        state.progress[c] += 1
    state.say(f"catch-up: {group} sacrifice a crew die each and sail one tile")
    ships = {state.position(c) for c in state.alive_captains() if c not in group}
    if state.position(group[0]) in ships:
        # Reached another ship: the captains now tied last may go on together.
        joined = last_players(state)
        if joined == group:
            _end_round(state)  # the ship reached was not a last-place one: the step is over
            return None
        group = joined
    cu.group, cu.asked, cu.accepted = group, [], []
    return None


def _can_step(state: Table, c: int) -> bool:
    """A last captain may step if it can spare a crew die, the Base is not next, and a ship is ahead."""
    if state.crews.crew[c] < 2 or state.progress[c] + 1 >= state.lap:
        return False
    return any(state.position(o) > state.position(c) for o in range(state.captains) if o != c and not state.is_out(o))


@catchup.legal("catchup")
def legal_catchup(state: Table, cu: CatchUp, seat: int) -> list[Action]:
    return [("advance",), ("stop",)]


@catchup.on("catchup")
def on_catchup(state: Table, cu: CatchUp, seat: int, action: Action, rng: np.random.Generator) -> None:
    cu.asked.append(seat)
    if action[0] == "advance":
        cu.accepted.append(seat)
    else:
        cu.asked = list(cu.group)  # one refusal stops them all


def _end_round(state: Table) -> None:
    for hook in state.hooks.round_end:
        hook(state)
    state.excluded, state.next_excluded = state.next_excluded, []
    state.replace(BettingPhase())
