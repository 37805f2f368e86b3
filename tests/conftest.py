"""Shared fixtures: every registered env at every player count it supports."""

from __future__ import annotations

import os
from typing import Any

# One intra-op thread per test process: pytest-xdist runs a process per core, and torch's default of a thread
# per core in each of them has the small forward passes of the tests wait on each other's spinning threads.
os.environ.setdefault("OMP_NUM_THREADS", "1")

import pytest

from bidbluff import envs


def case_id(name: str, n: int, options: dict) -> str:
    extra = "".join(f"-{k}={v}" for k, v in options.items())
    return f"{name}-{n}p{extra}"


def env_cases() -> list[Any]:
    """``(env_name, num_players, env_options)`` params: every env at every player count, plus the extra
    tables its Game lists in ``test_configs``.  A config with ``"slow": True`` runs in the slow suite only
    (``make test-slow``, which CI runs too)."""
    cases = []
    for name in envs.ENVS:
        game = envs.game(name)
        for n in range(game.min_players, game.max_players + 1):
            cases.append(pytest.param(name, n, {}, id=case_id(name, n, {})))
        for config in game.test_configs:
            options = dict(config)
            marks = [pytest.mark.slow] if options.pop("slow", False) else []
            n = options.pop("num_players")
            cases.append(pytest.param(name, n, options, marks=marks, id=case_id(name, n, options)))
    return cases


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if {"env_name", "num_players", "env_options"} <= set(metafunc.fixturenames):
        metafunc.parametrize(("env_name", "num_players", "env_options"), env_cases())
