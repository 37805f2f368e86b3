"""Random play with each option set on: 1,000 games per option set (200 per player count), on the engine."""

from __future__ import annotations

import json

import numpy as np
import pytest

from bidbluff.envs.core.game import play_randomly
from bidbluff.envs.lying_pirates.content import VARIANTS
from bidbluff.envs.lying_pirates.setup import new_game
from bidbluff.envs.lying_pirates.state import LyingPiratesState

MAX_STEPS = 5000
OPTION_SETS = {
    "cities": {"expansion": "cities_of_greed"},
    "abilities": {"abilities": "chosen"},
    "variants": {"variants": [v.name for v in VARIANTS]},
    "merchants": {"merchant_ships": True},
    "everything": {
        "expansion": "cities_of_greed",
        "abilities": "dealt",
        "variants": [v.name for v in VARIANTS],
        "merchant_ships": True,
        "map": "extended",
        "map_setup": "collaborative",
        "draft": True,
    },
}


@pytest.mark.slow
@pytest.mark.parametrize("num_players", range(2, 7))
@pytest.mark.parametrize("option_set", sorted(OPTION_SETS))
def test_random_games_with_options_end(option_set, num_players):
    options = OPTION_SETS[option_set]
    for seed in range(200):
        rng = np.random.default_rng(seed)
        state = new_game(num_players, rng, **options)
        play_randomly(state, rng, MAX_STEPS)
        assert state.is_terminal(), f"seed {seed}: game did not end"
        if seed % 50 == 0:
            assert LyingPiratesState.from_dict(json.loads(json.dumps(state.to_dict()))) == state
