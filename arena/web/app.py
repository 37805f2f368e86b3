"""The browser table's web app (Starlette): the page, its assets and a small JSON API.

    GET  /                          the page (static/index.html); /t/{id} is the same page, at a table
    GET  /api/games                 every env: player counts, setup options, rules text, the agents offered
    POST /api/tables                {env, num_players, seats | seat + opponents, options, seed} -> a new table
                                    and the secret link of each human seat
    GET  /api/tables/{id}?since=k&wait=1   the table from the seat of the X-Seat-Key header; each move after
                                    the first k with the board after it; wait=1: until something changes
    POST /api/tables/{id}/move      {action}: that seat's move (400 with the reason when refused)
    GET  /api/tables/{id}/record    the finished game's JSON record
    GET  /api/records               records saved in the records folder
    POST /api/replays               {record} | {path} | {saved}: open a record for replay
    GET  /api/replays/{id}?step=k&view=seat|all

Every request passes ``guard``: its Host and Origin must be this table's, a body must be JSON of bounded
size.  Files are read only inside the server's folders (``folders``); agents are seated only as
``offered`` allows and think in the ``Thinker``'s pool, never on the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import OrderedDict
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from bidbluff import agents as agent_lib
from bidbluff import envs
from bidbluff.arena import records
from bidbluff.arena.play import default_opponent
from bidbluff.arena.web.folders import Folder, read_bounded, resolve
from bidbluff.arena.web.guard import BadRequestError, OriginGuard, depth, json_body
from bidbluff.arena.web.limits import IDLE_MINUTES, MAX_DEPTH, MAX_RECORD_FILE, MAX_SEED, MOVE_TIME_S
from bidbluff.arena.web.offered import Offered
from bidbluff.arena.web.options import chosen_options
from bidbluff.arena.web.store import TableLimitError, TableStore
from bidbluff.arena.web.tables import RefusedMoveError, Replay, Seat, Table, new_key, new_table_key
from bidbluff.arena.web.thinking import InlineThinker, Thinker
from bidbluff.arena.web.views import view_of

STATIC = Path(__file__).resolve().parent / "static"
KEEP_REPLAYS = 64  # replays held in memory (a replay is rebuilt from its record; nothing of a game is lost)
WAIT_S = 15.0  # the longest a ?wait=1 answer waits for a change
log = logging.getLogger(__name__)


@dataclass
class Settings:
    """What the server was started with (``arena.web.cli``)."""

    records: Path | None = None  # finished games saved, and records opened, here
    tables: Path | None = None  # tables in progress kept here (None: in memory only)
    runs: tuple[Path, ...] = ()  # checkpoints (and records) a page may name
    agents: dict[str, str] = field(default_factory=dict)  # --agent NAME=SPEC
    hosts: tuple[str, ...] = ()  # host names besides the loopback ones (--host, --allow-host)
    idle_minutes: float = IDLE_MINUTES
    move_time: float = MOVE_TIME_S


def _int(body: dict[str, Any], key: str, default: int | None, low: int = 0, high: int = MAX_SEED) -> int | None:
    value = body.get(key, default)
    if value is None or value == "":
        return default
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise BadRequestError(f"{key} must be a whole number from {low} to {high}, not {str(value)[:40]!r}")
    try:
        number = int(value)
    except ValueError:
        raise BadRequestError(f"{key} must be a whole number from {low} to {high}, not {value[:40]!r}") from None
    if not low <= number <= high:
        raise BadRequestError(f"{key} must be a whole number from {low} to {high}, not {number}")
    return number


def games(offered: Offered | None = None) -> list[dict[str, Any]]:
    """Every env's form: player counts, options, rules text and the agents ``offered`` (default: a server's
    with no folders of its own)."""
    offered = offered or Offered((Folder.of("shipped", agent_lib.CHECKPOINTS),))
    out = []
    for name in envs.ENVS:
        game = envs.game(name)
        view = view_of(name)
        out.append(
            {
                "env": name,
                "title": view.TITLE,
                "min_players": game.min_players,
                "max_players": game.max_players,
                "default_players": game.default_players,
                "options": [o.to_dict() for o in view.OPTIONS],
                "glossary": {**view.GLOSSARY, "moves": {k.name: k.help for k in game.codec.kinds}},
                "opponents": offered.kinds(name),
                "checkpoints": offered.checkpoints(name),
                "default_opponent": default_opponent(name),
            }
        )
    return out


class Server:
    """The app's state: folders, the agents offered, the tables and replays open."""

    def __init__(self, settings: Settings, thinker: Thinker | InlineThinker | None = None) -> None:
        self.settings = settings
        runs = tuple(Folder.of("runs" if k == 0 else f"runs{k + 1}", p) for k, p in enumerate(settings.runs))
        self.record_folders = ((Folder.of("records", settings.records),) if settings.records else ()) + runs
        self.offered = Offered((Folder.of("shipped", agent_lib.CHECKPOINTS), *runs), dict(settings.agents))
        self.offered.move_time = settings.move_time
        self.thinker = thinker or Thinker()
        self.tables = TableStore(settings.tables, self.restore, settings.idle_minutes * 60)
        self.replays: OrderedDict[str, Replay] = OrderedDict()

    def games(self) -> list[dict[str, Any]]:
        return games(self.offered)

    # -- tables --------------------------------------------------------------------------------------
    def new_table(self, body: dict[str, Any]) -> tuple[Table, dict[int, str]]:
        """A table as ``body`` asks, and the secret of each of its human seats."""
        env_name = body.get("env")
        if not isinstance(env_name, str) or env_name not in envs.ENVS:
            raise BadRequestError(f"unknown game {str(env_name)[:40]!r}; games: {', '.join(envs.ENVS)}")
        game = envs.game(env_name)
        options = chosen_options(env_name, body.get("options"))
        seed = _int(body, "seed", None)
        seed = int(np.random.SeedSequence().entropy % 2**31) if seed is None else seed
        seats = self._seats(body, env_name, game)
        n = len(seats)
        keys: dict[int, str] = {}
        for s, seat in enumerate(seats):
            if seat.human:
                keys[s], seat.key_hash = new_key()
        key = new_table_key()
        try:
            table = Table(
                key,
                env_name,
                n,
                seats,
                options,
                seed,
                self.offered.build,
                self.thinker,
                self.settings.records,
                on_change=self.tables.write,
            )
        except BadRequestError:
            raise
        except (ValueError, TypeError, KeyError) as bad:  # the engine refused the setup
            raise BadRequestError(f"{env_name} cannot be set up so: {bad}") from None
        return table, keys

    def _seats(self, body: dict[str, Any], env_name: str, game: Any) -> list[Seat]:
        low, high = game.min_players, game.max_players
        given = body.get("seats")
        if given is not None:
            if not isinstance(given, list) or not low <= len(given) <= high:
                raise BadRequestError(
                    f"seats must be a list of {low} to {high} entries, each 'human' or an agent: "
                    f"{', '.join(self.offered.kinds(env_name))}"
                )
            if "num_players" in body and _int(body, "num_players", None, low, high) != len(given):
                raise BadRequestError(f"num_players is {body['num_players']} but seats names {len(given)}")
        else:
            n = _int(body, "num_players", game.default_players, low, high)
            seat = _int(body, "seat", 0, 0, n - 1)
            opponents = body.get("opponents") or []
            if isinstance(opponents, str):
                opponents = agent_lib.split_specs(opponents[:2000])
            if not isinstance(opponents, list) or len(opponents) > high:
                raise BadRequestError(f"opponents must be a list of at most {high} agent names")
            specs = [o for o in opponents if not isinstance(o, str) or o.strip()] or [default_opponent(env_name)]
            given = []
            for s in range(n):
                given.append("human" if s == seat else specs[(s - (s > seat)) % len(specs)])
        seats = []
        for s, entry in enumerate(given):
            if entry == "human":
                seats.append(Seat("human"))
            else:
                spec = self.offered.spec_for(entry, env_name, f"seat {s}")
                seats.append(Seat(entry.strip(), spec))
        if not any(seat.human for seat in seats):
            raise BadRequestError("seats: at least one seat is 'human' (a table of agents only is a match)")
        return seats

    def restore(self, data: dict[str, Any]) -> Table:
        seats = [Seat(**{k: s.get(k) for k in ("label", "spec", "key_hash")}) for s in data["seats"]]
        table = Table(
            data["key"],
            data["env"],
            int(data["num_players"]),
            seats,
            data["options"],
            int(data["seed"]),
            self.offered.build,
            self.thinker,
            self.settings.records,
            actions=data["actions"],
            saved=data.get("saved"),
            on_change=self.tables.write,
            fresh=False,
        )
        table.touched = float(data.get("touched") or time.time())
        return table

    def seat_at(self, request: Request) -> tuple[Table, int]:
        """The table of the path and the seat of the request's secret (``X-Seat-Key``)."""
        table = self.tables.get(request.path_params["key"])
        if table is None:
            raise BadRequestError("no such table (it may have closed after a long time unused)", 404)
        seat = table.seat_of_key(request.headers.get("x-seat-key"))
        if seat is None:
            raise BadRequestError("this table is seen only through a seat's own link", 403)
        self.tables.touch(table)
        return table, seat

    # -- records -------------------------------------------------------------------------------------
    def open_record(self, body: dict[str, Any]) -> Replay:
        if body.get("record") is not None:
            record = body["record"]
            records.check(record)
            return Replay(record, str(body.get("name") or "uploaded record")[:100])
        given = body.get("saved") or body.get("path")
        if not isinstance(given, str) or not given:
            raise BadRequestError("send a record (the file's JSON), or the name of a record file in the records folder")
        if body.get("saved") is not None:
            given = Path(given).name  # a name in the records folder, never a path out of it
        path = resolve(given, self.record_folders, "record")
        return Replay(parse_record(read_bounded(path, MAX_RECORD_FILE, "record"), path.name), path.name)

    def saved_records(self) -> list[dict[str, Any]]:
        folder = self.settings.records
        if folder is None or not folder.is_dir():
            return []
        files = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
        return [{"name": p.name, "size": p.stat().st_size} for p in files[:200]]


def parse_record(data: bytes, name: str) -> dict[str, Any]:
    """The checked record in a file's bytes (``records.load`` reads a path whole; here the bytes are bounded)."""
    try:
        record = json.loads(data)
    except (ValueError, RecursionError):
        raise BadRequestError(f"{name} is not a game record (not JSON text)") from None
    if depth(record) > MAX_DEPTH:
        raise BadRequestError(f"{name} is not a game record (it nests deeper than {MAX_DEPTH} levels)")
    try:
        records.check(record)
    except records.RecordError as bad:
        raise BadRequestError(f"{name}: {bad}") from None
    return record


def error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def create_app(records_dir: str | Path | None = None, settings: Settings | None = None) -> Starlette:
    """The app; finished games are saved as JSON records under ``records_dir`` (or ``settings.records``)."""
    settings = settings or Settings()
    if records_dir is not None:
        settings.records = Path(records_dir)
    server = Server(settings)

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})

    async def list_games(request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(server.games))  # afresh: checkpoints may have been added

    async def create_table(request: Request) -> Response:
        body = await json_body(request)
        table, keys = await run_in_threadpool(server.new_table, body)
        try:
            server.tables.add(table)
        except TableLimitError as full:
            table.close()
            return error(str(full), 503)
        table.start()
        seat = min(keys)
        view = table.view(seat, 0)
        return JSONResponse(
            {**view, "key": keys[seat], "links": {str(s): f"/t/{table.key}#{k}" for s, k in keys.items()}}
        )

    async def show_table(request: Request) -> Response:
        table, seat = await run_in_threadpool(server.seat_at, request)  # a table may be read back from disk
        since = _int(dict(request.query_params), "since", None, 0, 10**6)
        if request.query_params.get("wait") and since is not None:
            deadline = time.monotonic() + WAIT_S
            while (  # until a move is made, unless it is this seat's own to make
                table.to_act not in (None, seat)
                and len(table.history.moves) <= since
                and time.monotonic() < deadline
                and not await request.is_disconnected()
            ):
                await asyncio.sleep(0.05)
        return JSONResponse(await run_in_threadpool(table.view, seat, since))

    async def move(request: Request) -> Response:
        table, seat = await run_in_threadpool(server.seat_at, request)  # a table may be read back from disk
        body = await json_body(request)
        if "action" not in body:
            raise RefusedMoveError('send the move as {"action": <id>}')
        since = len(table.history.moves)

        def take() -> dict[str, Any]:
            table.play(seat, body["action"])
            return table.view(seat, since)

        return JSONResponse(await run_in_threadpool(take))

    async def record(request: Request) -> Response:
        table, _ = await run_in_threadpool(server.seat_at, request)
        if table.record is None:
            return error("the game is not over: no record yet", 409)
        name = table.saved.name if table.saved else f"{table.env_name}-{table.seed}.json"
        return JSONResponse(table.record, headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def saved(request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(server.saved_records))

    async def create_replay(request: Request) -> Response:
        body = await json_body(request)
        replay = await run_in_threadpool(server.open_record, body)
        key = new_table_key()
        server.replays[key] = replay
        while len(server.replays) > KEEP_REPLAYS:
            server.replays.popitem(last=False)
        return JSONResponse({"id": key, **replay.view(0, None)})

    async def show_replay(request: Request) -> Response:
        replay = server.replays.get(request.path_params["key"])
        if replay is None:
            return error("no such replay (open the record again)", 404)
        step = _int(dict(request.query_params), "step", 0, 0, 10**6)
        view = request.query_params.get("view", "all")
        viewer = None if view == "all" else _int({"view": view}, "view", None, 0, 16)
        return JSONResponse({"id": request.path_params["key"], **replay.view(step, viewer)})

    async def refused(request: Request, bad: Exception) -> Response:
        return error(str(bad), getattr(bad, "status", 400))

    async def http_error(request: Request, bad: HTTPException) -> Response:
        return error(bad.detail, bad.status_code)

    async def failed(request: Request, bad: Exception) -> Response:  # a bug: said without a traceback
        log.error("request %s %s failed", request.method, request.url.path, exc_info=bad)
        return error("the server could not answer this request (its log says why)", 500)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async def reap() -> None:
            while True:
                await asyncio.sleep(60)
                await run_in_threadpool(server.tables.expire)

        reaper = asyncio.create_task(reap())
        try:
            yield
        finally:
            reaper.cancel()
            server.tables.close()
            server.thinker.close()

    routes = [
        Route("/", index),
        Route("/t/{key}", index),
        Route("/api/games", list_games),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{key}", show_table),
        Route("/api/tables/{key}/move", move, methods=["POST"]),
        Route("/api/tables/{key}/record", record),
        Route("/api/records", saved),
        Route("/api/replays", create_replay, methods=["POST"]),
        Route("/api/replays/{key}", show_replay),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        middleware=[Middleware(OriginGuard, hosts=settings.hosts)],
        exception_handlers={
            ValueError: refused,  # BadRequestError, RefusedMoveError, RecordError: the request's fault
            HTTPException: http_error,
            Exception: failed,
        },
        lifespan=lifespan,
    )
    app.state.server = server
    return app


def local_table(
    env_name: str,
    num_players: int | None = None,
    seat: int = 0,
    opponents: list[str] | tuple[str, ...] = (),
    options: dict[str, Any] | None = None,
    seed: int | None = None,
    records_dir: str | Path | None = None,
    runs: tuple[str | Path, ...] = (),
) -> Table:
    """A table in this process whose agents move at once in the caller's thread (scripts and tests); the
    human sits at ``seat`` (``table.human``) and moves with ``table.play(seat, action)``; ``runs``: folders
    whose checkpoints may sit at it (as ``serve --runs``)."""
    settings = Settings(records=Path(records_dir) if records_dir else None, runs=tuple(Path(r) for r in runs))
    server = Server(settings, thinker=InlineThinker())
    body: dict[str, Any] = {"env": env_name, "seat": seat, "opponents": list(opponents), "seed": seed}
    body["options"] = options
    if num_players is not None:
        body["num_players"] = num_players
    table, keys = server.new_table(body)
    table.human = min(keys)
    table.start()
    return table
