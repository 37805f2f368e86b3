"""Game records: a finished game as JSON, and its replay.

A record holds everything needed to play the game again move for move::

    {"format": 1, "env": "libertalia_v0", "num_players": 4, "env_options": {...}, "seed": 7,
     "agents": ["human", "heuristic", ...],          # who sat where (labels)
     "actions": [[seat, action_id], ...],            # every decision, in order, with the seat that took it
     "scores": [...], "truncated": false}

``replay(record)`` re-creates the env with the same options and seed and re-applies the actions,
checking that each one is legal and that the final scores match.  A record for an env that is not
registered, or for another version of it (``libertalia_v1`` when this build has ``libertalia_v0``),
is refused with a ``RecordError`` that says so.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import envs

FORMAT = 1


class RecordError(ValueError):
    """A record that cannot be replayed here: bad format, unknown env or version, illegal action, other scores."""


def record_game(env_name: str, num_players: int, seed: int | None, actions: list[tuple[int, int]] | list[list[int]],
                scores: list[float], env_options: dict[str, Any] | None = None, agents: list[str] | None = None,
                truncated: bool = False) -> dict[str, Any]:  # fmt: skip
    """A JSON-safe record of one game (see the module docstring)."""
    return {
        "format": FORMAT,
        "env": env_name,
        "num_players": int(num_players),
        "env_options": _json_safe(dict(env_options or {})),
        "seed": seed,
        "agents": list(agents) if agents is not None else [f"player_{s}" for s in range(num_players)],
        "actions": [[int(seat), int(action)] for seat, action in actions],
        "scores": [float(s) for s in scores],
        "truncated": bool(truncated),
    }


def _json_safe(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_safe(v) for v in value]
    if hasattr(value, "item"):  # numpy scalars
        return value.item()
    return value


def save(record: dict[str, Any], path: str | Path) -> Path:
    path = Path(path)
    if path.parent and not path.parent.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=1) + "\n")
    return path


def load(path: str | Path) -> dict[str, Any]:
    path = Path(path)
    try:
        record = json.loads(path.read_text())
    except json.JSONDecodeError as bad:
        raise RecordError(f"{path} is not a game record (not JSON: {bad})") from None
    check(record)
    return record


def check(record: Any) -> None:
    """Refuse a record this build cannot replay (format, env name and version, fields)."""
    if not isinstance(record, dict):
        raise RecordError("a game record is a JSON object")
    if record.get("format") != FORMAT:
        raise RecordError(f"record format {record.get('format')!r} is not supported (this build reads format {FORMAT})")
    name = record.get("env")
    if name not in envs.ENVS:
        base = re.sub(r"_v\d+$", "", str(name))
        same_game = [e for e in envs.ENVS if re.sub(r"_v\d+$", "", e) == base]
        if same_game:
            raise RecordError(f"the record is for {name!r} but this build registers {', '.join(same_game)}: "
                              f"another version of the env (its actions and rules may differ), refused")  # fmt: skip
        raise RecordError(f"the record is for env {name!r}, which is not registered "
                          f"(registered: {', '.join(envs.ENVS)})")  # fmt: skip
    for key, kind in (("num_players", int), ("env_options", dict), ("actions", list), ("scores", list)):
        if not isinstance(record.get(key), kind):
            raise RecordError(f"the record's {key!r} is missing or not a {kind.__name__}")
    for i, entry in enumerate(record["actions"]):
        if not (isinstance(entry, list) and len(entry) == 2 and all(isinstance(x, int) for x in entry)):
            raise RecordError(f"action {i} of the record is not [seat, action_id]: {entry!r}")


def make_env(record: dict[str, Any], render_view: int | str | None = None) -> Any:
    """The raw env of a record, reset with its seed (``render_view`` for ``render()``)."""
    check(record)
    env = envs.make(record["env"], raw=True, num_players=record["num_players"], render_mode="ansi",
                    render_view=render_view, **record["env_options"])  # fmt: skip
    env.reset(seed=record["seed"])
    return env


def replay(record: dict[str, Any], render_view: int | str | None = None,
           on_step: Callable[[Any, int, int, str], None] | None = None) -> Any:  # fmt: skip
    """Play the record again; returns the raw env at the end.

    ``on_step(env, seat, action_id, text)`` is called before each action is applied (``text``: the
    action in words).  Raises ``RecordError`` at the first action that is not legal (or not the acting
    seat's), or if the game does not end with the recorded scores.
    """
    env = make_env(record, render_view)
    for i, (seat, action) in enumerate(record["actions"]):
        state = env.game_state
        if state.is_terminal():
            raise RecordError(f"action {i}: the game is already over, but the record has {len(record['actions']) - i} "
                              "more actions")  # fmt: skip
        acting = int(env.agent_selection.rsplit("_", 1)[1])
        if seat != acting:
            raise RecordError(f"action {i}: the record says seat {seat} acts, but seat {acting} is to act")
        legal = env.legal_action_ids()
        if action not in legal:
            words = "; ".join(f"{a} ({env.action_to_str(a)})" for a in legal[:20])
            raise RecordError(f"action {i}: {action} is not legal for seat {seat} here; legal: {words}"
                              f"{' ...' if len(legal) > 20 else ''}")  # fmt: skip
        text = env.action_to_str(action)
        if on_step is not None:
            on_step(env, seat, action, text)
        env.step(action)
    state = env.game_state
    if not state.is_terminal() and not record.get("truncated"):
        raise RecordError(f"the record ends after {len(record['actions'])} actions but the game is not over")
    scores = [float(s) for s in state.scores()]
    if scores != [float(s) for s in record["scores"]]:
        raise RecordError(f"replayed scores {scores} differ from the recorded {record['scores']}")
    return env
