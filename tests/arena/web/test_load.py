"""The load test (bench/bench_web.py): 20 clients play 50 moves each at tables of their own on one server
over loopback; no request fails, and the server's memory stays within 10% of what it was after warm-up."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.slow
def test_twenty_clients_play_without_errors_or_growing_memory(capsys) -> None:
    spec = importlib.util.spec_from_file_location("bench_web", ROOT / "bench" / "bench_web.py")
    bench = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = bench
    try:
        spec.loader.exec_module(bench)
        figures = bench.run(clients=20, moves=50)
    finally:
        del sys.modules[spec.name]
    with capsys.disabled():
        print(f"\nload: {figures}")
    assert figures["errors"] == []
    assert figures["requests"] >= 20 * 50
    assert figures["rss_growth"] < 0.10
    assert figures["p95_ms"] < 5000
