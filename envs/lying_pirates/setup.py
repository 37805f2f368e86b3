"""A new game of Lying Pirates: seat the captains, build the map, deal crews, coins and cards, then the
options' setup; the setup's decisions (``setup_steps``, the options' own) are stacked over the first
Betting phase."""

from __future__ import annotations

from typing import Any

import numpy as np

from bidbluff.envs.lying_pirates import captains, cities, merchants
from bidbluff.envs.lying_pirates.content import (
    ALL_TILE_INDEX,
    ALL_TILES,
    CARDS,
    CITY_SWAPS,
    FIRST_GAME,
    HAND_SIZE,
    MAP_WATERS,
    RICH_START_COINS,
    SILVER,
    START_COINS,
    TILE_INDEX,
    TILES,
)
from bidbluff.envs.lying_pirates.crew import Crews
from bidbluff.envs.lying_pirates.engine import advance
from bidbluff.envs.lying_pirates.frames import BettingPhase, Draft, Placing
from bidbluff.envs.lying_pirates.options import check_options, hooks_for
from bidbluff.envs.lying_pirates.state import LyingPiratesState


def new_game(
    num_players: int,
    rng: np.random.Generator,
    map: str = "base",
    map_setup: str = "first_game",
    draft: bool = False,
    expansion: str | None = None,
    abilities: str | None = None,
    variants: Any = (),
    merchant_ships: bool = False,
) -> LyingPiratesState:
    """Seat the captains, build the map, deal crews, coins and cards; then the options' setup."""
    variants = check_options(expansion, abilities, variants, merchant_ships)
    if map not in MAP_WATERS:
        raise ValueError(f"map must be one of {sorted(MAP_WATERS)}, not {map!r}")
    if map_setup not in ("first_game", "collaborative"):
        raise ValueError(f"map_setup must be 'first_game' or 'collaborative', not {map_setup!r}")
    n = num_players
    captain_count = n + 1 if n == 2 else n
    state = LyingPiratesState(
        num_players=n,
        captains=captain_count,
        phantom=n if n == 2 else -1,
        map_name=map,
        progress=[0] * captain_count,
        crews=Crews.start(captain_count),
        coins=[RICH_START_COINS if "Rich Harbour" in variants else START_COINS] * captain_count,
        hands=[[] for _ in range(captain_count)],
        used=[[False, False, False] for _ in range(captain_count)],
        known=[[[0] * len(CARDS) for _ in range(captain_count)] for _ in range(n)],
    )
    size = HAND_SIZE[map]
    deck = [k for k, card in enumerate(CARDS) for _ in range(card.count)]
    if state.phantom >= 0:
        silver = [k for k in deck if CARDS[k].metal == SILVER]
        rng.shuffle(silver)
        state.phantom_pile = [int(k) for k in silver[:size]]
        for k in state.phantom_pile:
            deck.remove(k)
    rng.shuffle(deck)
    state.deck = [int(k) for k in deck]
    for seat in range(n):
        state.hands[seat] = sorted(state.deck.pop() for _ in range(size))
    # the setup's steps, the last taken first: they go on the stack over the first Betting phase
    steps = [BettingPhase(), *([Draft(picked=[[] for _ in range(n)])] if draft else [])]
    if map_setup == "first_game":
        if expansion:
            state.slots = [ALL_TILE_INDEX[CITY_SWAPS.get(name, name)] for name in FIRST_GAME[map]]
        else:
            state.slots = [TILE_INDEX[name] for name in FIRST_GAME[map]]
        state.token = int(rng.integers(n))
    else:
        tiles = [int(t) for t in rng.permutation(len(ALL_TILES if expansion else TILES))]
        dealt = [tiles[i::n] for i in range(n)]
        base = TILE_INDEX["Start/End"]
        state.token = next(s for s in range(n) if base in dealt[s])
        dealt[state.token].remove(base)
        state.slots = [base] + [-1] * (len(MAP_WATERS[map]) - 1)
        order = [(state.token + i) % n for i in range(n)]
        # placing the Base was the holder's turn: the next tile is placed by the next player clockwise
        placing = Placing(dealt, order, 1)
    if expansion or abilities or variants or merchant_ships:
        options = {
            "expansion": expansion,
            "abilities": abilities,
            "variants": variants,
            "merchant_ships": merchant_ships,
        }
        state.ext = {"options": options, **captains.new_coasters(state, rng, abilities)}
        state.ext.update(merchants.new_ships(state, rng) if merchant_ships else {"merchant": -1, "navy": -1})
        if expansion:
            state.ext.update(cities.new_cities(state, rng))
            steps += reversed(cities.setup_frames())
        if abilities:
            captains.apply_abilities(state)
        state.crews.mortal = "Instant Death" in variants
        state.hooks = hooks_for(state.ext)
    if map_setup != "first_game":
        steps.append(placing)
    if abilities == "chosen":
        steps.append(captains.CaptainChoice())
    state.stack = steps
    advance(state, rng)
    return state
