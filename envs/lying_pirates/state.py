"""Lying Pirates' state: the table (``table``), played by the engine (``engine``), saved and restored here.

A round is a Betting phase, a Sail phase and an Action phase (``engine`` lists their steps).  The state
answers the open decision (``pending``: its kind and the seat that decides) with ``apply``, which hands
it to the decision's handler its stage declares and then runs every automatic step until the next
decision.  Chance (dice, shuffles) comes from the Generator handed to ``apply``.

Options (all off by default) keep their data in ``ext`` (None in a base game) and hook into the steps
through ``hooks`` (``options.hooks_for``).  ``to_dict`` / ``from_dict`` save and restore a position;
``from_dict`` refuses every position the rules cannot reach (``state_shapes``, ``validation``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from bidbluff.envs.core.codec import Action
from bidbluff.envs.core.game import TERMINAL, GameState, plain
from bidbluff.envs.lying_pirates import engine, state_shapes, validation
from bidbluff.envs.lying_pirates.crew import Crews
from bidbluff.envs.lying_pirates.frames import TileRoll
from bidbluff.envs.lying_pirates.hooks import Hooks
from bidbluff.envs.lying_pirates.options import hooks_for
from bidbluff.envs.lying_pirates.table import OVER, Table

FORMAT = 1  # to_dict's layout (format 0, no "format" key, kept work records as dicts resumed by names: not read)
# the plain fields in the order a save lists them: the table's, with the phase (read, never set) after "used"
_AFTER_USED = Table.PLAIN_FIELDS.index("used") + 1
SAVED = (*Table.PLAIN_FIELDS[:_AFTER_USED], "phase", *Table.PLAIN_FIELDS[_AFTER_USED:])


@dataclass(eq=False)
class LyingPiratesState(Table, GameState):
    hooks: Hooks = field(default_factory=Hooks)
    validated: ClassVar[bool] = True  # from_dict refuses every position the rules cannot reach (validation.py)

    # -- the GameState contract -------------------------------------------------
    def current_player(self) -> int:
        return self.pending[1] if self.pending else TERMINAL

    def legal_actions(self) -> list[Action]:
        return engine.legal_actions(self)

    def apply(self, action: Action, rng: np.random.Generator) -> None:
        engine.apply(self, action, rng)

    # -- saving -----------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"game": "lying_pirates", "format": FORMAT}
        for name in SAVED:
            data[name] = plain(getattr(self, name))
        data["crews"] = self.crews.to_dict()
        data["betting"] = self.betting.to_dict() if self.betting else None
        data["pt"] = plain(vars(self.pt)) if self.pt else None
        data["stack"] = [frame.to_dict() for frame in self.stack]
        if self.ext is not None:
            data["ext"] = plain(self.ext)  # only games with options: a base game's dict has no "ext"
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> LyingPiratesState:
        """Read ``to_dict``'s output and refuse, with a ``ValueError`` naming the field by its path, every
        position the rules cannot reach (``validation``)."""
        if type(data) is not dict or data.get("game") != "lying_pirates":
            game = data.get("game") if type(data) is dict else data
            raise ValueError(f"not a Lying Pirates state (game={game!r})")
        saved = data.get("format", 0)  # format 0 had no "format" key
        if type(saved) is not int or saved != FORMAT:
            raise ValueError(f"format: Lying Pirates state format {saved!r} is not {FORMAT}")
        fields = state_shapes.read_state(data)
        state = cls(**{name: fields[name] for name in cls.PLAIN_FIELDS})
        state.over = fields["phase"] == OVER
        reveal = fields["reveal"]
        if reveal is not None:  # JSON's keys, and the outcome as to_dict writes it
            state.reveal = {
                "cups": {str(c): cup for c, cup in reveal["cups"].items()},
                "outcome": reveal["outcome"].to_dict(),
                "bids": reveal["bids"],
            }
        state.crews = Crews.from_dict(fields["crews"])
        state.betting = fields["betting"]
        state.pt = TileRoll(**fields["pt"]) if fields["pt"] else None
        state.stack = fields["stack"]
        state.ext = fields.get("ext")
        state.hooks = hooks_for(state.ext)
        validation.check_state(state, saved_phase=fields["phase"])
        return state

    def validate(self) -> None:
        """Refuse a position the rules cannot reach (``validation.check_state``): conservation, the stack, the
        open decision.  Run on restore only, never while a game is played."""
        validation.check_state(self)


def resample_hidden(state: LyingPiratesState, seat: int, rng: np.random.Generator) -> LyingPiratesState:
    return state.resample_hidden(seat, rng)
