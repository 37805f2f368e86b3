"""Games in progress at the browser table, and replays of records.

A ``Table`` seats humans (each with a secret link) and agents; an agent's move is thought in the
``Thinker``'s pool, one move at a time, so the page can show each one as it comes.  A ``Replay`` walks
through a record.  Both keep the same ``History``: the positions one after another and each move with
the seats that could not tell it apart from the acting seat's other choices, so a board and a log can be
drawn for any seat at any step.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from bidbluff import envs
from bidbluff.agents.base import bind_all, seat_of
from bidbluff.arena import records
from bidbluff.arena.match import MAX_STEPS
from bidbluff.arena.play import is_secret, new_entries, visible_log
from bidbluff.arena.web.limits import FRAMES
from bidbluff.arena.web.thinking import InlineThinker, Thinker
from bidbluff.arena.web.views import plain, view_of
from bidbluff.envs.core.game import GameState

TABLE_FORMAT = 1  # of a table's file on disk (store.py)


class RefusedMoveError(ValueError):
    """A move the table does not take now (not legal, not the human's turn, game over)."""


@dataclass(frozen=True)
class Move:
    seat: int
    action: int
    text: str
    kind: str
    hidden_from: tuple[int, ...]  # seats that could not tell this move from the seat's other choices


@dataclass
class History:
    """Positions ``states[0..k]`` and the ``moves`` between them, of one game of ``env_name``."""

    env_name: str
    labels: list[str]
    states: list[GameState] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    game: Any = None  # the env's Game (its codec turns a move's id back into the engine's action)

    def said(self, move: Move, viewer: int | None) -> str:
        """``move`` in words as ``viewer`` heard it: a secret choice is named by its kind only."""
        view = view_of(self.env_name)
        if viewer is not None and viewer in move.hidden_from:
            return view.HIDDEN_KINDS[move.kind]
        return view.words(move.kind, move.text)

    def log(self, viewer: int | None, upto: int | None = None) -> list[dict[str, Any]]:
        """The game so far as ``viewer`` heard it: each move in words (or as a secret choice), then the
        engine's new log lines that ``viewer`` may read.  ``upto``: moves taken (all by default)."""
        upto = len(self.moves) if upto is None else upto
        seen = visible_log(self.states[0], viewer)
        lines = [{"kind": "log", "text": plain(text), "n": 0} for text in seen]
        for k, move in enumerate(self.moves[:upto]):
            lines.append(
                {
                    "kind": "move",
                    "seat": move.seat,
                    "who": self.labels[move.seat],
                    "text": plain(self.said(move, viewer)),
                    "n": k + 1,
                }
            )
            now = visible_log(self.states[k + 1], viewer)
            lines += [{"kind": "log", "text": plain(text), "n": k + 1} for text in new_entries(seen, now)]
            seen = now
        return lines


def record_move(history: History, raw: Any, action: int) -> None:
    """Note ``action`` of the acting seat (before it is applied) with who could not tell it apart."""
    seat = seat_of(raw.agent_selection)
    kind = raw.game.codec.decode(action)[0]
    hidden: tuple[int, ...] = ()
    if kind in view_of(history.env_name).HIDDEN_KINDS:
        hidden = tuple(v for v in range(raw.num_players) if v != seat and is_secret(raw, v, action))
    history.moves.append(Move(seat, int(action), raw.action_to_str(action), kind, hidden))


def moves_for(raw: Any, env_name: str) -> list[dict[str, Any]]:
    """The acting seat's legal moves (from its action mask): id, words, kind, arguments, board element."""
    seat = seat_of(raw.agent_selection)
    view = view_of(env_name)
    state = raw.game_state
    mask = raw.observe(raw.agent_selection)["action_mask"]
    out = []
    for action in np.flatnonzero(mask).tolist():
        engine = raw.game.id_to_action(state, action, seat)
        out.append(
            {
                "id": action,
                "text": raw.action_to_str(action),
                "kind": engine[0],
                "args": [int(a) for a in engine[1:]],
                "target": view.target(engine, seat),
            }
        )
    shared = Counter(move["target"] for move in out if move["target"])
    for move in out:  # a board element two moves share is no button: both stay in the move list
        if move["target"] and shared[move["target"]] > 1:
            move["target"] = None
    return out


def final_summary(scores: list[float], seat: int | None) -> str:
    """Who won, said to the human at ``seat`` (None: to nobody in particular)."""
    best = max(scores)
    winners = [s for s, sc in enumerate(scores) if sc == best]
    if seat is not None and winners == [seat]:
        return "You win!"
    if seat is not None and seat in winners:
        return "You share the win."
    return f"Winner{'s' if len(winners) > 1 else ''}: {', '.join(f'P{w}' for w in winners)}."


def key_hash(key: str) -> str:
    """What a table keeps of a seat's secret (its file on disk holds no secret)."""
    return hashlib.sha256(key.encode()).hexdigest()


@dataclass
class Seat:
    """A seat: a human (``key_hash``: the hash of its secret link) or an agent (``spec``, trusted)."""

    label: str
    spec: str | None = None
    key_hash: str | None = None

    @property
    def human(self) -> bool:
        return self.spec is None


class Table:
    """One game: ``seats`` in seat order (humans and agents).  Agents move in ``thinker``'s pool as soon as
    it is their turn; a human moves with ``play``.  ``on_change(table)`` is called (under the lock) after
    every move, to keep the table's file on disk.  ``actions``: moves already played (a table resumed)."""

    def __init__(
        self,
        key: str,
        env_name: str,
        num_players: int,
        seats: list[Seat],
        options: dict[str, Any],
        seed: int,
        build: Callable[[str, str, int, threading.Event], Any],
        thinker: Thinker | InlineThinker,
        records_dir: str | Path | None = None,
        actions: list[list[int]] | tuple = (),
        saved: str | None = None,
        max_steps: int = MAX_STEPS,
        on_change: Callable[[Table], None] | None = None,
        fresh: bool = True,
    ) -> None:
        self.key, self.env_name, self.num_players, self.seats = key, env_name, num_players, seats
        self.options, self.seed = dict(options), int(seed)
        self.thinker, self.on_change = thinker, on_change
        self.records_dir = Path(records_dir) if records_dir else None
        self.max_steps = max_steps
        self.stop = threading.Event()  # set when the table is closed: its agent's search answers at once
        self.lock = threading.RLock()
        self.env = envs.make(env_name, num_players=num_players, **self.options)
        self.build = build
        self.players: list[Any] | None = None  # built when an agent first moves (a finished table needs none)
        self.env.reset(seed=self.seed)
        self.raw = self.env.unwrapped
        if fresh:
            self._agents()  # a new table's agents are built now, so that one that cannot play is refused at once
        self.labels = [seat.label for seat in seats]
        self.history = History(env_name, self.labels, [self.raw.game_state.clone()], game=self.raw.game)
        self.record: dict[str, Any] | None = None
        self.saved: Path | None = Path(saved) if saved else None
        self.thinking: int | None = None  # the seat whose agent is thinking now
        self.notes: list[str] = []  # what went wrong with an agent, told in the log
        self.version = 0
        self.touched = time.time()
        for seat, action in actions:  # a table resumed from its file: the same seed and moves, the same game
            if seat != seat_of(self.raw.agent_selection) or action not in self.raw.legal_action_ids():
                raise ValueError(f"table {key}: its saved move {action} of P{seat} does not replay")
            self._step(int(action))
        if self._done():
            self._finish(save=self.saved is None)

    def _agents(self) -> list[Any]:
        if self.players is None:
            self.players = [
                None if seat.human else self.build(seat.spec, self.env_name, self.seed * 100 + s, self.stop)
                for s, seat in enumerate(self.seats)
            ]
            bind_all([p for p in self.players if p is not None], self.env)
        return self.players

    # -- state ---------------------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.record is not None

    @property
    def to_act(self) -> int | None:
        return None if self.over else seat_of(self.raw.agent_selection)

    def seat_of_key(self, key: str | None) -> int | None:
        """The human seat whose secret is ``key`` (None: no such seat)."""
        if not key:
            return None
        digest = key_hash(key)
        found = None
        for s, seat in enumerate(self.seats):
            if seat.key_hash is not None and hmac.compare_digest(seat.key_hash, digest):
                found = s
        return found

    def to_file(self) -> dict[str, Any]:
        """The table as its file on disk keeps it: setup, seats (hashes, never secrets) and the moves."""
        return {
            "format": TABLE_FORMAT,
            "key": self.key,
            "env": self.env_name,
            "num_players": self.num_players,
            "options": self.options,
            "seed": self.seed,
            "seats": [asdict(seat) for seat in self.seats],
            "actions": [[m.seat, m.action] for m in self.history.moves],
            "saved": str(self.saved) if self.saved else None,
            "over": self.over,
            "touched": self.touched,
        }

    # -- moves ---------------------------------------------------------------------------------------
    def _done(self) -> bool:
        return self.raw.game_state.is_terminal() or len(self.history.moves) >= self.max_steps

    def _step(self, action: int) -> None:
        record_move(self.history, self.raw, action)
        self.env.step(action)
        self.history.states.append(self.raw.game_state.clone())

    def start(self) -> None:
        """Let the agent to act (if one is) think its move."""
        with self.lock:
            self._next()

    def _next(self) -> None:
        if self.over or self.stop.is_set():
            return
        if self._done():
            self._finish()
            return
        s = seat_of(self.raw.agent_selection)
        if self.seats[s].human or self.thinking is not None:
            return
        self._agents()
        self.thinking = s
        self.thinker.submit(lambda: self._think(s, len(self.history.moves)))

    def _think(self, s: int, at: int) -> None:
        name = self.raw.agent_selection
        legal = self.raw.legal_action_ids()
        try:
            action = int(self._agents()[s].act(self.env.observe(name), name))
        except Exception as bad:  # an agent that fails must not stop the game: it moves at random once
            action = -1
            self.notes.append(f"P{s}'s agent failed ({type(bad).__name__}); it moved at random")
        if action not in legal:
            action = int(np.random.default_rng().choice(legal))
        with self.lock:
            self.thinking = None
            if self.stop.is_set() or self.over or len(self.history.moves) != at:
                return
            self._step(action)
            self._changed()
            self._next()

    def _changed(self) -> None:
        self.version += 1
        self.touched = time.time()
        if self.on_change is not None:
            self.on_change(self)

    def _finish(self, save: bool = True) -> None:
        state = self.raw.game_state
        actions = [(m.seat, m.action) for m in self.history.moves]
        labels = ["human" if seat.human else seat.label for seat in self.seats]
        self.record = records.record_game(
            self.env_name,
            self.num_players,
            self.seed,
            actions,
            list(state.scores()),
            self.options,
            labels,
            not state.is_terminal(),
        )
        if save and self.records_dir is not None:
            stamp = time.strftime("%Y%m%d-%H%M%S")
            name = f"{self.env_name}-{stamp}-{self.seed}-{uuid.uuid4().hex[:6]}.json"
            self.saved = records.save(self.record, self.records_dir / name)
        if self.on_change is not None:
            self.on_change(self)

    def close(self) -> None:
        """Stop the table: its agent's search (if one thinks) answers at once and is not played."""
        self.stop.set()

    def play(self, seat: int, action: Any) -> None:
        """The move ``action`` (an id of its mask) of the human at ``seat``; ``RefusedMoveError`` otherwise."""
        with self.lock:
            if self.over:
                raise RefusedMoveError("the game is over: no more moves")
            if seat_of(self.raw.agent_selection) != seat:
                who = seat_of(self.raw.agent_selection)
                raise RefusedMoveError(f"it is P{who}'s turn ({self.labels[who]}), not yours")
            if isinstance(action, bool) or not isinstance(action, int):
                raise RefusedMoveError(f"a move is an action id (a whole number), not {str(action)[:40]!r}")
            legal = self.raw.legal_action_ids()
            if action not in legal:
                said = (
                    f"{action} ({plain(self.raw.action_to_str(action))})"
                    if 0 <= action < self.raw.game.codec.n
                    else str(action)
                )
                raise RefusedMoveError(
                    f"move {said} is not legal here; legal now: "
                    f"{', '.join(plain(self.raw.action_to_str(a)) for a in legal[:12])}"
                    f"{' ...' if len(legal) > 12 else ''}"
                )
            self._step(action)
            self._changed()
            self._next()

    # -- what a seat sees ----------------------------------------------------------------------------
    def view(self, seat: int, since: int | None = None) -> dict[str, Any]:
        """The page's picture of the table from ``seat`` (everything once the game is over), and, when
        ``since`` is given, each move after the first ``since`` with the board after it (``frames``), so the
        page can show the moves one at a time."""
        with self.lock:
            return self._view(seat, since)

    def _view(self, seat: int, since: int | None) -> dict[str, Any]:
        view = view_of(self.env_name)
        viewer = None if self.over else seat
        state = self.raw.game_state
        scores = [float(s) for s in state.scores()] if self.over else None
        moves = len(self.history.moves)
        frames = []
        if since is not None and 0 <= since < moves:
            for k in range(max(since, moves - FRAMES), moves):
                move = self.history.moves[k]
                frames.append(
                    {
                        "n": k + 1,
                        "seat": move.seat,
                        "text": plain(self.history.said(move, seat)),
                        "board": view.board(self.history.states[k + 1], seat),
                    }
                )
        to_act = self.to_act
        legal = moves_for(self.raw, self.env_name) if to_act == seat else []
        log = self.history.log(seat)
        log += [{"kind": "note", "text": note, "n": moves} for note in self.notes]
        return {
            "id": self.key,
            "env": self.env_name,
            "title": view.TITLE,
            "num_players": self.num_players,
            "seat": seat,
            "labels": self.labels,
            "humans": [s for s, other in enumerate(self.seats) if other.human],
            "seed": self.seed if self.over else None,  # the seed fixes every hidden die and card: told at the end
            "options": self.options,
            "board": view.board(state, viewer),
            "to_act": to_act,
            "thinking": to_act if to_act is not None and not self.seats[to_act].human else None,
            "moves": legal,
            "notes": view.notes(state, seat, legal) if legal else [],
            "move_count": moves,
            "frames": frames,
            "log": log,
            "over": self.over,
            "truncated": bool(self.record and self.record["truncated"]),
            "scores": scores,
            "result": final_summary(scores, seat) if scores else "",
            "breakdown": view.breakdown(self.history) if self.over else None,
            "saved": self.saved.name if self.saved else None,
        }


def new_key() -> tuple[str, str]:
    """A seat's secret and its hash."""
    key = secrets.token_urlsafe(18)
    return key, key_hash(key)


TABLE_KEY = re.compile(r"[0-9a-f]{16}")


def new_table_key() -> str:
    return secrets.token_hex(8)


class Replay:
    """A record walked through step by step; ``view(step, viewer)`` is the board after ``step`` moves."""

    def __init__(self, record: dict[str, Any], source: str = "") -> None:
        self.record = record
        self.source = source
        env_name = record["env"]
        view_of(env_name)  # an env without a board is refused before the replay
        labels = [str(a) for a in record.get("agents") or []] + [
            f"player_{s}" for s in range(len(record.get("agents") or []), record["num_players"])
        ]
        self.history = History(env_name, labels)
        states: list[GameState] = []

        def on_step(env: Any, seat: int, action: int, text: str) -> None:
            states.append(env.game_state.clone())
            record_move(self.history, env, action)

        env = records.replay(record, on_step=on_step)
        states.append(env.game_state.clone())
        self.history.game = env.game
        self.history.states = states
        self.final_scores = [float(s) for s in env.game_state.scores()]

    @property
    def steps(self) -> int:
        return len(self.history.moves)

    def view(self, step: int, viewer: int | None) -> dict[str, Any]:
        n = self.record["num_players"]
        if not 0 <= step <= self.steps:
            raise ValueError(f"step {step}: this record has steps 0-{self.steps}")
        if viewer is not None and not 0 <= viewer < n:
            raise ValueError(f"seat {viewer}: the record has seats 0-{n - 1}")
        state = self.history.states[step]
        last = step == self.steps
        return {
            "env": self.history.env_name,
            "title": view_of(self.history.env_name).TITLE,
            "num_players": n,
            "labels": self.history.labels,
            "seed": self.record["seed"],
            "options": self.record["env_options"],
            "source": self.source,
            "step": step,
            "steps": self.steps,
            "viewer": viewer,
            "board": view_of(self.history.env_name).board(state, viewer),
            "log": self.history.log(viewer, step),
            "breakdown": view_of(self.history.env_name).breakdown(self.history) if last else None,
            "next": None if last else self._next(step, viewer),
            "scores": self.final_scores if last else None,
            "result": final_summary(self.final_scores, None) if last else "",  # nobody is "you" in a replay
        }

    def _next(self, step: int, viewer: int | None) -> str:
        move = self.history.moves[step]
        return f"P{move.seat} ({self.history.labels[move.seat]}): {plain(self.history.said(move, viewer))}"
