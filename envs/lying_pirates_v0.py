"""Lying Pirates (base game), version 0.  See ``envs.lying_pirates.env``."""

from envs.lying_pirates.env import LyingPiratesGame, env, raw_env
from envs.lying_pirates.rules import LyingPiratesState, new_game, resample_hidden

__all__ = ["LyingPiratesGame", "LyingPiratesState", "env", "new_game", "raw_env", "resample_hidden"]
