"""The engine's table of stages and the loop that runs them.

Every stage is declared once, at the end of the module of its part of the round, and gathered here: the
frame it belongs to, its step (run by ``advance`` while no decision is open) and the decisions it may
open, each with its legal actions and what answering it does.  A round reads down the table: a Betting
phase (``betting_phase``), a Sail phase (``sailing``, with rerolls and battles from ``dice_rolls``,
priority windows from ``windows``, tile effects from ``effects``), an Action phase (``action_phase``),
and at the end the final battle (``final_battle``).  The options' stages come after the base game's.
The table is checked when this module is imported.

From one decision to the next, e.g. the last pass in the Sail phase's window: ``state.apply`` finds the
top frame (a ``Window``, stage "window") and calls its decision's ``on`` (``windows.on_window``); then
``advance`` runs the top frame's step: ``windows.next_turn`` sees every seat passed and pops the window;
the ``SailPhase`` under it is at "move" (``sailing.move``): the ships sail and two or more push a
``Battle`` (``dice_rolls.battle_roll``), which pushes a ``Reroll`` whose step opens the next decision.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from bidbluff.envs.core.codec import Action
from bidbluff.envs.lying_pirates import (
    action_phase,
    betting_phase,
    captains,
    cargo,
    cities,
    dice_rolls,
    effects,
    final_battle,
    influence,
    merchants,
    sailing,
    setup_steps,
    variant_cards,
    windows,
)
from bidbluff.envs.lying_pirates.frames import Frame
from bidbluff.envs.lying_pirates.rules import ALL_DECISIONS

if TYPE_CHECKING:
    from bidbluff.envs.lying_pirates.state import LyingPiratesState as State


@dataclass(frozen=True)
class Decision:
    legal: Callable[[State, Any, int], list[Action]]  # (state, frame, seat)
    on: Callable[[State, Any, int, Action, np.random.Generator], None]  # (state, frame, seat, action, rng)


@dataclass(frozen=True)
class Stage:
    frame: type[Frame]
    step: Callable[[State, Any, np.random.Generator], None]  # (state, frame, rng)
    decisions: Mapping[str, Decision] = field(default_factory=dict)


def make_table(*parts: Mapping[str, tuple]) -> dict[str, Stage]:
    """One table from the modules' ``STAGES``: name -> (frame, step, {decision: (legal, on)})."""
    table: dict[str, Stage] = {}
    for part in parts:
        for name, (frame, step, decisions) in part.items():
            if name in table:
                raise AssertionError(f"stage {name!r} is declared twice")
            table[name] = Stage(frame, step, {kind: Decision(*fns) for kind, fns in decisions.items()})
    return table


STAGES = make_table(
    setup_steps.STAGES,
    betting_phase.STAGES,
    sailing.STAGES,
    dice_rolls.STAGES,
    windows.STAGES,
    effects.STAGES,
    action_phase.STAGES,
    final_battle.STAGES,
    captains.STAGES,
    cities.STAGES,
    influence.STAGES,
    cargo.STAGES,
    variant_cards.STAGES,
    merchants.STAGES,
)


def advance(state: State, rng: np.random.Generator) -> None:
    """Run the top frame's step until a decision is open or the game is over."""
    after_step = state.hooks.after_step
    while not state.pending and state.phase != "over":
        frame = state.stack[-1]
        STAGES[frame.stage].step(state, frame, rng)
        for check in after_step:
            check(state)


def frame_from_dict(data: dict[str, Any]) -> Frame:
    stage = data.get("stage")
    if stage not in STAGES:
        raise ValueError(f"no Lying Pirates stage {stage!r}; the stages: {sorted(STAGES)}")
    return STAGES[stage].frame(**data)


def check_table(table: Mapping[str, Stage]) -> None:
    """Every frame starts at a stage declared with that frame; every decision the codec knows is opened
    by some stage, and none it does not know."""
    opened: set[str] = set()
    for name, stage in table.items():
        first = table.get(stage.frame.first)
        if first is None or first.frame is not stage.frame:
            raise AssertionError(
                f"stage {name!r}: its frame {stage.frame.__name__} starts at {stage.frame.first!r}, "
                "not a stage of that frame"
            )
        unknown = set(stage.decisions) - ALL_DECISIONS
        if unknown:
            raise AssertionError(f"stage {name!r} opens decisions the codec does not know: {sorted(unknown)}")
        opened |= set(stage.decisions)
    if opened != ALL_DECISIONS:
        raise AssertionError(f"decisions no stage opens: {sorted(ALL_DECISIONS - opened)}")


check_table(STAGES)
