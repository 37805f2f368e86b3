"""Every route under random requests (hypothesis): any JSON, any query, any header a page could send.
Not one answer is a 500, and the server still answers afterwards."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bidbluff.arena import records
from tests.arena.web.conftest import make_client

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=30),
    st.sampled_from(["liars_dice_v0", "lying_pirates_v0", "spytails_v0", "libertalia_v0", "human", "ismcts:5"]),
    st.sampled_from(["heuristic", "random", "../../etc/passwd", "/proc/self/environ", "cfr:/etc/shadow", "5"]),
)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)
KEYS = [
    "env",
    "num_players",
    "seat",
    "seats",
    "opponents",
    "options",
    "seed",
    "action",
    "record",
    "path",
    "saved",
    "name",
    "dice",
    "specials",
    "preset",
    "map",
    "expansion",
    "variants",
]
BODIES = st.one_of(
    JSON,
    st.dictionaries(st.sampled_from(KEYS), JSON, max_size=6),
    st.fixed_dictionaries(
        {"env": st.sampled_from(["liars_dice_v0", "lying_pirates_v0"])},
        optional={
            "options": st.dictionaries(st.sampled_from(KEYS[12:]), JSON, max_size=3),
            "num_players": JSON,
            "seats": st.lists(SCALARS, max_size=7),
            "opponents": st.lists(SCALARS, max_size=7),
        },
    ),
)
PATHS = [
    "/",
    "/t/{table}",
    "/t/zz",
    "/api/games",
    "/api/tables",
    "/api/tables/{table}",
    "/api/tables/{table}/move",
    "/api/tables/{table}/record",
    "/api/tables/nope",
    "/api/tables/nope/move",
    "/api/records",
    "/api/replays",
    "/api/replays/{replay}",
    "/api/replays/nope",
    "/static/app.js",
    "/static/../app.py",
    "/static/%2e%2e/app.py",
]


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory):
    with make_client(tmp_path_factory.mktemp("fuzz")) as client:
        view = client.post("/api/tables", json={"env": "liars_dice_v0", "num_players": 2, "seed": 1}).json()
        record = {
            "format": 1,
            "env": "liars_dice_v0",
            "num_players": 2,
            "env_options": {"dice": 1},
            "seed": 0,
            "actions": [[0, 1], [1, 408]],
            "scores": [1.0, -1.0],
        }
        env = records.make_env(record)
        for _, action in record["actions"]:
            env.step(action)
        record["scores"] = [float(s) for s in env.game_state.scores()]
        replay = client.post("/api/replays", json={"record": record}).json()
        client.ids = {"table": view["id"], "replay": replay["id"]}
        client.key = view["key"]
        yield client


REQUESTS = dict(
    method=st.sampled_from(["GET", "POST", "PUT", "DELETE"]),
    path=st.sampled_from(PATHS),
    body=BODIES,
    query=st.dictionaries(st.sampled_from(["since", "wait", "step", "view"]), st.text(max_size=8), max_size=3),
    keyed=st.booleans(),
    raw=st.one_of(st.none(), st.binary(max_size=40)),
    media=st.sampled_from(["application/json", "application/json; charset=utf-8", "text/plain", ""]),
)
QUICK = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
LONG = settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def one_request(fuzzed, method, path, body, query, keyed, raw, media) -> None:
    url = path.format(**fuzzed.ids)
    headers = {"Content-Type": media} if media else {}
    if keyed:
        headers["X-Seat-Key"] = fuzzed.key
    if "wait" in query:
        query["since"] = "0"  # the table's agent has moved already: no waiting
    content = raw if raw is not None else json.dumps(body).encode()
    response = fuzzed.request(method, url, params=query, content=content, headers=headers)
    assert response.status_code < 500, (method, url, body, response.text[:300])
    if response.headers.get("content-type", "").startswith("application/json") and response.status_code >= 400:
        assert "Traceback" not in response.text and response.json()["error"]


@QUICK
@given(**REQUESTS)
def test_no_request_gets_a_500(fuzzed, **request) -> None:
    one_request(fuzzed, **request)


@pytest.mark.slow
@LONG
@given(**REQUESTS)
def test_no_request_of_many_more_gets_a_500(fuzzed, **request) -> None:
    one_request(fuzzed, **request)


def test_the_server_still_answers_after_the_fuzz(fuzzed) -> None:
    assert fuzzed.get("/api/games").status_code == 200
    table = fuzzed.get(f"/api/tables/{fuzzed.ids['table']}", headers={"X-Seat-Key": fuzzed.key})
    assert table.status_code == 200
