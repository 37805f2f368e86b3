"""Text board for Spytails: the row, the operation in progress, forecasts vs. operations won, the acting hand."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bidbluff.envs.spytails.content import CARD_NAMES, EVENTS, MISSIONS, ROW_REWARDS, SUITS, is_mission
from bidbluff.envs.spytails.rules import GHOST_TOKEN, OPERATIONS_PHASE, OVER

if TYPE_CHECKING:
    from bidbluff.envs.spytails.rules import SpytailsState


def cards(pile: list[int]) -> str:
    return ", ".join(CARD_NAMES[c] for c in pile) or "-"


def play_text(play: list[int]) -> str:
    seat, card, low, mimic = play
    if card == GHOST_TOKEN:
        return f"P{seat} ghost token"
    extra = " (low)" if low else ""
    extra += " (as intimidation)" if mimic else ""
    return f"P{seat} {CARD_NAMES[card]}{extra}"


def row_text(slot: int, c: int) -> str:
    if is_mission(c):
        return f"[{ROW_REWARDS[slot]}] mission {MISSIONS[c].name}: {MISSIONS[c].text}"
    event = EVENTS[c - len(MISSIONS)]
    return f"[{ROW_REWARDS[slot]}] event {event.name}: {event.text}"


def render_state(state: SpytailsState, seat: int | None) -> str:
    """``seat``'s view (``None``: everything, hidden cards included)."""
    view = "all" if seat is None else state.who(seat)
    lines = [
        f"Spytails - round {state.round + 1}/{state.last_round + 1}, {state.phase}"
        + (f", operation {state.operation + 1}/7" if state.phase == OPERATIONS_PHASE and state.operation < 7 else "")
        + f" - view: {view}"
    ]
    if state.pending:
        kind, who = state.pending
        armed = f" ({state.armed} power flipped)" if state.armed else ""
        lines.append(f"to decide: {state.who(who)} - {kind}{armed}")
    lines += [row_text(slot, c) for slot, c in enumerate(state.row)]
    if state.phase == OPERATIONS_PHASE:
        led = state.led_suit()
        trick = "  ".join(play_text(p) for p in state.trick) or "(no card yet)"
        lines.append(f"operation: {trick} | led suit: {SUITS[led] if led >= 0 else '-'}")
    lines.append(f"display: {cards(state.display)} | special deck: {len(state.special_deck)} cards")
    lines.append(f"leverage tokens in supply: {state.leverage_supply}")
    for s in range(state.num_players):
        team = f" team {'AB'[state.teams[s]]}" if state.teams else ""
        start = " *start*" if s == state.start else ""
        if seat is None or state.forecast_visible(s, seat):
            bid = state.bids[s]
            forecast = f"forecast {bid if bid >= 0 else '-'} stake {max(0, state.stakes[s])}"
            influence = state.influence[s]
        else:
            forecast = "forecast hidden" if state.stakes[s] >= 0 else "forecast -"
            influence = state.influence[s] + max(0, state.stakes[s])
        used = [
            name
            for name, flag in (
                ("ghost", state.ghost_used[s]),
                ("regroup", state.regroup_used[s]),
                ("power", state.power_used[s]),
            )
            if flag
        ]
        lines.append(
            f"{state.who(s)}{team}{start}: influence {influence}, leverage {state.leverage[s]}, {forecast}, "
            f"won {state.won[s]} | used: {', '.join(used) or '-'} | hand {len(state.hands[s])}, "
            f"deck {len(state.decks[s])}"
        )
        if seat is None or seat == s:
            lines.append(f"     hand: {cards(state.hands[s])}")
            if state.pending == ["regroup", s]:
                lines.append(f"     chosen to discard: {cards(state.selection)}")
        elif state.known[s]:
            lines.append(f"     known in hand: {cards(state.known[s])}")
        lines.append(f"     discard: {cards(state.discards[s])}")
    if state.log:
        lines.append("recent: " + " | ".join(state.log[-6:]))
    if state.phase == OVER:
        lines.append("final scores: " + ", ".join(f"{state.who(s)} {v:g}" for s, v in enumerate(state.scores())))
    return "\n".join(lines)
