"""Spytails on the page: the mission/event row, the operation on the table, forecasts, piles, the own hand."""

from __future__ import annotations

from typing import Any

from bidbluff.arena.web.views.common import Option
from bidbluff.envs.core.codec import Action
from bidbluff.envs.spytails.content import (
    CARD_NAMES,
    CARD_RANK,
    CARD_SUIT,
    CARD_TEXT,
    CHARACTERS,
    INTIMIDATION,
    MISSIONS,
    NO_SUIT,
    NUM_CARDS,
    POWER_TEXT,
    ROW_CARDS,
    ROW_REWARDS,
    SPECIAL_TEXT,
    SUITS,
    is_mission,
)
from bidbluff.envs.spytails.rules import CHARACTER_MODES, FORECAST_MODES, GHOST_TOKEN, MODES, OPERATIONS_PHASE, OVER
from bidbluff.envs.spytails.rules import SpytailsState as State

TITLE = "Spytails"
OPTIONS = (
    Option("mode", "choice", "individual", MODES, "partnership: two teams of two (4 players)"),
    Option("forecast_mode", "choice", "sequential", FORECAST_MODES, "simultaneous: forecasts hidden until locked"),
    Option("characters", "choice", "dealt", CHARACTER_MODES, "chosen: each seat picks its character"),
)
# What each open decision asks, for the line over the board.
DECISIONS = {
    "character": "choose a character",
    "bid": "forecast how many operations you will win",
    "stake": "stake influence on the forecast",
    "revise": "keep or change the forecast",
    "play": "play to the operation",
    "regroup": "choose the cards to regroup away",
    "echo_take": "Echo: take a card from your discard pile",
    "echo_give": "Echo: put a card from your hand on your discard pile",
    "reinforce": "take a reinforcement",
    "remove": "remove a card for good, or none",
    "repay": "repay leverage, or keep it",
}
HIDDEN_KINDS = {
    "bid": "makes a hidden forecast",
    "stake": "stakes a hidden forecast",
    "discard": "picks a card to regroup away",
    "echo_give": "swaps a card with its discard pile",
}


def card_text(c: int) -> str:
    """A card's name, suit and what it does."""
    if CARD_SUIT[c] == NO_SUIT:
        return f"{CARD_NAMES[c]}: {SPECIAL_TEXT[c]}"
    said = CARD_TEXT.get(CARD_RANK[c], "")
    trump = ", the trump suit" if CARD_SUIT[c] == INTIMIDATION else ""
    return f"{CARD_NAMES[c]} ({SUITS[CARD_SUIT[c]]}{trump})" + (f": {said}" if said else "")


GLOSSARY = {
    "cards": [
        {"name": CARD_NAMES[c], "suit": CARD_SUIT[c], "rank": CARD_RANK[c], "text": card_text(c)}
        for c in range(NUM_CARDS)
    ],
    "suits": list(SUITS),
    "characters": [{"name": name, "text": POWER_TEXT[i]} for i, name in enumerate(CHARACTERS)],
    "row": [{"name": c.name, "text": c.text, "mission": is_mission(i)} for i, c in enumerate(ROW_CARDS)],
}


def board(state: State, seat: int | None) -> dict[str, Any]:
    decision = ""
    if state.pending:
        kind, who = state.pending
        decision = f"{state.who(who)}: {DECISIONS[kind]}" + (f" ({state.armed} power flipped)" if state.armed else "")
    in_operation = state.phase == OPERATIONS_PHASE
    seats = []
    for s in range(state.num_players):
        own = seat is None or seat == s
        visible = seat is None or state.forecast_visible(s, seat)
        seats.append(
            {
                "seat": s,
                "name": state.who(s),
                "character": state.characters[s],
                "team": "AB"[state.teams[s]] if state.teams else "",
                "start": s == state.start,
                "influence": state.influence[s] if visible else state.influence[s] + max(0, state.stakes[s]),
                "leverage": state.leverage[s],
                "forecast": state.stakes[s] >= 0,
                "bid": state.bids[s] if visible and state.bids[s] >= 0 else None,
                "stake": max(0, state.stakes[s]) if visible else None,
                "won": state.won[s],
                "used": {"ghost": state.ghost_used[s], "regroup": state.regroup_used[s], "power": state.power_used[s]},
                "hand_size": len(state.hands[s]),
                "deck_size": len(state.decks[s]),
                "hand": list(state.hands[s]) if own else None,
                "known": [] if own else list(state.known[s]),
                "discard": list(state.discards[s]),
                "selection": list(state.selection) if own and state.pending == ["regroup", s] else [],
            }
        )
    led = state.led_suit() if in_operation else NO_SUIT
    return {
        "status": f"round {state.round + 1}/{state.last_round + 1}, {state.phase}"
        + (f", operation {state.operation + 1}/7" if in_operation and state.operation < 7 else ""),
        "decision": decision,
        "over": state.phase == OVER,
        "row": [{"card": c, "reward": ROW_REWARDS[slot]} for slot, c in enumerate(state.row)],
        "trick": [
            {"seat": p[0], "card": None if p[1] == GHOST_TOKEN else p[1], "low": bool(p[2]), "mimic": bool(p[3])}
            for p in state.trick
        ]
        if in_operation
        else [],
        "led_suit": SUITS[led] if led != NO_SUIT else "",
        "display": list(state.display),
        "special_deck": len(state.special_deck),
        "leverage_supply": state.leverage_supply,
        "seats": seats,
        "missions": len(MISSIONS),
    }


def target(action: Action, seat: int) -> str | None:
    kind = action[0]
    if kind in ("play", "discard", "echo_give"):
        return f"hand-{action[1]}"
    if kind == "echo_take":
        return f"discard-{seat}-{action[1]}"
    if kind == "take":
        return f"display-{action[1]}"
    if kind == "take_top":
        return "special-deck"
    return None  # forecasts, tokens, aces played low, removals: buttons


def words(kind: str, text: str) -> str:
    """A move as the log says it."""
    return text


def notes(state: Any, seat: int, moves: list[dict[str, Any]]) -> list[str]:
    """Why a move the rules cap or forbid is not offered now (none to say yet)."""
    return []


def breakdown(history: Any) -> list[dict[str, Any]] | None:
    """How each seat's final score came about (none to say yet)."""
    return None
