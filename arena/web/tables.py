"""Games in progress at the browser table, and replays of records.

A ``Table`` seats the human at one seat and agents at the others; agents move until the human is to
act (or the game ends).  A ``Replay`` walks through a record.  Both keep the same ``History``: the
positions one after another and each move with the seats that could not tell it apart from the
acting seat's other choices, so a board and a log can be drawn for any seat at any step.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from bidbluff import agents as agent_lib
from bidbluff import envs
from bidbluff.agents.base import bind_all, seat_of
from bidbluff.arena import records
from bidbluff.arena.match import MAX_STEPS
from bidbluff.arena.play import default_opponent, is_secret, new_entries, visible_log
from bidbluff.arena.web.views import view_of
from bidbluff.envs.core.game import GameState

OPPONENT_KINDS = ("shipped", "heuristic", "ismcts", "expert", "random")


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
        lines = [{"kind": "log", "text": text} for text in seen]
        for k, move in enumerate(self.moves[:upto]):
            lines.append(
                {"kind": "move", "seat": move.seat, "who": self.labels[move.seat], "text": self.said(move, viewer)}
            )
            now = visible_log(self.states[k + 1], viewer)
            lines += [{"kind": "log", "text": text} for text in new_entries(seen, now)]
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


class Table:
    """One game at the browser table: the human at ``seat``, agents (``opponents`` specs, repeated to fill)
    at the other seats.  Agents move as soon as it is their turn; the human moves with ``play``."""

    def __init__(
        self,
        env_name: str,
        num_players: int | None = None,
        seat: int = 0,
        opponents: list[str] | None = None,
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        records_dir: str | Path | None = None,
        max_steps: int = MAX_STEPS,
    ) -> None:
        self.options = dict(options or {})
        view_of(env_name)  # an env without a board is refused before anything is built
        game = envs.game(env_name, **self.options)
        n = game.default_players if num_players is None else int(num_players)
        if not game.min_players <= n <= game.max_players:
            raise ValueError(f"{env_name} is for {game.min_players}-{game.max_players} players, not {n}")
        if not 0 <= seat < n:
            raise ValueError(f"seat {seat}: the seats of a {n}-player table are 0-{n - 1}")
        self.env_name, self.num_players, self.seat = env_name, n, int(seat)
        self.seed = int(np.random.SeedSequence().entropy % 2**31) if seed is None else int(seed)
        self.env = envs.make(env_name, num_players=n, **self.options)
        specs = [s for s in (opponents or []) if s.strip()] or [default_opponent(env_name)]
        players: list[Any] = []
        labels: list[str] = []
        for s in range(n):
            if s == seat:
                players.append(None)
                labels.append("you")
                continue
            spec = specs[(s - (s > seat)) % len(specs)].strip()
            players.append(agent_lib.make(spec, env_name=env_name, seed=self.seed * 100 + s))
            labels.append(spec)
        self.players, self.labels = players, labels
        self.env.reset(seed=self.seed)
        self.raw = self.env.unwrapped
        bind_all([p for p in players if p is not None], self.env)
        self.history = History(env_name, labels, [self.raw.game_state.clone()])
        self.records_dir = Path(records_dir) if records_dir else None
        self.max_steps = max_steps
        self.record: dict[str, Any] | None = None
        self.saved: Path | None = None
        self.lock = threading.Lock()
        self._advance()

    @property
    def over(self) -> bool:
        return self.record is not None

    def _step(self, action: int) -> None:
        record_move(self.history, self.raw, action)
        self.env.step(action)
        self.history.states.append(self.raw.game_state.clone())

    def _advance(self) -> None:
        """Agents move until the human is to act; at the end (or past ``max_steps``) the record is made."""
        while not self.raw.game_state.is_terminal() and len(self.history.moves) < self.max_steps:
            name = self.raw.agent_selection
            s = seat_of(name)
            if s == self.seat:
                return
            self._step(int(self.players[s].act(self.env.observe(name), name)))
        self._finish()

    def _finish(self) -> None:
        state = self.raw.game_state
        actions = [(m.seat, m.action) for m in self.history.moves]
        labels = ["human" if s == self.seat else label for s, label in enumerate(self.labels)]
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
        if self.records_dir is not None:
            stamp = time.strftime("%Y%m%d-%H%M%S")
            name = f"{self.env_name}-{stamp}-{self.seed}-{uuid.uuid4().hex[:6]}.json"
            self.saved = records.save(self.record, self.records_dir / name)

    def play(self, action: Any) -> None:
        """The human's move ``action`` (an id of its mask); ``RefusedMoveError`` with the reason otherwise."""
        if self.over:
            raise RefusedMoveError("the game is over: no more moves")
        if seat_of(self.raw.agent_selection) != self.seat:
            raise RefusedMoveError(f"it is P{seat_of(self.raw.agent_selection)}'s turn, not yours")
        if isinstance(action, bool) or not isinstance(action, int):
            raise RefusedMoveError(f"a move is an action id (a whole number), not {action!r}")
        legal = self.raw.legal_action_ids()
        if action not in legal:
            said = (
                f"{action} ({self.raw.action_to_str(action)})" if 0 <= action < self.raw.game.codec.n else str(action)
            )
            raise RefusedMoveError(
                f"move {said} is not legal here; legal now: "
                f"{', '.join(self.raw.action_to_str(a) for a in legal[:12])}"
                f"{' ...' if len(legal) > 12 else ''}"
            )
        self._step(action)
        self._advance()

    def view(self) -> dict[str, Any]:
        """The page's picture of the table from the human's seat (everything once the game is over)."""
        viewer = None if self.over else self.seat
        state = self.raw.game_state
        scores = [float(s) for s in state.scores()] if self.over else None
        return {
            "env": self.env_name,
            "title": view_of(self.env_name).TITLE,
            "num_players": self.num_players,
            "seat": self.seat,
            "labels": self.labels,
            "seed": self.seed if self.over else None,  # the seed fixes every hidden die and card: told at the end
            "options": self.options,
            "board": view_of(self.env_name).board(state, viewer),
            "to_act": None if self.over else seat_of(self.raw.agent_selection),
            "moves": [] if self.over else moves_for(self.raw, self.env_name),
            "log": self.history.log(self.seat),
            "over": self.over,
            "truncated": bool(self.record and self.record["truncated"]),
            "scores": scores,
            "result": final_summary(scores, self.seat) if scores else "",
            "saved": str(self.saved) if self.saved else None,
        }


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
            "next": None if last else self._next(step, viewer),
            "scores": self.final_scores if last else None,
            "result": final_summary(self.final_scores, None) if last else "",  # nobody is "you" in a replay
        }

    def _next(self, step: int, viewer: int | None) -> str:
        move = self.history.moves[step]
        return f"P{move.seat} ({self.history.labels[move.seat]}): {self.history.said(move, viewer)}"
