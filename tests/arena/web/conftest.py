"""A browser-table app on Starlette's TestClient, with its folders under the test's tmp_path."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")
pytest.importorskip("httpx2", reason="Starlette's TestClient needs httpx2 (pip install -e '.[e2e]')")

from starlette.testclient import TestClient

from bidbluff.arena.web.app import Settings, create_app

BASE = "http://127.0.0.1:8000"


def make_client(tmp_path, **settings) -> TestClient:
    defaults = {"records": tmp_path / "records", "tables": tmp_path / "tables", "runs": (tmp_path / "runs",)}
    (tmp_path / "records").mkdir(exist_ok=True)
    (tmp_path / "runs").mkdir(exist_ok=True)
    return TestClient(create_app(settings=Settings(**{**defaults, **settings})), base_url=BASE)


@pytest.fixture
def client(tmp_path):
    with make_client(tmp_path) as c:
        c.tmp = tmp_path
        yield c


def new_table(client: TestClient, **body) -> tuple[dict, dict]:
    """A new table and the headers of its first human seat."""
    response = client.post("/api/tables", json=body)
    assert response.status_code == 200, response.text
    view = response.json()
    return view, {"X-Seat-Key": view["key"]}


def settle(client: TestClient, view: dict, headers: dict, limit: float = 60) -> dict:
    """The table once no agent is thinking."""
    deadline = time.monotonic() + limit
    while view["thinking"] is not None:
        assert time.monotonic() < deadline, "the agents never finished thinking"
        response = client.get(
            f"/api/tables/{view['id']}", params={"since": view["move_count"], "wait": 1}, headers=headers
        )
        assert response.status_code == 200, response.text
        view = response.json()
    return view
