"""Effects of tiles, cards and abilities, carried out one by one (``content`` lists the verbs).

An effect aimed at one captain asks its actor for the target (the Phantom's are aimed by a battle of the
players for a loser); an attack card's target may answer with a reaction card, which cancels the card.
A duel or a brawl is a battle, after which the effect goes on.  Final-battle cards change only the
crews counted in the final battle.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bidbluff.envs.core.codec import Action
from bidbluff.envs.lying_pirates.battle import start_battle
from bidbluff.envs.lying_pirates.cards import draw, lose_card, may_play, spend_card
from bidbluff.envs.lying_pirates.content import CARDS, TARGETED, TREACHEROUS, is_attack
from bidbluff.envs.lying_pirates.dice import Die
from bidbluff.envs.lying_pirates.frames import Battle, Cargo, Effect, FinalBattle
from bidbluff.envs.lying_pirates.movement import move_ship, phantom_catches
from bidbluff.envs.lying_pirates.stages import ASK, Stage, call, done, goto, stage
from bidbluff.envs.lying_pirates.table import Table


def start_effect(
    state: Table, actor: int, effects: tuple | list, source: str, card: int = -1, then: Stage | None = None
) -> None:
    """``actor``'s ``effects`` (of a tile, a card, an ability) are carried out; the caller goes on at ``then``."""
    call(state, Effect(actor, [list(e) for e in effects], source, card), then)


def fighting(state: Table, final: FinalBattle) -> list[int]:
    """The captains still in the final battle, in turn order."""
    return [c for c in state.turn_order(state.token, list(range(state.captains))) if final.crew[c] > 0]


def targets(state: Table, e: Effect) -> list[int]:
    if e.source == "final":
        return [c for c in fighting(state, state.final) if c != e.actor]
    others = [c for c in range(state.captains) if c != e.actor and c not in state.crews.out]
    if e.source in ("card", "ability"):
        others = [c for c in others if not state.on_base(c)]  # the Base tile protects from cards
    return others


def _asks_effect(state: Table, e: Effect) -> tuple[str, int] | None:
    """The actor aims a targeted effect; then an attack card's target may react."""
    if e.index >= len(e.effects):
        return None
    if e.target < 0:
        aimed = e.effects[e.index][0] in TARGETED and e.actor != state.phantom
        return ("target", e.actor) if aimed else None
    return ("react", e.target) if e.reacted else None


@stage(Effect, asks=_asks_effect, awaits=(Cargo,))
def effect(state: Table, e: Effect, rng: np.random.Generator) -> bool | None:
    """The effects in order, until one needs a decision or a battle; then the effect is done."""
    while e.index < len(e.effects):
        verb, n = e.effects[e.index]
        if verb in TARGETED and e.target < 0:
            aims = targets(state, e)
            if not aims:
                e.index += 1
                continue
            if e.actor == state.phantom:
                # A Phantom card aimed at one captain: the two players battle, the loser is hit.
                choices = [t for t in aims if t != state.phantom]
                if len(choices) == 1:
                    e.target = choices[0]
                else:
                    start_battle(state, choices, "loser", then=phantom_target)
                    return None
            else:
                return ASK
        if e.source == "card" and e.target >= 0 and not e.reacted and _can_react(state, e, e.target):
            e.reacted = True
            return ASK
        e.index += 1
        if _do(state, e, verb, n, rng) or state.over:
            return None  # work was called that comes back to this effect, or the Phantom sank a ship
    done(state)
    return None


@stage(Effect, awaits=(Battle,))
def phantom_target(state: Table, e: Effect, rng: np.random.Generator) -> None:
    e.target = e.outcome
    goto(e, effect)


@stage(Effect, awaits=(Battle,))
def after_battle(state: Table, e: Effect, rng: np.random.Generator) -> None:
    """A duel's or brawl's loser loses its crew dice."""
    kind, n = e.after_battle
    e.after_battle = None
    loser = e.outcome if kind == "brawl" else (e.target if e.outcome == e.actor else e.actor)
    state.crews.lose(loser, n)
    state.say(f"C{loser} loses the {kind} and {n} crew")
    goto(e, effect)


@effect.legal("target")
def legal_target(state: Table, e: Effect, seat: int) -> list[Action]:
    return [("target", t) for t in targets(state, e)]


@effect.on("target")
def on_target(state: Table, e: Effect, seat: int, action: Action, rng: np.random.Generator) -> None:
    e.target = action[1]


def _can_react(state: Table, e: Effect, c: int) -> bool:
    if c == state.phantom or e.card < 0 or not is_attack(CARDS[e.card]):
        return False
    return any(may_play(state, c, k) for k in set(state.hands[c]) if CARDS[k].reaction)


@effect.legal("react")
def legal_react(state: Table, e: Effect, seat: int) -> list[Action]:
    playable = sorted({k for k in state.hands[seat] if CARDS[k].reaction and may_play(state, seat, k)})
    return [("play", k) for k in playable] + [("pass",)]


@effect.on("react")
def on_react(state: Table, e: Effect, seat: int, action: Action, rng: np.random.Generator) -> None:
    if action[0] == "pass":
        return
    spend_card(state, seat, action[1])
    state.say(f"C{seat} defends with {CARDS[action[1]].name}")
    e.index = len(e.effects)  # the attack card is cancelled


def _do(state: Table, e: Effect, verb: str, n: Any, rng: np.random.Generator) -> bool:
    """Carry out one effect; True if it pushed work (a battle, a choice) that resumes the effect."""
    actor, target = e.actor, e.target
    if e.source == "final":
        _do_in_final(state, verb, n, actor, target)
        return False
    if verb == "coins":
        state.coins[actor] = max(0, state.coins[actor] + n)
    elif verb == "crew":
        if n > 0:
            state.crews.gain(actor, n + state.hooks.crew_bonus(state, actor))
        else:
            state.crews.lose(actor, -n)
    elif verb == "move":
        before = list(state.progress)
        move_ship(state, actor, n, state.phase)
        if actor == state.phantom and n > 0:
            phantom_catches(state, before)
    elif verb == "draw":
        for _ in range(n):
            draw(state, actor, rng)
    elif verb == "special":
        state.crews.take_special(actor, Die(n))
    elif verb == "discard":
        for _ in range(min(n, len(state.hands[actor]))):
            lose_card(state, actor, state.hands[actor][int(rng.integers(len(state.hands[actor])))])
    elif verb == "token":
        state.token, state.direction = actor, -state.direction
    elif verb == "hit_crew":
        state.crews.lose(target, n)
    elif verb == "hit_coins":
        state.coins[target] = max(0, state.coins[target] - n)
    elif verb == "steal_crew":
        for _ in range(n):
            state.crews.steal(actor, target)
    elif verb == "steal_coins":
        taken = min(n, state.coins[target])
        state.coins[target] -= taken
        state.coins[actor] += taken
    elif verb == "steal_card":
        if state.hands[target]:
            card = state.hands[target][int(rng.integers(len(state.hands[target])))]
            lose_card(state, target, card, to=actor)
    elif verb == "push":
        move_ship(state, target, -n, "action")
    elif verb == "duel":
        e.after_battle = ["duel", n]
        start_battle(state, [actor, target], "winner", then=after_battle)
        return True
    elif verb == "broadside":
        for c in range(state.captains):
            if c != actor and not (e.source == "card" and state.on_base(c)):
                state.crews.lose(c, n)
    elif verb == "brawl":
        fighters = [c for c in state.alive_captains() if not state.on_base(c)]
        if len(fighters) == 1:
            state.crews.lose(fighters[0], n)
        elif fighters:
            e.after_battle = ["brawl", n]
            start_battle(state, fighters, "loser", then=after_battle)
            return True
    elif verb == "kraken":
        for c in range(state.captains):
            if state.water(c) == TREACHEROUS:
                state.crews.lose(c, n)
    elif verb in state.hooks.effect_verbs:
        return state.hooks.effect_verbs[verb](state, e, n, rng)
    else:
        raise AssertionError(f"unknown effect verb {verb}")
    return False


def _do_in_final(state: Table, verb: str, n: int, actor: int, target: int) -> None:
    """Final-battle cards change the crews counted in the final battle."""
    crew = state.final.crew
    if verb == "crew":
        crew[actor] += n
    elif verb == "hit_crew":
        crew[target] = max(0, crew[target] - n)
    elif verb == "broadside":
        for c in fighting(state, state.final):
            if c != actor:
                crew[c] = max(0, crew[c] - n)
    else:
        raise AssertionError(f"{verb} is not a final-battle effect")
