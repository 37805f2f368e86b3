"""Liar's dice on the page: every cup (faces of others hidden until the call), the bets, the call."""

from __future__ import annotations

from typing import Any

from bidbluff.arena.web.views.common import Option
from bidbluff.arena.web.views.dice import CALLS_GLOSSARY, DICE_GLOSSARY, bids, call_words, cup, outcome
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
)
HIDDEN_KINDS: dict[str, str] = {}  # every bet and call is said aloud
GLOSSARY = {"dice": DICE_GLOSSARY, "calls": CALLS_GLOSSARY}


def board(state: BettingGameState, seat: int | None) -> dict[str, Any]:
    r = state.round
    over = r.outcome is not None
    return {
        "status": f"{state.num_players} captains, {r.dice_in_play} dice in play",
        "decision": "" if over else f"P{r.current}: bet or call",
        "wild": r.rules.wild,
        "faces": list(r.rules.faces),
        "cups": [{"seat": s, "dice": cup(dice, seat is None or seat == s or over)} for s, dice in r.cups.items()],
        "bids": bids(r),
        "outcome": outcome(r),
    }


def target(action: Action, seat: int) -> str | None:
    return None  # bets are picked from the bet grid


def words(kind: str, text: str) -> str:
    """A move as the log says it."""
    return call_words(kind, text)


def notes(state: Any, seat: int, moves: list[dict[str, Any]]) -> list[str]:
    """Why a move the rules cap or forbid is not offered now (none to say yet)."""
    return []


def breakdown(history: Any) -> list[dict[str, Any]] | None:
    """How each seat's final score came about (none to say yet)."""
    return None
