"""Liar's dice in Lying Pirates' rules (one Betting phase), version 0.  See ``envs.lying_pirates.betting_env``."""

from envs.lying_pirates.betting_env import LiarsDiceGame, env, raw_env
from envs.lying_pirates.betting_game import BettingGameState, new_game

__all__ = ["BettingGameState", "LiarsDiceGame", "env", "new_game", "raw_env"]
