"""Shared fixtures: every registered env at every player count it supports."""

from __future__ import annotations

import pytest

import envs


def env_cases() -> list[tuple[str, int, dict]]:
    """Every env at every player count, plus the extra tables its Game lists in ``test_configs``."""
    cases = []
    for name in envs.ENVS:
        game = envs.load(name).raw_env.game
        cases += [(name, n, {}) for n in range(game.min_players, game.max_players + 1)]
        for config in game.test_configs:
            options = dict(config)
            cases.append((name, options.pop("num_players"), options))
    return cases


def case_id(name: str, n: int, options: dict) -> str:
    extra = "".join(f"-{k}={v}" for k, v in options.items())
    return f"{name}-{n}p{extra}"


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if {"env_name", "num_players", "env_options"} <= set(metafunc.fixturenames):
        cases = env_cases()
        metafunc.parametrize(("env_name", "num_players", "env_options"), cases, ids=[case_id(*c) for c in cases])
