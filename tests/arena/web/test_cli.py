"""``serve``'s options (``arena.web.cli``): parsed, turned into the app's settings, and served on loopback."""

from __future__ import annotations

import argparse
import threading
import time

import pytest

from bidbluff.arena.web import cli


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    cli.add_arguments(parser)
    return parser.parse_args(argv)


def test_every_option_parses_into_the_settings(tmp_path) -> None:
    args = parse(
        "--host",
        "127.0.0.1",
        "--port",
        "0",
        "--records",
        str(tmp_path / "r"),
        "--tables",
        str(tmp_path / "t"),
        "--runs",
        str(tmp_path / "runs"),
        "--agent",
        "quick=ismcts:20",
        "--agent",
        "deep=expert",
        "--allow-host",
        "table.lan",
        "--idle-minutes",
        "30",
        "--move-time",
        "1.5",
    )
    settings = cli.settings_of(args)
    assert settings.agents == {"quick": "ismcts:20", "deep": "expert"}
    assert settings.hosts == ("127.0.0.1", "table.lan") and settings.runs == (tmp_path / "runs",)
    assert (settings.idle_minutes, settings.move_time) == (30, 1.5)
    defaults = parse()
    assert (defaults.host, defaults.port, defaults.records, defaults.tables) == ("127.0.0.1", 8000, "records", "tables")


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--agent", "nameless"], "write NAME=SPEC"),
        (["--move-time", "0"], "--move-time must be a positive"),
        (["--idle-minutes", "-1"], "--idle-minutes must be positive"),
    ],
)
def test_bad_options_stop_with_a_reason(argv, said) -> None:
    with pytest.raises(SystemExit, match=said):
        cli.settings_of(parse(*argv))


def test_a_non_loopback_host_is_warned_about(monkeypatch, capsys, tmp_path) -> None:
    import uvicorn

    served = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: served.update(kw))
    assert cli.run(parse("--host", "0.0.0.0", "--records", str(tmp_path / "r"), "--tables", str(tmp_path / "t"))) == 0
    assert served["host"] == "0.0.0.0" and "warning: serving on 0.0.0.0" in capsys.readouterr().err
    cli.run(parse("--host", "127.0.0.1", "--records", str(tmp_path / "r"), "--tables", str(tmp_path / "t")))
    assert "warning" not in capsys.readouterr().err
    assert cli.is_loopback("::1") and cli.is_loopback("localhost") and not cli.is_loopback("192.168.1.5")


def test_run_serves_on_loopback(monkeypatch, tmp_path) -> None:
    import importlib
    import socket
    import urllib.request

    uvicorn_main = importlib.import_module("uvicorn.main")  # the module (uvicorn.main is also its click command)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    servers = []
    real = uvicorn_main.Server

    def server_kept(config):
        servers.append(real(config))
        return servers[-1]

    monkeypatch.setattr(uvicorn_main, "Server", server_kept)
    args = parse("--port", str(port), "--records", str(tmp_path / "r"), "--tables", str(tmp_path / "t"))
    thread = threading.Thread(target=cli.run, args=(args,), daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not (servers and servers[0].started):
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.05)
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games") as answer:
        assert answer.status == 200
    servers[0].should_exit = True
    thread.join(10)
