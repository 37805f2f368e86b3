"""Text board for Lying Pirates: the ring with ships, captains, the bets, the acting captain's cup and hand."""

from __future__ import annotations

from bidbluff.envs.lying_pirates.betting import faces_shown
from bidbluff.envs.lying_pirates.content import ALL_TILES, CAPTAINS, CARDS, INFLUENCE, TOWNS
from bidbluff.envs.lying_pirates.dice import DIE_NAMES
from bidbluff.envs.lying_pirates.table import Table


def name(state: Table, c: int) -> str:
    return "Phantom" if c == state.phantom else f"C{c}"


def render_state(state: Table, seat: int | None) -> str:
    view = "all" if seat is None else name(state, seat)
    arrow = "clockwise" if state.direction > 0 else "counterclockwise"
    lines = [
        f"Lying Pirates - round {state.round_no}, {state.phase} ({state.stage}) - view: {view}",
        f"Starting Captain: {name(state, state.token)}, {arrow}",
    ]
    if state.pending:
        lines.append(f"to decide: {name(state, state.pending[1])} - {state.pending[0]}")
    for slot, tile in enumerate(state.slots):
        ships = [name(state, c) for c in range(state.captains) if state.position(c) == slot]
        label = ALL_TILES[tile].name if tile >= 0 else "(empty)"
        water = ALL_TILES[tile].water if tile >= 0 else ""
        lines.append(f"  {slot:>2} {label:<22} {water:<11} {' '.join(ships)}" + _slot_extras(state, slot))
    for c in range(state.captains):
        specials = ", ".join(DIE_NAMES[d] for d in state.crews.specials(c))
        lines.append(
            f"{name(state, c):>7}: lap {state.progress[c]}/{state.lap}, coins {state.coins[c]}, "
            f"crew {state.crews.crew[c]}"
            + (f" + {specials}" if specials else "")
            + f", cards {len(state.hands[c])}"
            + (" (out of this betting)" if c in state.excluded else "")
        )
    if state.betting is not None:
        bids = ", ".join(f"{name(state, s)} {q}x{f}" for s, q, f in state.betting.bids) or "-"
        lines.append(f"bets ({state.betting.dice_in_play} dice in play): {bids}")
        for c, cup in state.betting.cups.items():
            if seat is None or seat == c:
                lines.append(f"  cup of {name(state, c)}: {faces_shown(cup)}")
    elif state.reveal:
        cups = "; ".join(f"{name(state, int(c))}: {faces_shown(cup)}" for c, cup in state.reveal["cups"].items())
        lines.append(f"last reveal: {cups}")
    shown = range(state.num_players) if seat is None else [seat] if seat < state.num_players else []
    for c in shown:
        lines.append(f"hand of {name(state, c)}: {', '.join(CARDS[k].name for k in state.hands[c]) or '-'}")
        if state.ext is not None and state.ext.get("influence") is not None:
            cards = "; ".join(INFLUENCE[k].name for k in state.ext["influence"][c]) or "-"
            lines.append(f"influence of {name(state, c)}: {cards}")
    if state.ext is not None:
        lines += _option_lines(state)
    if state.log:
        lines.append("recent: " + " | ".join(state.log[-6:]))
    if state.winners:
        lines.append("winner: " + ", ".join(name(state, c) for c in state.winners))
    return "\n".join(lines)


def _slot_extras(state: Table, slot: int) -> str:
    """The town under a slot's tile and the Merchant / Navy ship on it (options)."""
    x = state.ext
    if x is None:
        return ""
    said = ""
    if x.get("towns") is not None and x["towns"][slot] >= 0:
        said += f"  [{TOWNS[x['towns'][slot]]}]"
    if slot == x["merchant"]:
        said += "  (Merchant Ship)"
    if slot == x["navy"]:
        said += "  (Navy Ship)"
    return said


def _option_lines(state: Table) -> list[str]:
    x = state.ext
    lines = []
    if x["options"]["variants"]:
        lines.append("variant cards: " + ", ".join(x["options"]["variants"]))
    for c in range(state.captains):
        said = []
        if x["captain"][c] >= 0:
            said.append(CAPTAINS[x["captain"][c]].name)
        if x.get("designated") and x["designated"][c] >= 0:
            said.append(f"town {TOWNS[x['designated'][c]]}")
        if c in state.crews.out:
            said.append("sunk")
        if said:
            lines.append(f"{name(state, c):>7}: " + ", ".join(said))
    return lines
