"""Shared fixtures: every registered env at every player count it supports."""

from __future__ import annotations

import pytest

import envs


def env_cases() -> list[tuple[str, int]]:
    cases = []
    for name in envs.ENVS:
        game = envs.load(name).raw_env.game
        cases += [(name, n) for n in range(game.min_players, game.max_players + 1)]
    return cases


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if {"env_name", "num_players"} <= set(metafunc.fixturenames):
        cases = env_cases()
        metafunc.parametrize(("env_name", "num_players"), cases, ids=[f"{name}-{n}p" for name, n in cases])
