"""The setup's decisions of the base game: the collaborative map and the 3-2-1 card draft.

``setup.new_game`` stacks the setup's frames in rulebook order (an option's first: a captain coaster
to choose, then the map, the expansion's towns and influence cards, the draft) over the first Betting
phase; each pops itself when its work is done.
"""

from __future__ import annotations

import numpy as np

from bidbluff.envs.core.codec import Action
from bidbluff.envs.lying_pirates.cards import forget
from bidbluff.envs.lying_pirates.content import ALL_TILES, MAP_WATERS
from bidbluff.envs.lying_pirates.frames import CaptainChoice, Draft, InfluenceSetup, Placing
from bidbluff.envs.lying_pirates.stages import ASK, done, stage
from bidbluff.envs.lying_pirates.table import Table

DRAFT_PICKS = (3, 2, 1)  # cards each player passes on, round by round


@stage(Placing, asks=lambda state, p: ("place", p.order[p.turn % len(p.order)]), awaits=(CaptainChoice,))
def place(state: Table, p: Placing, rng: np.random.Generator) -> bool | None:
    if -1 not in state.slots:
        done(state)
        return None
    for _ in range(state.num_players):
        seat = p.order[p.turn % len(p.order)]
        if legal_place(state, p, seat):
            return ASK
        p.turn += 1
    raise AssertionError("empty slots that no tile can fill")


@place.legal("place")
def legal_place(state: Table, p: Placing, seat: int) -> list[Action]:
    waters = MAP_WATERS[state.map_name]
    return [
        ("place", t, s)
        for t in p.tiles[seat]
        for s, slot in enumerate(state.slots)
        if slot < 0 and waters[s] == ALL_TILES[t].water
    ]


@place.on("place")
def on_place(state: Table, p: Placing, seat: int, action: Action, rng: np.random.Generator) -> None:
    _, tile, slot = action
    p.tiles[seat].remove(tile)
    state.slots[slot] = tile
    p.turn += 1
    state.say(f"C{seat} places {ALL_TILES[tile].name} on slot {slot}")


def _drafting(state: Table, d: Draft) -> list[int]:
    """The players still to pick this round."""
    return [seat for seat in state.players() if len(d.picked[seat]) < DRAFT_PICKS[d.round]]


def _asks_draft(state: Table, d: Draft) -> tuple[str, int] | None:
    waiting = _drafting(state, d)
    return ("draft", waiting[0]) if waiting else None


@stage(Draft, asks=_asks_draft, awaits=(InfluenceSetup, Placing, CaptainChoice))
def draft(state: Table, d: Draft, rng: np.random.Generator) -> bool | None:
    if _drafting(state, d):
        return ASK
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
        done(state)
    return None


@draft.legal("draft")
def legal_draft(state: Table, d: Draft, seat: int) -> list[Action]:
    left = list(state.hands[seat])
    for card in d.picked[seat]:
        left.remove(card)
    return [("pick", k) for k in sorted(set(left))]


@draft.on("draft")
def on_draft(state: Table, d: Draft, seat: int, action: Action, rng: np.random.Generator) -> None:
    d.picked[seat].append(action[1])
