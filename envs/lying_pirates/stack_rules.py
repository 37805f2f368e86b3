"""The work in progress a restored Lying Pirates state may hold, and the decision it must have open.

What the engine can build is read from its stage declarations (``stages.stage``), never restated here:
every frame stands on a frame whose stage awaits it (``ABOVE``); the bottom frame is a phase's frame at a
stage it can wait at, and the state's phase is the one that stage declares (``BOTTOM``); the open
decision is the one the top frame's stage asks, of the captain it asks (``Stage.asks``).  Each frame also
needs its option and its fields must fit the state (``FRAME_CHECKS``).  Refusals name the field by its path.
"""

from __future__ import annotations

from collections import Counter
from itertools import pairwise
from typing import Any

from bidbluff.envs.core.validate import ensure, join
from bidbluff.envs.lying_pirates.action_phase import last_players
from bidbluff.envs.lying_pirates.betting_phase import SETUP, bettors, in_play
from bidbluff.envs.lying_pirates.captains import SABOTAGE
from bidbluff.envs.lying_pirates.content import ALL_TILES, CARDS, CREW_COST, HAND_SIZE, INFLUENCE, TARGETED, TILES
from bidbluff.envs.lying_pirates.dice import Die
from bidbluff.envs.lying_pirates.engine import phase_frames
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
from bidbluff.envs.lying_pirates.rerolls import can_reroll
from bidbluff.envs.lying_pirates.setup_steps import DRAFT_PICKS
from bidbluff.envs.lying_pirates.stages import STAGES
from bidbluff.envs.lying_pirates.state_shapes import options_in
from bidbluff.envs.lying_pirates.table import Table


def where(state: Table, frame: Frame) -> str:
    """``frame``'s path on the stack (found by identity: two frames may hold the same)."""
    return join("stack", next(i for i, f in enumerate(state.stack) if f is frame))


def distinct(seats: list[int], path: str) -> None:
    ensure(len(set(seats)) == len(seats), path, f"{seats} names a captain twice")


def expansion_on(state: Table) -> bool:
    return state.ext is not None and bool(state.ext["options"]["expansion"])


def options_of(state: Table) -> dict[str, Any]:
    return options_in({"ext": state.ext})


# -- the stack, as the stages declare it -------------------------------------------------------------------------
# The frames a frame may stand on, at the stage that frame waits at while the one above works.
ABOVE: dict[type[Frame], tuple[tuple[type[Frame], str], ...]] = {}
for _stage in STAGES.values():
    for _kind in _stage.awaits:
        ABOVE[_kind] = (*ABOVE.get(_kind, ()), (_stage.frame, _stage.name))
# The frame at the bottom of the stack, at the stages it waits at (or decides at), and the phase then.
BOTTOM: dict[tuple[type[Frame], str], str] = {
    (s.frame, s.name): s.phase for s in STAGES.values() if s.frame in phase_frames(STAGES) and s.waits()
}


def _option_of(kind: type[Frame], frame: Frame, options: dict[str, Any]) -> str | None:
    """The option ``frame`` needs that the game does not have, if any."""
    if kind in (TownPlacing, TownChoosing, InfluenceSetup, Influence, Cargo, MayorReveal) and not options["expansion"]:
        return "the Cities of Greed expansion"
    if kind is CaptainChoice and options["abilities"] != "chosen":
        return "chosen captain coasters"
    if kind is KeepOne and (
        "Draw Two, Keep One" not in options["variants"] or (frame.what == "influence" and not options["expansion"])
    ):
        return 'the "Draw Two, Keep One" variant card'
    if kind is Encounter and not options["merchant_ships"]:
        return "Merchant Ships"
    return None


def check_stack(state: Table, saved_phase: str) -> None:
    """Refuse a stack the engine cannot have built, or an open decision its top frame does not ask."""
    options = options_of(state)
    for i, frame in enumerate(state.stack):
        missing = _option_of(type(frame), frame, options)
        ensure(missing is None, join("stack", i), f"a {type(frame).__name__} needs {missing}")
    if state.over:
        return  # what was in progress when the game ended stays as it was
    stack = state.stack
    ensure(bool(stack), "stack", "the game goes on: work is in progress")
    bottom = stack[0]
    phase = BOTTOM.get((type(bottom), bottom.stage))
    ensure(phase is not None, "stack[0]", f"a {type(bottom).__name__} at {bottom.stage!r} is no phase of a round")
    ensure(saved_phase == phase, "phase", f"{saved_phase!r} while the {type(bottom).__name__} is at {bottom.stage!r}")
    for i, (below, frame) in enumerate(pairwise(stack), 1):
        ensure(
            (type(below), below.stage) in ABOVE.get(type(frame), ()),
            join("stack", i),
            f"a {type(frame).__name__} does not stand on a {type(below).__name__} at {below.stage!r}",
        )
    setup = any(type(f) in SETUP for f in stack)
    ensure(setup == (state.round_no == 0), "round_no", f"round {state.round_no} {'during' if setup else 'after'} setup")
    ensure(
        (state.betting is not None) == (type(bottom) is BettingPhase and bottom.stage == "bet"),
        "betting",
        'bets are open exactly while the Betting phase is at "bet"',
    )
    if state.betting is not None:
        _check_betting(state)
    sail_stage = bottom.stage if type(bottom) is SailPhase else ""
    ensure(
        state.pt is None or sail_stage in ("tile_effect", "after_tile", "end_of_sail"),
        "pt",
        "the Pirate or Treasure die is rolled for the tile being resolved",
    )
    if sail_stage in ("tile_effect", "after_tile", "end_of_sail"):
        ensure(state.resolver >= 0, "resolver", "a captain resolves the tile")
    for i, frame in enumerate(stack):
        below = stack[i - 1] if i else None
        above = stack[i + 1] if i + 1 < len(stack) else None
        FRAME_CHECKS[type(frame)](state, frame, below, above, join("stack", i))
    top = stack[-1]
    asks = STAGES[top.stage].asks
    asked = asks(state, top) if asks is not None else None
    ensure(
        asked is not None,
        join(join("stack", len(stack) - 1), "stage"),
        f"a {type(top).__name__} at {top.stage!r} asks no one",
    )
    expected = list(asked)
    ensure(
        state.pending == expected,
        "pending",
        f"{state.pending} is not the decision the {type(top).__name__} at {top.stage!r} asks ({expected})",
    )


def _check_betting(state: Table) -> None:
    b = state.betting
    ensure(b.captains == state.captains, "betting.captains", f"the table has {state.captains} captains")
    ensure(b.rules == state.hooks.betting_rules, "betting.rules", "the table's betting rules")
    ensure(b.outcome is None, "betting.outcome", "a called Betting phase is over")
    cups = in_play(state)
    ensure(sorted(b.cups) == cups, "betting.cups", f"the cups in play are the captains' {cups}")
    for c, cup in b.cups.items():  # the dice in a cup are free (the rule tests roll what they test)
        at = join("betting.cups", str(c))
        for i, (kind, _) in enumerate(cup):
            ensure(kind in state.crews.holder or kind == Die.CREW, join(join(at, i), "kind"), "a die of this game")
    want = bettors(state)
    ensure(b.bettors == want, "betting.bettors", f"the bettors are {want}, in turn order from the token")
    if state.phantom in b.bettors:
        ensure(
            bool(state.excluded) and state.excluded[0] < state.num_players,
            "excluded",
            "the Phantom's bets are taken by the player out of the phase",
        )


# -- each kind of frame, against the state ----------------------------------------------------------------------
def _check_nothing(state: Table, frame: Frame, below: Frame | None, above: Frame | None, path: str) -> None:
    return None


def _check_reroll(state: Table, r: Reroll, below: Frame | None, above: Frame | None, path: str) -> None:
    want = {SailPhase: "sail" if below.stage == "sail_window" else "pt", Battle: "battle", Encounter: "encounter"}
    die = want[type(below)]
    ensure(r.die == die, join(path, "die"), f"the die the {type(below).__name__} at {below.stage!r} rolled is {die!r}")
    distinct(r.queue, join(path, "queue"))
    rollers = {"battle": getattr(below, "rolling", []), "sail": [state.result.get("winner")]}
    rollers = rollers.get(r.die, [state.resolver])
    for i, c in enumerate(r.queue):
        ensure(c in rollers, join(join(path, "queue"), i), f"captain {c} did not roll that die")
        # the queue holds those who may pay when it is built, and nobody's coins change while it is asked
        ensure(
            can_reroll(state, c, r.die),
            join(join(path, "queue"), i),
            f"captain {c} cannot pay for a reroll ({state.coins[c]} coins, or its reroll is used)",
        )
    if r.die == "pt":
        ensure(state.pt is not None, "pt", "the Pirate or Treasure die was rolled")


def _check_battle(state: Table, b: Battle, below: Frame | None, above: Frame | None, path: str) -> None:
    distinct(b.rolling, join(path, "rolling"))
    for c in b.rolling:  # a mover sunk in the window before it sailed still battles for the tile
        if b.stage == "battle_resolve":
            ensure(b.rolls[c] >= 0, join(join(path, "rolls"), c), f"captain {c} rolled")
    want = (
        "winner"
        if below.stage == "battle_won"
        or (type(below) is Effect and below.after_battle is not None and below.after_battle[0] == "duel")
        else "loser"
    )
    ensure(b.looking_for == want, join(path, "looking_for"), f"the {type(below).__name__} looks for a {want}")


def _check_window(state: Table, w: Window, below: Frame | None, above: Frame | None, path: str) -> None:
    kind = {SailPhase: "sail", CatchUp: "action", FinalBattle: "final"}[type(below)]
    ensure(w.kind == kind, join(path, "kind"), f"the {type(below).__name__}'s window is {kind!r}")
    ensure(w.stage == ("final_window" if kind == "final" else "window"), join(path, "stage"), "the window's stage")
    distinct(w.order, join(path, "order"))
    ensure(w.passes < len(w.order), join(path, "passes"), "a full round of passes closes the window")
    if kind == "final":
        fighting = [c for c in range(state.captains) if state.final.crew[c] > 0]
        for i, c in enumerate(w.order):
            ensure(c in fighting, join(join(path, "order"), i), f"captain {c} is not in the final battle")


def _check_effect(state: Table, e: Effect, below: Frame | None, above: Frame | None, path: str) -> None:
    effects = tuple(tuple(x) for x in e.effects)
    ensure(effects in _effects_of(state, e), join(path, "effects"), f"{e.effects} are not the {e.source}'s effects")
    ensure(e.index <= len(effects), join(path, "index"), f"{e.index} is past the {len(effects)} effects")
    ensure(e.target != e.actor, join(path, "target"), "an effect does not target its actor")
    ensure(
        not e.reacted or (e.source == "card" and e.target >= 0),
        join(path, "reacted"),
        "only a targeted card is reacted to",
    )
    if type(below) is ActionPhase:
        ensure(e.actor == state.phantom and e.source == "card", join(path, "actor"), "the Phantom's card")
    elif type(below) is Window:
        ensure(
            e.source in ("card", "ability") and e.actor != state.phantom,
            join(path, "source"),
            "a card or an ability played in the window",
        )
    elif type(below) is SailPhase:
        ensure(e.source == "tile" and e.actor == state.resolver, join(path, "source"), "the resolver's tile")
    else:
        ensure(e.source == "final", join(path, "source"), "a card of the final battle")
    if e.source == "ability":
        ensure(state.ext is not None and state.ext["sabotaged"][e.actor], join(path, "actor"), "the Saboteur")
    ensure(
        (e.after_battle is not None) == (e.stage == "after_battle"),
        join(path, "after_battle"),
        "a duel or brawl's loss waits for its battle",
    )
    if e.stage == "after_battle":
        ensure(
            e.index >= 1 and list(effects[e.index - 1]) == e.after_battle,
            join(path, "after_battle"),
            "the duel or brawl just carried out",
        )
        if e.after_battle[0] == "duel":
            ensure(e.target >= 0, join(path, "target"), "a duel has a target")
    if e.stage == "phantom_target":
        ensure(
            e.actor == state.phantom and e.target < 0 and e.index < len(effects) and effects[e.index][0] in TARGETED,
            join(path, "stage"),
            "the Phantom's card looks for a target",
        )
    if type(above) is Cargo:
        ensure(e.index >= 1 and effects[e.index - 1][0] == "cargo", join(path, "index"), "a cargo effect was done")


def _effects_of(state: Table, e: Effect) -> list[tuple]:
    if e.source in ("card", "final"):
        ok = e.card >= 0 and (e.source == "card" or CARDS[e.card].final_battle)
        return [CARDS[e.card].effect] if ok else []
    if e.card != -1:
        return []
    if e.source == "ability":
        return [SABOTAGE]
    tiles = ALL_TILES if expansion_on(state) else TILES
    return [t.good for t in tiles] + [t.bad for t in tiles if t.roll]


def _check_catchup(state: Table, cu: CatchUp, below: Frame | None, above: Frame | None, path: str) -> None:
    if cu.group is None:
        ensure(not cu.asked and not cu.accepted, join(path, "asked"), "the group is found before it is asked")
        return
    ensure(above is None, join(path, "group"), "the catch-up starts once the window closed")
    distinct(cu.group, join(path, "group"))
    distinct(cu.asked, join(path, "asked"))
    ensure(
        set(cu.asked) <= set(cu.group) and set(cu.accepted) <= set(cu.asked),
        join(path, "accepted"),
        "the asked are of the group, the accepted of the asked",
    )
    ensure(
        cu.group == last_players(state),
        join(path, "group"),
        "the group is the players tied last",
    )


def _check_final(state: Table, f: FinalBattle, below: Frame | None, above: Frame | None, path: str) -> None:
    c = state.captains
    for name in ("crew", "rolls", "used"):
        ensure(len(getattr(f, name)) == c, join(path, name), f"one entry per captain ({c})")
    fighting = [s for s in range(c) if f.crew[s] > 0]
    ensure(len(fighting) >= 2, join(path, "crew"), "two or more captains fight the final battle")
    distinct(f.rolling, join(path, "rolling"))
    distinct(f.buying, join(path, "buying"))
    for name in ("rolling", "buying"):
        for i, s in enumerate(getattr(f, name)):
            ensure(s in fighting, join(join(path, name), i), f"captain {s} is not in the final battle")
    ensure(bool(f.rolling), join(path, "rolling"), "a battle of the final battle is being fought")
    if f.stage == "final_resolve":
        for s in f.rolling:
            ensure(f.rolls[s] >= 0, join(join(path, "rolls"), s), f"captain {s} rolled")
    else:
        ensure(
            bool(f.buying) and state.coins[f.buying[0]] >= CREW_COST,
            join(path, "buying"),
            "a captain who can pay is asked to buy crew",
        )


def _check_placing(state: Table, p: Placing, below: Frame | None, above: Frame | None, path: str) -> None:
    ensure(sorted(p.order) == list(range(state.num_players)), join(path, "order"), "every player once")
    ensure(-1 in state.slots, "slots", "tiles are placed while the map has empty slots")


def _check_draft(state: Table, d: Draft, below: Frame | None, above: Frame | None, path: str) -> None:
    size = HAND_SIZE[state.map_name]
    for p in range(state.num_players):
        ensure(len(state.hands[p]) == size, join("hands", p), f"{size} cards in hand during the draft")
        left = Counter(state.hands[p])
        left.subtract(d.picked[p])
        at = join(join(path, "picked"), p)
        ensure(min(left.values(), default=0) >= 0, at, "picks come from the hand")
        ensure(len(d.picked[p]) <= DRAFT_PICKS[d.round], at, "too many picks this round")
    ensure(above is None or (d.round == 0 and not any(d.picked)), join(path, "round"), "the draft comes last")


def _check_influence(state: Table, i: Influence, below: Frame | None, above: Frame | None, path: str) -> None:
    ensure(i.town < 0 or i.town in INFLUENCE[i.card].towns, join(path, "town"), "a town of the card")
    ensure(state.phase == "action", "phase", "influence cards are played in the Action phase")


def _check_cargo(state: Table, cargo: Cargo, below: Frame | None, above: Frame | None, path: str) -> None:
    distinct([s for s, _ in cargo.queue], join(path, "queue"))


def _check_keep(state: Table, k: KeepOne, below: Frame | None, above: Frame | None, path: str) -> None:
    top = len(INFLUENCE) if k.what == "influence" else len(CARDS)
    for i, card in enumerate(k.cards):
        ensure(card < top, join(join(path, "cards"), i), f"{card} is not a {k.what} card")
    ensure(k.seat != state.phantom, join(path, "seat"), "the Phantom buys nothing")
    ensure(k.what == "card" or state.phase == "action", join(path, "what"), "influence is bought in the Action phase")
    if type(below) is SailPhase:
        ensure(k.what == "card" and k.seat == state.resolver, join(path, "seat"), "the resolver bartered")


def _check_encounter(state: Table, enc: Encounter, below: Frame | None, above: Frame | None, path: str) -> None:
    want = {"encounter": "merchant", "raid_result": "merchant", "navy_result": "navy"}[enc.stage]
    ensure(enc.ship == want, join(path, "ship"), f"the {want} is met at {enc.stage!r}")
    ensure(state.position(state.resolver) == state.ext[enc.ship], "resolver", f"the resolver meets the {enc.ship}")
    ensure((enc.roll >= 0) == (enc.stage != "encounter"), join(path, "roll"), "the battle die is rolled to raid")


def _check_mayor(state: Table, m: MayorReveal, below: Frame | None, above: Frame | None, path: str) -> None:
    ensure(state.crews.holder[int(Die.MAYOR)] >= 0, "crews.holder.5", "the Mayor die's holder reveals it")


FRAME_CHECKS = {
    BettingPhase: _check_nothing,
    SailPhase: _check_nothing,
    ActionPhase: _check_nothing,
    FinalAfterCard: _check_nothing,
    CaptainChoice: _check_nothing,
    TownPlacing: _check_nothing,
    TownChoosing: _check_nothing,
    InfluenceSetup: _check_nothing,
    Reroll: _check_reroll,
    Battle: _check_battle,
    Window: _check_window,
    Effect: _check_effect,
    CatchUp: _check_catchup,
    FinalBattle: _check_final,
    Placing: _check_placing,
    Draft: _check_draft,
    Influence: _check_influence,
    Cargo: _check_cargo,
    KeepOne: _check_keep,
    Encounter: _check_encounter,
    MayorReveal: _check_mayor,
}
