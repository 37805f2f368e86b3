"""Spytails on the page: the mission/event row, the operation on the table, forecasts, piles, the own hand."""

from __future__ import annotations

import re
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
from bidbluff.envs.spytails.rules import (
    CHARACTER_MODES,
    FORECAST_MODES,
    GHOST_TOKEN,
    LEVERAGE_PENALTY,
    MODES,
    OPERATIONS_PHASE,
    OVER,
)
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


def notes(state: State, seat: int, moves: list[dict[str, Any]]) -> list[str]:
    """Why a move the rules cap or forbid is not offered now."""
    said = []
    if state.pending and state.pending[0] == "play":
        led = state.led_suit()
        if led != NO_SUIT and len(state.follow_cards(seat)) < len(set(state.hands[seat])):
            said.append(f"You hold {SUITS[led]}, the led suit: follow it (cards of no suit may always be played).")
        used = [
            word
            for word, done in (
                ("ghost", state.ghost_used[seat]),
                ("regroup", state.regroup_used[seat]),
                ("power", state.power_used[seat]),
            )
            if done
        ]
        if used:
            said.append(f"Token{'s' if len(used) > 1 else ''} already used: {', '.join(used)}.")
    return said


_FORECAST = re.compile(r"^(P\d+)[^:]*? (met|missed) the forecast (\d+)(?: \((\d+)\))?: ([+-]\d+)")


def breakdown(history: Any) -> list[dict[str, Any]]:
    """Forecasts, stakes and missions, round by round, then the final influence less the leverage penalty."""
    state = history.states[-1]
    rounds, missions, current = [], [], 0
    for line in history.log(None):
        text = line["text"]
        if line["kind"] != "log":
            continue
        start = re.match(r"round (\d+):", text)
        if start:
            current = int(start.group(1))
            continue
        found = _FORECAST.match(text)
        if found:
            who, verdict, bid, won, change = found.groups()
            rounds.append([str(current), who, bid, won or bid, verdict, change])
        elif any(text.startswith(m.name + ":") for m in MISSIONS):
            missions.append(f"round {current}: {text}")
    final = [
        [
            f"P{s}",
            str(state.influence[s]),
            str(max(0, state.stakes[s])),
            f"{state.leverage[s]} (-{LEVERAGE_PENALTY * state.leverage[s]})",
            f"{state.scores()[s]:g}",
        ]
        for s in range(state.num_players)
    ]
    return [
        {
            "title": "Forecasts and stakes",
            "text": "A met forecast gains its stake times the gain; a missed one loses the stake.",
            "head": ["round", "seat", "forecast", "won", "", "influence"],
            "rows": rounds,
        },
        {"title": "Missions", "text": " ".join(missions) or "No mission was met.", "head": [], "rows": []},
        {
            "title": "Final score",
            "text": f"Influence, plus a stake still on the table, less {LEVERAGE_PENALTY} per leverage token held.",
            "head": ["seat", "influence", "stake", "leverage", "score"],
            "rows": final,
        },
    ]
