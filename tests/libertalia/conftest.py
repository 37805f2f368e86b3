"""Position builders for the Libertalia rule tests.

Every test builds its exact situation with ``make_state`` (a
``LibertaliaState.from_dict`` of a hand-written position at sunrise), plays
the sunrise picks with ``play`` and answers the following decisions with
``act``, which also checks that each answer is among the legal actions.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bidbluff.envs.libertalia.content import BAG, NUM_RANKS, Booty
from bidbluff.envs.libertalia.rules import SUNRISE, LibertaliaState

CHEST, JEWELS, GOODS, MAP, RELIC, SABRE, OFFICER = (int(t) for t in Booty)
NO_BOOTY = (0, 0, 0, 0, 0, 0, 0)
_NAMES = {t.name.lower(): int(t) for t in Booty}


def tokens(**counts: int) -> list[int]:
    """Seven token counts from keywords: ``tokens(chest=1, map=2)``."""
    out = [0] * len(BAG)
    for name, count in counts.items():
        out[_NAMES[name]] = count
    return out


def rng(seed: int = 0) -> np.random.Generator:
    return np.random.default_rng(seed)


def _counts(value: Any) -> list[int]:
    if value is None:
        return [0] * len(BAG)
    if isinstance(value, dict):
        return tokens(**value)
    return list(value)


def make_state(
    n: int = 3,
    hands: list[list[int]] | None = None,
    *,
    dens: list[list[int]] | None = None,
    den_booty: list[Any] | None = None,
    discards: list[list[int]] | None = None,
    doubloons: list[int] | None = None,
    booty_days: dict[int, Any] | list[Any] | None = None,
    day: int = 0,
    campaign: int = 0,
    score: list[int] | None = None,
    campaign_totals: list[list[int]] | None = None,
    bag: list[int] | None = None,
    undealt: list[int] | None = None,
) -> LibertaliaState:
    """A sunrise position of ``n`` seats, everything not given empty.

    ``den_booty`` entries and ``booty_days`` rows may be ``tokens`` dicts;
    ``booty_days`` may be ``{day index: row}``.  The bag defaults to the 50
    tokens less those laid out and in dens; ``undealt`` to every rank that no
    seat holds anywhere.  The first seat with a non-empty hand is to play.
    """
    hands = [sorted(h) for h in (hands or [[] for _ in range(n)])]
    dens = [sorted(d) for d in (dens or [[] for _ in range(n)])]
    discards = [list(d) for d in (discards or [[] for _ in range(n)])]
    den_booty = [_counts(b) for b in (den_booty or [None] * n)]
    if isinstance(booty_days, dict):
        rows = [_counts(booty_days.get(d)) for d in range(6)]
    else:
        rows = [_counts(r) for r in (booty_days or [None] * 6)]
    if bag is None:
        used = [sum(r[t] for r in rows + den_booty) for t in range(len(BAG))]
        bag = [max(0, BAG[t] - used[t]) for t in range(len(BAG))]
    if undealt is None:
        held = {r for places in (hands, dens, discards) for cards in places for r in cards}
        undealt = [r for r in range(1, NUM_RANKS + 1) if r not in held]
    to_play = [s for s in range(n) if hands[s]]
    assert to_play, "someone must hold a card so that the position has a decision"
    data = {
        "game": "libertalia",
        "num_players": n,
        "campaign": campaign,
        "day": day,
        "phase": SUNRISE,
        "cursor": 0,
        "dusk_picks": -1,
        "dusk_officer": False,
        "hidden": [[] for _ in range(n)],
        "undealt": list(undealt),
        "hands": hands,
        "chosen": [0] * n,
        "ship": [],
        "dens": dens,
        "den_booty": den_booty,
        "discards": discards,
        "doubloons": list(doubloons or [10] * n),
        "score": list(score or [0] * n),
        "campaign_totals": [list(t) for t in (campaign_totals or [])],
        "booty_days": rows,
        "bag": list(bag),
        "pending": ["play", to_play[0]],
        "log": [],
    }
    return LibertaliaState.from_dict(data)


def act(state: LibertaliaState, *actions: tuple, seed: int = 0) -> LibertaliaState:
    """Answer the open decisions with ``actions`` in turn, each checked to be legal."""
    for action in actions:
        legal = state.legal_actions()
        assert action in legal, f"{action} is not legal at {state.pending}; legal: {legal}"
        state.apply(action, rng(seed))
    return state


def play(state: LibertaliaState, *ranks: int | None, seed: int = 0) -> LibertaliaState:
    """Sunrise: seat i plays ``ranks[i]`` (``None`` for a seat with an empty hand)."""
    for seat, rank in enumerate(ranks):
        if rank is None:
            continue
        assert state.pending == ["play", seat], f"expected seat {seat} to play, open: {state.pending}"
        act(state, ("play", rank), seed=seed)
    return state


def booty_of(state: LibertaliaState, seat: int) -> dict[str, int]:
    """A den's booty as ``{name: count}`` without zeros, for readable asserts."""
    return {t.name.lower(): c for t, c in zip(Booty, state.den_booty[seat], strict=True) if c}
