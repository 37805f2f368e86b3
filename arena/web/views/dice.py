"""Dice as the boards send them: Liar's dice and Lying Pirates share the cups and the betting."""

from __future__ import annotations

from typing import Any

from bidbluff.envs.lying_pirates.betting import BettingRound
from bidbluff.envs.lying_pirates.dice import DIE_NAMES, FACES, Die

FACE_WORDS = {0: "blank", 7: "coin", 8: "bomb"}  # faces that are no number


def die_text(kind: int) -> str:
    """Rules text of a die kind: its six faces."""
    faces = ", ".join(FACE_WORDS.get(f, str(f)) for f in FACES[Die(kind)])
    return f"{DIE_NAMES[kind]} die: faces {faces}"


DICE_GLOSSARY = {str(int(kind)): {"name": DIE_NAMES[kind], "text": die_text(kind)} for kind in Die}
# The calls as the betting rules judge them (envs/lying_pirates/betting.py).
CALLS_GLOSSARY = {
    "bid": "a bet that at least this many dice, over every cup, show this face (wild dice count too)",
    "liar": "Liar!: the last bet is false.  If the dice hold it, the caller loses and the bettor wins; if not, "
    "the caller wins and the bettor loses.  The others survive.",
    "exact": "exactly: the dice show exactly this many.  Right: the caller wins and every other captain loses.  "
    "Wrong: the caller loses, the last bettor wins, the others survive.",
}


def cup(dice: list[list[int]], shown: bool) -> list[dict[str, Any]]:
    """A cup's dice; a hidden die keeps its kind (special dice are dealt in the open) but not its face."""
    return [{"kind": int(kind), "face": int(face) if shown else None} for kind, face in dice]


def outcome(round_: BettingRound) -> dict[str, Any] | None:
    o = round_.outcome
    if o is None:
        return None
    return {
        "call": o.call,
        "caller": o.caller,
        "bettor": o.bettor,
        "bet": list(o.bet),
        "count": o.count,
        "correct": o.correct,
        "winners": list(o.winners),
        "losers": list(o.losers),
        "survivors": list(o.survivors),
    }


def bids(round_: BettingRound) -> list[dict[str, int]]:
    return [{"seat": s, "quantity": q, "face": f} for s, q, f in round_.bids]


def call_words(kind: str, text: str) -> str:
    """Bets as said at the table: "Liar!" and "exactly 3x5" are calls everyone hears."""
    if kind == "liar":
        return "calls Liar!"
    if kind == "exact":
        return f'calls "exactly {text.split(" ", 1)[1]}"'
    return text
