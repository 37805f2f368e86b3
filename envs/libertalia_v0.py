"""Libertalia, version 0 of its ids and observation.  See ``bidbluff.envs.libertalia.env``."""

from bidbluff.envs.libertalia.env import LibertaliaGame, env, raw_env
from bidbluff.envs.libertalia.rules import LibertaliaState, new_game, resample_hidden

__all__ = ["LibertaliaGame", "LibertaliaState", "env", "new_game", "raw_env", "resample_hidden"]
