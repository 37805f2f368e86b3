"""The Action phase: the Phantom plays its top card, a priority window, then the catch-up.

The catch-up: the captains tied last may each sacrifice a crew die to sail one tile (all of them, or
none: one refusal stops them all); reaching another ship lets the captains then tied last go on.  Then
the round ends and the next Betting phase begins.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from bidbluff.envs.core.codec import Action
from bidbluff.envs.lying_pirates.content import CARDS
from bidbluff.envs.lying_pirates.effects import start_effect
from bidbluff.envs.lying_pirates.frames import ActionPhase, BettingPhase, CatchUp
from bidbluff.envs.lying_pirates.windows import open_window

if TYPE_CHECKING:
    from bidbluff.envs.lying_pirates.state import LyingPiratesState as State


def action(state: State, frame: ActionPhase, rng: np.random.Generator) -> None:
    state.phase = "action"
    for hook in state.hooks.action_start:
        hook(state, rng)
    frame.stage = "action_window"
    if state.phantom >= 0 and state.phantom_pile and not state.is_out(state.phantom):
        card = state.phantom_pile.pop()
        state.discard.append(card)
        state.played.append([state.phantom, card])
        state.say(f"the Phantom plays {CARDS[card].name}")
        start_effect(state, state.phantom, CARDS[card].effect, "card", card)


def action_window(state: State, frame: ActionPhase, rng: np.random.Generator) -> None:
    state.replace(CatchUp())
    open_window(state, "action")


def catch_up(state: State, frame: CatchUp, rng: np.random.Generator) -> None:
    if frame.group is None:
        frame.group = _last_players(state)
    group = frame.group
    if not all(_can_step(state, c) for c in group):
        _end_round(state)
        return
    waiting = [c for c in state.turn_order(state.token, group) if c not in frame.asked]
    if waiting:
        state.pending = ["catchup", waiting[0]]
        return
    if len(frame.accepted) < len(group):
        _end_round(state)
        return
    for c in group:
        state.crews.lose(c, 1)
        state.progress[c] += 1
    state.say(f"catch-up: {group} sacrifice a crew die each and sail one tile")
    ships = {state.position(c) for c in state.alive_captains() if c not in group}
    if state.position(group[0]) in ships:
        # Reached another ship: the captains now tied last may go on together.
        joined = _last_players(state)
        if joined == group:
            _end_round(state)  # the ship reached was not a last-place one: the step is over
            return
        group = joined
    frame.group, frame.asked, frame.accepted = group, [], []


def _last_players(state: State) -> list[int]:
    last = min(state.progress[p] for p in state.players())
    return [p for p in state.players() if state.progress[p] == last]


def _can_step(state: State, c: int) -> bool:
    """A last captain may step if it can spare a crew die, the Base is not next, and a ship is ahead."""
    if state.crews.crew[c] < 2 or state.progress[c] + 1 >= state.lap:
        return False
    return any(state.position(o) > state.position(c) for o in range(state.captains) if o != c and not state.is_out(o))


def legal_catchup(state: State, frame: CatchUp, seat: int) -> list[Action]:
    return [("advance",), ("stop",)]


def on_catchup(state: State, frame: CatchUp, seat: int, action: Action, rng: np.random.Generator) -> None:
    frame.asked.append(seat)
    if action[0] == "advance":
        frame.accepted.append(seat)
    else:
        frame.asked = list(frame.group)  # one refusal stops them all
    state.pending = []


def _end_round(state: State) -> None:
    for hook in state.hooks.round_end:
        hook(state)
    state.excluded, state.next_excluded = state.next_excluded, []
    state.replace(BettingPhase())


STAGES = {
    "action": (ActionPhase, action, {}),
    "action_window": (ActionPhase, action_window, {}),
    "catchup": (CatchUp, catch_up, {"catchup": (legal_catchup, on_catchup)}),
}
