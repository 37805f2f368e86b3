"""A table's setup options checked against the game's form (``views.<game>.OPTIONS``) before the engine
sees them, so that a wrong type or value is a 400 naming the option and what it may be."""

from __future__ import annotations

import json
from typing import Any

from bidbluff.arena.web.guard import BadRequestError
from bidbluff.arena.web.views import view_of
from bidbluff.arena.web.views.common import Option


def allowed(option: Option) -> str:
    """What ``option`` may be, in words."""
    if option.kind == "bool":
        return "true or false"
    if option.kind == "int":
        return f"a whole number from {option.choices[0]} to {option.choices[1]}"
    named = ", ".join("none (null)" if c is None else str(c) for c in option.choices)
    if option.kind == "multi":
        return f"a list of distinct names from: {named}"
    return f"one of {named}"


def valid(option: Option, value: Any) -> bool:
    if option.kind == "bool":
        return isinstance(value, bool)
    if option.kind == "int":
        low, high = option.choices
        return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high
    if option.kind == "multi":
        return (
            isinstance(value, list)
            and all(isinstance(v, str) and v in option.choices for v in value)
            and len(set(value)) == len(value)
        )
    return any(value is c or (isinstance(value, str) and value == c) for c in option.choices)


def chosen_options(env_name: str, given: Any) -> dict[str, Any]:
    """The form's options less those left at their defaults (a record names only what was changed)."""
    if given is None:
        return {}
    if not isinstance(given, dict):
        raise BadRequestError("options must be a JSON object of option names and values")
    rows = {o.name: o for o in view_of(env_name).OPTIONS}
    unknown = sorted(set(given) - set(rows))
    if unknown:
        raise BadRequestError(
            f"{env_name} has no option {', '.join(u[:40] for u in unknown[:5])}; "
            f"its options: {', '.join(rows) or 'none'}"
        )
    for name, value in given.items():
        if not valid(rows[name], value):
            raise BadRequestError(f"option {name} must be {allowed(rows[name])}, not {_said(value)}")
    return {k: v for k, v in given.items() if v != rows[k].default}


def _said(value: Any) -> str:
    return json.dumps(value)[:60]
