"""Ships on the map: moving them, the Phantom sinking the ships it catches, and the game's end by it."""

from __future__ import annotations

from bidbluff.envs.lying_pirates.table import Table


def move_ship(state: Table, c: int, n: int, phase: str) -> None:
    """``c`` sails ``n`` tiles (back when negative, never before the start); only the Sail phase can
    bring a ship home, where it stops."""
    before = state.progress[c]
    if n < 0:
        state.progress[c] = max(0, before + n)
        return
    after = before + n
    if c != state.phantom:
        if phase == "sail" and after >= state.lap:
            after = state.lap  # back on the Base after a full lap
            if c not in state.finished:
                state.finished.append(c)
        elif after >= state.lap:
            after = state.lap - 1  # the game cannot end outside the Sail phase
    state.progress[c] = after


def phantom_catches(state: Table, before: list[int]) -> None:
    """The Phantom sinks a ship it caught up with: one that was ahead of it and that it reached or passed.

    Only what it sails after passing the Base counts (rulebook: it goes on around the map, and "if it
    later catches up with one of the players' ships"); overtaking on its first lap sinks nothing."""
    ph = state.phantom
    start = max(before[ph], state.lap)
    travelled = state.progress[ph] - start
    caught = [
        p
        for p in state.players()
        if state.progress[p] < state.lap  # a ship back home is safe
        and 0 < (before[p] - start) % state.lap <= travelled - (state.progress[p] - before[p])
    ]
    if len(caught) == 2:
        state.say("the Phantom catches both ships and sinks them: the Phantom wins")
        state.end([state.phantom])
    elif caught:
        other = 1 - caught[0]
        state.say(f"the Phantom sinks C{caught[0]}'s ship: C{other} wins")
        state.end([other])
