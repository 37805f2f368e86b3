"""Dice as the boards send them: Liar's dice and Lying Pirates share the cups and the betting."""

from __future__ import annotations

from typing import Any

from bidbluff.envs.lying_pirates.betting import BettingRound, BettingRules, raises_after
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


def mark_counted(cups: list[dict[str, Any]], outcome: dict[str, Any] | None, wild: int) -> None:
    """At a reveal, mark each die that counted toward the judged bet: ``counted`` (it shows the face) or
    ``wild`` (the wild face), as ``betting.count_for`` counts them (a Cursed die empties its holder's count)."""
    if not outcome or outcome["call"] == "alone":
        return
    face = outcome["bet"][1]
    for cup_ in cups:
        dice = cup_["dice"]
        cursed = [d["face"] for d in dice if d["kind"] == Die.CURSED]
        void = cup_["seat"] == outcome["bettor"] and cursed and cursed[0] == face
        for d in dice:
            if void or d["face"] is None:
                d["mark"] = None
            elif d["face"] == face:
                d["mark"] = "counted"
            elif d["face"] == wild and face != wild:
                d["mark"] = "wild"
            else:
                d["mark"] = None


def reveal_text(outcome: dict[str, Any] | None, wild: int, name: Any) -> str:
    """The call and its count in words: "P1 called Liar! on 4×5 by P0: 3 counted (fives and wild 1s): it fails"."""
    if not outcome:
        return ""
    if outcome["call"] == "alone":
        return f"{name(outcome['winners'][0])} is the only bettor left and wins."
    q, f = outcome["bet"]
    call = "Liar!" if outcome["call"] == "liar" else f'"exactly {q}×{f}"'
    counted = f"{outcome['count']} dice counted ({f}s{f' and the wild {wild}s' if f != wild else ''})"
    verdict = "the bet holds" if outcome["correct"] else "the bet fails"
    if outcome["call"] == "liar":
        said = f"{name(outcome['caller'])} called Liar! on {q}×{f} by {name(outcome['bettor'])}: {counted}, {verdict}."
    else:
        said = f"{name(outcome['caller'])} called {call}: {counted}, {verdict}."
    parts = [f"winners {', '.join(map(name, outcome['winners'])) or 'none'}"]
    parts.append(f"losers {', '.join(map(name, outcome['losers'])) or 'none'}")
    if outcome["survivors"]:
        parts.append(f"survivors {', '.join(map(name, outcome['survivors']))}")
    text = "; ".join(parts)
    return f"{said} {text[0].upper()}{text[1:]}."


def betting_notes(round_: BettingRound, rules: BettingRules) -> list[str]:
    """Why the bet grid offers what it offers: the opening cap, the raise rule, the dice in play."""
    top = round_.dice_in_play
    if not round_.bids:
        cap = max(q for q, _ in raises_after(rules, None, top, round_.captains))
        if cap < top:
            return [
                f"The opening bet is at most {cap}×: one die per captain at the table ({round_.captains}); "
                f"later bets may go up to the {top} dice in play."
            ]
        return [f"A bet may go up to the {top} dice in play."]
    _, q, f = round_.bids[-1]
    notes = [f"A bet must raise the last one ({q}×{f}): more dice, or as many of a higher face; at most {top}×."]
    if not rules.exact:
        notes.append('These rules have no "exactly" call.')
    return notes
