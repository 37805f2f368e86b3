"""Liar's dice in Lying Pirates' rules (one Betting phase), version 0.  See ``bidbluff.envs.liars_dice.env``."""

from bidbluff.envs.liars_dice.env import LiarsDiceGame, env, raw_env
from bidbluff.envs.liars_dice.game import BettingGameState, new_game

__all__ = ["BettingGameState", "LiarsDiceGame", "env", "new_game", "raw_env"]
