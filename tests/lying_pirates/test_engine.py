"""The engine's declared table of stages, its stack of frames, the options' hooks and the saved format."""

from __future__ import annotations

import pytest

from bidbluff.envs.lying_pirates import sailing, stages, windows
from bidbluff.envs.lying_pirates.betting import LYING_PIRATES
from bidbluff.envs.lying_pirates.engine import STAGES, check_table, frame_from_dict
from bidbluff.envs.lying_pirates.frames import Battle, Frame, Reroll, SailPhase, Window
from bidbluff.envs.lying_pirates.hooks import Hooks
from bidbluff.envs.lying_pirates.options import hooks_for
from bidbluff.envs.lying_pirates.state import LyingPiratesState
from bidbluff.envs.lying_pirates.table import ALL_DECISIONS
from bidbluff.envs.lying_pirates.variant_cards import NO_EXACT
from tests.lying_pirates.savedkit import FORMAT_0, load_data

from .conftest import SKULL, SWORDS, Script, fresh, load, play, skip, window
from .optionkit import ready

ANNE, BOB = 0, 1


def test_every_stage_belongs_to_a_frame_that_starts_at_a_declared_stage():
    for name, stage in STAGES.items():
        assert issubclass(stage.frame, Frame), name
        assert STAGES[stage.frame.first].frame is stage.frame, name
    assert set().union(*(stage.decisions for stage in STAGES.values())) == ALL_DECISIONS


def test_a_bad_table_is_refused():
    with pytest.raises(AssertionError, match="starts at 'effect'"):
        check_table({"phantom_target": STAGES["phantom_target"]})
    shout = stages.Stage("shouting", Window, windows.window.step, asks=windows.window.asks)
    shout.decisions["shout"] = STAGES["window"].decisions["window"]
    with pytest.raises(AssertionError, match="codec does not know"):
        check_table({**STAGES, "shouting": shout})
    with pytest.raises(AssertionError, match="no stage opens"):
        check_table({name: stage for name, stage in STAGES.items() if name != "catchup"})
    with pytest.raises(AssertionError, match="declared twice"):
        stages.stage(SailPhase)(sailing.sail.step)


def test_work_is_pushed_over_the_step_that_waits_for_it_and_a_battle_hands_back_its_result():
    state = load(window(fresh(3), "sail", token=ANNE, winner=ANNE, survivors=(BOB,)))
    assert [type(f) for f in state.stack] == [SailPhase, Window] and state.stack[0].stage == "move"
    rng = Script(SWORDS, SKULL, then=0)
    skip(state, rng, "window")
    # the window popped; the ships moved and battle for the tile, the Sail phase waiting for the result
    assert [type(f) for f in state.stack] == [SailPhase, Battle, Reroll] and state.stack[0].stage == "battle_won"
    play(state, rng, ("keep",), ("keep",))
    assert state.resolver == ANNE and "battle for a winner: C0" in state.log


def test_frames_are_saved_with_their_stage_and_an_unknown_stage_is_refused():
    state = load(window(fresh(3), "action", token=ANNE, winner=ANNE))
    data = state.to_dict()
    assert data["format"] == 1 and [f["stage"] for f in data["stack"]] == ["catchup", "window"]
    assert LyingPiratesState.from_dict(data) == state
    with pytest.raises(ValueError, match="no Lying Pirates stage 'bogus'"):
        frame_from_dict({"stage": "bogus"})
    with pytest.raises(ValueError, match="format 2"):
        LyingPiratesState.from_dict({**data, "format": 2})


def test_a_state_of_the_old_format_is_refused():
    old = load_data(FORMAT_0)
    assert "format" not in old and old["effect"]["then"]
    with pytest.raises(ValueError, match=r"^format: Lying Pirates state format 0 is not 1"):
        LyingPiratesState.from_dict(old)


def test_the_base_game_has_no_hooks_and_each_option_hooks_what_it_changes():
    assert hooks_for(None) == Hooks() and Hooks().betting_rules == LYING_PIRATES
    pirate_code = hooks_for(ready(3, variants=["Pirate Code"])["ext"])
    assert pirate_code.betting_rules == NO_EXACT and not pirate_code.window_acts
    cities = hooks_for(ready(3, expansion="cities_of_greed")["ext"])
    assert set(cities.window_acts) == {"influence", "buy_influence"}
    assert set(cities.effect_verbs) == {"influence", "cargo"}
