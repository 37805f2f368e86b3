"""Lying Pirates' numbers, dice rolls and the names of its decisions: what every step of the engine shares.

The engine itself: ``state.py`` (the state and its stack of work in progress), ``engine.py`` (the table
of stages and the loop that runs them), one module per part of a round (``betting_phase``, ``sailing``,
``dice_rolls``, ``effects``, ``windows``, ``action_phase``, ``final_battle``, ``setup_steps``) and one
per option (``cities``, ``captains``, ``variant_cards``, ``merchants``); ``setup.new_game`` starts a game.
"""

from __future__ import annotations

import numpy as np

from bidbluff.envs.lying_pirates.battle import BATTLE_DIE
from bidbluff.envs.lying_pirates.betting import BettingRules
from bidbluff.envs.lying_pirates.dice import FACES, Die

SAIL_DIE = (1, 1, 1, 2, 2, 2)
PIRATE_DIE = "XXOOOO"
TREASURE_DIE = "XXXOOO"
START_COINS = 2
CARD_COST = 2
CREW_COST = 2  # final battle: one crew die for two coins
REROLL_COST = 1
GOLD_USED, SILVER_USED, REROLL_USED = 0, 1, 2
DECISIONS = ("place", "draft", "bet", "reroll", "window", "target", "react", "catchup", "buy_crew", "final")
# Decisions only the options bring (the base observation's one-hot stays on DECISIONS).
EXT_DECISIONS = (
    "captain",
    "town_place",
    "town_choose",
    "influence_return",
    "influence_town",
    "influence_mode",
    "cargo",
    "bomb",
    "card_return",
    "merchant",
    "loot",
)
ALL_DECISIONS = frozenset(DECISIONS + EXT_DECISIONS)
NO_EXACT = BettingRules(exact=False)  # the "Pirate Code" variant card
SUNK_PENALTY = 100  # a sunk captain's score: tiles sailed less this, below every ship still sailing


def roll_die(kind: int, rng: np.random.Generator) -> int:
    """A face of a cup's die of ``kind``."""
    return FACES[Die(kind)][int(rng.integers(6))]


def roll_battle_die(rng: np.random.Generator) -> int:
    return int(BATTLE_DIE[int(rng.integers(8))])
