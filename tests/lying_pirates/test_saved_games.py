"""States and records saved by earlier engines load here and play on as they did (``savedkit``)."""

from __future__ import annotations

import pytest

from bidbluff import envs
from bidbluff.arena.records import replay
from tests.lying_pirates.savedkit import (
    ENV,
    FINISHED,
    RARE,
    RECORDS,
    STATES,
    digest,
    load_data,
    play_on,
    seen,
    signature,
)

SAVED = load_data(STATES)
RARE_CHAINS = load_data(RARE)
FINISHED_GAMES = load_data(FINISHED)
RECORDED = load_data(RECORDS)


def _every(items: list, n: int, name) -> list:
    """Every ``n``-th item in the default suite, the rest in the slow suite."""
    return [
        pytest.param(item, id=name(item), marks=() if i % n == 0 else pytest.mark.slow) for i, item in enumerate(items)
    ]


def _top_stage(item: dict) -> str:
    return f"t{item['table']}-{item['state']['stack'][-1]['stage']}"


@pytest.mark.parametrize("item", _every(SAVED, 4, _top_stage))
def test_saved_state_loads_and_plays_on(item):
    game = envs.game(ENV, **item["options"])
    state = game.state_from_dict(item["state"])
    assert seen(game, state) == item["seen"]
    assert play_on(game, state, item["seed"]) == item["play_on"]


@pytest.mark.parametrize("item", _every(RARE_CHAINS, 2, lambda item: signature(item["state"]).replace(" ", "/")))
def test_saved_state_in_a_rare_chain_of_work_loads_and_plays_on(item):
    test_saved_state_loads_and_plays_on(item)


@pytest.mark.parametrize("item", FINISHED_GAMES, ids=lambda item: f"t{item['table']}")
def test_finished_game_loads_with_its_last_observations(item):
    game = envs.game(ENV, **item["options"])
    state = game.state_from_dict(item["state"])
    assert state.is_terminal() and seen(game, state) == item["seen"]


@pytest.mark.parametrize("item", _every(RECORDED, 2, lambda item: f"t{item['table']}-seed{item['record']['seed']}"))
def test_record_replays_with_the_same_observations(item):
    digests = []
    replay(
        item["record"],
        on_step=lambda env, seat, action, text: digests.append(digest(env.observe(env.agent_selection)["observation"])),
    )
    assert digests == item["digests"]
