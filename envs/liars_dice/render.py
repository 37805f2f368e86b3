"""The text board of a Liar's dice position."""

from __future__ import annotations

from bidbluff.envs.liars_dice.game import BettingGameState
from bidbluff.envs.lying_pirates.betting import faces_shown
from bidbluff.envs.lying_pirates.dice import DIE_NAMES, Die


def render_state(state: BettingGameState, seat: int | None = None) -> str:
    """The cups (only ``seat``'s own until someone calls; ``None``: all), the bets and the call."""
    r = state.round
    lines = [f"Liar's dice ({state.num_players} captains, {r.dice_in_play} dice in play)"]
    for s, cup in r.cups.items():
        specials = [DIE_NAMES[k] for k, _ in cup if k != Die.CREW]
        shown = faces_shown(cup) if seat is None or seat == s or r.outcome else "?" * len(cup)
        extra = f" with {', '.join(specials)}" if specials else ""
        lines.append(f"P{s}: {len(cup)} dice{extra}: {shown}")
    bids = ", ".join(f"P{s} {q}x{f}" for s, q, f in r.bids) or "-"
    lines.append(f"bets: {bids}")
    if r.outcome:
        o = r.outcome
        lines.append(
            f"{o.call} by P{o.caller}: {o.count} counted for {o.bet[0]}x{o.bet[1]} -> "
            f"winners {o.winners}, losers {o.losers}, survivors {o.survivors}"
        )
    else:
        lines.append(f"to bet: P{r.current}")
    return "\n".join(lines)
