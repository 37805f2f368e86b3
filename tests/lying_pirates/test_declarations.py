"""The stages' declarations say what a restore accepts: the stack the engine may build and the phase of each
stage of a phase's frame, exactly as the checks restated them by hand before the declarations (commit d7aa08e)."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import numpy as np
import pytest

from bidbluff.envs.core.game import EngineLoopError
from bidbluff.envs.lying_pirates import engine
from bidbluff.envs.lying_pirates.frames import (
    ActionPhase,
    Battle,
    BettingPhase,
    CaptainChoice,
    Cargo,
    CatchUp,
    Draft,
    Effect,
    Encounter,
    FinalAfterCard,
    FinalBattle,
    Influence,
    InfluenceSetup,
    KeepOne,
    MayorReveal,
    Placing,
    Reroll,
    SailPhase,
    TownChoosing,
    TownPlacing,
    Window,
)
from bidbluff.envs.lying_pirates.stack_rules import ABOVE, BOTTOM
from bidbluff.envs.lying_pirates.stages import STAGES

from .conftest import fresh, load, window

# stack_rules.ABOVE and BOTTOM as they were written by hand
WRITTEN_ABOVE = {
    Reroll: (
        (SailPhase, "sail_window"),
        (SailPhase, "tile_effect"),
        (Battle, "battle_resolve"),
        (Encounter, "raid_result"),
        (Encounter, "navy_result"),
    ),
    Battle: (
        (SailPhase, "battle_won"),
        (Effect, "after_battle"),
        (Effect, "phantom_target"),
        (MayorReveal, "bomb_battle"),
    ),
    Window: ((SailPhase, "move"), (CatchUp, "catchup"), (FinalBattle, "final_resolve")),
    Effect: (
        (Window, "window"),
        (ActionPhase, "action_window"),
        (SailPhase, "after_tile"),
        (FinalAfterCard, "final_after_card"),
    ),
    FinalAfterCard: ((Window, "final_window"),),
    Cargo: ((Effect, "effect"), (Window, "window"), (SailPhase, "sail")),
    KeepOne: ((Window, "window"), (SailPhase, "end_of_sail")),
    Influence: ((Window, "window"),),
    Encounter: ((SailPhase, "end_of_sail"),),
    MayorReveal: ((SailPhase, "sail"),),
    Draft: ((BettingPhase, "betting"),),
    InfluenceSetup: ((BettingPhase, "betting"), (Draft, "draft")),
    TownChoosing: ((InfluenceSetup, "influence_setup"),),
    TownPlacing: ((TownChoosing, "town_choose"),),
    Placing: ((BettingPhase, "betting"), (Draft, "draft"), (TownPlacing, "town_place")),
    CaptainChoice: ((BettingPhase, "betting"), (Draft, "draft"), (TownPlacing, "town_place"), (Placing, "place")),
}
WRITTEN_BOTTOM = {
    (BettingPhase, "betting"): "betting",
    (BettingPhase, "bet"): "betting",
    (SailPhase, "sail"): "betting",
    **{
        (SailPhase, s): "sail"
        for s in ("sail_window", "move", "battle_won", "tile_effect", "after_tile", "end_of_sail")
    },
    (ActionPhase, "action_window"): "action",
    (CatchUp, "catchup"): "action",
    (FinalBattle, "final_buy"): "final",
    (FinalBattle, "final_resolve"): "final",
}


def test_the_stack_a_restore_accepts_is_the_one_the_stages_declare():
    assert {kind: set(on) for kind, on in ABOVE.items()} == {kind: set(on) for kind, on in WRITTEN_ABOVE.items()}


def test_the_phase_of_a_bottom_frame_is_the_one_its_stage_declares():
    assert BOTTOM == WRITTEN_BOTTOM
    for (frame, name), phase in BOTTOM.items():
        assert frame(stage=name).phases[name] == phase == STAGES[name].phase


def test_a_step_goes_on_by_naming_the_next_step_and_every_stage_is_named_by_its_function():
    for name, stage in STAGES.items():
        assert stage.step.__name__ == name and stage.name == name


def test_an_answer_neither_closes_nor_opens_a_decision_apply_does():
    for name, stage in STAGES.items():
        for kind, decision in stage.decisions.items():
            assert "pending" not in inspect.getsource(decision.on), f"{name}: the answer to {kind!r}"


def test_no_step_sets_the_phase():
    folder = Path(engine.__file__).parent
    for module in engine.PARTS:
        tree = ast.parse((folder / f"{module.__name__.rsplit('.', 1)[1]}.py").read_text())
        targets = [t for node in ast.walk(tree) if isinstance(node, ast.Assign) for t in node.targets]
        assert not [t for t in targets if isinstance(t, ast.Attribute) and t.attr == "phase"], module.__name__


def test_a_step_that_never_asks_nor_moves_on_stops_the_engine(monkeypatch):
    state = load(window(fresh(3), "sail", token=0, winner=0))
    monkeypatch.setattr(STAGES["window"], "step", lambda state, frame, rng: None)
    state.pending = []
    with pytest.raises(EngineLoopError, match="Lying Pirates' automatic steps ran past"):
        engine.advance(state, np.random.default_rng(0))
