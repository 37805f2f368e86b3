"""Flat integer ids for structured actions.

Every game declares its action kinds once, as data: a name and the shape of its
arguments.  ``ActionCodec`` lays the kinds out one after another in a single
``Discrete(n)`` range, so an id is ``offset[kind] + ravel(args)``.  Ids are
stable as long as the declaration is; changing it changes the env version.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

import numpy as np

Action = tuple  # (kind, *int args); the engine's structured action


def positions(at: list[int]) -> np.ndarray:
    """``at`` as an index array.  Encoders gather observation positions in Python lists and
    write them in one numpy call; ``fromiter`` with a known dtype converts such a list about
    twice as fast as the generic ``np.asarray`` that indexing with the list itself would do."""
    return np.fromiter(at, np.intp, len(at))


@dataclass(frozen=True)
class ActionKind:
    """One kind of action: ``name`` and the size of each integer argument."""

    name: str
    shape: tuple[int, ...] = ()
    help: str = ""

    @property
    def size(self) -> int:
        return prod(self.shape) if self.shape else 1


class ActionCodec:
    """Bijection between ``(kind, *args)`` tuples and ids ``0 .. n-1``."""

    def __init__(self, kinds: list[ActionKind]) -> None:
        self.kinds = list(kinds)
        self.by_name = {k.name: k for k in self.kinds}
        if len(self.by_name) != len(self.kinds):
            raise ValueError("duplicate action kind names")
        self.offset: dict[str, int] = {}
        start = 0
        for kind in self.kinds:
            self.offset[kind.name] = start
            start += kind.size
        self.n = start
        # Decoding is a table lookup: ids are few (hundreds), steps are many.
        self._decoded: list[Action] = []
        for kind in self.kinds:
            if not kind.shape:
                self._decoded.append((kind.name,))
                continue
            for flat in range(kind.size):
                self._decoded.append((kind.name, *(int(i) for i in np.unravel_index(flat, kind.shape))))
        self._ids = {a: i for i, a in enumerate(self._decoded)}

    def encode(self, action: Action) -> int:
        try:
            return self._ids[action]
        except KeyError:
            raise ValueError(f"{action!r} is not an action of this game") from None

    def decode(self, action_id: int) -> Action:
        if not 0 <= action_id < self.n:
            raise ValueError(f"action id {action_id} is outside 0..{self.n - 1}")
        return self._decoded[action_id]

    def mask(self, ids: list[int]) -> np.ndarray:
        out = np.zeros(self.n, dtype=np.int8)
        out[ids] = 1
        return out

    def describe(self) -> str:
        """A table of id ranges, for docs and ``--help``."""
        lines = []
        for kind in self.kinds:
            lo = self.offset[kind.name]
            hi = lo + kind.size - 1
            shape = "x".join(map(str, kind.shape)) or "-"
            lines.append(f"{lo:>4}-{hi:<4} {kind.name:<12} args {shape:<8} {kind.help}")
        return "\n".join(lines)
