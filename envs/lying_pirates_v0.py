"""Lying Pirates (base game), version 0.  See ``bidbluff.envs.lying_pirates.env``."""

from bidbluff.envs.lying_pirates.env import LyingPiratesGame, env, raw_env
from bidbluff.envs.lying_pirates.setup import new_game
from bidbluff.envs.lying_pirates.state import LyingPiratesState, resample_hidden

__all__ = ["LyingPiratesGame", "LyingPiratesState", "env", "new_game", "raw_env", "resample_hidden"]
