"""The rulebook's variant cards (``variants=[...]``), each a hook into the base game's steps.

Every card but for the names the sources give is a stand-in (``docs/rules/lying_pirates.md``).
"Rich Harbour" (four starting coins) and "Instant Death"'s mortal crews are set up by ``setup.new_game``.
"""

from __future__ import annotations

import numpy as np

from bidbluff.envs.core.codec import Action
from bidbluff.envs.lying_pirates.betting import BettingRules
from bidbluff.envs.lying_pirates.cards import draw
from bidbluff.envs.lying_pirates.content import TREACHEROUS
from bidbluff.envs.lying_pirates.frames import KeepOne
from bidbluff.envs.lying_pirates.hooks import Hooks, buy_one
from bidbluff.envs.lying_pirates.movement import move_ship
from bidbluff.envs.lying_pirates.stages import ASK, call, done, stage
from bidbluff.envs.lying_pirates.table import Table

NO_EXACT = BettingRules(exact=False)  # "Pirate Code"


def _bounty(state: Table) -> None:
    """Each loser of the Betting phase pays its winner a coin."""
    winner = state.result["winner"]
    for c in state.result["losers"]:
        if state.coins[c] > 0 and not state.is_out(c):
            state.coins[c] -= 1
            state.coins[winner] += 1


def _strong_winds(state: Table, movers: list[int]) -> None:
    move_ship(state, movers[0], 1, "sail")  # the Betting phase's winner sails one tile further


def _supply_drop(state: Table, rng: np.random.Generator) -> None:
    for p in state.players():
        if len(state.hands[p]) < 2:
            draw(state, p, rng)


def _kraken_wakes(state: Table) -> None:
    for c in state.alive_captains():
        if state.water(c) == TREACHEROUS:
            state.crews.lose(c, 1)


def _last_standing(state: Table) -> None:
    """Instant Death: the game goes on without sunk captains until one player is left."""
    if not state.crews.out or state.over:
        return
    alive = [p for p in range(state.num_players) if p not in state.crews.out]
    if state.phantom >= 0:
        if len(alive) == 1:
            state.end(alive)  # the other player sank: the one left wins
        elif not alive:
            state.end([state.phantom])
    elif len(alive) <= 1:
        state.end(alive)  # none left: the farthest ship ranks first (no winner)


def _deep_pockets(state: Table, c: int, die: str) -> bool:
    return True  # every reroll is free


# -- "Draw Two, Keep One" ------------------------------------------------------------------------------------
def _buy_two_keep_one(state: Table, c: int, what: str, rng: np.random.Generator) -> None:
    """Each purchase draws two and the buyer keeps one (a decision), the other going to the discard."""
    if c == state.phantom:
        buy_one(state, c, what, rng)
        return
    drawn = [k for k in (state.hooks.draw[what](state, c, rng) for _ in range(2)) if k >= 0]
    if len(drawn) == 2:
        call(state, KeepOne(c, what, drawn))
        return
    for k in drawn:
        state.hooks.take[what](state, c, k)


@stage(KeepOne, asks=lambda state, k: ("influence_return" if k.what == "influence" else "card_return", k.seat))
def keep_one(state: Table, frame: KeepOne, rng: np.random.Generator) -> bool:
    """The buyer gives one of the two cards back."""
    return ASK


@keep_one.legal("card_return")
def legal_card_return(state: Table, frame: KeepOne, seat: int) -> list[Action]:
    return [("return_card", k) for k in sorted(set(frame.cards))]


@keep_one.on("card_return")
def on_card_return(state: Table, frame: KeepOne, seat: int, action: Action, rng: np.random.Generator) -> None:
    state.discard.append(action[1])
    _keep_other(state, frame, action[1])


@keep_one.legal("influence_return")
def legal_influence_return(state: Table, frame: KeepOne, seat: int) -> list[Action]:
    return [("return_influence", k) for k in sorted(set(frame.cards))]


@keep_one.on("influence_return")
def on_influence_return(state: Table, frame: KeepOne, seat: int, action: Action, rng: np.random.Generator) -> None:
    state.ext["influence_discard"].append(action[1])  # face up: what was given back is public
    _keep_other(state, frame, action[1])


def _keep_other(state: Table, frame: KeepOne, returned: int) -> None:
    done(state)
    cards = list(frame.cards)
    cards.remove(returned)
    state.hooks.take[frame.what](state, frame.seat, cards[0])


def register(hooks: Hooks, names: list[str]) -> None:
    """Hook the variant cards ``names`` into the steps."""
    if "Pirate Code" in names:
        hooks.betting_rules = NO_EXACT
    if "Bounty" in names:
        hooks.sail_start.append(_bounty)
    if "Strong Winds" in names:
        hooks.after_move.append(_strong_winds)
    if "Supply Drop" in names:
        hooks.action_start.append(_supply_drop)
    if "Kraken Wakes" in names:
        hooks.round_end.append(_kraken_wakes)
    if "Deep Pockets" in names:
        hooks.free_reroll.insert(0, _deep_pockets)
    if "Draw Two, Keep One" in names:
        hooks.buy = _buy_two_keep_one
    if "Instant Death" in names:
        hooks.after_step.append(_last_standing)
