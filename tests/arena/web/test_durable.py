"""Tables outlive the page and the server: kept on disk as they are played, resumed after a restart from the
same seat's link, closed only when unused for the idle time; a game in progress is never listed or replayed;
several humans at one table each see only their own seat."""

from __future__ import annotations

import json
import random
import time

from tests.arena.web.conftest import make_client, new_table, settle


def play(client, view: dict, headers: dict, moves: int, seed: int = 0) -> dict:
    rng = random.Random(seed)
    view = settle(client, view, headers)
    for _ in range(moves):
        if view["over"]:
            break
        action = rng.choice(view["moves"])["id"]
        response = client.post(f"/api/tables/{view['id']}/move", json={"action": action}, headers=headers)
        assert response.status_code == 200, response.text
        view = settle(client, response.json(), headers)
    return view


def test_a_table_resumes_after_a_restart_from_its_link(tmp_path) -> None:
    with make_client(tmp_path) as client:
        view, seat = new_table(client, env="libertalia_v0", num_players=3, opponents=["heuristic"], seed=4)
        assert view["links"] == {"0": f"/t/{view['id']}#{view['key']}"}
        view = play(client, view, seat, 5)
        before = client.get(f"/api/tables/{view['id']}", headers=seat).json()
        assert client.get(f"/t/{view['id']}").status_code == 200  # the page, at the table's own address
    with make_client(tmp_path) as client:  # a new server on the same folders
        after = client.get(f"/api/tables/{view['id']}", headers=seat).json()
        assert after["board"] == before["board"] and after["log"] == before["log"]
        assert after["moves"] == before["moves"] and after["move_count"] == before["move_count"]
        play(client, after, seat, 3)


def test_a_game_in_progress_is_never_listed_nor_replayed_and_no_secret_is_written(tmp_path) -> None:
    with make_client(tmp_path) as client:
        view, seat = new_table(client, env="liars_dice_v0", num_players=2, opponents=["random"], seed=2)
        assert client.get("/api/records").json() == []
        assert client.get(f"/api/tables/{view['id']}/record", headers=seat).status_code == 409
        for body in ({"saved": f"{view['id']}.json"}, {"path": f"../tables/{view['id']}.json"}):
            assert client.post("/api/replays", json=body).status_code == 400
        on_disk = (tmp_path / "tables" / f"{view['id']}.json").read_text()
        assert seat["X-Seat-Key"] not in on_disk
        view = play(client, view, seat, 200)
        assert view["over"]
        saved = client.get("/api/records").json()
        assert len(saved) == 1
        record = (tmp_path / "records" / saved[0]["name"]).read_text()
        assert seat["X-Seat-Key"] not in record and "key_hash" not in record
        assert json.loads(record)["agents"] == ["human", "random"]


def test_tables_close_when_unused_not_because_others_opened(tmp_path) -> None:
    with make_client(tmp_path, idle_minutes=1) as client:
        server = client.app.state.server
        server.tables.hot = 2  # few in memory: the others are read back from their files
        first, seat = new_table(client, env="liars_dice_v0", num_players=2, opponents=["random"], seed=1)
        for seed in range(6):
            new_table(client, env="liars_dice_v0", num_players=2, opponents=["random"], seed=seed)
        assert len(server.tables.memory) <= 3
        assert client.get(f"/api/tables/{first['id']}", headers=seat).status_code == 200
        assert server.tables.expire(time.time() + 30) == []
        gone = server.tables.expire(time.time() + 120)
        assert first["id"] in gone and len(gone) == 7
        assert client.get(f"/api/tables/{first['id']}", headers=seat).status_code == 404
        assert list((tmp_path / "tables").glob("*.json")) == []


def test_past_the_most_games_in_progress_a_new_one_is_refused(tmp_path) -> None:
    with make_client(tmp_path) as client:
        tables = client.app.state.server.tables
        tables.most = 2
        first, seat = new_table(client, env="liars_dice_v0", num_players=2, opponents=["random"], seed=1)
        new_table(client, env="liars_dice_v0", opponents=["random"])
        refused = client.post("/api/tables", json={"env": "liars_dice_v0"})
        assert refused.status_code == 503 and "its most" in refused.json()["error"]
        assert play(client, first, seat, 200)["over"]  # a finished game no longer counts
        new_table(client, env="liars_dice_v0", opponents=["random"])
        assert first["id"] in tables.expire(time.time() + 61 * 60)  # and its table closes after an hour unused
    with make_client(tmp_path) as client:  # the count of games in progress is read back from the files
        assert len(client.app.state.server.tables.playing) == 2


def test_two_humans_at_one_table_each_see_and_move_only_their_own_seat(client) -> None:
    view, _ = new_table(client, env="liars_dice_v0", seats=["human", "random", "human"], seed=3, options={"dice": 2})
    links = view["links"]
    assert set(links) == {"0", "2"}
    keys = {int(s): link.split("#", 1)[1] for s, link in links.items()}
    seat = {s: {"X-Seat-Key": k} for s, k in keys.items()}
    url = f"/api/tables/{view['id']}"
    mine = client.get(url, headers=seat[0]).json()
    theirs = client.get(url, headers=seat[2]).json()
    assert (mine["seat"], theirs["seat"]) == (0, 2)
    cups = {c["seat"]: c["dice"] for c in mine["board"]["cups"]}
    assert all(d["face"] is not None for d in cups[0]) and all(d["face"] is None for d in cups[2])
    cups = {c["seat"]: c["dice"] for c in theirs["board"]["cups"]}
    assert all(d["face"] is None for d in cups[0]) and all(d["face"] is not None for d in cups[2])
    assert mine["to_act"] == 0 and mine["moves"] and theirs["moves"] == []
    refused = client.post(f"{url}/move", json={"action": mine["moves"][0]["id"]}, headers=seat[2])
    assert refused.status_code == 400 and "P0's turn" in refused.json()["error"]
    for bad in ({}, {"X-Seat-Key": "guess"}, {"X-Seat-Key": keys[0][:-1]}):
        assert client.get(url, headers=bad).status_code == 403
        assert client.post(f"{url}/move", json={"action": 1}, headers=bad).status_code == 403
    moved = client.post(f"{url}/move", json={"action": mine["moves"][0]["id"]}, headers=seat[0])
    assert moved.status_code == 200
    theirs = settle(client, client.get(url, headers=seat[2]).json(), seat[2])
    assert theirs["to_act"] == 2 and theirs["moves"]
