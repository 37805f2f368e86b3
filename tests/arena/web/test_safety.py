"""What a hostile page or request cannot do to the browser table: read files outside its folders, send
bodies past the limits, seat costly or arbitrary agents, post from another site, or crash a route."""

from __future__ import annotations

import json
import os
import time

import pytest

from tests.arena.web.conftest import make_client, new_table, settle

OUTSIDE = "opened only from this table's folders"


@pytest.mark.parametrize(
    "path",
    [
        "../../etc/passwd",
        "/etc/passwd",
        "/etc/shadow",
        "/proc/self/environ",
        "/no/such/file.json",
        "records/../../../../etc/passwd",
        "~/.bashrc",
        "/etc",
        "/",
        "\x00",
    ],
)
def test_no_path_outside_the_folders_is_opened_and_the_answer_does_not_tell_if_it_exists(client, path) -> None:
    response = client.post("/api/replays", json={"path": path})
    assert response.status_code == 400
    said = response.json()["error"].replace(repr(path), "PATH")
    missing = client.post("/api/replays", json={"path": "/no/such/x.json"}).json()["error"]
    assert OUTSIDE in said and said == missing.replace(repr("/no/such/x.json"), "PATH")


def test_a_symlink_out_of_the_records_folder_is_refused(client) -> None:
    link = client.tmp / "records" / "out.json"
    os.symlink("/etc/passwd", link)
    for body in ({"path": "out.json"}, {"path": str(link)}, {"saved": "out.json"}):
        response = client.post("/api/replays", json=body)
        assert (
            response.status_code == 400 and "not a game record" not in response.text and "root:x" not in response.text
        )


@pytest.mark.parametrize(
    "spec",
    ["cfr:/etc/passwd", "/etc/passwd", "../../../etc/passwd.zip", "ismcts:50,prior=/etc/passwd", "x.zip:sample"],
)
def test_no_checkpoint_path_outside_the_folders_is_seated(client, spec) -> None:
    response = client.post("/api/tables", json={"env": "liars_dice_v0", "num_players": 2, "opponents": [spec]})
    assert response.status_code == 400
    error = response.json()["error"]
    assert "seat 1" in error and ("folders" in error or "unknown agent" in error)


def test_a_checkpoint_in_runs_is_seated_by_its_name(client) -> None:
    import shutil

    from bidbluff import agents

    shipped = agents.shipped_path("liars_dice_v0")
    target = client.tmp / "runs" / "liars_dice" / "mine.zip"
    target.parent.mkdir(parents=True)
    shutil.copy(shipped, target)
    shutil.copy(shipped.with_suffix(".json"), target.with_suffix(".json"))
    games = {g["env"]: g for g in client.get("/api/games").json()}
    assert games["liars_dice_v0"]["checkpoints"] == ["runs/liars_dice/mine.zip"]
    view, _ = new_table(client, env="liars_dice_v0", num_players=2, opponents=["runs/liars_dice/mine.zip"])
    assert view["labels"] == ["human", "runs/liars_dice/mine.zip"]


@pytest.mark.parametrize(
    ("spec", "said"),
    [
        ("ismcts:86400000ms", "1 to 2000 ms"),
        ("ismcts:1000000000", "1 to 2000 simulations"),
        ("ismcts:0", "1 to 2000 simulations"),
        ("ismcts:50,c=nan", "c must be a number from 0 to 10"),
        ("ismcts:50,steps=100000", "steps must be a whole number from 0 to 200"),
        ("ismcts:50,select=evil", "select must be one of ucb, puct"),
        ("ismcts:50,program=rm", "neither a budget"),
        ("bayes:inf", "from 0 to 10"),
        ("x" * 500, "short text"),
        (5, "short text"),
        (None, "short text"),
    ],
)
def test_searches_are_capped_and_settings_checked(client, spec, said) -> None:
    response = client.post("/api/tables", json={"env": "liars_dice_v0", "num_players": 2, "opponents": [spec]})
    assert response.status_code == 400, response.text
    assert said in response.json()["error"]


def test_a_capped_search_and_a_registered_name_are_seated(tmp_path) -> None:
    with make_client(tmp_path, agents={"quick": "ismcts:20"}) as client:
        games = {g["env"]: g for g in client.get("/api/games").json()}
        assert "quick" in games["liars_dice_v0"]["opponents"]
        view, _ = new_table(client, env="liars_dice_v0", seats=["quick", "human", "ismcts:2000,2000ms"], seed=1)
        assert view["labels"] == ["quick", "human", "ismcts:2000,2000ms"]


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ({"dice": "5"}, 'option dice must be a whole number from 1 to 5, not "5"'),
        ({"dice": 2.5}, "option dice must be a whole number from 1 to 5, not 2.5"),
        ({"dice": None}, "option dice must be a whole number from 1 to 5, not null"),
        ({"dice": True}, "option dice must be a whole number"),
        ({"specials": [["x"]]}, "option specials must be a list of distinct names from"),
        ({"specials": "Ghost"}, "option specials must be a list"),
        ({"preset": 3}, "option preset must be one of lying_pirates, classic"),
        ("dice", "options must be a JSON object"),
    ],
)
def test_bad_option_values_are_a_400_naming_the_option(client, options, said) -> None:
    response = client.post("/api/tables", json={"env": "liars_dice_v0", "options": options})
    assert response.status_code == 400, response.text
    assert said in response.json()["error"]


def test_lying_pirates_map_as_a_list_is_a_400(client) -> None:
    response = client.post("/api/tables", json={"env": "lying_pirates_v0", "options": {"map": ["base"]}})
    assert response.status_code == 400 and "option map must be one of" in response.json()["error"]


def test_bodies_are_json_of_bounded_size_and_nesting(client) -> None:
    big = b'{"record": "' + b"x" * (3 * 1024 * 1024) + b'"}'
    response = client.post("/api/replays", content=big, headers={"Content-Type": "application/json"})
    assert response.status_code == 413 and "2,097,152 bytes" in response.json()["error"]

    def chunks():
        for _ in range(40):
            yield b" " * 100_000

    streamed = client.post("/api/replays", content=chunks(), headers={"Content-Type": "application/json"})
    assert streamed.status_code == 413
    for nested in ("[" * 100_000, "[" * 40 + "]" * 40, '{"a":' * 50 + "1" + "}" * 50):
        response = client.post("/api/tables", content=nested.encode(), headers={"Content-Type": "application/json"})
        assert response.status_code == 400 and "nests deeper than 32" in response.json()["error"], nested[:10]
    digits = client.post(
        "/api/tables", content=b'{"seed": ' + b"9" * 5000 + b"}", headers={"Content-Type": "application/json"}
    )
    assert digits.status_code == 400
    text = client.post("/api/tables", content=b'{"env": "liars_dice_v0"}', headers={"Content-Type": "text/plain"})
    assert text.status_code == 415 and "application/json" in text.json()["error"]


def test_a_record_file_past_the_limit_is_refused_unread(client) -> None:
    big = client.tmp / "records" / "big.json"
    with big.open("wb") as handle:
        handle.truncate(300 * 1024 * 1024)  # sparse: no disk used
    response = client.post("/api/replays", json={"saved": "big.json"})
    assert response.status_code == 413 and "4,194,304 bytes" in response.json()["error"]


@pytest.mark.parametrize(
    "headers",
    [
        {"Host": "evil.example"},
        {"Host": "attacker.test:8000"},
        {"Origin": "http://evil.example"},
        {"Origin": "null"},
        {"Origin": "http://127.0.0.1:9999"},  # another server on this machine
        {"Sec-Fetch-Site": "cross-site"},
    ],
)
def test_requests_from_other_sites_or_hosts_are_refused(client, headers) -> None:
    for method, url in (("GET", "/api/games"), ("POST", "/api/tables"), ("GET", "/")):
        response = client.request(method, url, json={"env": "liars_dice_v0"}, headers=headers)
        assert response.status_code == 403, (headers, url)
        assert "refused" in response.json()["error"]


def test_the_own_page_and_allowed_hosts_are_answered(tmp_path) -> None:
    with make_client(tmp_path, hosts=("table.lan",)) as client:
        same = {"Origin": "http://127.0.0.1:8000", "Sec-Fetch-Site": "same-origin"}
        assert client.post("/api/tables", json={"env": "liars_dice_v0"}, headers=same).status_code == 200
        assert client.get("/api/games", headers={"Host": "localhost:8000"}).status_code == 200
        assert client.get("/api/games", headers={"Host": "table.lan"}).status_code == 200
        lan = {"Host": "table.lan:8000", "Origin": "http://table.lan:8000"}
        assert client.post("/api/tables", json={"env": "liars_dice_v0"}, headers=lan).status_code == 200


def test_a_long_search_is_cut_at_the_move_time_and_the_table_answers_meanwhile(tmp_path) -> None:
    with make_client(tmp_path, move_time=0.4) as client:
        started = time.monotonic()
        view, seat = new_table(
            client, env="libertalia_v0", seats=["ismcts:2000,rollout=heuristic", "human"], seed=3
        )  # 2,000 heuristic rollouts of Libertalia take about a minute
        assert view["thinking"] == 0
        look = time.monotonic()
        during = client.get(f"/api/tables/{view['id']}", headers=seat)
        assert during.status_code == 200 and time.monotonic() - look < 0.3
        view = settle(client, during.json(), seat)
        assert time.monotonic() - started < 3 and view["to_act"] == 1


def test_a_closed_table_stops_its_thinking(tmp_path) -> None:
    with make_client(tmp_path, move_time=30) as client:
        view, _ = new_table(client, env="libertalia_v0", seats=["ismcts:2000,rollout=heuristic", "human"], seed=3)
        server = client.app.state.server
        table = server.tables.get(view["id"])
        time.sleep(0.2)
        assert table.thinking == 0
        server.tables.remove(view["id"])
        deadline = time.monotonic() + 3
        while table.thinking is not None:
            assert time.monotonic() < deadline, "the closed table kept thinking"
            time.sleep(0.02)
        assert len(table.history.moves) == 0  # the answer of a stopped search is not played


def test_the_search_stop_hook_answers_the_best_move_so_far() -> None:
    import threading

    from bidbluff import agents, envs

    env = envs.make("libertalia_v0", num_players=2)
    env.reset(seed=1)
    agent = agents.make("ismcts:100000", env_name="libertalia_v0", seed=0)
    agent.bind(env)
    agent.stop = threading.Event()
    threading.Timer(0.2, agent.stop.set).start()
    started = time.monotonic()
    result = agent.search(env.observe(env.agent_selection), env.agent_selection)
    assert time.monotonic() - started < 2 and 1 <= result.simulations < 100000
    assert result.action in env.unwrapped.legal_action_ids()


def test_errors_never_carry_a_traceback(client) -> None:
    response = client.post("/api/tables", json={"env": ["liars_dice_v0"]})
    assert response.status_code == 400 and "Traceback" not in response.text
    assert json.loads(response.text)["error"].startswith("unknown game")
