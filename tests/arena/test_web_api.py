"""The browser table's JSON API through Starlette's TestClient (no browser, no socket)."""

from __future__ import annotations

import json
import random

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")
pytest.importorskip("httpx2", reason="Starlette's TestClient needs httpx2 (pip install -e '.[e2e]')")

from starlette.testclient import TestClient

from bidbluff import envs
from bidbluff.arena.web.app import create_app


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(tmp_path / "records"), base_url="http://127.0.0.1:8000") as c:
        c.records = tmp_path / "records"
        yield c


def settle(client: TestClient, view: dict) -> dict:
    """The table once no agent is thinking (the agents move in the server's own threads)."""
    key = view.get("key") or client.key
    client.key = key
    while view["thinking"] is not None:
        view = client.get(
            f"/api/tables/{view['id']}", params={"since": view["move_count"], "wait": 1}, headers={"X-Seat-Key": key}
        ).json()
    return view


def finish(client: TestClient, view: dict, seed: int = 0) -> dict:
    rng = random.Random(seed)
    view = settle(client, view)
    while not view["over"]:
        response = client.post(
            f"/api/tables/{view['id']}/move",
            json={"action": rng.choice(view["moves"])["id"]},
            headers={"X-Seat-Key": client.key},
        )
        assert response.status_code == 200, response.text
        view = settle(client, response.json())
    return view


def test_the_page_and_its_assets_come_from_the_package(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "bidbluff table" in page.text
    for asset in ("app.js", "boards.js", "style.css"):
        served = client.get(f"/static/{asset}")
        assert served.status_code == 200 and "http" not in served.text  # nothing from another host
    assert "http" not in page.text


def test_games_list_every_env_with_its_form(client: TestClient) -> None:
    games = {g["env"]: g for g in client.get("/api/games").json()}
    assert list(games) == list(envs.ENVS)
    pirates = games["lying_pirates_v0"]
    assert {o["name"] for o in pirates["options"]} == set(envs.game("lying_pirates_v0").setup_options())
    assert {o["name"] for o in games["liars_dice_v0"]["options"]} == set(envs.game("liars_dice_v0").setup_options())
    assert {"heuristic", "ismcts", "random"} <= set(pirates["opponents"])
    assert pirates["glossary"]["tiles"][0]["name"] == "Start/End"


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ({"env": "chess_v0"}, "unknown game 'chess_v0'"),
        ({"env": "liars_dice_v0", "num_players": 7}, "num_players must be a whole number from 2 to 6"),
        ({"env": "liars_dice_v0", "seat": 4, "num_players": 2}, "seat must be a whole number from 0 to 1"),
        ({"env": "liars_dice_v0", "seat": "left"}, "seat must be a whole number"),
        ({"env": "liars_dice_v0", "options": {"dice": 9}}, "option dice must be a whole number from 1 to 5"),
        ({"env": "liars_dice_v0", "options": {"sails": 2}}, "has no option sails"),
        ({"env": "liars_dice_v0", "opponents": ["grandmaster"]}, "unknown agent 'grandmaster'"),
        ({"env": "liars_dice_v0", "opponents": "runs/none/final.zip"}, "no checkpoint file"),
    ],
)
def test_bad_tables_are_refused_in_words(client: TestClient, body: dict, said: str) -> None:
    response = client.post("/api/tables", json=body)
    assert response.status_code == 400
    assert said in response.json()["error"]


def test_a_game_through_the_api_refuses_illegal_moves_and_saves_its_record(client: TestClient) -> None:
    body = {
        "env": "liars_dice_v0",
        "num_players": 3,
        "seat": 1,
        "seed": 5,
        "opponents": ["heuristic", "random"],
        "options": {"dice": 2, "preset": "lying_pirates"},
    }
    view = settle(client, client.post("/api/tables", json=body).json())
    seat = {"X-Seat-Key": client.key}
    assert view["labels"] == ["heuristic", "human", "random"] and view["options"] == {"dice": 2}
    assert view["seed"] is None  # it would tell every hidden die
    assert view["to_act"] == 1 and view["moves"]
    assert client.get(f"/api/tables/{view['id']}/record", headers=seat).status_code == 409
    legal = {m["id"] for m in view["moves"]}
    illegal = next(a for a in range(409) if a not in legal)
    refused = client.post(f"/api/tables/{view['id']}/move", json={"action": illegal}, headers=seat)
    assert refused.status_code == 400 and "is not legal here" in refused.json()["error"]
    assert client.post(f"/api/tables/{view['id']}/move", json={"move": 1}, headers=seat).status_code == 400
    not_json = client.post(
        f"/api/tables/{view['id']}/move", content=b"not json", headers={**seat, "Content-Type": "application/json"}
    )
    assert not_json.json()["error"] == "the request body is not JSON"
    assert client.get(f"/api/tables/{view['id']}", headers=seat).json()["log"] == view["log"]
    view = finish(client, view)
    assert view["scores"] is not None and view["board"]["outcome"] and view["seed"] == 5
    record = client.get(f"/api/tables/{view['id']}/record", headers=seat)
    assert "attachment" in record.headers["content-disposition"]
    saved = client.get("/api/records").json()
    assert [s["name"] for s in saved] == [json.loads(record.text) and p.name for p in client.records.glob("*.json")]
    assert client.get("/api/tables/nope").status_code == 404


def test_replays_open_from_a_record_a_path_or_the_saved_list(client: TestClient, tmp_path) -> None:
    view = finish(
        client,
        client.post(
            "/api/tables", json={"env": "libertalia_v0", "num_players": 2, "opponents": ["random"], "seed": 1}
        ).json(),
    )
    record = client.get(f"/api/tables/{view['id']}/record", headers={"X-Seat-Key": client.key}).json()
    path = client.records / "game.json"
    path.write_text(json.dumps(record))
    name = client.get("/api/records").json()[0]["name"]
    for body in ({"record": record}, {"path": str(path)}, {"path": "game.json"}, {"saved": name}):
        replay = client.post("/api/replays", json=body).json()
        assert replay["step"] == 0 and replay["steps"] == len(record["actions"]) and replay["viewer"] is None
    step = client.get(f"/api/replays/{replay['id']}", params={"step": 5, "view": 1}).json()
    assert step["step"] == 5 and step["viewer"] == 1 and step["board"]["seats"][0]["hand"] is None
    last = client.get(f"/api/replays/{replay['id']}", params={"step": replay["steps"]}).json()
    assert last["scores"] == record["scores"]
    assert "steps 0-" in client.get(f"/api/replays/{replay['id']}", params={"step": 10_000}).json()["error"]
    assert client.get("/api/replays/nope").status_code == 404


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ({}, "send a record"),
        ({"path": "/no/such/record.json"}, "opened only from this table's folders"),
        ({"path": "no-such.json"}, "no record file 'no-such.json' in this table's folders"),
        ({"record": {"format": 1, "env": "libertalia_v9"}}, "this build registers libertalia_v0"),
        ({"saved": "../../etc/passwd"}, "no record file 'passwd'"),
    ],
)
def test_bad_records_are_refused_in_words(client: TestClient, body: dict, said: str) -> None:
    response = client.post("/api/replays", json=body)
    assert response.status_code == 400
    assert said in response.json()["error"]


def test_a_record_that_does_not_replay_is_refused(client: TestClient, tmp_path) -> None:
    bad = {
        "format": 1,
        "env": "liars_dice_v0",
        "num_players": 2,
        "env_options": {},
        "seed": 0,
        "actions": [[1, 0]],
        "scores": [0, 0],
    }
    response = client.post("/api/replays", json={"record": bad})
    assert response.status_code == 400 and "seat 0 is to act" in response.json()["error"]
    text = client.records / "not.json"
    text.parent.mkdir(parents=True, exist_ok=True)
    text.write_text("hello")
    assert "not a game record" in client.post("/api/replays", json={"path": "not.json"}).json()["error"]


def test_every_kind_of_opponent_sits_at_a_table(client: TestClient, tmp_path) -> None:
    """shipped, heuristic, IS-MCTS, random and a checkpoint given by its path, at one table."""
    from bidbluff import agents

    path = str(agents.shipped_path("liars_dice_v0"))
    body = {
        "env": "liars_dice_v0",
        "num_players": 6,
        "seat": 5,
        "seed": 2,
        "opponents": ["shipped", "heuristic", "ismcts:5", "random", path],
    }
    view = client.post("/api/tables", json=body).json()
    assert view["labels"] == ["shipped", "heuristic", "ismcts:5", "random", path, "human"]
    assert finish(client, view)["over"]
