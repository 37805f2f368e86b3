"""The shape of a saved Lying Pirates state: what each field of ``to_dict``'s output may hold.

``read_state`` reads a saved state against declared specs (``bidbluff.envs.core.validate``): every field's type and
range, one entry per captain or player, sizes from the rules (a hand holds at most the deck, a stack at
most the setup's frames), numbers the rules leave open capped far past any game.  The options decide which
fields exist: ``ext`` with any option on (its Cities of Greed keys with the expansion), the crews' option
fields with captain abilities or "Instant Death".  Each frame on the stack is read by its stage's kind.
What the shapes cannot say (conservation, the stack's order) ``validation`` checks on the built state.
"""

from __future__ import annotations

from typing import Any

from bidbluff.envs.core.validate import (
    Bool,
    Built,
    Const,
    Context,
    Depends,
    EmptyOr,
    Fields,
    Int,
    ListOf,
    Maybe,
    OneOf,
    PerSeat,
    Record,
    Spec,
    Str,
    fail,
    join,
    read,
)
from bidbluff.envs.lying_pirates.betting import MAX_CAPTAINS, ROUND, BettingRound, Outcome
from bidbluff.envs.lying_pirates.captains import ABILITY_MODES
from bidbluff.envs.lying_pirates.cities import EXPANSION
from bidbluff.envs.lying_pirates.content import (
    ALL_TILES,
    BIG_CUP,
    CAPTAINS,
    CARDS,
    DECK_SIZE,
    HAND_SIZE,
    INFLUENCE,
    INFLUENCE_DECK,
    MAP_WATERS,
    TOWNS,
    VARIANTS,
)
from bidbluff.envs.lying_pirates.crew import TOTAL_CREW
from bidbluff.envs.lying_pirates.dice import CITY_SPECIALS, CREW_LIMIT, SPECIALS
from bidbluff.envs.lying_pirates.engine import STAGES, frame_from_dict
from bidbluff.envs.lying_pirates.frames import (
    ActionPhase,
    Battle,
    BettingPhase,
    CaptainChoice,
    Cargo,
    CatchUp,
    Draft,
    Effect,
    Encounter,
    FinalAfterCard,
    FinalBattle,
    Frame,
    Influence,
    InfluenceSetup,
    KeepOne,
    MayorReveal,
    Placing,
    Reroll,
    SailPhase,
    TownChoosing,
    TownPlacing,
    Window,
)
from bidbluff.envs.lying_pirates.table import ALL_DECISIONS

# What the rules leave unbounded (coins, rounds, the Phantom's laps, a window's turns), capped far beyond
# any game so that every number stays small.
UNBOUNDED = 10**6
MAX_STACK = 8  # the setup's seven frames at most (a Betting phase under six steps), or five in play
PHASES = ("betting", "sail", "action", "final", "over")
DECISIONS = tuple(sorted(ALL_DECISIONS))
VARIANT_NAMES = tuple(v.name for v in VARIANTS)


def _captains(context: Context) -> int:
    return context["captains"]


def _last_captain(context: Context) -> int:
    return context["captains"] - 1


def _last_player(context: Context) -> int:
    return context["num_players"] - 1


def _lap(context: Context) -> int:
    return len(MAP_WATERS[context["map_name"]])


def options_in(context: Context) -> dict[str, Any]:
    ext = context.get("ext")
    return ext["options"] if ext else {"expansion": None, "abilities": None, "variants": [], "merchant_ships": False}


CAPTAIN = Int(0, _last_captain, "a captain")
NO_CAPTAIN = Int(-1, _last_captain, "a captain (or -1)")
PLAYER = Int(0, _last_player, "a player")
CAPTAIN_LIST = ListOf(CAPTAIN, MAX_CAPTAINS)
PLAYER_LIST = ListOf(PLAYER, MAX_CAPTAINS)
CARD = Int(0, len(CARDS) - 1, "an action card")
TILE = Int(0, len(ALL_TILES) - 1, "a tile")
TOWN = Int(0, len(TOWNS) - 1, "a town")
INFLUENCE_CARD = Int(0, len(INFLUENCE) - 1, "an influence card")
BATTLE_ROLL = Int(-1, 2, "a battle die's icon (or -1)")
MANY = Int(0, UNBOUNDED, "a count")


def per_captain(item: Spec) -> PerSeat:
    return PerSeat(item, "captains")


# -- the frames on the stack --------------------------------------------------------------------------------
FRAME_FIELDS: dict[type[Frame], dict[str, Spec]] = {
    BettingPhase: {},
    SailPhase: {},
    ActionPhase: {},
    FinalAfterCard: {},
    CaptainChoice: {},
    TownPlacing: {},
    TownChoosing: {},
    InfluenceSetup: {},
    MayorReveal: {},
    CatchUp: {"group": Maybe(ListOf(PLAYER, MAX_CAPTAINS, 1)), "asked": PLAYER_LIST, "accepted": PLAYER_LIST},
    FinalBattle: {
        "crew": ListOf(MANY, _captains),
        "rolling": CAPTAIN_LIST,
        "battles": MANY,
        "buying": CAPTAIN_LIST,
        "rolls": ListOf(BATTLE_ROLL, _captains),
        "used": ListOf(Fields((("rerolled", Bool()), ("played", Bool()))), _captains),
    },
    Reroll: {"queue": PLAYER_LIST, "die": OneOf(("sail", "pt", "battle", "encounter"), "a die:")},
    Window: {
        "kind": OneOf(("sail", "action", "final"), "a window:"),
        "order": ListOf(PLAYER, MAX_CAPTAINS, 1),
        "turn": MANY,
        "passes": Int(0, MAX_CAPTAINS, "a number of passes"),
    },
    Battle: {
        "rolling": ListOf(CAPTAIN, MAX_CAPTAINS, 2),
        "looking_for": OneOf(("winner", "loser"), "a battle for"),
        "rolls": per_captain(BATTLE_ROLL),
        "result": Int(-1, -1, "a result before the battle ends:"),
    },
    Effect: {
        "actor": CAPTAIN,
        "effects": ListOf(Fields((("verb", Str(20)), ("amount", Int(-5, 5)))), 3),
        "source": OneOf(("tile", "card", "ability", "final"), "a source:"),
        "card": Int(-1, len(CARDS) - 1),
        "index": Int(0, 3, "an effect's index"),
        "target": NO_CAPTAIN,
        "reacted": Bool(),
        "after_battle": Maybe(
            Fields((("kind", OneOf(("duel", "brawl"), "a battle's effect:")), ("n", Int(1, 3, "crew dice to lose"))))
        ),
    },
    Placing: {"tiles": PerSeat(ListOf(TILE, len(ALL_TILES))), "order": ListOf(PLAYER, MAX_CAPTAINS, 1), "turn": MANY},
    Draft: {"round": Int(0, 2, "a draft round"), "picked": PerSeat(ListOf(CARD, 3))},
    Influence: {"seat": PLAYER, "card": INFLUENCE_CARD, "town": Int(-1, len(TOWNS) - 1, "a town (or -1)")},
    Cargo: {"queue": ListOf(Fields((("seat", CAPTAIN), ("count", Int(1, 2, "cargo to lose")))), MAX_CAPTAINS, 1)},
    KeepOne: {"seat": PLAYER, "what": OneOf(("card", "influence"), "a pile:"), "cards": ListOf(CARD, 2, 2)},
    Encounter: {"ship": OneOf(("merchant", "navy"), "a ship:"), "roll": BATTLE_ROLL},
}
if set(FRAME_FIELDS) != {stage.frame for stage in STAGES.values()}:
    raise AssertionError("every frame of the stage table needs its fields declared here")


class FrameSpec(Spec):
    """A frame: its ``stage`` (a declared stage, ``stages.STAGES``) says its kind, and the kind its fields."""

    def read(self, value: Any, path: str, context: Context) -> Frame:
        if type(value) is not dict:
            fail(path, f"{value!r} is not an object")
        stage = OneOf(tuple(STAGES), "a stage:").read(value.get("stage"), join(path, "stage"), context)
        kind = STAGES[stage].frame
        fields = read(
            Record({"stage": Const(stage), "outcome": NO_CAPTAIN, **FRAME_FIELDS[kind]}), value, path, context
        )
        return frame_from_dict(fields)


# -- the state's fields ------------------------------------------------------------------------------------
def _crews(context: Context) -> Spec:
    options = options_in(context)
    specials = CITY_SPECIALS if options["expansion"] else SPECIALS
    fields: dict[str, Spec] = {
        "crew": per_captain(Int(0, BIG_CUP, "a number of crew dice")),
        "holder": Record({str(int(d)): NO_CAPTAIN for d in specials}),
        "bag": Int(0, TOTAL_CREW, "a number of dice in the bag"),
    }
    if options["abilities"] or "Instant Death" in options["variants"]:
        fields.update(
            limits=Maybe(per_captain(OneOf((CREW_LIMIT, BIG_CUP), "a dice limit:"))),
            cursed_spare=CAPTAIN_LIST,
            mortal=Bool(),
            out=CAPTAIN_LIST,
        )
    return Record(fields)


OPTIONS = Record(
    {
        "expansion": OneOf((None, EXPANSION), "an expansion:"),
        "abilities": OneOf((None, *ABILITY_MODES), "an abilities mode:"),
        "variants": ListOf(OneOf(VARIANT_NAMES, "a variant card:"), len(VARIANTS)),
        "merchant_ships": Bool(),
    }
)
SLOT_OR_NONE = Int(-1, lambda c: _lap(c) - 1, "a map slot (or -1)")
EXT_FIELDS: dict[str, Spec] = {
    "options": OPTIONS,
    "captain": per_captain(Int(-1, len(CAPTAINS) - 1, "a captain coaster (or -1)")),
    "captain_order": PLAYER_LIST,
    "sabotaged": per_captain(Bool()),
    "merchant": SLOT_OR_NONE,
    "navy": SLOT_OR_NONE,
}
CITY_FIELDS: dict[str, Spec] = {
    "towns": ListOf(Int(-1, len(TOWNS) - 1, "a town (or -1)"), _lap, _lap),
    "town_cards": per_captain(ListOf(TOWN, len(TOWNS))),
    "town_order": ListOf(PLAYER, MAX_CAPTAINS, 1),
    "town_turn": MANY,
    "designated": per_captain(Int(-1, len(TOWNS) - 1, "a town (or -1)")),
    "influence": per_captain(ListOf(INFLUENCE_CARD, INFLUENCE_DECK)),
    "influence_deck": ListOf(INFLUENCE_CARD, INFLUENCE_DECK),
    "influence_discard": ListOf(INFLUENCE_CARD, INFLUENCE_DECK),
    "influence_setup": PLAYER_LIST,
    "influence_used": per_captain(Bool()),
}


class ExtSpec(Spec):
    """The options' data: the options first, which say which keys the rest has."""

    def read(self, value: Any, path: str, context: Context) -> dict[str, Any]:
        if type(value) is not dict:
            fail(path, f"{value!r} is not an object")
        if "options" not in value:
            fail(join(path, "options"), "missing")
        options = read(OPTIONS, value["options"], join(path, "options"), context)
        return read(Record({**EXT_FIELDS, **(CITY_FIELDS if options["expansion"] else {})}), value, path, context)


REVEAL = Record({"cups": ROUND.fields["cups"], "outcome": Built(Outcome.from_dict), "bids": ROUND.fields["bids"]})
RESULT = Record({"winner": CAPTAIN, "losers": CAPTAIN_LIST, "survivors": CAPTAIN_LIST})


def state_fields(with_ext: bool) -> Record:
    """The top level, in reading order: the table and the options first, which the other fields depend on."""
    return Record(
        {
            "game": Const("lying_pirates"),
            "format": Const(1),
            "num_players": Int(2, MAX_CAPTAINS, "a number of players"),
            "captains": Int(2, MAX_CAPTAINS, "a number of captains"),
            "phantom": Int(-1, MAX_CAPTAINS - 1, "the Phantom's seat (or -1)"),
            "map_name": OneOf(tuple(MAP_WATERS), "a map:"),
            **({"ext": ExtSpec()} if with_ext else {}),
            "slots": ListOf(Int(-1, len(ALL_TILES) - 1, "a tile (or -1)"), _lap, _lap),
            "progress": per_captain(MANY),
            "coins": per_captain(MANY),
            "crews": Depends(_crews),
            "hands": per_captain(ListOf(CARD, DECK_SIZE)),
            "deck": ListOf(CARD, DECK_SIZE),
            "discard": ListOf(CARD, DECK_SIZE),
            "phantom_pile": ListOf(CARD, max(HAND_SIZE.values())),
            "known": PerSeat(
                per_captain(ListOf(Int(0, max(c.count for c in CARDS), "a count of cards"), len(CARDS), len(CARDS)))
            ),
            "token": CAPTAIN,
            "direction": OneOf((1, -1), "a direction:"),
            "round_no": MANY,
            "excluded": CAPTAIN_LIST,
            "next_excluded": CAPTAIN_LIST,
            "reveal": Maybe(REVEAL),
            "result": EmptyOr(RESULT, dict),
            "used": per_captain(Fields((("gold", Bool()), ("silver", Bool()), ("reroll", Bool())))),
            "phase": OneOf(PHASES, "a phase:"),
            "sail_die": Int(0, 2, "a sail die's face (or 0)"),
            "finished": PLAYER_LIST,
            "resolver": NO_CAPTAIN,
            "played": ListOf(Fields((("captain", CAPTAIN), ("card", CARD))), lambda context: 2 * _captains(context)),
            "pending": EmptyOr(Fields((("decision", OneOf(DECISIONS, "a decision:")), ("seat", PLAYER)))),
            "winners": CAPTAIN_LIST,
            "log": ListOf(Str(200), 30),
            "betting": Maybe(Built(BettingRound.from_dict)),
            "pt": Maybe(
                Record({"die": OneOf(("P", "T"), "a die:"), "face": OneOf(("O", "X"), "a face:"), "roller": CAPTAIN})
            ),
            "stack": ListOf(FrameSpec(), MAX_STACK),
        },
        into=("num_players", "captains", "map_name", "ext"),
    )


def read_state(data: Any) -> dict[str, Any]:
    """``data``'s fields read against their shapes (``ValueError`` naming the first that does not fit)."""
    if type(data) is not dict:
        fail("", f"a Lying Pirates state is an object, not {type(data).__name__}")
    return read(state_fields("ext" in data), data)
