"""How the engine's steps are declared, and how one step hands on to the next.

Every step of the game is a function declared with ``@stage(Frame, ...)``: the kind of frame it works on,
the rulebook's phase it belongs to (a phase's frame only: the phase is read from the bottom frame's stage,
never set), the work it may wait on while other frames run over it (``awaits``), and, if it opens a decision,
``asks``: which decision, and of whom, a frame waiting at this stage has open.  Each decision's legal actions
and what answering it does are declared under the stage (``@reroll.legal("reroll")``, ``@reroll.on(...)``).
The declarations are the whole table of the engine: ``engine`` runs it, and the saves read it to check a
restored stack (``stack_rules``) instead of restating it.

A step moves on with ``goto(frame, next_step)`` (the next step by name of its function, so go-to-definition
follows a round), calls sub-work with ``call(state, work, then=next_step)``, and sub-work hands back its
result with ``done(state, result)``.  A step that waits for its decision returns ``ASK``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np

from bidbluff.envs.core.codec import Action
from bidbluff.envs.lying_pirates.frames import Frame
from bidbluff.envs.lying_pirates.table import Table

ASK = True  # what a step returns to wait for its stage's decision (``Stage.asks`` says which, and of whom)

Step = Callable[[Table, Any, np.random.Generator], bool | None]  # (table, frame, rng) -> ASK or None
Asks = Callable[[Table, Any], tuple[str, int] | None]  # (table, frame) -> (decision, seat), None: nobody
Legal = Callable[[Table, Any, int], list[Action]]  # (table, frame, seat)
On = Callable[[Table, Any, int, Action, np.random.Generator], None]  # (table, frame, seat, action, rng)
C = TypeVar("C", bound=Callable[..., Any])


@dataclass(frozen=True)
class Decision:
    legal: Legal | None = None
    on: On | None = None


@dataclass(eq=False)
class Stage:
    """One step of the engine, as declared (see the module's docstring)."""

    name: str
    frame: type[Frame]
    step: Step
    phase: str | None = None
    asks: Asks | None = None
    awaits: tuple[type[Frame], ...] = ()
    decisions: dict[str, Decision] = field(default_factory=dict)

    def __call__(self, state: Table, frame: Any, rng: np.random.Generator) -> bool | None:
        """Take the step (what ``engine.advance`` does for the top frame)."""
        return self.step(state, frame, rng)

    def legal(self, decision: str) -> Callable[[C], C]:
        """Declare ``decision``'s legal actions (opened by this stage)."""

        def declare(fn: C) -> C:
            self.decisions[decision] = Decision(fn, self.decisions.get(decision, Decision()).on)
            return fn

        return declare

    def on(self, decision: str) -> Callable[[C], C]:
        """Declare what answering ``decision`` does (``apply`` has already closed it)."""

        def declare(fn: C) -> C:
            self.decisions[decision] = Decision(self.decisions.get(decision, Decision()).legal, fn)
            return fn

        return declare

    def waits(self) -> bool:
        """Whether a frame can be found at this stage between two decisions: it asks, or work runs over it."""
        return self.asks is not None or bool(self.awaits)


STAGES: dict[str, Stage] = {}  # every stage by name (the name a saved frame carries), as the modules declare them


def stage(
    frame: type[Frame],
    *,
    phase: str | None = None,
    asks: Asks | None = None,
    awaits: tuple[type[Frame], ...] = (),
) -> Callable[[Step], Stage]:
    """Declare the decorated function as a step of ``frame``'s work, named by the function (see the module)."""

    def declare(step: Step) -> Stage:
        name = step.__name__
        if name in STAGES:
            raise AssertionError(f"stage {name!r} is declared twice")
        declared = STAGES[name] = Stage(name, frame, step, phase, asks, awaits)
        if phase is not None:
            frame.phases[name] = phase
        return declared

    return declare


def goto(frame: Frame, then: Stage) -> None:
    """``frame`` goes on at ``then``."""
    frame.stage = then.name


def call(state: Table, work: Frame, then: Stage | None = None) -> None:
    """``work`` runs over the top frame, which goes on at ``then`` (or stays where it is) once the work is done.

    The stage the caller waits at declares ``work``'s kind in its ``awaits``: a restore refuses any other stack
    (``stack_rules.ABOVE``), and the tests restore positions of every kind of game, so a call the declarations
    miss fails there."""
    if then is not None:
        state.stack[-1].stage = then.name
    state.push(work)


def done(state: Table, result: int | None = None) -> None:
    """The top frame's work is over: the frame that called it goes on, with ``result`` if the work has one."""
    state.pop()
    if result is not None:
        state.stack[-1].outcome = result
