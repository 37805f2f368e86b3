"""Any program as an agent: the client side of the ``bidbluff-agent`` JSON-lines protocol (version 1).

``make('cmd:"node my_agent.js"', env_name=...)`` starts the program at its first decision and keeps it for
the games that follow.  Every message is one JSON object on one line, UTF-8, in both directions; the full
protocol, with examples, is ``docs/program-agents.md``.  In short, bidbluff writes to the program's stdin:

* ``{"type": "hello", "protocol": "bidbluff-agent", "version": 1, "env", "seat", "agent", "num_players",
  "action_n", "observation_size", "seed", "limits": {"move_s", "game_s", "start_s"}}`` once, when it starts;
  the program answers ``{"type": "hello", "version": 1, "name": "..."}`` within ``start_s``;
* ``{"type": "game", "game", "seat", "agent", "num_players"}`` before the first decision of every game;
* ``{"type": "act", "game", "step", "seat", "agent", "observation", "mask", "legal", "legal_names", "board",
  "time_left_s"}`` at each of its decisions; the program answers ``{"action": 12}`` (an id) or ``{"action":
  "liar"}`` (one of ``legal_names``) within the move's limit (``move_s``, and what is left of ``game_s``);
* end of input (stdin closed) when bidbluff is done with it: the program exits.

A program that crashes, hangs, answers garbage (not a JSON object with an ``action``) or an illegal move
forfeits that game: ``act`` raises ``ForfeitError`` with the reason in one line (and the end of the program's
stderr, which is kept for that), the process and everything it started are killed (its own process group),
and the next game starts a fresh one.  The game runners end a forfeited game there and score it as a loss
for the program (``bidbluff.arena.match``).  ``close()`` ends the program; a program never outlives its
agent (``weakref.finalize``, also at interpreter exit).

The board is ``game.render(state, seat)``: the text view of the seat itself, never the omniscient one.
It needs the env (``needs_env``, ``bind``); where there is none (``bidbluff exploitability`` tabulates the
policy from observations, ``env_optional``) ``board`` is ``null`` and ``legal_names`` are the codec's.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import selectors
import shlex
import signal
import subprocess
import tempfile
import time
import weakref
from typing import IO, Any

import numpy as np

from bidbluff import envs
from bidbluff.agents.base import ForfeitError, legal_ids, seat_of

PROTOCOL = "bidbluff-agent"
VERSION = 1
LIMITS = {"move": 5.0, "game": 300.0, "start": 20.0}  # seconds: per decision, per game, to answer the hello
MAX_LINE = 1 << 20  # an answer longer than this is garbage (an answer is a few bytes)
GRACE = 1.0  # seconds a program has to exit on its own once its input is closed
STDERR_TAIL = 400  # characters of the program's stderr quoted in a crash's reason


class ProtocolError(Exception):
    """What the program did wrong, in one line (becomes the forfeit's reason)."""


def comma_items(text: str) -> list[str]:
    """``text`` split at the commas outside quotes, each item's quotes removed (``shlex``, POSIX rules, but
    backslashes kept as they are: a Windows path stays one): ``'cmd:"node a.js, b",random'`` ->
    ``["cmd:node a.js, b", "random"]``.  An unclosed quote is a ``ValueError``."""
    lexer = shlex.shlex(text, posix=True)
    lexer.whitespace, lexer.whitespace_split, lexer.commenters, lexer.escape = ",", True, "", ""
    try:
        return [item.strip() for item in lexer if item.strip()]
    except ValueError:
        raise ValueError(f"agent specs {text!r}: a quote is not closed") from None


def parse_seconds(spec: str, key: str, text: str) -> float:
    """``"2s"``, ``"500ms"`` or ``"2"`` (seconds) as seconds."""
    found = re.fullmatch(r"(\d+(?:\.\d*)?)(ms|s)?", text.strip())
    if not found or float(found.group(1)) <= 0:
        raise ValueError(f"agent spec {spec!r}: {key}={text!r} is not a time limit (write e.g. {key}=2s or 500ms)")
    return float(found.group(1)) / (1000.0 if found.group(2) == "ms" else 1.0)


def from_spec(spec: str, arg: str, env_name: str | None, seed: int | None, **options: Any) -> ProgramAgent:
    """``cmd:COMMAND[,move=5s][,game=300s][,start=20s]``; COMMAND is split as a shell would (``shlex``) but run
    without a shell."""
    items = comma_items(arg)
    if not items or not items[0].strip():
        raise ValueError(f'agent spec {spec!r}: write cmd:COMMAND, e.g. cmd:"node my_agent.js"')
    limits = dict(LIMITS)
    for item in items[1:]:
        key, eq, value = item.partition("=")
        if not eq or key not in LIMITS:
            raise ValueError(
                f"agent spec {spec!r}: {item!r} is not a setting of a program (move=, game=, start=); quote a "
                f'command that holds commas: cmd:"{items[0]},{item}"'
            )
        limits[key] = parse_seconds(spec, key, value)
    if env_name is None:
        raise ValueError(f"agent spec {spec!r}: a program needs the env (agents.make(spec, env_name=...))")
    return ProgramAgent(
        items[0], env_name, seed=seed, move_s=limits["move"], game_s=limits["game"], start_s=limits["start"],
        name=spec, **options,
    )  # fmt: skip


def _exited(process: subprocess.Popen, wait: float = 0.0) -> str | None:
    """How the program ended (``"exited with code 3"``), once it has (within ``wait`` seconds), else ``None``.
    Where ``os.waitid`` exists (Linux) the program is not reaped: until it is, its id, which is its process
    group's, cannot be given to another process.  Elsewhere (macOS) ``poll`` reaps it."""
    deadline = time.monotonic() + wait
    while True:
        if hasattr(os, "waitid") and process.returncode is None:
            try:
                found = os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            except ChildProcessError:  # reaped already
                found = None
            if found is not None:
                exited = found.si_code == os.CLD_EXITED
                return f"exited with code {found.si_status}" if exited else f"was killed by signal {found.si_status}"
        else:
            code = process.poll()
            if code is not None:
                return f"exited with code {code}" if code >= 0 else f"was killed by signal {-code}"
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.01)


def _end_process(process: subprocess.Popen, stderr: IO[bytes] | None, grace: list[float]) -> None:
    """Close the program's input, give it ``grace[0]`` seconds to exit (none for a broken one), then kill its
    whole process group (what it started too) and reap it.  The group is killed before the leader is reaped, so
    its id is still the group's."""
    with contextlib.suppress(OSError):
        process.stdin.close()
    if process.returncode is None:
        _exited(process, grace[0])
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    for stream in (process.stdout, stderr):
        with contextlib.suppress(OSError):
            if stream is not None:
                stream.close()


class _Program:
    """One running program: its pipes, a line reader with deadlines, and the end of its stderr."""

    def __init__(self, argv: list[str], cwd: str | None) -> None:
        # a file, not a pipe: a chatty program can never block on it; closed with the process (_end_process)
        self.stderr = tempfile.TemporaryFile()  # noqa: SIM115
        try:
            self.process = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self.stderr,
                cwd=cwd,
                start_new_session=True,  # its own process group: killed whole, with anything it started
            )
        except OSError as bad:
            self.stderr.close()
            raise ProtocolError(f"cannot start {shlex.join(argv)}: {bad.strerror or bad}") from None
        os.set_blocking(self.process.stdin.fileno(), False)
        os.set_blocking(self.process.stdout.fileno(), False)
        self.buffer = b""
        self.grace = [GRACE]  # a list: the finalizer holds it, ``close`` may shorten it
        self.finalizer = weakref.finalize(self, _end_process, self.process, self.stderr, self.grace)

    def close(self, grace: float = GRACE) -> None:
        self.grace[0] = grace
        self.finalizer()

    def crashed(self, doing: str) -> ProtocolError:
        """The error for a program that has gone, with its exit status and the end of its stderr."""
        status = _exited(self.process, GRACE) or "closed its output"
        self.stderr.seek(0, os.SEEK_END)
        self.stderr.seek(max(0, self.stderr.tell() - STDERR_TAIL))
        tail = " ".join(self.stderr.read().decode("utf-8", "replace").split())
        return ProtocolError(f"the program {status} while {doing}" + (f" (stderr: ...{tail})" if tail else ""))

    def send(self, message: dict[str, Any], deadline: float, doing: str) -> None:
        """Write one line; a program that stops reading its input cannot hold bidbluff past ``deadline``."""
        data = memoryview((json.dumps(message, separators=(",", ":")) + "\n").encode())
        fd = self.process.stdin.fileno()
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_WRITE)
            while data:
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    raise ProtocolError(f"timed out {doing}: the program did not read its input")
                try:
                    data = data[os.write(fd, data) :]
                except BlockingIOError:
                    continue
                except (BrokenPipeError, ConnectionResetError):
                    raise self.crashed(doing) from None

    def nothing_unasked(self, doing: str) -> None:
        """A line the program wrote when nobody asked (a second answer) would be read as the next answer: it is
        garbage now.  What it has written so far is read without waiting, so a second answer that comes late is
        taken for the next move's answer, and caught a move later (or is illegal there)."""
        while len(self.buffer) <= MAX_LINE:
            try:
                chunk = os.read(self.process.stdout.fileno(), 65536)
            except BlockingIOError:
                break
            if not chunk:
                break  # it has gone: the send or the read that follows says so
            self.buffer += chunk
        if self.buffer.strip():
            text = self.buffer.decode("utf-8", "replace").strip().splitlines()[0]
            raise ProtocolError(f"garbage {doing}: {_quote(text)} was written when no answer was asked for")

    def receive(self, deadline: float, doing: str, limit: float) -> dict[str, Any]:
        """The next line, as a JSON object, by ``deadline``."""
        fd = self.process.stdout.fileno()
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while b"\n" not in self.buffer:
                if len(self.buffer) > MAX_LINE:
                    raise ProtocolError(f"garbage {doing}: a line of more than {MAX_LINE} bytes")
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    raise ProtocolError(f"timed out {doing}: no answer within {limit:g} s")
                try:
                    chunk = os.read(fd, 65536)
                except BlockingIOError:
                    continue
                if not chunk:
                    raise self.crashed(doing)
                self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        text = line.decode("utf-8", "replace").strip()
        try:
            message = json.loads(text)
        except json.JSONDecodeError:
            raise ProtocolError(f"garbage {doing}: {_quote(text)} is not JSON") from None
        if not isinstance(message, dict):
            raise ProtocolError(f"garbage {doing}: {_quote(text)} is not a JSON object")
        return message


def _quote(text: str, width: int = 80) -> str:
    return repr(text if len(text) <= width else text[:width] + "...")


class ProgramAgent:
    """A program playing through the ``bidbluff-agent`` protocol (see the module doc)."""

    needs_env = True  # for the board: the seat's own text view
    env_optional = True  # without an env (a policy tabulated from observations) it plays with board null

    def __init__(
        self,
        command: str | list[str],
        env_name: str,
        seed: int | None = None,
        move_s: float = LIMITS["move"],
        game_s: float = LIMITS["game"],
        start_s: float = LIMITS["start"],
        name: str | None = None,
        cwd: str | None = None,
    ) -> None:
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.argv:
            raise ValueError("a program agent needs a command")
        self.env_name = env_name
        self.game = envs.game(env_name)
        self.seed = seed
        self.limits = {"move_s": float(move_s), "game_s": float(game_s), "start_s": float(start_s)}
        self.name = name or f"cmd:{shlex.join(self.argv)}"
        self.cwd = cwd
        self.program_name: str | None = None  # what the program calls itself in its hello
        self._program: _Program | None = None
        self._env: Any = None
        self._games = 0
        self._announced = False
        self._steps = 0
        self._used = 0.0  # seconds spent waiting for the program this game

    # -- the Agent protocol -------------------------------------------------------------------
    def bind(self, env: Any) -> None:
        self._env = env.unwrapped

    def reset(self) -> None:
        self._games += 1
        self._announced = False
        self._steps = 0
        self._used = 0.0

    def act(self, observation: dict[str, np.ndarray], agent: str) -> int:
        legal = [int(i) for i in legal_ids(observation, agent)]
        names = self._names(legal)
        seat = seat_of(agent)
        try:
            if self._program is None:
                self._start(seat, agent)
            if not self._announced:
                self._send({"type": "game", "game": self._games, **self._table(seat, agent)}, "starting the game")
                self._announced = True
            self._steps += 1
            doing = f"at its move {self._steps} of game {self._games}"
            left = self.limits["game_s"] - self._used
            if left <= 0:
                raise ProtocolError(f"out of time: the game's {self.limits['game_s']:g} s are used up")
            limit = min(self.limits["move_s"], left)
            started = time.monotonic()
            deadline = started + limit
            self._program.nothing_unasked(doing)
            self._program.send(self._act_message(observation, seat, agent, legal, names, left), deadline, doing)
            answer = self._program.receive(deadline, doing, limit)
            self._used += time.monotonic() - started
            return self._action(answer, legal, names, doing)
        except ProtocolError as bad:
            self._end(grace=0.0)  # a broken program is not trusted with another move; the next game starts anew
            raise ForfeitError(self.name, str(bad)) from None

    def close(self) -> None:
        """End the program (and what it started).  The agent can play on: the next decision starts a new one."""
        self._end(GRACE)

    def _end(self, grace: float) -> None:
        if self._program is not None:
            self._program.close(grace)
            self._program = None

    # -- the protocol's messages ------------------------------------------------------------
    def _table(self, seat: int, agent: str) -> dict[str, Any]:
        players = len(self._env.possible_agents) if self._env is not None else None
        return {"seat": seat, "agent": agent, "num_players": players}

    def _send(self, message: dict[str, Any], doing: str) -> None:
        self._program.send(message, time.monotonic() + self.limits["move_s"], doing)

    def _start(self, seat: int, agent: str) -> None:
        self._program = _Program(self.argv, self.cwd)
        hello = {
            "type": "hello",
            "protocol": PROTOCOL,
            "version": VERSION,
            "env": self.env_name,
            **self._table(seat, agent),
            "action_n": int(self.game.codec.n),
            "observation_size": int(self.game.observation_size),
            "seed": self.seed,
            "limits": self.limits,
        }
        doing = "answering the hello"
        deadline = time.monotonic() + self.limits["start_s"]
        self._program.send(hello, deadline, doing)
        answer = self._program.receive(deadline, doing, self.limits["start_s"])
        if answer.get("type") != "hello":
            raise ProtocolError(f"garbage {doing}: the answer {_quote(json.dumps(answer))} is not a hello")
        if answer.get("version") != VERSION:
            raise ProtocolError(
                f"the program speaks {PROTOCOL} version {answer.get('version')!r}; bidbluff speaks {VERSION}"
            )
        name = answer.get("name")
        self.program_name = str(name) if name is not None else None

    def _act_message(
        self, observation: dict[str, np.ndarray], seat: int, agent: str, legal: list[int], names: list[str], left: float
    ) -> dict[str, Any]:
        vector = observation.get("observation")
        return {
            "type": "act",
            "game": self._games,
            "step": self._steps,
            "seat": seat,
            "agent": agent,
            "observation": None if vector is None else np.asarray(vector, dtype=np.float32).tolist(),
            "mask": np.asarray(observation["action_mask"], dtype=np.int8).tolist(),
            "legal": legal,
            "legal_names": names,
            "board": self._board(seat),
            "time_left_s": round(left, 3),
        }

    def _names(self, legal: list[int]) -> list[str]:
        env = self._env
        if env is not None and env.game_state is not None and not env.game_state.is_terminal():
            return [env.action_to_str(i) for i in legal]
        names = []
        for i in legal:
            kind, *args = self.game.codec.decode(i)
            names.append(f"{kind}({', '.join(map(str, args))})" if args else kind)
        return names

    def _board(self, seat: int) -> str | None:
        env = self._env
        if env is None or env.game_state is None:
            return None
        return env.game.render(env.game_state, seat)  # the seat's own view: no hidden card of another seat

    def _action(self, answer: dict[str, Any], legal: list[int], names: list[str], doing: str) -> int:
        if "action" not in answer:
            raise ProtocolError(f'garbage {doing}: {_quote(json.dumps(answer))} has no "action"')
        action = answer["action"]
        if isinstance(action, bool) or not isinstance(action, (int, str)):
            raise ProtocolError(f"garbage {doing}: the action {action!r} is neither an id nor a move's name")
        if isinstance(action, int):
            if action in legal:
                return action
            raise ProtocolError(f"illegal move {doing}: {action} is not one of the legal ids {_short(legal)}")
        wanted = " ".join(action.lower().split())
        for i, move in zip(legal, names, strict=True):
            if " ".join(move.lower().split()) == wanted:
                return i
        raise ProtocolError(f"illegal move {doing}: {_quote(action)} is not one of the legal moves {_short(names)}")


def _short(items: list[Any], many: int = 8) -> str:
    shown = ", ".join(map(str, items[:many]))
    return f"[{shown}{', ...' if len(items) > many else ''}] ({len(items)})"
