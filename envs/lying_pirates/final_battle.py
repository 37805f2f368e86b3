"""The final battle of the captains back on the Base together.

final_start       each finalist's crew: its dice, every special counting two (no limit)
final_buy         in turn, each may buy crew dice at two coins each
final_roll        everyone in the battle rolls; a window (``Window`` of kind "final") opens in
                  which each may reroll (a coin) and play one final-battle card a battle
final_after_card  a card may knock captains out, and end the battle being fought
final_resolve     skulls (or the worst roll) lose a die (``battle.final_roll_lost``); the last with crew wins
"""

from __future__ import annotations

import numpy as np

from bidbluff.envs.core.codec import Action
from bidbluff.envs.lying_pirates.battle import final_roll_lost
from bidbluff.envs.lying_pirates.cards import forget
from bidbluff.envs.lying_pirates.content import CARDS, CREW_COST
from bidbluff.envs.lying_pirates.crew import BOARD
from bidbluff.envs.lying_pirates.dice import roll_battle_die
from bidbluff.envs.lying_pirates.effects import fighting, start_effect
from bidbluff.envs.lying_pirates.frames import Effect, FinalAfterCard, FinalBattle, Window
from bidbluff.envs.lying_pirates.rerolls import reroll_cost
from bidbluff.envs.lying_pirates.stages import ASK, call, done, goto, stage
from bidbluff.envs.lying_pirates.table import FINAL, Table
from bidbluff.envs.lying_pirates.windows import next_turn


@stage(FinalBattle, phase=FINAL)
def final_start(state: Table, f: FinalBattle, rng: np.random.Generator) -> None:
    finalists = state.turn_order(state.token, state.finished)
    f.crew = [0] * state.captains
    for c in finalists:
        f.crew[c] = state.crews.final_battle_crew(c)
        for d in state.crews.specials(c):
            state.crews.holder[int(d)] = BOARD
    f.rolling, f.battles, f.buying = finalists, 0, list(finalists)
    f.rolls = [-1] * state.captains
    f.used = [[False, False] for _ in range(state.captains)]
    state.say(f"final battle between {finalists}")
    goto(f, final_buy)


def _asks_buy_crew(state: Table, f: FinalBattle) -> tuple[str, int] | None:
    return ("buy_crew", f.buying[0]) if f.buying and state.coins[f.buying[0]] >= CREW_COST else None


@stage(FinalBattle, phase=FINAL, asks=_asks_buy_crew)
def final_buy(state: Table, f: FinalBattle, rng: np.random.Generator) -> bool | None:
    queue = f.buying
    while queue and state.coins[queue[0]] < CREW_COST:
        queue.pop(0)
    if queue:
        return ASK
    goto(f, final_roll)
    return None


@final_buy.legal("buy_crew")
def legal_buy_crew(state: Table, f: FinalBattle, seat: int) -> list[Action]:
    return [("buy",), ("pass",)]


@final_buy.on("buy_crew")
def on_buy_crew(state: Table, f: FinalBattle, seat: int, action: Action, rng: np.random.Generator) -> None:
    if action[0] == "pass":
        f.buying.pop(0)
    else:
        state.coins[seat] -= CREW_COST
        f.crew[seat] += 1


@stage(FinalBattle, phase=FINAL)
def final_roll(state: Table, f: FinalBattle, rng: np.random.Generator) -> None:
    for c in f.rolling:
        f.rolls[c] = roll_battle_die(rng)
    window = Window("final", [c for c in fighting(state, f) if c != state.phantom], stage=final_window.name)
    call(state, window, then=final_resolve)


@stage(Window, asks=lambda state, w: ("final", w.seat), awaits=(FinalAfterCard,))
def final_window(state: Table, w: Window, rng: np.random.Generator) -> bool | None:
    return next_turn(state, w)


@final_window.legal("final")
def legal_final(state: Table, w: Window, seat: int) -> list[Action]:
    f = state.final
    actions: list[Action] = [("pass",)]
    if seat in f.rolling and state.coins[seat] >= reroll_cost(state, seat, "final") and not f.used[seat][0]:
        actions.append(("reroll",))
    if not f.used[seat][1]:
        actions += [("play", k) for k in sorted(set(state.hands[seat])) if CARDS[k].final_battle]
    return actions


@final_window.on("final")
def on_final(state: Table, w: Window, seat: int, action: Action, rng: np.random.Generator) -> None:
    f = state.final
    w.took_turn(passed=action[0] == "pass")
    if action[0] == "pass":
        return
    if action[0] == "reroll":
        state.coins[seat] -= reroll_cost(state, seat, "final")
        f.used[seat][0] = True
        f.rolls[seat] = roll_battle_die(rng)
        return
    card = action[1]
    state.hands[seat].remove(card)
    forget(state, seat, card)
    state.discard.append(card)
    f.used[seat][1] = True
    state.say(f"C{seat} plays {CARDS[card].name} in the final battle")
    call(state, FinalAfterCard())
    start_effect(state, seat, CARDS[card].effect, "final", card)


@stage(FinalAfterCard, awaits=(Effect,))
def final_after_card(state: Table, frame: FinalAfterCard, rng: np.random.Generator) -> None:
    done(state)
    w = state.window  # the final battle's window, which called this
    f = state.final
    alive = fighting(state, f)
    if len(alive) == 1:
        state.end(alive)
        return
    w.order = [c for c in w.order if c in alive]
    w.turn %= max(1, len(w.order))
    f.rolling = [c for c in f.rolling if c in alive]
    if len(f.rolling) < 2:
        # the card knocked out the last rival of this battle: it ends with that loss
        done(state)
        f.battles += 1
        f.used = [[False, False] for _ in range(state.captains)]
        f.rolling = alive
        goto(f, final_roll)


@stage(FinalBattle, phase=FINAL, awaits=(Window,))
def final_resolve(state: Table, f: FinalBattle, rng: np.random.Generator) -> None:
    alive = fighting(state, f)
    losers = final_roll_lost(f, alive)
    if losers:
        state.say(f"final battle {f.battles}: {losers} lose a crew die")
        f.used = [[False, False] for _ in range(state.captains)]
    left = [c for c in alive if f.crew[c] > 0]
    if len(left) == 1:
        state.end(left)
    else:
        goto(f, final_roll)
