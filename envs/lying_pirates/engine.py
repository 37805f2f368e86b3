"""The engine: the declared steps of a round, gathered and checked, and the loop that runs them.

A round reads top to bottom through the modules of its parts: the Betting phase (``betting_phase``), the
Sail phase (``sailing``, with ``rerolls``, ``battle``, priority windows from ``windows`` and the tile's
effects from ``effects``), the Action phase (``action_phase``), and at the end the final battle
(``final_battle``); the setup's decisions are ``setup_steps``, the options' steps their own modules.  Each
step is declared with ``stages.stage``; importing this module gathers them all and checks the table.

``apply`` answers the open decision (``pending``) with the handler its stage declares, then ``advance`` runs
the top frame's step, again and again, until a step asks a decision (``ASK``) or the game is over.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bidbluff.envs.core.codec import Action
from bidbluff.envs.core.game import bounded
from bidbluff.envs.lying_pirates import (
    action_phase,
    battle,
    betting_phase,
    captains,
    cargo,
    cities,
    effects,
    final_battle,
    influence,
    merchants,
    rerolls,
    sailing,
    setup_steps,
    variant_cards,
    windows,
)
from bidbluff.envs.lying_pirates.frames import Frame
from bidbluff.envs.lying_pirates.stages import ASK, STAGES, Stage
from bidbluff.envs.lying_pirates.table import ALL_DECISIONS, Table

# The parts of a game, in the order the table lists their stages: the setup, a round, the final battle, then
# the options' steps.
PARTS = (
    setup_steps,
    betting_phase,
    sailing,
    rerolls,
    battle,
    windows,
    effects,
    action_phase,
    final_battle,
    captains,
    cities,
    influence,
    cargo,
    variant_cards,
    merchants,
)
# Automatic steps between two decisions: a round has a few dozen; only a run of tied battles repeats, and a
# thousand ties in a row do not happen.  Past this the engine is stuck, and says so.
MAX_STEPS = 10_000


def legal_actions(state: Table) -> list[Action]:
    if not state.pending:
        return []
    frame = state.stack[-1]
    return STAGES[frame.stage].decisions[state.pending[0]].legal(state, frame, state.pending[1])


def apply(state: Table, action: Action, rng: np.random.Generator) -> None:
    """Answer the open decision with ``action`` (legal), then run every automatic step after it."""
    decision, seat = state.pending
    frame = state.stack[-1]
    state.pending = []  # answered: closed here, for every decision
    STAGES[frame.stage].decisions[decision].on(state, frame, seat, action, rng)
    advance(state, rng)


def advance(state: Table, rng: np.random.Generator) -> None:
    """Run the top frame's step until one asks a decision or the game is over."""
    after_step = state.hooks.after_step
    for _ in bounded(state, MAX_STEPS, "Lying Pirates' automatic steps"):
        if state.pending or state.over:
            return
        frame = state.stack[-1]
        stage = STAGES[frame.stage]
        if stage.step(state, frame, rng) is ASK:
            state.pending = list(stage.asks(state, frame))
        for check in after_step:
            check(state)


def frame_from_dict(data: dict[str, Any]) -> Frame:
    stage = data.get("stage")
    if stage not in STAGES:
        raise ValueError(f"no Lying Pirates stage {stage!r}; the stages: {sorted(STAGES)}")
    return STAGES[stage].frame(**data)


def phase_frames(table: dict[str, Stage]) -> set[type[Frame]]:
    """The frames that make the bottom of the stack: a phase of a round (no stage awaits them)."""
    awaited = {kind for stage in table.values() for kind in stage.awaits}
    return {stage.frame for stage in table.values()} - awaited


def check_table(table: dict[str, Stage]) -> None:
    """Every frame starts at a stage declared with that frame; a stage asks exactly when it opens decisions,
    each with its legal actions and its answer; a phase's frame declares the phase of each of its stages, no
    other frame does; and the decisions opened are the ones the codec knows."""
    opened: set[str] = set()
    phases = phase_frames(table)
    for name, stage in table.items():
        first = table.get(stage.frame.first)
        if first is None or first.frame is not stage.frame:
            raise AssertionError(
                f"stage {name!r}: its frame {stage.frame.__name__} starts at {stage.frame.first!r}, "
                "not a stage of that frame"
            )
        if (stage.asks is None) != (not stage.decisions):
            raise AssertionError(f"stage {name!r}: a stage that opens decisions says what it asks, and only then")
        for kind, decision in stage.decisions.items():
            if decision.legal is None or decision.on is None:
                raise AssertionError(f"stage {name!r}: decision {kind!r} needs its legal actions and its answer")
        if (stage.phase is not None) != (stage.frame in phases):
            raise AssertionError(f"stage {name!r}: the stages of a phase's frame, and only they, declare the phase")
        unknown = set(stage.decisions) - ALL_DECISIONS
        if unknown:
            raise AssertionError(f"stage {name!r} opens decisions the codec does not know: {sorted(unknown)}")
        opened |= set(stage.decisions)
    if opened != ALL_DECISIONS:
        raise AssertionError(f"decisions no stage opens: {sorted(ALL_DECISIONS - opened)}")


def _in_order_of_parts() -> None:
    """The declared stages, listed part by part (declaration order within a part)."""
    part = {module.__name__: i for i, module in enumerate(PARTS)}
    strays = sorted(name for name, stage in STAGES.items() if stage.step.__module__ not in part)
    if strays:
        raise AssertionError(f"stages declared outside the engine's parts: {strays}")
    ordered = sorted(STAGES.items(), key=lambda item: part[item[1].step.__module__])
    STAGES.clear()
    STAGES.update(ordered)


_in_order_of_parts()
check_table(STAGES)
