"""Spytails, version 0 of its ids and observation.  See ``envs.spytails.env``."""

from envs.spytails.env import SpytailsGame, env, raw_env
from envs.spytails.rules import SpytailsState, new_game

__all__ = ["SpytailsGame", "SpytailsState", "env", "new_game", "raw_env"]
