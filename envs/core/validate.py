"""Declared shapes of saved states, read with the path of every field.

A game declares what a valid saved state looks like as a tree of small specs
(``Record``, ``ListOf``, ``Int``, ``OneOf`` ...), and ``read`` walks a JSON
value against it.  The first thing that does not fit is refused with a
``ValueError`` naming the field by its path, e.g.
``round.cups.2[1].face: 9 is not a face of a crew die``.  Sizes come from the
spec (the rules), never from the input: a list is measured before it is read,
and a number before anything is built from it.  What the shape cannot say
(conservation of cards, a seat's own invariants) the game checks afterwards,
with ``fail`` and ``conserved`` so that those errors read the same way.

OpenSpiel refuses a bad state at deserialisation; so do we.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn

Context = dict[str, Any]  # facts read so far that later specs depend on (e.g. "num_players")


def fail(path: str, message: str) -> NoReturn:
    """Refuse the state: ``path: message`` (``path`` empty for the state as a whole)."""
    raise ValueError(f"{path}: {message}" if path else message)


def join(path: str, key: str | int) -> str:
    """``round`` + ``cups`` -> ``round.cups``; ``cups.2`` + 1 -> ``cups.2[1]``."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def describe(value: Any) -> str:
    """A value as an error message shows it: short, with its JSON type."""
    text = repr(value)
    if len(text) > 40:
        text = text[:37] + "..."
    kind = {
        bool: "boolean",
        int: "integer",
        float: "number",
        str: "string",
        list: "list",
        dict: "object",
        type(None): "null",
    }.get(type(value), type(value).__name__)
    return f"{text} ({kind})"


class Spec:
    """What one field may hold; ``read`` returns it as the engine keeps it, or refuses."""

    def read(self, value: Any, path: str, context: Context) -> Any:
        raise NotImplementedError


def read(spec: Spec, value: Any, path: str = "", context: Context | None = None) -> Any:
    """``value`` read against ``spec``; ``ValueError`` naming the first field that does not fit."""
    return spec.read(value, path, {} if context is None else context)


@dataclass(frozen=True)
class Int(Spec):
    """An integer in ``low..high`` (a bool is not an integer here, nor is 3.0).  ``high`` may be a
    function of the context (e.g. the last seat); ``what`` names the range in the error."""

    low: int | Callable[[Context], int]
    high: int | Callable[[Context], int]
    what: str = ""

    def read(self, value: Any, path: str, context: Context) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            fail(path, f"{describe(value)} is not an integer")
        value = int(value)  # an IntEnum member (a rank, a die kind) is its number
        low = self.low(context) if callable(self.low) else self.low
        high = self.high(context) if callable(self.high) else self.high
        if not low <= value <= high:
            fail(path, f"{value} is not {self.what or 'in'} {low}..{high}")
        return value


def seat(context: Context) -> int:
    """The last seat at the table (``Int(0, seat)``); the state's ``num_players`` must be read first."""
    return context["num_players"] - 1


def Seat(allow_none: int | None = None) -> Spec:  # noqa: N802 - reads like the other specs
    """A seat at the table; ``allow_none`` (e.g. -1) also accepts that marker for "no seat"."""
    low = allow_none if allow_none is not None else 0
    return Int(low, seat, "a seat" if allow_none is None else f"a seat (or {allow_none}),")


@dataclass(frozen=True)
class Bool(Spec):
    def read(self, value: Any, path: str, context: Context) -> bool:
        if type(value) is not bool:
            fail(path, f"{describe(value)} is not true or false")
        return value


@dataclass(frozen=True)
class Str(Spec):
    """Any string up to ``max_len`` characters (log lines)."""

    max_len: int = 400

    def read(self, value: Any, path: str, context: Context) -> str:
        if type(value) is not str:
            fail(path, f"{describe(value)} is not a string")
        if len(value) > self.max_len:
            fail(path, f"a string of {len(value)} characters is longer than {self.max_len}")
        return value


@dataclass(frozen=True)
class OneOf(Spec):
    """One of the declared names (phases, stages, decisions ...); ``what`` says what they are."""

    choices: tuple[Any, ...]
    what: str = "one of"

    def read(self, value: Any, path: str, context: Context) -> Any:
        # ``type`` first: True == 1, and an unhashable value must not raise TypeError here
        if not any(type(value) is type(c) and value == c for c in self.choices):
            fail(path, f"{describe(value)} is not {self.what} {', '.join(map(repr, self.choices))}")
        return value


@dataclass(frozen=True)
class ListOf(Spec):
    """A list of ``item``; its length in ``min_len..max_len`` (``max_len`` may depend on the context)."""

    item: Spec
    max_len: int | Callable[[Context], int]
    min_len: int | Callable[[Context], int] = 0

    def read(self, value: Any, path: str, context: Context) -> list[Any]:
        if type(value) is not list:
            fail(path, f"{describe(value)} is not a list")
        high = self.max_len(context) if callable(self.max_len) else self.max_len
        low = self.min_len(context) if callable(self.min_len) else self.min_len
        if not low <= len(value) <= high:
            size = f"{low}..{high}" if low != high else str(high)
            fail(path, f"{len(value)} entries, not {size}")
        return [self.item.read(v, join(path, i), context) for i, v in enumerate(value)]


@dataclass(frozen=True)
class PerSeat(Spec):
    """One ``item`` per seat, in seat order (``num_players`` read first; ``count`` names another
    number of the context, e.g. the captains of a table that seats a non-player)."""

    item: Spec
    count: str = "num_players"

    def read(self, value: Any, path: str, context: Context) -> list[Any]:
        if type(value) is not list:
            fail(path, f"{describe(value)} is not a list")
        n = context[self.count]
        if len(value) != n:
            fail(path, f"{len(value)} entries for {n} seats")
        return [self.item.read(v, join(path, i), context) for i, v in enumerate(value)]


@dataclass(frozen=True)
class Fields(Spec):
    """A fixed-length list whose positions have names (a die ``[kind, face]``, a bid ``[seat, q, f]``):
    paths say ``cups.2[1].face``.  ``check(values, path)`` may refuse combinations."""

    parts: tuple[tuple[str, Spec], ...]
    check: Callable[[list[Any], str], None] | None = None

    def read(self, value: Any, path: str, context: Context) -> list[Any]:
        if type(value) is not list:
            fail(path, f"{describe(value)} is not a list")
        if len(value) != len(self.parts):
            fail(path, f"{len(value)} entries, not {len(self.parts)} ({', '.join(n for n, _ in self.parts)})")
        out = [spec.read(v, join(path, name), context) for (name, spec), v in zip(self.parts, value, strict=True)]
        if self.check:
            self.check(out, path)
        return out


@dataclass(frozen=True)
class Record(Spec):
    """A JSON object with exactly the declared keys, read in declaration order; ``into`` names the keys whose
    values later specs need (read them first), e.g. ``num_players``."""

    fields: dict[str, Spec]
    into: tuple[str, ...] = ()

    def read(self, value: Any, path: str, context: Context) -> dict[str, Any]:
        if type(value) is not dict:
            fail(path, f"{describe(value)} is not an object")
        missing = [k for k in self.fields if k not in value]
        if missing:
            fail(join(path, missing[0]), "missing")
        unknown = sorted(str(k) for k in value if k not in self.fields)
        if unknown:
            fail(join(path, unknown[0]), "is not a field of this state")
        out = {}
        for key, spec in self.fields.items():
            out[key] = spec.read(value[key], join(path, key), context)
            if key in self.into:
                context[key] = out[key]
        return out


@dataclass(frozen=True)
class IntKeys(Spec):
    """An object keyed by small integers written as strings (JSON's keys), e.g. a cup per seat:
    ``{"0": [...], "2": [...]}`` -> ``{0: [...], 2: [...]}``."""

    key: Int
    value: Spec
    max_len: int | Callable[[Context], int]

    def read(self, value: Any, path: str, context: Context) -> dict[int, Any]:
        if type(value) is not dict:
            fail(path, f"{describe(value)} is not an object")
        high = self.max_len(context) if callable(self.max_len) else self.max_len
        if len(value) > high:
            fail(path, f"{len(value)} entries, more than {high}")
        out = {}
        for k, v in value.items():
            if type(k) is not str or not k.lstrip("-").isdigit() or k != str(int(k)):
                fail(join(path, str(k)), "keys here are whole numbers")
            number = self.key.read(int(k), join(path, k), context)
            out[number] = self.value.read(v, join(path, k), context)
        return out


@dataclass(frozen=True)
class Maybe(Spec):
    """``None`` or ``spec``."""

    spec: Spec

    def read(self, value: Any, path: str, context: Context) -> Any:
        return None if value is None else self.spec.read(value, path, context)


@dataclass(frozen=True)
class EmptyOr(Spec):
    """``[]`` or ``spec`` (an open decision ``[kind, seat]``, none once the game is over); ``empty`` may
    be another empty value (``{}``: an object not filled in yet)."""

    spec: Spec
    empty: type = list

    def read(self, value: Any, path: str, context: Context) -> Any:
        if type(value) is self.empty and not value:
            return self.empty()
        return self.spec.read(value, path, context)


@dataclass(frozen=True)
class Depends(Spec):
    """The spec ``pick(context)`` chooses from what was read before (fields only some options have)."""

    pick: Callable[[Context], Spec]

    def read(self, value: Any, path: str, context: Context) -> Any:
        return self.pick(context).read(value, path, context)


@dataclass(frozen=True)
class Built(Spec):
    """A part that reads itself: ``build(value, path)``, e.g. a nested class's ``from_dict``."""

    build: Callable[[Any, str], Any]

    def read(self, value: Any, path: str, context: Context) -> Any:
        return self.build(value, path)


@dataclass(frozen=True)
class Const(Spec):
    """Exactly ``value`` (a state's ``game`` tag)."""

    value: Any

    def read(self, value: Any, path: str, context: Context) -> Any:
        if type(value) is not type(self.value) or value != self.value:
            fail(path, f"{describe(value)} is not {self.value!r}")
        return value


@dataclass
class Tally:
    """Where the counted things of a state are: ``add(path, items)`` per place, then ``conserved``."""

    found: Counter = field(default_factory=Counter)
    where: dict[Any, str] = field(default_factory=dict)  # an item -> the first place it was seen

    def add(self, path: str, items: Iterable[Any]) -> None:
        for item in items:
            self.found[item] += 1
            self.where.setdefault(item, path)

    def conserved(
        self, expected: Counter | Sequence[Any], what: str, name: Callable[[Any], str] = str, at_most: bool = False
    ) -> None:
        """Refuse unless the places hold exactly ``expected`` (``at_most``: no more than it)."""
        want = expected if isinstance(expected, Counter) else Counter(expected)
        extra = self.found - want
        if extra:
            item = min(extra)
            fail(
                self.where[item],
                f"{what}: {name(item)} appears {self.found[item]} times, "
                f"{want[item]} exist{'s' if want[item] == 1 else ''}",
            )
        missing = want - self.found
        if missing and not at_most:
            item = min(missing)
            fail("", f"{what}: {name(item)} is missing ({self.found[item]} of {want[item]} accounted for)")


def ensure(ok: bool, path: str, message: str) -> None:
    """``fail(path, message)`` unless ``ok``: one declared invariant per line."""
    if not ok:
        fail(path, message)
