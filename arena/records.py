"""Game records: a finished game as JSON, and its replay.

A record holds everything needed to play the game again move for move, and proof of the game it was::

    {"format": 2, "env": "libertalia_v0", "num_players": 4, "env_options": {...}, "seed": 7,
     "agents": ["human", "heuristic", ...],          # who sat where (labels)
     "actions": [[seat, action_id], ...],            # every decision, in order, with the seat that took it
     "digests": ["9f2c...", ...],                    # the position before each action, and the last one
     "scores": [...], "truncated": false}

A digest is a short hash of the whole position (``state_digest``): every die rolled, card dealt and token
drawn is in it, so a record whose game differs from what its seed and actions play today (another seed,
an action changed, other rules) is refused at the first step where the positions part.  ``replay(record)``
re-creates the env with the same options and seed and re-applies the actions, checking each position,
that each action is legal and that the final scores match.  Records of format 1 (before digests) still
replay, checked for legality and scores only (``proof_note`` says so).  A record for an env that is not
registered, or for another version of it (``libertalia_v1`` when this build has ``libertalia_v0``), is
refused with a ``RecordError`` that says so; so is every file that is not a readable record, in one line.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bidbluff import envs

FORMAT = 2
READABLE = (1, 2)  # format 1: no digests
DIGEST_SIZE = 8  # bytes: 64 bits, 16 hex digits a position


class RecordError(ValueError):
    """A record that cannot be replayed here: bad format, unknown env or version, illegal action, other game."""


def state_digest(state: Any) -> str:
    """A short hash of the whole position (``to_dict``, keys sorted)."""
    text = json.dumps(state.to_dict(), sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=DIGEST_SIZE).hexdigest()


def record_game(
    env_name: str,
    num_players: int,
    seed: int,
    actions: list[tuple[int, int]] | list[list[int]],
    scores: list[float],
    env_options: dict[str, Any] | None = None,
    agents: list[str] | None = None,
    truncated: bool = False,
) -> dict[str, Any]:
    """A JSON-safe record of one game (see the module docstring).  The digests are taken by playing the
    actions again from ``seed``: the game is deterministic given both, so they are the positions played."""
    record = {
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
    digests: list[str] = []
    _play({**record, "format": 1}, on_position=lambda env, i: digests.append(state_digest(env.game_state)))
    return {**record, "digests": digests}


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
    """The record in ``path``, checked (``check``); ``RecordError`` in one line for anything else."""
    path = Path(path)
    try:
        text = path.read_bytes().decode("utf-8")
        record = json.loads(text)
    except FileNotFoundError:
        raise RecordError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise RecordError(f"{path} is a directory, not a game record") from None
    except UnicodeDecodeError as bad:
        raise RecordError(f"{path} is not a game record (not UTF-8 text: byte {bad.start})") from None
    except json.JSONDecodeError as bad:
        raise RecordError(f"{path} is not a game record (not JSON: {bad})") from None
    except OSError as bad:
        raise RecordError(f"{path} cannot be read: {bad.strerror or bad}") from None
    try:
        check(record)
    except RecordError as bad:
        raise RecordError(f"{path}: {bad}") from None
    return record


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check(record: Any) -> None:
    """Refuse a record this build cannot replay (format, env name and version, every field's type)."""
    if not isinstance(record, dict):
        raise RecordError("a game record is a JSON object")
    if record.get("format") not in READABLE:
        raise RecordError(
            f"record format {record.get('format')!r} is not supported (this build reads formats "
            f"{', '.join(map(str, READABLE))})"
        )
    name = record.get("env")
    if name not in envs.ENVS:
        base = re.sub(r"_v\d+$", "", str(name))
        same_game = [e for e in envs.ENVS if re.sub(r"_v\d+$", "", e) == base]
        if same_game:
            raise RecordError(
                f"the record is for {name!r} but this build registers {', '.join(same_game)}: "
                f"another version of the env (its actions and rules may differ), refused"
            )
        raise RecordError(
            f"the record is for env {name!r}, which is not registered (registered: {', '.join(envs.ENVS)})"
        )
    for key, kind, ok in (
        ("num_players", "an integer", _is_int),
        ("seed", "an integer", _is_int),
        ("env_options", "an object", lambda v: isinstance(v, dict)),
        ("actions", "a list", lambda v: isinstance(v, list)),
        (
            "scores",
            "a list of numbers",
            lambda v: isinstance(v, list) and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in v),
        ),
        ("agents", "a list of names", lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v)),
        ("truncated", "true or false", lambda v: isinstance(v, bool)),
    ):
        if key not in record and key in ("agents", "truncated"):
            continue
        if key not in record:
            raise RecordError(f"the record has no {key!r}")
        if not ok(record[key]):
            raise RecordError(f"the record's {key!r} is not {kind}: {json.dumps(record[key])[:60]}")
    game = envs.game(name)
    if not game.min_players <= record["num_players"] <= game.max_players:
        raise RecordError(
            f"the record seats {record['num_players']} players; {name} is for {game.min_players}-{game.max_players}"
        )
    for i, entry in enumerate(record["actions"]):
        if not (isinstance(entry, list) and len(entry) == 2 and all(_is_int(x) for x in entry)):
            raise RecordError(f"action {i} of the record is not [seat, action_id]: {json.dumps(entry)[:60]}")
    if record["format"] >= 2:
        digests = record.get("digests")
        if not (isinstance(digests, list) and all(isinstance(d, str) for d in digests)):
            raise RecordError("the record's 'digests' is missing or not a list of strings")
        if len(digests) != len(record["actions"]) + 1:
            raise RecordError(
                f"the record has {len(digests)} digests for {len(record['actions'])} actions "
                f"(one a position: {len(record['actions']) + 1})"
            )


def proof_note(record: dict[str, Any]) -> str | None:
    """What a replay of ``record`` cannot check, if anything (a record older than digests)."""
    if "digests" in record:
        return None
    return (
        f"note: this record (format {record.get('format')}) stores no digests of its positions: its replay "
        "can only be checked for legal actions and final scores, not that it is the game that was played"
    )


def make_env(record: dict[str, Any], render_view: int | str | None = None) -> Any:
    """The raw env of a record, reset with its seed (``render_view`` for ``render()``)."""
    check(record)
    try:
        env = envs.make(
            record["env"],
            raw=True,
            num_players=record["num_players"],
            render_mode="ansi",
            render_view=render_view,
            **record["env_options"],
        )
    except (TypeError, ValueError) as bad:
        raise RecordError(f"the record's table cannot be set: {bad}") from None
    env.reset(seed=record["seed"])
    return env


def replay(
    record: dict[str, Any],
    render_view: int | str | None = None,
    on_step: Callable[[Any, int, int, str], None] | None = None,
) -> Any:
    """Play the record again; returns the raw env at the end.

    ``on_step(env, seat, action_id, text)`` is called before each action is applied (``text``: the
    action in words).  Raises ``RecordError`` at the first position that differs from the recorded one
    (its digest), the first action that is not legal (or not the acting seat's), or if the game does
    not end with the recorded scores.
    """
    check(record)
    digests = record.get("digests")

    def at_position(env: Any, i: int) -> None:
        if digests is not None and state_digest(env.game_state) != digests[i]:
            where = "at the start" if i == 0 else f"at step {i}, after action {i - 1}"
            raise RecordError(
                f"{where} the position differs from the recorded game (another seed, a changed "
                f"action or other rules): this is not the game the record was made from"
            )

    return _play(record, render_view, on_step, at_position)


def _play(
    record: dict[str, Any],
    render_view: int | str | None = None,
    on_step: Callable[[Any, int, int, str], None] | None = None,
    on_position: Callable[[Any, int], None] | None = None,
) -> Any:
    """Apply the record's actions from its seed, checking legality and the scores; ``on_position(env, i)``
    sees the position before action ``i`` (and, with ``i = len(actions)``, the last one)."""
    env = make_env(record, render_view)
    for i, (seat, action) in enumerate(record["actions"]):
        state = env.game_state
        if on_position is not None:
            on_position(env, i)
        if state.is_terminal():
            raise RecordError(
                f"action {i}: the game is already over, but the record has {len(record['actions']) - i} more actions"
            )
        acting = int(env.agent_selection.rsplit("_", 1)[1])
        if seat != acting:
            raise RecordError(f"action {i}: the record says seat {seat} acts, but seat {acting} is to act")
        legal = env.legal_action_ids()
        if action not in legal:
            words = "; ".join(f"{a} ({env.action_to_str(a)})" for a in legal[:20])
            raise RecordError(
                f"action {i}: {action} is not legal for seat {seat} here; legal: {words}"
                f"{' ...' if len(legal) > 20 else ''}"
            )
        text = env.action_to_str(action)
        if on_step is not None:
            on_step(env, seat, action, text)
        env.step(action)
    if on_position is not None:
        on_position(env, len(record["actions"]))
    state = env.game_state
    if not state.is_terminal() and not record.get("truncated"):
        raise RecordError(f"the record ends after {len(record['actions'])} actions but the game is not over")
    scores = [float(s) for s in state.scores()]
    if scores != [float(s) for s in record["scores"]]:
        raise RecordError(f"replayed scores {scores} differ from the recorded {record['scores']}")
    return env
