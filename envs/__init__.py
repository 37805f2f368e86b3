"""bidbluff environments.  ``ENVS`` lists every registered versioned env module; ``make`` builds an env,
``game`` the configured ``Game`` behind it."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

ENVS = ("libertalia_v0", "liars_dice_v0", "lying_pirates_v0", "spytails_v0")


def load(name: str) -> ModuleType:
    """The versioned env module ``name`` (e.g. ``"libertalia_v0"``)."""
    if name not in ENVS:
        raise ValueError(f"unknown env {name!r}; registered: {', '.join(ENVS)}")
    return importlib.import_module(f"bidbluff.envs.{name}")


def game(name: str, **options: Any) -> Any:
    """The ``Game`` of env ``name`` configured with its setup ``options`` (``bidbluff.envs.game("lying_pirates_v0",
    expansion="cities_of_greed")``): its codec, observation size and player counts are the ones a table
    with those options has.  Sizes must come from here, not from the env class's unconfigured prototype."""
    return type(load(name).raw_env.game)(**options)


def make(name: str, raw: bool = False, **kwargs: Any) -> Any:
    """``bidbluff.envs.make("libertalia_v0", num_players=4)``: the wrapped env (``raw=True``: raw_env)."""
    module = load(name)
    return module.raw_env(**kwargs) if raw else module.env(**kwargs)
