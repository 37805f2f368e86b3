"""Position builders for the Spytails rule tests.

``make_state`` writes a position by hand (everything not given is empty or
the game's default) and lets the engine run to the first decision; ``act``
answers decisions, checking each answer is legal.  Cards are written as
``cards("7S 10C AI QV alpha ghost skunk")``: rank then suit letter, S Stalk,
C Codebreaking, V surVeillance, I Intimidation.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bidbluff.envs.spytails.content import (
    ALPHA_STRIKE,
    CODEBREAKING,
    GHOST_MOVE,
    INTIMIDATION,
    SKUNK_BOMB,
    SPECIAL_DECK,
    STALK,
    SURVEILLANCE,
    card,
)
from bidbluff.envs.spytails.rules import OPERATIONS_PHASE, PAYOUT, SpytailsState

_SUITS = {"S": STALK, "C": CODEBREAKING, "V": SURVEILLANCE, "I": INTIMIDATION}
_RANKS = {"J": 11, "Q": 12, "K": 13, "A": 14}
_SPECIALS = {"alpha": ALPHA_STRIKE, "ghost": GHOST_MOVE, "skunk": SKUNK_BOMB}
# Three missions with no effect on play: the default row.
QUIET_ROW = [0, 2, 4]


def cards(text: str) -> list[int]:
    """``cards("7S AI alpha")`` -> card types."""
    out = []
    for word in text.split():
        if word in _SPECIALS:
            out.append(_SPECIALS[word])
        else:
            rank = _RANKS.get(word[:-1]) or int(word[:-1])
            out.append(card(_SUITS[word[-1]], rank))
    return out


def one(text: str) -> int:
    (c,) = cards(text)
    return c


def rng(seed: int = 0) -> np.random.Generator:
    return np.random.default_rng(seed)


def make_state(
    n: int = 3,
    hands: list[str] | None = None,
    *,
    characters: list[int] | None = None,
    decks: list[str] | None = None,
    discards: list[str] | None = None,
    display: str = "",
    row: list[int] | None = None,
    influence: list[int] | None = None,
    leverage: list[int] | None = None,
    phase: str = OPERATIONS_PHASE,
    start: int = 0,
    leader: int | None = None,
    bids: list[int] | None = None,
    stakes: list[int] | None = None,
    won: list[int] | None = None,
    operation: int = 0,
    round_ops: list[Any] | None = None,
    round: int = 0,
    last_round: int | None = None,
    mode: str = "individual",
    teams: list[int] | None = None,
    forecast_mode: str = "sequential",
    **extra: Any,
) -> SpytailsState:
    """A position of ``n`` seats (default: operations, the first operation, seat 0 leading).

    Characters default to Mimic, Mirage, Echo, Alka in seat order but for
    tests that need none, pass ``characters``.  The special deck holds every
    special card not placed elsewhere, in sorted order (top = last).
    """
    hands_ = [sorted(cards(h)) for h in (hands or [""] * n)]
    decks_ = [cards(d) for d in (decks or [""] * n)]
    discards_ = [cards(d) for d in (discards or [""] * n)]
    display_ = cards(display)
    placed = display_ + [c for pile in hands_ + decks_ + discards_ for c in pile]
    special = list(SPECIAL_DECK)
    for c in placed:
        if c in special:
            special.remove(c)
    row = list(QUIET_ROW if row is None else row)
    fields: dict[str, Any] = {
        "num_players": n,
        "mode": mode,
        "forecast_mode": forecast_mode,
        "phase": phase,
        "round": round,
        "last_round": 5 if last_round is None else last_round,
        "start": start,
        "characters": list(characters if characters is not None else [1, 2, 3, 0][:n]),
        "teams": list(teams or ([0, 1, 0, 1] if mode == "partnership" else [])),
        "influence": list(influence or [10] * n),
        "leverage": list(leverage or [0] * n),
        "leverage_supply": 6 - sum(leverage or [0] * n),
        "hands": hands_,
        "decks": decks_,
        "discards": discards_,
        "removed": [[] for _ in range(n)],
        "known": [[] for _ in range(n)],
        "pool": [sorted(h + d) for h, d in zip(hands_, decks_, strict=True)],
        "pool_in_hand": [len(h) for h in hands_],
        "voids": [[] for _ in range(n)],
        "special_deck": special,
        "display": display_,
        "row": row,
        "row_deck": [c for c in range(20) if c not in row],
        "ghost_used": [False] * n,
        "regroup_used": [False] * n,
        "power_used": [False] * n,
        "bids": list(bids or ([2] * n if phase != "forecast" else [-1] * n)),
        "stakes": list(stakes or ([1] * n if phase != "forecast" else [-1] * n)),
        "forecast_done": [phase != "forecast"] * n,
        "revealed": forecast_mode == "sequential" or phase != "forecast",
        "operation": operation,
        "leader": start if leader is None else leader,
        "round_ops": list(round_ops or []),
        "won": list(won or [0] * n),
        "repay_done": [False] * n,
        "debrief_step": PAYOUT,
    }
    fields.update(extra)
    state = SpytailsState(**fields)
    state._advance(rng())
    state.validate()
    return state


def act(state: SpytailsState, *actions: tuple, seed: int = 0) -> SpytailsState:
    """Answer the open decisions with ``actions`` in turn, each checked to be legal."""
    for action in actions:
        legal = state.legal_actions()
        assert action in legal, f"{action} is not legal at {state.pending}; legal: {legal}"
        state.apply(action, rng(seed))
    return state


def play(state: SpytailsState, *texts: str) -> SpytailsState:
    """Each text is the next card played, e.g. ``play(s, "7S", "9S", "AI low")``."""
    for text in texts:
        word, _, how = text.partition(" ")
        c = one(word)
        act(state, ("play_low", c // 13) if how == "low" else ("play", c))
    return state


def short(c: int) -> str:
    """The ``cards`` word for card type ``c``."""
    for name, special in _SPECIALS.items():
        if c == special:
            return name
    rank = {v: k for k, v in _RANKS.items()}.get(c % 13 + 2, str(c % 13 + 2))
    return rank + "SCVI"[c // 13]


def plays(state: SpytailsState) -> set[str]:
    """The acting seat's card plays (tokens left out) as ``cards`` words; an ace low as ``"AS low"``."""
    out = set()
    for action in state.legal_actions():
        if action[0] == "play":
            out.add(short(action[1]))
        elif action[0] == "play_low":
            out.add("A" + "SCVI"[action[1]] + " low")
    return out


def tokens(state: SpytailsState) -> set[str]:
    """The token actions open to the acting seat."""
    return {a[0] for a in state.legal_actions() if a[0] in ("ghost", "regroup", "power")}
