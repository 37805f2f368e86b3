"""The browser table's web app (Starlette): the page, its assets and a small JSON API.

    GET  /                          the page (static/index.html)
    GET  /api/games                 every env: player counts, setup options, rules text, opponents
    POST /api/tables                {env, num_players, seat, opponents, options, seed} -> a new table
    GET  /api/tables/{id}           the table from the human's seat
    POST /api/tables/{id}/move      {action}: the human's move (400 with the reason when refused)
    GET  /api/tables/{id}/record    the finished game's JSON record
    GET  /api/records               records saved in the records folder
    POST /api/replays               {record} | {path} | {saved}: open a record for replay
    GET  /api/replays/{id}?step=k&view=seat|all

Everything runs on this machine: the page and its scripts are package data, nothing is fetched.
"""

from __future__ import annotations

import json
import uuid
from collections import OrderedDict
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from bidbluff import agents as agent_lib
from bidbluff import envs
from bidbluff.arena import records
from bidbluff.arena.play import default_opponent
from bidbluff.arena.web.tables import OPPONENT_KINDS, RefusedMoveError, Replay, Table
from bidbluff.arena.web.views import view_of

STATIC = Path(__file__).resolve().parent / "static"
KEEP = 64  # tables and replays held in memory; the oldest go first


class Held(OrderedDict):
    """The newest ``KEEP`` tables or replays by id."""

    def add(self, key: str, value: Any) -> None:
        self[key] = value
        while len(self) > KEEP:
            self.popitem(last=False)


def games() -> list[dict[str, Any]]:
    out = []
    for name in envs.ENVS:
        game = envs.game(name)
        view = view_of(name)
        kinds = [k for k in OPPONENT_KINDS if k not in ("shipped", "expert") or agent_lib.has_shipped(name)]
        out.append(
            {
                "env": name,
                "title": view.TITLE,
                "min_players": game.min_players,
                "max_players": game.max_players,
                "default_players": game.default_players,
                "options": [o.to_dict() for o in view.OPTIONS],
                "glossary": view.GLOSSARY,
                "opponents": kinds,
                "default_opponent": default_opponent(name),
            }
        )
    return out


def chosen_options(env_name: str, given: Any) -> dict[str, Any]:
    """The form's options less those left at their defaults (a record names only what was changed)."""
    if given is None:
        return {}
    if not isinstance(given, dict):
        raise ValueError("options must be a JSON object of option names and values")
    defaults = {o.name: o.default for o in view_of(env_name).OPTIONS}
    unknown = sorted(set(given) - set(defaults))
    if unknown:
        raise ValueError(f"{env_name} has no option {', '.join(unknown)}; its options: {', '.join(defaults) or 'none'}")
    return {k: v for k, v in given.items() if v != defaults[k]}


def _int(body: dict[str, Any], key: str, default: int | None) -> int | None:
    value = body.get(key, default)
    if value is None or value == "":
        return default
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ValueError(f"{key} must be a whole number, not {value!r}") from None


def new_table(body: dict[str, Any], records_dir: Path | None) -> Table:
    env_name = body.get("env")
    if env_name not in envs.ENVS:
        raise ValueError(f"unknown game {env_name!r}; games: {', '.join(envs.ENVS)}")
    opponents = body.get("opponents") or []
    if isinstance(opponents, str):
        opponents = agent_lib.split_specs(opponents)
    if not isinstance(opponents, list) or not all(isinstance(o, str) for o in opponents):
        raise ValueError("opponents must be a list of agent specs (shipped, heuristic, ismcts[:N], random, a path)")
    return Table(
        env_name,
        _int(body, "num_players", None),
        _int(body, "seat", 0),
        opponents,
        chosen_options(env_name, body.get("options")),
        _int(body, "seed", None),
        records_dir,
    )


def open_record(body: dict[str, Any], records_dir: Path | None) -> Replay:
    if isinstance(body.get("record"), dict):
        record = body["record"]
        records.check(record)
        return Replay(record, str(body.get("name") or "uploaded record"))
    if body.get("saved"):
        if records_dir is None:
            raise ValueError("this table saves no records (no records folder)")
        path = records_dir / Path(str(body["saved"])).name  # a name in the folder, never a path out of it
    elif body.get("path"):
        path = Path(str(body["path"])).expanduser()
    else:
        raise ValueError("send a record (the file's JSON), a path to one, or the name of a saved one")
    if not path.is_file():
        raise ValueError(f"no record file at {path}")
    return Replay(records.load(path), str(path))


def create_app(records_dir: str | Path | None = None) -> Starlette:
    """The app; finished games are saved as JSON records under ``records_dir`` (None: not saved)."""
    folder = Path(records_dir) if records_dir is not None else None
    tables: Held = Held()
    replays: Held = Held()
    catalogue = games()

    def error(message: str, status: int = 400) -> JSONResponse:
        return JSONResponse({"error": message}, status_code=status)

    async def body_of(request: Request) -> dict[str, Any]:
        try:
            body = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise ValueError("the request body is not JSON") from None
        if not isinstance(body, dict):
            raise ValueError("the request body must be a JSON object")
        return body

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def list_games(request: Request) -> Response:
        return JSONResponse(catalogue)

    async def create_table(request: Request) -> Response:
        try:
            table = await run_in_threadpool(new_table, await body_of(request), folder)
        except (ValueError, OSError) as bad:
            return error(str(bad))
        key = uuid.uuid4().hex[:12]
        tables.add(key, table)
        return JSONResponse({"id": key, **table.view()})

    def table_of(request: Request) -> Table | None:
        return tables.get(request.path_params["key"])

    async def show_table(request: Request) -> Response:
        table = table_of(request)
        if table is None:
            return error("no such table (it may have been closed)", 404)

        def look() -> dict[str, Any]:
            with table.lock:  # not half-way through a move
                return table.view()

        return JSONResponse({"id": request.path_params["key"], **await run_in_threadpool(look)})

    async def move(request: Request) -> Response:
        table = table_of(request)
        if table is None:
            return error("no such table (it may have been closed)", 404)
        try:
            body = await body_of(request)
            if "action" not in body:
                raise RefusedMoveError('send the move as {"action": <id>}')

            def take() -> dict[str, Any]:
                with table.lock:
                    table.play(body["action"])
                    return table.view()

            view = await run_in_threadpool(take)
        except ValueError as bad:
            return error(str(bad))
        return JSONResponse({"id": request.path_params["key"], **view})

    async def record(request: Request) -> Response:
        table = table_of(request)
        if table is None:
            return error("no such table (it may have been closed)", 404)
        if table.record is None:
            return error("the game is not over: no record yet", 409)
        name = table.saved.name if table.saved else f"{table.env_name}-{table.seed}.json"
        return JSONResponse(table.record, headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def saved(request: Request) -> Response:
        if folder is None or not folder.is_dir():
            return JSONResponse([])
        files = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
        return JSONResponse([{"name": p.name, "size": p.stat().st_size} for p in files[:200]])

    async def create_replay(request: Request) -> Response:
        try:
            replay = await run_in_threadpool(open_record, await body_of(request), folder)
        except (ValueError, OSError) as bad:
            return error(str(bad))
        key = uuid.uuid4().hex[:12]
        replays.add(key, replay)
        return JSONResponse({"id": key, **replay.view(0, None)})

    async def show_replay(request: Request) -> Response:
        replay = replays.get(request.path_params["key"])
        if replay is None:
            return error("no such replay (it may have been closed)", 404)
        try:
            step = _int(dict(request.query_params), "step", 0)
            view = request.query_params.get("view", "all")
            viewer = None if view == "all" else _int({"view": view}, "view", None)
            return JSONResponse({"id": request.path_params["key"], **replay.view(step, viewer)})
        except ValueError as bad:
            return error(str(bad))

    routes = [
        Route("/", index),
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
    return Starlette(routes=routes)


def serve(host: str = "127.0.0.1", port: int = 8000, records_dir: str | Path | None = "records") -> None:
    """Run the table until Ctrl-C."""
    import uvicorn

    print(f"bidbluff table at http://{host}:{port}/  (records saved to {records_dir}; Ctrl-C stops it)")
    uvicorn.run(create_app(records_dir), host=host, port=port, log_level="warning")
