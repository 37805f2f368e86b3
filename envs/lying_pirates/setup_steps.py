"""The setup's decisions of the base game: the collaborative map and the 3-2-1 card draft.

``setup.new_game`` stacks the setup's frames in rulebook order (an option's first: a captain coaster
to choose, then the map, the expansion's towns and influence cards, the draft) over the first Betting
phase; each pops itself when its work is done.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from bidbluff.envs.core.codec import Action
from bidbluff.envs.lying_pirates.cards import forget
from bidbluff.envs.lying_pirates.content import ALL_TILES, MAP_WATERS
from bidbluff.envs.lying_pirates.frames import Draft, Placing

if TYPE_CHECKING:
    from bidbluff.envs.lying_pirates.state import LyingPiratesState as State


def next_placer(state: State, p: Placing, rng: np.random.Generator) -> None:
    if -1 not in state.slots:
        state.pop()
        return
    for _ in range(state.num_players):
        seat = p.order[p.turn % len(p.order)]
        if legal_place(state, p, seat):
            state.pending = ["place", seat]
            return
        p.turn += 1
    raise AssertionError("empty slots that no tile can fill")


def legal_place(state: State, p: Placing, seat: int) -> list[Action]:
    waters = MAP_WATERS[state.map_name]
    return [
        ("place", t, s)
        for t in p.tiles[seat]
        for s, slot in enumerate(state.slots)
        if slot < 0 and waters[s] == ALL_TILES[t].water
    ]


def on_place(state: State, p: Placing, seat: int, action: Action, rng: np.random.Generator) -> None:
    _, tile, slot = action
    p.tiles[seat].remove(tile)
    state.slots[slot] = tile
    p.turn += 1
    state.say(f"C{seat} places {ALL_TILES[tile].name} on slot {slot}")
    state.pending = []


def draft_round(state: State, d: Draft, rng: np.random.Generator) -> None:
    size = (3, 2, 1)[d.round]
    for seat in state.players():
        if len(d.picked[seat]) < size:
            state.pending = ["draft", seat]
            return
    for seat in state.players():
        receiver = (seat + 1) % state.num_players
        for card in d.picked[seat]:
            state.hands[seat].remove(card)
            forget(state, seat, card)
        for card in d.picked[seat]:
            state.hands[receiver].append(card)
            state.known[seat][receiver][card] += 1
    for hand in state.hands:
        hand.sort()
    d.picked = [[] for _ in state.players()]
    d.round += 1
    if d.round == 3:
        state.pop()


def legal_draft(state: State, d: Draft, seat: int) -> list[Action]:
    left = list(state.hands[seat])
    for card in d.picked[seat]:
        left.remove(card)
    return [("pick", k) for k in sorted(set(left))]


def on_draft(state: State, d: Draft, seat: int, action: Action, rng: np.random.Generator) -> None:
    d.picked[seat].append(action[1])
    state.pending = []


STAGES = {
    "place": (Placing, next_placer, {"place": (legal_place, on_place)}),
    "draft": (Draft, draft_round, {"draft": (legal_draft, on_draft)}),
}
