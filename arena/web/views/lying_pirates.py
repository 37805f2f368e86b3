"""Lying Pirates on the page: the ring of tiles with the ships, every captain's crew, coins and cards,
the bets and the own cup, the dice just rolled (sail, Pirate/Treasure, battle) and the own hand."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bidbluff.arena.web.views.common import Option, plural
from bidbluff.arena.web.views.dice import (
    CALLS_GLOSSARY,
    DICE_GLOSSARY,
    betting_notes,
    bids,
    call_words,
    cup,
    mark_counted,
    reveal_text,
)
from bidbluff.envs.core.codec import Action
from bidbluff.envs.lying_pirates.content import (
    ALL_TILES,
    CAPTAINS,
    CARDS,
    INFLUENCE,
    MAP_WATERS,
    SUNK_PENALTY,
    TOWNS,
    VARIANTS,
    Card,
    Tile,
)
from bidbluff.envs.lying_pirates.dice import DIE_NAMES, WILD
from bidbluff.envs.lying_pirates.merchants import Encounter

if TYPE_CHECKING:
    from bidbluff.envs.lying_pirates.state import LyingPiratesState as State

TITLE = "Lying Pirates"
OPTIONS = (
    Option("map", "choice", "base", tuple(MAP_WATERS), "extended: 16 tiles"),
    Option("map_setup", "choice", "first_game", ("first_game", "collaborative"), "collaborative: captains place tiles"),
    Option("draft", "bool", False, (), "draft the starting hands"),
    Option("expansion", "choice", None, (None, "cities_of_greed"), "Cities of Greed: towns, influence, the Mayor die"),
    Option("abilities", "choice", None, (None, "dealt", "chosen"), "captain coasters"),
    Option("variants", "multi", [], tuple(v.name for v in VARIANTS), "variant cards in play"),
    Option("merchant_ships", "bool", False, (), "Merchant and Navy ships on the map"),
)
# What each open decision asks, for the line over the board.
DECISIONS = {
    "place": "place a tile on the map",
    "draft": "pass a card in the draft",
    "bet": "bet or call",
    "reroll": "reroll the die for a coin, or keep it",
    "window": "play an action card, or pass",
    "target": "choose the target",
    "react": "play a reaction card, or let the attack through",
    "catchup": "catch up (a crew die for a tile), or stop",
    "buy_crew": "buy crew for the final battle, or pass",
    "final": "the final battle: play a card, or pass",
    "captain": "choose a captain coaster",
    "town_place": "put a town under a tile",
    "town_choose": "choose your town",
    "influence_return": "give back an influence card",
    "influence_town": "choose the town of your influence card",
    "influence_mode": "attack the town or take its bonus",
    "cargo": "choose the cargo to lose",
    "bomb": "choose whom the Mayor die's bomb hits",
    "card_return": "choose the drawn card to give back",
    "merchant": "the Merchant Ship: barter, raid, or pass",
    "loot": "the raid's loot: a card and a coin, or coins",
}
HIDDEN_KINDS = {
    "pick": "passes a card in the draft",
    "return_card": "keeps one of two drawn cards",
    "return_influence": "gives back an influence card",
}

# The effect verbs of tiles and cards, as the rules page words them (docs/rules/lying_pirates.md).
_VERBS = {
    "crew": lambda n: f"gain {plural(n, 'crew die')}" if n > 0 else f"lose {plural(-n, 'crew die')}",
    "coins": lambda n: f"gain {plural(n, 'coin')}" if n > 0 else f"lose {plural(-n, 'coin')}",
    "steal_crew": lambda n: f"steal {plural(n, 'crew die')} from a target",
    "special": lambda n: f"take the {DIE_NAMES[n]} die",
    "draw": lambda n: f"draw {plural(n, 'action card')}",
    "move": lambda n: f"sail {plural(abs(n), 'tile')} {'forward' if n > 0 else 'back'}",
    "token": lambda n: "take the Starting Captain token and turn it over (reverse the direction)",
    "steal_coins": lambda n: f"take up to {plural(n, 'coin')} from a target",
    "duel": lambda n: f"duel a target; the duel's loser loses {plural(n, 'crew die')}",
    "hit_crew": lambda n: f"a target loses {plural(n, 'crew die')}",
    "hit_coins": lambda n: f"a target loses up to {plural(n, 'coin')}",
    "steal_card": lambda n: "take a random card from a target's hand",
    "push": lambda n: f"a target's ship sails {plural(n, 'tile')} back",
    "kraken": lambda n: f"every captain in treacherous waters (you included) loses {plural(n, 'crew die')}",
    "broadside": lambda n: f"every other captain not on the Base loses {plural(n, 'crew die')}",
    "brawl": lambda n: f"every captain not on the Base battles for a loser, who loses {plural(n, 'crew die')}",
    "discard": lambda n: f"discard {plural(n, 'random card')} from your hand",
    "influence": lambda n: f"draw {plural(n, 'influence card')}",
    "cargo": lambda n: f"lose {plural(n, 'cargo')} (a coin, an action card or a crew die each)",
}
_O_FACES = {"P": 4, "T": 3}  # faces of six that show O


def effects_text(effects: tuple[tuple, ...]) -> str:
    return "; then ".join(_VERBS[verb](int(n)) for verb, n in effects) or "nothing"


def tile_text(tile: Tile) -> str:
    if not tile.roll:
        return f"{tile.water} waters: {effects_text(tile.good)}"
    die = "Pirate" if tile.roll == "P" else "Treasure"
    return (
        f"{tile.water} waters: roll the {die} die (O on {_O_FACES[tile.roll]} faces of 6). "
        f"O: {effects_text(tile.good)}. X: {effects_text(tile.bad)}"
    )


def card_text(card: Card) -> str:
    when = "Sail or Action phase" if card.metal == "gold" else "Action phase only"
    said = "reaction: cancels an attack card that targets you" if card.reaction else effects_text(card.effect)
    return f"{card.metal} {card.icon} card ({when}): {said}" + (
        "; also in the final battle" if card.final_battle else ""
    )


GLOSSARY = {
    "tiles": [{"name": t.name, "water": t.water, "text": tile_text(t)} for t in ALL_TILES],
    "cards": [{"name": c.name, "metal": c.metal, "icon": c.icon, "text": card_text(c)} for c in CARDS],
    "captains": [{"name": c.name, "text": c.text} for c in CAPTAINS],
    "variants": {v.name: v.text for v in VARIANTS},
    "towns": list(TOWNS),
    "influence": [{"name": k.name, "text": f"influence card of {k.name}"} for k in INFLUENCE],
    "dice": DICE_GLOSSARY,
    "calls": CALLS_GLOSSARY,
}


def _plain(part: Any) -> dict[str, Any] | None:
    """A frame of the position in progress (a battle, a reroll, a tile's roll) as a dict of its fields."""
    return None if part is None else dict(vars(part))


def name(state: State, c: int) -> str:
    """A captain as every text of the page names a seat: P0, P1, ... (the Phantom by its name)."""
    return "Phantom" if c == state.phantom else f"P{c}"


def board(state: State, seat: int | None) -> dict[str, Any]:
    x = state.ext
    decision = f"{name(state, state.pending[1])}: {DECISIONS[state.pending[0]]}" if state.pending else ""
    lap = state.lap
    slots = []
    for slot, tile in enumerate(state.slots):
        slots.append(
            {
                "slot": slot,
                "tile": tile,
                "ships": [c for c in range(state.captains) if state.position(c) == slot],
                "town": x["towns"][slot] if x is not None and x.get("towns") is not None else -1,
                "merchant": x is not None and slot == x["merchant"],
                "navy": x is not None and slot == x["navy"],
            }
        )
    captains = []
    for c in range(state.captains):
        known = state.known[seat][c] if seat is not None and seat < state.num_players else None
        captains.append(
            {
                "captain": c,
                "name": name(state, c),
                "phantom": c == state.phantom,
                "progress": state.progress[c],
                "lap": lap,
                "coins": state.coins[c],
                "crew": state.crews.crew[c],
                "specials": [int(d) for d in state.crews.specials(c)],
                "cards": len(state.hands[c]),
                "known_cards": [k for k, count in enumerate(known) for _ in range(count)] if known else [],
                "excluded": c in state.excluded,
                "token": c == state.token,
                "coaster": x["captain"][c] if x is not None and x.get("captain") is not None else -1,
                "town": x["designated"][c] if x is not None and x.get("designated") else -1,
                "sunk": c in state.crews.out,
                "finished": c in state.finished,
            }
        )
    own = range(state.num_players) if seat is None else [seat] if seat < state.num_players else []
    betting = None
    if state.betting is not None:
        b = state.betting
        cups = [{"seat": c, "dice": cup(dice, True)} for c, dice in b.cups.items() if c in own]
        betting = {"dice_in_play": b.dice_in_play, "bids": bids(b), "bettor": b.current, "cups": cups}
    reveal = None
    if state.reveal:
        reveal = {
            "cups": [{"seat": int(c), "dice": cup(dice, True)} for c, dice in state.reveal["cups"].items()],
            "outcome": state.reveal["outcome"],
            "bids": [{"seat": s, "quantity": q, "face": f} for s, q, f in state.reveal["bids"]],
        }
        mark_counted(reveal["cups"], reveal["outcome"], WILD)
        reveal["text"] = reveal_text(reveal["outcome"], WILD, lambda c: name(state, c))
    rolls, pt, reroll, effect = (
        _plain(part) for part in (state.battle or state.final, state.pt, state.reroll, state.effect)
    )
    if effect:
        effect = {
            "actor": effect["actor"],
            "source": effect["source"],
            "card": effect.get("card", -1),
            "text": effects_text(tuple(tuple(v) for v in effect["effects"])),
        }
    return {
        "status": f"round {state.round_no}, the game is over"
        if state.phase == "over"
        else f"round {state.round_no}, {state.phase}" + (f" ({state.stage})" if state.stage != state.phase else ""),
        "decision": decision,
        "over": bool(state.winners),
        "direction": "clockwise" if state.direction > 0 else "counterclockwise",
        "slots": slots,
        "captains": captains,
        "betting": betting,
        "reveal": reveal,
        "sail_die": state.sail_die,
        "pt": {"die": pt["die"], "face": pt["face"], "roller": pt["roller"]} if pt else None,
        "rolls": {"rolls": list(rolls["rolls"]), "rolling": list(rolls["rolling"]), "crew": rolls.get("crew")}
        if rolls
        else None,
        "reroll": {"die": reroll["die"]} if reroll else None,
        "effect": effect,
        "played": [{"captain": c, "card": k} for c, k in state.played],
        "deck": len(state.deck),
        "discard": len(state.discard),
        "hands": [
            {
                "captain": c,
                "cards": list(state.hands[c]),
                "influence": list(x["influence"][c]) if x is not None and x.get("influence") is not None else [],
            }
            for c in own
        ],
        "encounter": _plain(state.find(Encounter)),
        "variants": list(x["options"]["variants"]) if x is not None else [],
        "winners": list(state.winners),
    }


def target(action: Action, seat: int) -> str | None:
    kind = action[0]
    if kind == "play":
        return f"hand-{action[1]}"
    if kind in ("target", "curse"):
        return f"captain-{action[1]}"
    return None


def words(kind: str, text: str) -> str:
    """A move as the log says it."""
    return call_words(kind, text)


def notes(state: State, seat: int, moves: list[dict[str, Any]]) -> list[str]:
    """Why a move the rules cap or forbid is not offered now."""
    said = []
    if state.betting is not None and state.pending and state.pending[0] == "bet":
        said += betting_notes(state.betting, state.betting.rules)
    if state.pending and state.pending[0] == "buy_crew" and state.coins[seat] < 2:
        said.append("A crew die costs 2 coins: you have fewer.")
    return said


def breakdown(history: Any) -> list[dict[str, Any]]:
    """Positions: tiles sailed, home, sunk and the winner's 100; then how the race was decided (the final
    battle's lines of the log, when there was one)."""
    state = history.states[-1]
    rows = []
    for c in range(state.num_players):
        sunk = c in state.crews.out
        won = c in state.winners
        rows.append(
            [
                name(state, c),
                f"{state.progress[c]} of {state.lap}",
                "yes" if c in state.finished else "no",
                f"-{SUNK_PENALTY}" if sunk else "0",
                "+100" if won else "0",
                f"{state.progress[c] + (100 if won else 0) - (SUNK_PENALTY if sunk else 0)}",
            ]
        )
    winners = ", ".join(name(state, c) for c in state.winners) or "nobody"
    final = [line["text"] for line in history.log(None) if line["kind"] == "log" and "final battle" in line["text"]]
    how = (
        f"{winners} won the final battle of the captains home together."
        if final
        else f"{winners} came home to Start/End first."
    )
    parts = [
        {
            "title": "Positions",
            "text": f"The score is the tiles sailed, +100 for the winner, -{SUNK_PENALTY} for a sunk ship. {how}",
            "head": ["captain", "tiles sailed", "home", "sunk", "winner", "score"],
            "rows": rows,
        }
    ]
    if final:
        parts.append({"title": "The final battle", "text": " ".join(final), "head": [], "rows": []})
    return parts
