"""Observation fields that carry their scale, and named views over an observation.

A game declares its observation once, as data: fields ``(name, size, scale)``
laid end to end in blocks, the seat block repeated once per seat (relative to
the observer, padded to the game's maximum) and the shared blocks once.  The
encoder takes its offsets and scales from the layout (precomputed at import:
the encoder is the env's hot path), or gathers values in the game's units and
lets ``Layout.encode`` divide every one by its field's scale at once; a reader
takes named views, in the style of OpenSpiel's observers::

    LAYOUT = Layout(
        Block("seat", (Field("present"), Field("doubloons", scale=80, help="doubloons")), count=6),
        Block("shared", (Field("day", 6, help="one-hot"), Field("booty_days", (6, 7), scale=6))),
    )
    view = LAYOUT.view(obs)
    view.doubloons                # float32[6], a view into obs: the encoded values (doubloons / 80)
    view.decoded("doubloons")     # float64[6]: the values in the game's units (x 80)
    view.counts("booty_days")     # int[6, 7]: decoded and rounded, for counts
    view.index("day")             # int: the one-hot's position, -1 when no bit is set
    hot(view.colour[2])           # the same for one row of a per-seat one-hot

**Views are raw**: attribute access returns numpy views of the observation
itself (no copy; writable when ``obs`` is), holding the encoded values in
[0, 1].  Rescaling needs a new array, so it is a method (``decoded``,
``counts``).  Scaled values are ``value / scale`` clipped at 1: a decoded value
at 1 means "``scale`` or more".  Views also work on a batch (``obs`` of shape
``(..., size)``); the leading axes stay in front.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import prod

import numpy as np

from bidbluff.envs.core import speedups
from bidbluff.envs.core.codec import positions


@dataclass(frozen=True)
class Field:
    """``size`` values (an int, or a shape such as ``(6, 7)``); each encodes ``value / scale``, clipped at 1
    (``scale`` 1: flags, one-hots and the like)."""

    name: str
    size: int | tuple[int, ...] = 1
    scale: float = 1
    help: str = ""

    def __post_init__(self) -> None:
        if not self.name.isidentifier():
            raise ValueError(f"field name {self.name!r} is not an identifier (views read it as an attribute)")
        if self.width < 1 or (isinstance(self.size, tuple) and min(self.size) < 1):
            raise ValueError(f"field {self.name!r}: size {self.size!r} holds no value")
        if not self.scale > 0:
            raise ValueError(f"field {self.name!r}: scale {self.scale!r} must be positive")

    @property
    def shape(self) -> tuple[int, ...]:
        """The view's shape within one block: ``()`` for a single value."""
        if isinstance(self.size, tuple):
            return self.size
        return () if self.size == 1 else (self.size,)

    @property
    def width(self) -> int:
        """Values the field takes in the flat vector."""
        return prod(self.size) if isinstance(self.size, tuple) else self.size

    @property
    def encoding(self) -> str:
        return "0 or 1" if self.scale == 1 else f"min(value / {self.scale:g}, 1)"


class Block:
    """Fields laid end to end, ``count`` times in a row (one copy per relative seat, or once)."""

    def __init__(self, name: str, fields: Sequence[Field], count: int = 1, help: str = "") -> None:
        if count < 1:
            raise ValueError(f"block {name!r}: count {count} must be at least 1")
        self.name = name
        self.fields = tuple(fields)
        self.count = count
        self.help = help
        self.at: dict[str, int] = {}  # offset of each field within one copy
        size = 0
        for f in self.fields:
            if f.name in self.at:
                raise ValueError(f"block {name!r} declares field {f.name!r} twice")
            self.at[f.name] = size
            size += f.width
        self.size = size  # values in one copy


@dataclass(frozen=True)
class _Place:
    """A field's block (where its first copy starts, its size and copies) and the field's place in it."""

    block_start: int
    block_size: int
    count: int  # copies: 1 for a block that is not repeated
    at: int  # within one copy
    field: Field

    @property
    def start(self) -> int:
        return self.block_start + self.at

    def view(self, obs: np.ndarray) -> np.ndarray:
        """The field's values in ``obs`` (one observation or a batch) as a view."""
        f, lead = self.field, obs.shape[:-1]
        if self.count == 1:
            return obs[..., self.start : self.start + f.width].reshape((*lead, *f.shape))
        block = obs[..., self.block_start : self.block_start + self.count * self.block_size]
        copies = block.reshape((*lead, self.count, self.block_size))  # splits the last axis: still a view
        if not f.shape:
            return copies[..., self.at]
        return copies[..., self.at : self.at + f.width].reshape((*lead, self.count, *f.shape))

    def slicer(self) -> Callable[[View], np.ndarray]:
        """``view`` for one observation in as few numpy calls as the field's shape allows (heuristics read
        a few dozen fields per decision): a repeated block is reshaped to one row per copy once per view."""
        f, start, stop = self.field, self.start, self.start + self.field.width
        if self.count == 1:
            shape = f.shape
            if len(shape) == 1:
                return lambda view: view._obs[start:stop]
            return lambda view: view._obs[start:stop].reshape(shape)
        if not f.shape:  # one value per copy: a strided slice
            last, step = start + (self.count - 1) * self.block_size + 1, self.block_size
            return lambda view: view._obs[start:last:step]
        key, end = self.block_start, self.block_start + self.count * self.block_size
        rows_shape, at, width, shape = (self.count, self.block_size), self.at, f.width, (self.count, *f.shape)

        def rows(view: View) -> np.ndarray:
            block = view._rows.get(key)
            if block is None:
                block = view._rows[key] = view._obs[key:end].reshape(rows_shape)
            return block

        if len(f.shape) == 1:
            return lambda view: rows(view)[:, at : at + width]
        return lambda view: rows(view)[:, at : at + width].reshape(shape)


class Layout:
    """Blocks laid end to end: the whole observation vector.  Field names are unique across blocks."""

    def __init__(self, *blocks: Block) -> None:
        self.blocks = {b.name: b for b in blocks}
        if len(self.blocks) != len(blocks):
            raise ValueError("two blocks share a name")
        self.start: dict[str, int] = {}  # where each block's first copy starts
        self._places: dict[str, _Place] = {}
        at = 0
        for b in blocks:
            self.start[b.name] = at
            for f in b.fields:
                if f.name in self._places:
                    raise ValueError(f"field {f.name!r} is declared in two blocks")
                if hasattr(View, f.name):
                    raise ValueError(f"field name {f.name!r} is taken by the view's own {f.name!r}")
                self._places[f.name] = _Place(at, b.size, b.count, b.at[f.name], f)
            at += b.count * b.size
        self.size = at
        # every value's scale, in vector order: ``encode`` divides a whole gathered observation by it at once
        self._value_scales = np.concatenate(
            [np.full(f.width, f.scale, np.float32) for b in blocks for _ in range(b.count) for f in b.fields]
        )
        self._value_scales.flags.writeable = False  # kernels read it through the buffer protocol
        # one property per field on a View subclass: a plain attribute lookup, no __getattr__ fallback
        properties = {name: property(_field_getter(place)) for name, place in self._places.items()}
        self._scales = {name: float(place.field.scale) for name, place in self._places.items()}
        self._view_class = type("LayoutView", (View,), {"__slots__": (), **properties})

    def field(self, name: str) -> Field:
        return self._place(name).field

    def offset(self, name: str) -> int:
        """Flat position of field ``name``'s first value (in copy 0 of a repeated block: copy k adds
        ``k * block.size``)."""
        return self._place(name).start

    def scale(self, name: str) -> float:
        return self._place(name).field.scale

    def _place(self, name: str) -> _Place:
        try:
            return self._places[name]
        except KeyError:
            raise ValueError(f"no observation field {name!r}; fields: {', '.join(self._places)}") from None

    def encode(self, counted: list[int], at: list[int], values: list[float]) -> np.ndarray:
        """The float32 observation of what an encoder gathered in the game's units: 1 for each position in
        ``counted`` (a flag, a one-hot's bit, or one item of a count: a position may come many times) and
        ``values[i]`` at ``at[i]`` (positions not in ``counted``); each position's sum divided by its field's
        scale and clipped at 1, as ``describe()`` states.

        The division is float32's: for whole numbers (counts, coins) it rounds to the same float32 as
        ``min(value / scale, 1)`` in Python floats would (a float32 quotient of float32 operands is correctly
        rounded, and rounding the float64 quotient to float32 is too), so the vector does not depend on how
        the encoder gathered it; a fractional value is rounded to float32 before it is divided.

        One C call (``_speedups.scaled``) where the kernels are built; ``encode_python`` is the reference."""
        kernels = speedups.active
        if kernels is None:
            return self.encode_python(counted, at, values)
        out = np.zeros(self.size, np.float32)
        kernels.scaled(out, self._value_scales, counted, at, values)
        return out

    def encode_python(self, counted: list[int], at: list[int], values: list[float]) -> np.ndarray:
        """``encode`` in numpy: the reference the compiled kernel is tested against."""
        raw = np.bincount(positions(counted), minlength=self.size).astype(np.float32)
        raw[positions(at)] = values
        raw /= self._value_scales
        np.minimum(raw, np.float32(1.0), out=raw)
        return raw

    @property
    def value_scales(self) -> np.ndarray:
        """Every value's scale in vector order (float32): what ``encode`` divides by, for kernels that encode."""
        return self._value_scales

    def view(self, obs: np.ndarray) -> View:
        """Named views over ``obs`` (one observation, or a batch whose last axis is the observation)."""
        if obs.ndim < 1 or obs.shape[-1] != self.size:
            raise ValueError(f"an observation of this layout has {self.size} values, not shape {obs.shape}")
        return self._view_class(self, obs)

    def describe(self) -> str:
        """The layout as a Markdown table (the env docstrings carry it; a test checks they agree)."""
        lines = ["| at | field | size | encoding | meaning |", "|--:|---|--:|---|---|"]
        for b in self.blocks.values():
            start = self.start[b.name]
            copies = f"copy k at {start} + k x {b.size}" if b.count > 1 else ""
            head = "; ".join(filter(None, (b.help, copies)))
            name = f"**{b.name}** x {b.count}" if b.count > 1 else f"**{b.name}**"
            lines.append(f"| {start} | {name} | {b.size} | | {head} |")
            for f in b.fields:
                size = "x".join(map(str, f.size)) if isinstance(f.size, tuple) else str(f.size)
                lines.append(f"| {start + b.at[f.name]} | {f.name} | {size} | {f.encoding} | {f.help} |")
        return "\n".join(lines)


def _field_getter(place: _Place) -> Callable[[View], np.ndarray]:
    one = place.slicer()
    batch = place.view

    def get(view: View) -> np.ndarray:
        return one(view) if view._obs.ndim == 1 else batch(view._obs)

    return get


class View:
    """``view.<field>``: a numpy view of the encoded values (see the module docstring for the shapes)."""

    __slots__ = ("_layout", "_obs", "_rows")

    def __init__(self, layout: Layout, obs: np.ndarray) -> None:
        self._layout = layout
        self._obs = obs
        self._rows: dict[int, np.ndarray] = {}  # a repeated block's copies as rows, once reshaped

    def __getattr__(self, name: str) -> np.ndarray:
        # only reached for a name that is not a field (fields are properties of the layout's View subclass)
        fields = ", ".join(self._layout._places)
        raise AttributeError(f"no observation field {name!r}; fields: {fields}")

    def decoded(self, name: str) -> np.ndarray | float:
        """Field ``name`` in the game's units (``encoded * scale``): a new float64 array, or a float for a
        single value."""
        values, scale = getattr(self, name), self._layout._scales[name]
        if values.ndim == 0:
            return float(values) * scale
        return values * np.float64(scale)  # float64: a float32 product could land a hair off a whole count

    def counts(self, name: str) -> np.ndarray | int:
        """``decoded(name)`` rounded to whole numbers (the field holds counts); an int for a single value."""
        decoded = self.decoded(name)
        if isinstance(decoded, float):
            return round(decoded)
        return np.rint(decoded).astype(int)

    def index(self, name: str) -> np.ndarray | int:
        """The set position of a one-hot field (over its last axis), -1 where none is set; an int for a
        single one-hot."""
        values = getattr(self, name)
        if values.ndim == 1:
            return hot(values)
        found = values.argmax(axis=-1)
        found[values.max(axis=-1) <= 0.5] = -1
        return found


def hot(values: np.ndarray) -> int:
    """The set position of one one-hot vector (a row of a view), -1 when no bit is set."""
    at = int(values.argmax())
    return at if values[at] > 0.5 else -1
