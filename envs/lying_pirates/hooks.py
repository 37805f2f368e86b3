"""What the options add to the engine's steps: each option module registers its hooks here.

A base game's ``Hooks`` is the default one: empty lists, the base costs and betting rules, so its steps
run as the rulebook's base game.  ``options.hooks_for`` builds a game's hooks from its setup options.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from bidbluff.envs.core.codec import Action
from bidbluff.envs.lying_pirates.betting import LYING_PIRATES, BettingRules
from bidbluff.envs.lying_pirates.cards import draw_card, take_card
from bidbluff.envs.lying_pirates.content import CARD_COST

if TYPE_CHECKING:
    from bidbluff.envs.lying_pirates.frames import Effect
    from bidbluff.envs.lying_pirates.table import Table

Rng = np.random.Generator


@dataclass
class Hooks:
    """Where the options change the base game's steps; each step that has a hook point calls its hooks."""

    betting_rules: BettingRules = LYING_PIRATES
    round_start: list[Callable[[Table], None]] = field(default_factory=list)
    after_betting: list[Callable[[Table], None]] = field(default_factory=list)  # may push work before sailing
    sail_start: list[Callable[[Table], None]] = field(default_factory=list)  # the winner has taken the coin
    after_move: list[Callable[[Table, list[int]], None]] = field(default_factory=list)  # the movers
    after_tile: list[Callable[[Table, Rng], None]] = field(default_factory=list)  # may push work after the tile
    action_start: list[Callable[[Table, Rng], None]] = field(default_factory=list)
    round_end: list[Callable[[Table], None]] = field(default_factory=list)
    after_step: list[Callable[[Table], None]] = field(default_factory=list)  # after every automatic step
    battle_tiebreak: list[Callable[[Table, list[int], str], list[int]]] = field(default_factory=list)
    free_reroll: list[Callable[[Table, int, str], bool]] = field(default_factory=list)  # (captain, die)
    reroll_dice: dict[str, Callable[[Table, int, Rng], None]] = field(default_factory=dict)  # the options' dice
    card_cost: Callable[[Table, int], int] = lambda state, c: CARD_COST
    crew_bonus: Callable[[Table, int], int] = lambda state, c: 0  # extra dice a "crew n" gain gives
    # priority-window actions a captain may take beyond the base ones, and what each new action kind does
    window_actions: list[Callable[[Table, int], list[Action]]] = field(default_factory=list)
    window_acts: dict[str, Callable[[Table, int, Action, Rng], None]] = field(default_factory=dict)
    # effect verbs beyond the base ones: carry one out, True if it pushed work that resumes the effect
    effect_verbs: dict[str, Callable[[Table, Effect, int, Rng], bool]] = field(default_factory=dict)
    # the piles a purchase draws from ("card", and the expansion's "influence"): draw one (-1: none), take it
    draw: dict[str, Callable[[Table, int, Rng], int]] = field(default_factory=lambda: {"card": draw_card})
    take: dict[str, Callable[[Table, int, int], None]] = field(default_factory=lambda: {"card": take_card})
    buy: Callable[[Table, int, str, Rng], None] = lambda state, c, what, rng: buy_one(state, c, what, rng)
    resample_hidden: list[Callable[[Table, int, Rng], None]] = field(default_factory=list)


def buy_one(state: Table, c: int, what: str, rng: Rng) -> None:
    """A purchase: the top card of the pile ``what`` goes to ``c`` (if there is one)."""
    k = state.hooks.draw[what](state, c, rng)
    if k >= 0:
        state.hooks.take[what](state, c, k)
