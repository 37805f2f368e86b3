"""Spytails, version 0 of its ids and observation.  See ``bidbluff.envs.spytails.env``."""

from bidbluff.envs.spytails.env import SpytailsGame, env, raw_env
from bidbluff.envs.spytails.rules import SpytailsState, new_game

__all__ = ["SpytailsGame", "SpytailsState", "env", "new_game", "raw_env"]
