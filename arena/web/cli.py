"""``bidbluff serve``'s options and entry: the project's command line calls ``add_arguments`` on its ``serve``
sub-parser and ``run`` with the parsed arguments."""

from __future__ import annotations

import argparse
import ipaddress
import sys
from pathlib import Path

from bidbluff.arena.web.limits import IDLE_MINUTES, MOVE_TIME_S


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Every option of ``serve``."""
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument(
        "--records", default="records", help="finished games are saved, and records opened, here (default records/)"
    )
    parser.add_argument(
        "--tables",
        default="tables",
        help="tables in progress are kept here, to resume after a restart (default tables/; never listed or replayed)",
    )
    parser.add_argument(
        "--runs",
        action="append",
        default=[],
        metavar="DIR",
        help="a folder of checkpoints (and records) the page may seat and open, repeatable",
    )
    parser.add_argument(
        "--agent",
        action="append",
        default=[],
        metavar="NAME=SPEC",
        help="offer agent SPEC (any agents.make spec) under NAME, repeatable: --agent strong=ismcts:400,prior=shipped",
    )
    parser.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a host name the page may be reached by besides the loopback names and --host, repeatable",
    )
    parser.add_argument(
        "--idle-minutes",
        type=float,
        default=IDLE_MINUTES,
        help=f"a table unused this long closes and its file is removed (default {IDLE_MINUTES}: a day)",
    )
    parser.add_argument(
        "--move-time",
        type=float,
        default=MOVE_TIME_S,
        help=f"seconds an agent may think a move; a search answers its best move so far (default {MOVE_TIME_S:g})",
    )


def is_loopback(host: str) -> bool:
    if host in ("localhost", ""):
        return host == "localhost"
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def settings_of(args: argparse.Namespace):  # -> Settings (the web extra is imported only once it is needed)
    from bidbluff.arena.web.app import Settings

    agents = {}
    for item in args.agent:
        name, eq, spec = item.partition("=")
        if not eq or not name.strip() or not spec.strip():
            raise SystemExit(f"--agent {item!r}: write NAME=SPEC (e.g. strong=ismcts:400,prior=shipped)")
        agents[name.strip()] = spec.strip()
    if not args.move_time > 0:
        raise SystemExit(f"--move-time must be a positive number of seconds, not {args.move_time}")
    if not args.idle_minutes > 0:
        raise SystemExit(f"--idle-minutes must be positive, not {args.idle_minutes}")
    return Settings(
        records=Path(args.records) if args.records else None,
        tables=Path(args.tables) if args.tables else None,
        runs=tuple(Path(r) for r in args.runs),
        agents=agents,
        hosts=(args.host, *args.allow_host),
        idle_minutes=args.idle_minutes,
        move_time=args.move_time,
    )


def run(args: argparse.Namespace) -> int:
    """Serve until Ctrl-C; 0 when stopped."""
    try:
        import uvicorn

        from bidbluff.arena.web.app import create_app
    except ImportError as missing:
        raise SystemExit(f"bidbluff serve needs the web extra: pip install -e '.[web]' ({missing})") from None
    settings = settings_of(args)
    try:
        app = create_app(settings=settings)
    except ValueError as bad:
        raise SystemExit(f"bidbluff serve: {bad}") from None
    if not is_loopback(args.host):
        print(
            f"warning: serving on {args.host}, not this machine's loopback address: anyone who can reach it may "
            f"play at its tables and open its records and checkpoints",
            file=sys.stderr,
        )
    shown = f"[{args.host}]" if ":" in args.host else args.host
    print(
        f"bidbluff table at http://{shown}:{args.port}/  (records in {settings.records}, tables in "
        f"{settings.tables}; Ctrl-C stops it)"
    )
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0
