"""The final battle of the captains back on the Base together.

final_start       each finalist's crew: its dice, every special counting two (no limit)
final_buy         in turn, each may buy crew dice at two coins each
final_roll        everyone in the battle rolls; a window (``Window`` of kind "final") opens in
                  which each may reroll (a coin) and play one final-battle card a battle
final_after_card  a card may knock captains out, and end the battle being fought
final_resolve     skulls (or the worst roll) lose a die; the last captain with crew wins
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from bidbluff.envs.core.codec import Action
from bidbluff.envs.lying_pirates import battle
from bidbluff.envs.lying_pirates.battle import Icon
from bidbluff.envs.lying_pirates.cards import forget
from bidbluff.envs.lying_pirates.content import CARDS
from bidbluff.envs.lying_pirates.crew import BOARD
from bidbluff.envs.lying_pirates.dice_rolls import reroll_cost
from bidbluff.envs.lying_pirates.effects import fighting, start_effect
from bidbluff.envs.lying_pirates.frames import FinalAfterCard, FinalBattle, Window
from bidbluff.envs.lying_pirates.rules import CREW_COST, roll_battle_die
from bidbluff.envs.lying_pirates.windows import next_turn

if TYPE_CHECKING:
    from bidbluff.envs.lying_pirates.state import LyingPiratesState as State


def final_start(state: State, f: FinalBattle, rng: np.random.Generator) -> None:
    state.phase = "final"
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
    f.stage = "final_buy"


def final_buy(state: State, f: FinalBattle, rng: np.random.Generator) -> None:
    queue = f.buying
    while queue and state.coins[queue[0]] < CREW_COST:
        queue.pop(0)
    if queue:
        state.pending = ["buy_crew", queue[0]]
    else:
        f.stage = "final_roll"


def legal_buy_crew(state: State, f: FinalBattle, seat: int) -> list[Action]:
    return [("buy",), ("pass",)]


def on_buy_crew(state: State, f: FinalBattle, seat: int, action: Action, rng: np.random.Generator) -> None:
    state.pending = []
    if action[0] == "pass":
        f.buying.pop(0)
    else:
        state.coins[seat] -= CREW_COST
        f.crew[seat] += 1


def final_roll(state: State, f: FinalBattle, rng: np.random.Generator) -> None:
    for c in f.rolling:
        f.rolls[c] = roll_battle_die(rng)
    f.stage = "final_resolve"
    state.push(Window("final", [c for c in fighting(state, f) if c != state.phantom], stage="final_window"))


def legal_final(state: State, w: Window, seat: int) -> list[Action]:
    f = state.final
    actions: list[Action] = [("pass",)]
    if seat in f.rolling and state.coins[seat] >= reroll_cost(state, seat, "final") and not f.used[seat][0]:
        actions.append(("reroll",))
    if not f.used[seat][1]:
        actions += [("play", k) for k in sorted(set(state.hands[seat])) if CARDS[k].final_battle]
    return actions


def on_final(state: State, w: Window, seat: int, action: Action, rng: np.random.Generator) -> None:
    f = state.final
    w.took_turn(passed=action[0] == "pass")
    state.pending = []
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
    state.push(FinalAfterCard())
    start_effect(state, seat, CARDS[card].effect, "final", card)


def final_after_card(state: State, frame: FinalAfterCard, rng: np.random.Generator) -> None:
    state.pop()
    w = state.stack[-1]  # the final battle's window
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
        state.pop()
        f.battles += 1
        f.used = [[False, False] for _ in range(state.captains)]
        f.rolling = alive
        f.stage = "final_roll"


def final_resolve(state: State, f: FinalBattle, rng: np.random.Generator) -> None:
    alive = fighting(state, f)
    fight = battle.FinalBattle({c: f.crew[c] for c in alive}, list(f.rolling), f.battles)
    losers = fight.resolve({c: Icon(f.rolls[c]) for c in f.rolling})
    for c, n in fight.crew.items():
        f.crew[c] = n
    if losers:
        state.say(f"final battle {f.battles + 1}: {losers} lose a crew die")
        f.used = [[False, False] for _ in range(state.captains)]
    f.rolling, f.battles = fight.rolling, fight.battles
    if fight.winner is not None:
        state.end([fight.winner])
    else:
        f.stage = "final_roll"


STAGES = {
    "final_start": (FinalBattle, final_start, {}),
    "final_buy": (FinalBattle, final_buy, {"buy_crew": (legal_buy_crew, on_buy_crew)}),
    "final_roll": (FinalBattle, final_roll, {}),
    "final_window": (Window, next_turn, {"final": (legal_final, on_final)}),
    "final_after_card": (FinalAfterCard, final_after_card, {}),
    "final_resolve": (FinalBattle, final_resolve, {}),
}
