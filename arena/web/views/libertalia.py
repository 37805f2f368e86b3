"""Libertalia on the page: the ship, the six days' booty, every den and pile, the seat's own hand."""

from __future__ import annotations

from typing import Any

import numpy as np

from bidbluff.envs.core.codec import Action
from bidbluff.envs.libertalia.content import (
    ABILITY_TEXT,
    BOOTY_NAMES,
    BOOTY_VALUE,
    CAMPAIGNS,
    CHARACTERS,
    COLOURS,
    DAYS,
    MAP_SET_VALUE,
    NUM_RANKS,
)
from bidbluff.envs.libertalia.rules import OVER, LibertaliaState, booty_total

TITLE = "Libertalia"
OPTIONS = ()
# What each open decision asks, for the line over the board.
DECISIONS = {
    "play": "choose a character to play face down",
    "parrot": "choose the character that takes the Parrot's place",
    "recruit": "the Recruiter: take a character from your den back into your hand",
    "surgeon": "the Surgeon: take a discarded character back into your hand",
    "keep": "the Preacher: choose the one booty token you keep",
    "trade": "the Merchant: sell identical booty tokens",
    "gunner": "the Gunner: choose a character to discard from any den",
    "booty": "take a booty token",
    "sabre": "the sabre: choose a character to discard from a neighbour's den",
}
HIDDEN_KINDS = {"play": "puts a character face down", "surgeon": "takes a discarded character back, unseen"}
_BOOTY_TEXT = {
    "map": f"a set of three maps scores {MAP_SET_VALUE}",
    "sabre": "take at dusk: discard a character from a neighbour's den",
    "officer": "Spanish officer: the character that takes it is discarded",
}
GLOSSARY = {
    "characters": {str(r): {"name": CHARACTERS[r], "text": ABILITY_TEXT[r]} for r in range(1, NUM_RANKS + 1)},
    "booty": [
        {"name": name, "text": _BOOTY_TEXT.get(name, f"worth {BOOTY_VALUE[t]} at the end of a campaign")}
        for t, name in enumerate(BOOTY_NAMES)
    ],
    "colours": list(COLOURS),
}


def board(state: LibertaliaState, seat: int | None) -> dict[str, Any]:
    n = state.num_players
    decision = ""
    if state.pending:
        kind, who = state.pending
        decision = f"P{who}: {DECISIONS[kind]}"
    seats = []
    for s in range(n):
        own = seat is None or seat == s
        seats.append(
            {
                "seat": s,
                "colour": COLOURS[s],
                "doubloons": state.doubloons[s],
                "score": state.score[s],
                "den": list(state.dens[s]),
                "den_booty": list(state.den_booty[s]),
                "has_chosen": bool(state.chosen and state.chosen[s]),
                "hand": list(state.hands[s]) if own else None,
                "may_hold": None if own else state.possible_hand(s),
                "unseen": 0 if own else state.hidden_count(s),
                "discard": list(state.discards[s]) if own else sorted(state.known_discard(s)),  # its order is unknown
                "chosen": state.chosen[s] if own and state.chosen and state.chosen[s] else 0,
            }
        )
    return {
        "status": f"campaign {state.campaign + 1}/{CAMPAIGNS}, day {min(state.day, DAYS - 1) + 1}/{DAYS}, "
        f"{state.phase}",
        "decision": decision,
        "over": state.phase == OVER,
        "ship": [{"seat": s, "rank": r} for s, r in state.ship],
        "days": [
            {"day": d + 1, "today": d == state.day, "booty": list(state.booty_days[d])} for d in range(state.day, DAYS)
        ],
        "seats": seats,
    }


def target(action: Action, seat: int) -> str | None:
    kind = action[0]
    if kind in ("play", "parrot"):
        return f"hand-{action[1]}"
    if kind == "recruit":
        return f"den-{seat}-{action[1]}"
    if kind == "surgeon":
        return f"discard-{seat}-{action[1]}"
    if kind == "booty":
        return f"today-{action[1]}"
    if kind == "keep":
        return f"denbooty-{seat}-{action[1]}"
    if kind in ("gunner", "sabre"):
        return f"den-{action[1]}-{action[2]}"
    return None  # the Merchant's trades: buttons


def words(kind: str, text: str) -> str:
    """A move as the log says it."""
    return text


def notes(state: LibertaliaState, seat: int, moves: list[dict[str, Any]]) -> list[str]:
    """Why a move the rules cap or forbid is not offered now."""
    if state.pending and state.pending[0] == "booty" and len(moves) < sum(1 for c in state.booty_days[state.day] if c):
        return ["Only the booty tokens left on today's pile can be taken."]
    return []


def campaign_ends(history: Any) -> list[dict[str, Any]]:
    """Each campaign's scoring as it was counted: every seat's doubloons, booty value and den bonuses at the
    moment the campaign ended (found by playing the move that ended it again on a copy of the position)."""
    found: list[dict[str, Any]] = []
    for k, move in enumerate(history.moves):
        before, after = history.states[k], history.states[k + 1]
        if len(after.campaign_totals) <= len(before.campaign_totals) or history.game is None:
            continue
        copy = before.clone()
        seen: dict[str, Any] = {}
        real_end = copy._end_campaign

        def end(rng: Any, copy: Any = copy, seen: dict = seen, real_end: Any = real_end) -> None:
            seen.update(doubloons=list(copy.doubloons), booty=[list(b) for b in copy.den_booty])
            real_end(rng)

        copy._end_campaign = end  # only this copy: the counts are read just before the engine scores
        copy.apply(history.game.id_to_action(before, move.action, move.seat), np.random.default_rng(0))
        totals = after.campaign_totals[-1]
        if seen:
            found.append({"campaign": len(after.campaign_totals), "totals": totals, **seen})
    return found


def breakdown(history: Any) -> list[dict[str, Any]]:
    """Booty and doubloons by campaign: what each seat scored at the end of each one."""
    rows = []
    for end in campaign_ends(history):
        for s, total in enumerate(end["totals"]):
            booty = booty_total(end["booty"][s])
            bonus = total - end["doubloons"][s] - booty
            rows.append(
                [
                    str(end["campaign"]),
                    f"P{s}",
                    str(end["doubloons"][s]),
                    ", ".join(f"{BOOTY_NAMES[t]} ×{c}" for t, c in enumerate(end["booty"][s]) if c) or "none",
                    str(booty),
                    f"{bonus:+d}" if bonus else "0",
                    str(total),
                ]
            )
    final = history.states[-1]
    return [
        {
            "title": "Booty and doubloons by campaign",
            "text": "Final score: " + ", ".join(f"P{s} {v}" for s, v in enumerate(final.score)),
            "head": ["campaign", "seat", "doubloons", "booty", "booty value", "den abilities", "campaign score"],
            "rows": rows,
        }
    ]
