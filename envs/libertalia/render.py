"""Text board for Libertalia: the ship, the booty, each den, the acting hand."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bidbluff.envs.libertalia.content import ABILITY_TEXT, BOOTY_NAMES, CHARACTERS, COLOURS, DAYS

if TYPE_CHECKING:
    from bidbluff.envs.libertalia.rules import LibertaliaState


def card(rank: int) -> str:
    return f"{rank} {CHARACTERS[rank]}"


def booty_line(counts: list[int]) -> str:
    return ", ".join(f"{c} {BOOTY_NAMES[t]}" for t, c in enumerate(counts) if c) or "-"


def render_state(state: LibertaliaState, seat: int | None) -> str:
    """``seat``'s view (``None``: everything, hidden cards included)."""
    n = state.num_players
    view = "all" if seat is None else f"P{seat} ({COLOURS[seat]})"
    lines = [
        f"Libertalia - campaign {state.campaign + 1}/3, day {min(state.day, DAYS - 1) + 1}/6, "
        f"{state.phase} - view: {view}",
    ]
    if state.pending:
        kind, who = state.pending
        lines.append(f"to decide: P{who} ({COLOURS[who]}) - {kind}")
    ship = "  ".join(f"[P{s} {card(r)}]" for s, r in state.ship) or "(empty)"
    lines.append(f"ship: {ship}")
    lines += [f"      {card(r)}: {ABILITY_TEXT[r]}" for _, r in state.ship]
    for d in range(state.day, DAYS):
        label = "today" if d == state.day else f"day {d + 1}"
        lines.append(f"booty {label:>6}: {booty_line(state.booty_days[d])}")
    lines.append(f"score track: {', '.join(f'P{s} {state.score[s]}' for s in range(n))}")
    for s in range(n):
        chosen = " (has chosen)" if state.chosen and state.chosen[s] else ""
        lines.append(
            f"P{s} {COLOURS[s]:<6} doubloons {state.doubloons[s]:>3}{chosen} | den: "
            f"{', '.join(card(r) for r in state.dens[s]) or '-'} | booty: {booty_line(state.den_booty[s])}"
        )
        if seat is None or seat == s:
            lines.append(f"     hand: {', '.join(card(r) for r in state.hands[s]) or '-'}")
            lines.append(f"     discard: {', '.join(card(r) for r in state.discards[s]) or '-'}")
            if state.chosen and state.chosen[s]:
                lines.append(f"     chosen for sunrise: {card(state.chosen[s])}")
        else:
            hidden = state.hidden_count(s)
            extra = f" (+{hidden} unseen of these)" if hidden else ""
            lines.append(f"     may hold: {', '.join(map(str, state.possible_hand(s))) or '-'}{extra}")
            lines.append(f"     discard: {', '.join(card(r) for r in state.known_discard(s)) or '-'}")
    shown = [text for reader, text in state.log if seat is None or reader in (-1, seat)]
    if shown:
        lines.append("recent: " + " | ".join(shown[-6:]))
    return "\n".join(lines)
