"""Load on the browser table: CLIENTS clients, each at tables of its own on one server over loopback, play
MOVES moves each (a new table when a game ends), after warm-up rounds of the same (three by default: the
server's memory grows while its caches of tables in memory fill, then stays).  Prints the latency
of every request (p50, p95, max), the errors, and the server's resident memory after the warm-up and after
the measured round.

    .venv/bin/python bench/bench_web.py                 # 20 clients x 50 moves
    .venv/bin/python bench/bench_web.py --clients 5 --moves 10

The server runs in a process of its own (``bidbluff serve``'s entry, ``arena.web.cli.run``), so its memory is
read from /proc without the clients' in it.  Clients use only the standard library (http.client).
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

GAMES = [
    ("liars_dice_v0", 4, ["heuristic"]),
    ("libertalia_v0", 3, ["random"]),
    ("spytails_v0", 3, ["random"]),
    ("lying_pirates_v0", 3, ["random"]),
]
SERVER = """
import argparse, sys
from bidbluff.arena.web import cli
parser = argparse.ArgumentParser()
cli.add_arguments(parser)
sys.exit(cli.run(parser.parse_args(sys.argv[1:])))
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


class Client:
    """One player: its own connection, its own tables, every request's latency noted."""

    def __init__(self, port: int, index: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.rng = random.Random(index)
        self.game = GAMES[index % len(GAMES)]
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.key = ""

    def call(self, method: str, url: str, body: dict | None = None) -> dict:
        headers = {"X-Seat-Key": self.key}
        data = None
        if body is not None:
            headers["Content-Type"] = "application/json"
            data = json.dumps(body)
        started = time.perf_counter()
        self.connection.request(method, url, body=data, headers=headers)
        answer = self.connection.getresponse()
        text = answer.read()
        self.latencies.append(time.perf_counter() - started)
        if answer.status != 200:
            self.errors.append(f"{method} {url}: {answer.status} {text[:200]!r}")
            raise RuntimeError(self.errors[-1])
        return json.loads(text)

    def settle(self, view: dict) -> dict:
        while view["thinking"] is not None:
            view = self.call("GET", f"/api/tables/{view['id']}?since={view['move_count']}&wait=1")
        return view

    def play(self, moves: int) -> None:
        env, players, opponents = self.game
        view: dict | None = None
        played = 0
        try:
            while played < moves:
                if view is None or view["over"]:
                    view = self.call(
                        "POST", "/api/tables", {"env": env, "num_players": players, "opponents": opponents}
                    )
                    self.key = view["key"]
                view = self.settle(view)
                if view["over"]:
                    continue
                action = self.rng.choice(view["moves"])["id"]
                view = self.call("POST", f"/api/tables/{view['id']}/move", {"action": action})
                played += 1
        except Exception as failed:  # noted; the round goes on for the others
            self.errors.append(str(failed))


def round_of(port: int, clients: int, moves: int, first: int) -> list[Client]:
    players = [Client(port, first + k) for k in range(clients)]
    threads = [threading.Thread(target=p.play, args=(moves,)) for p in players]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return players


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def run(clients: int = 20, moves: int = 50, warm_up: int = 3) -> dict:
    """The load figures: latency (ms) of the measured round, its errors, the server's memory (MB)."""
    port = free_port()
    folder = Path(tempfile.mkdtemp(prefix="bench-web-"))
    argv = ["--port", str(port), "--records", str(folder / "records"), "--tables", str(folder / "tables")]
    server = subprocess.Popen([sys.executable, "-c", SERVER, *argv], stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError("the server did not start") from None
                time.sleep(0.1)
        started = time.monotonic()
        warm = [c for r in range(warm_up) for c in round_of(port, clients, moves, r * clients)]
        warm_s = time.monotonic() - started
        after_warm_up = rss_mb(server.pid)
        started = time.monotonic()
        measured = round_of(port, clients, moves, warm_up * clients)
        measured_s = time.monotonic() - started
        after = rss_mb(server.pid)
    finally:
        server.terminate()
        server.wait(10)
    latencies = [x for c in measured for x in c.latencies]
    return {
        "clients": clients,
        "moves": moves,
        "requests": len(latencies),
        "seconds": round(measured_s, 1),
        "warm_up_rounds": warm_up,
        "warm_up_seconds": round(warm_s, 1),
        "p50_ms": round(percentile(latencies, 0.5) * 1000, 1),
        "p95_ms": round(percentile(latencies, 0.95) * 1000, 1),
        "max_ms": round(max(latencies, default=0) * 1000, 1),
        "errors": [e for c in (*warm, *measured) for e in c.errors],
        "rss_after_warm_up_mb": round(after_warm_up, 1),
        "rss_after_mb": round(after, 1),
        "rss_growth": round(after / after_warm_up - 1, 3),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--moves", type=int, default=50, help="moves each client plays in each round")
    parser.add_argument("--warm-up", type=int, default=3, help="rounds played before the memory is read")
    args = parser.parse_args(argv)
    figures = run(args.clients, args.moves, args.warm_up)
    print(json.dumps(figures, indent=1))
    return 0 if not figures["errors"] else 1


if __name__ == "__main__":
    sys.exit(main())
