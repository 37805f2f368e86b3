"""Liar's dice on the page: every cup (faces of others hidden until the call), the bets, the call."""

from __future__ import annotations

from typing import Any

from bidbluff.arena.web.views.common import Option
from bidbluff.arena.web.views.dice import (
    CALLS_GLOSSARY,
    DICE_GLOSSARY,
    betting_notes,
    bids,
    call_words,
    cup,
    mark_counted,
    outcome,
    reveal_text,
)
from bidbluff.envs.core.codec import Action
from bidbluff.envs.liars_dice.game import PRESETS, BettingGameState
from bidbluff.envs.lying_pirates.dice import DIE_NAMES, SPECIALS

TITLE = "Liar's dice"
OPTIONS = (
    Option("dice", "int", 5, (1, 5), "crew dice per cup"),
    Option("specials", "multi", [], tuple(DIE_NAMES[k] for k in SPECIALS), "special dice dealt to random seats"),
    Option(
        "preset",
        "choice",
        "lying_pirates",
        tuple(PRESETS),
        "lying_pirates: 1s wild, exactly calls; classic: OpenSpiel's rules",
    ),
    Option(
        "observation",
        "choice",
        "full",
        ("full", "compact"),
        "what the network seats read: the full vector, or the compact one a network of this table trained on",
    ),
)
HIDDEN_KINDS: dict[str, str] = {}  # every bet and call is said aloud
GLOSSARY = {"dice": DICE_GLOSSARY, "calls": CALLS_GLOSSARY}


def board(state: BettingGameState, seat: int | None) -> dict[str, Any]:
    r = state.round
    over = r.outcome is not None
    cups = [{"seat": s, "dice": cup(dice, seat is None or seat == s or over)} for s, dice in r.cups.items()]
    said = outcome(r)
    mark_counted(cups, said, r.rules.wild)
    return {
        "status": f"{state.num_players} captains, {r.dice_in_play} dice in play",
        "decision": "" if over else f"P{r.current}: bet or call",
        "wild": r.rules.wild,
        "faces": list(r.rules.faces),
        "cups": cups,
        "bids": bids(r),
        "outcome": said,
        "reveal": reveal_text(said, r.rules.wild, lambda s: f"P{s}") if said else "",
    }


def target(action: Action, seat: int) -> str | None:
    return None  # bets are picked from the bet grid


def words(kind: str, text: str) -> str:
    """A move as the log says it."""
    return call_words(kind, text)


def notes(state: BettingGameState, seat: int, moves: list[dict[str, Any]]) -> list[str]:
    """Why the bet grid offers only what it offers."""
    return betting_notes(state.round, state.round.rules)


def breakdown(history: Any) -> list[dict[str, Any]]:
    """The reveal: every cup, what counted toward the judged bet, and who won."""
    state = history.states[-1]
    r = state.round
    said = outcome(r)
    if said is None:
        return []
    cups = [{"seat": s, "dice": cup(dice, True)} for s, dice in r.cups.items()]
    mark_counted(cups, said, r.rules.wild)
    rows = []
    for c in cups:
        faces = " ".join(str(d["face"]) + ("*" if d["mark"] else "") for d in c["dice"])
        rows.append([f"P{c['seat']}", faces, str(sum(1 for d in c["dice"] if d["mark"]))])
    return [
        {
            "title": "The reveal",
            "text": reveal_text(said, r.rules.wild, lambda s: f"P{s}") + " (* marks a die that counted)",
            "head": ["seat", "dice", "counted"],
            "rows": rows,
        }
    ]
