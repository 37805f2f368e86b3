"""The browser table end to end: a real headless Chromium (Debian's ``chromium``) driven by Playwright
against ``bidbluff serve``'s app on a loopback port.  A full game of every title is played by clicking,
a refused move is shown to be impossible, and a record is replayed step by step.

Needs the ``e2e`` extra (``pip install -e '.[e2e]'``) and ``/usr/bin/chromium`` (``apt-get install
chromium``; ``BIDBLUFF_CHROMIUM`` names another binary); without them the tests are skipped, saying why.
``BIDBLUFF_SCREENSHOTS=DIR`` saves a picture of each title's table there (docs/screenshots/ holds them).
"""

from __future__ import annotations

import json
import os
import random
import socket
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[e2e]')")
pytest.importorskip("uvicorn", reason="the web extra is not installed (pip install -e '.[e2e]')")
pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install -e '.[e2e]')")
CHROMIUM = os.environ.get("BIDBLUFF_CHROMIUM", "/usr/bin/chromium")
if not Path(CHROMIUM).is_file():
    pytest.skip(
        f"no Chromium at {CHROMIUM} (apt-get install chromium, or set BIDBLUFF_CHROMIUM)", allow_module_level=True
    )

import uvicorn  # noqa: E402
from playwright.sync_api import Page, sync_playwright  # noqa: E402

from bidbluff.arena.web.app import create_app  # noqa: E402

# The machine's network is closed: these flags keep Chromium from trying to reach anything.
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]  # fmt: skip
SHOTS = os.environ.get("BIDBLUFF_SCREENSHOTS")
# The other seats' moves shown at once and no move played by itself, so that a test's clicks are all its moves
# (the tests of the pace and of forced moves set their own).
QUICK = "localStorage.setItem('bidbluff-pace', 'instant'); localStorage.setItem('bidbluff-auto', '0');"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The app on a free loopback port, in a thread, for the module's tests."""
    records = tmp_path_factory.mktemp("records")
    config = uvicorn.Config(create_app(records), host="127.0.0.1", port=free_port(), log_level="warning")
    run = uvicorn.Server(config)
    thread = threading.Thread(target=run.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not run.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{config.port}", records
    run.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
    context.add_init_script(QUICK)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server[0] + "/")
    page.wait_for_selector("body[data-ready='1']")
    yield page
    context.close()
    assert errors == [], f"the page's script failed: {errors}"


def drawn(page: Page) -> int:
    return int(page.evaluate("Number(document.body.dataset.drawn || 0)"))


def click_and_wait(page: Page, selector_or_handle) -> None:
    """Click and wait until the page has drawn the answer."""
    before = drawn(page)
    if isinstance(selector_or_handle, str):
        page.click(selector_or_handle)
    else:
        selector_or_handle.click()
    page.wait_for_function(
        f"Number(document.body.dataset.drawn || 0) > {before} && document.body.dataset.waiting !== '1'"
    )


def start(page: Page, env: str, players: int, opponents: str, seed: int, options: dict | None = None) -> None:
    page.select_option("#game", env)
    page.fill("#players", str(players))
    page.dispatch_event("#players", "change")
    for select in page.query_selector_all(".opponent-kind"):
        select.select_option(opponents)
    page.fill("#seed", str(seed))
    for name, value in (options or {}).items():
        element = page.locator(f"#option-{name}")
        if isinstance(value, bool):
            element.set_checked(value)
        elif isinstance(value, list):
            for choice in value:
                element.locator(f"input[value='{choice}']").check()
        else:
            element.fill(str(value)) if element.evaluate("e => e.tagName") == "INPUT" else element.select_option(value)
    click_and_wait(page, "#start")
    assert page.is_visible("#play"), page.inner_text("#setup-error")


def play_to_the_end(
    page: Page, seed: int, shot: str | None = None, shot_after: int = 1, shot_when: str = "body", limit: int = 2000
) -> int:
    """Click a random legal piece or button until the game is over; returns the clicks.  ``shot``: a
    screenshot of the table, the first time after ``shot_after`` clicks that the page shows ``shot_when``."""
    rng = random.Random(seed)
    clicks = 0
    while not page.is_visible("#result"):
        legal = page.query_selector_all("#play [data-action]")
        assert legal, "the page offers no move but the game is not over"
        click_and_wait(page, rng.choice(legal))
        assert not page.is_visible("#error"), page.inner_text("#error")
        clicks += 1
        if shot and clicks >= shot_after and page.query_selector(shot_when) and not page.is_visible("#result"):
            page.screenshot(path=shot, full_page=True)
            shot = None
        assert clicks < limit
    return clicks


# (env, players, opponents, options, the screenshot's moment: clicks at least, and what the board shows)
GAMES = [
    pytest.param("liars_dice_v0", 3, "heuristic", {"dice": 3}, (1, ".bids li"), id="liars_dice_v0"),
    pytest.param(
        "libertalia_v0",
        3,
        "heuristic",
        {},
        (4, ".ship .character + .character + .character"),
        id="libertalia_v0",
        marks=pytest.mark.slow,
    ),
    pytest.param(
        "lying_pirates_v0", 3, "heuristic", {}, (20, ".pirate-card"), id="lying_pirates_v0", marks=pytest.mark.slow
    ),
    pytest.param(
        "spytails_v0", 3, "random", {}, (12, ".trick .play + .play"), id="spytails_v0", marks=pytest.mark.slow
    ),
]


@pytest.mark.parametrize(("env", "players", "opponents", "options", "moment"), GAMES)
def test_a_full_game_by_clicking(
    page: Page, server, env: str, players: int, opponents: str, options: dict, moment: tuple[int, str]
) -> None:
    start(page, env, players, opponents, seed=11, options=options)
    assert page.inner_text("#play-title").endswith(f"{players} players, you are P0")
    shot = str(Path(SHOTS) / f"{env}.png") if SHOTS else None
    clicks = play_to_the_end(page, seed=1, shot=shot, shot_after=moment[0], shot_when=moment[1])
    assert clicks >= 1
    result = page.inner_text("#result")
    assert "Scores:" in result and any(word in result for word in ("You win", "You share", "Winner"))
    saved = sorted(server[1].glob(f"{env}-*.json"))
    assert saved, "the finished game was saved as a record"
    record = json.loads(saved[-1].read_text())
    assert record["seed"] == 11 and record["agents"][0] == "human"
    assert len([a for a in record["actions"] if a[0] == 0]) == clicks


@pytest.mark.parametrize(
    ("env", "players", "options"),
    [
        ("libertalia_v0", 2, {}),
        ("liars_dice_v0", 2, {"specials": ["Pirate King", "Ghost"], "preset": "classic"}),
        ("lying_pirates_v0", 2, {}),
        (
            "lying_pirates_v0",
            3,
            {
                "expansion": "cities_of_greed",
                "abilities": "chosen",
                "draft": True,
                "merchant_ships": True,
                "variants": ["Bounty", "Draw Two, Keep One"],
            },
        ),
        ("spytails_v0", 2, {}),
        ("spytails_v0", 4, {"mode": "partnership", "forecast_mode": "simultaneous", "characters": "chosen"}),
    ],
)
def test_every_board_draws_and_takes_moves(page: Page, env: str, players: int, options: dict) -> None:
    """The first moves of every title and option form (full games are in the slow suite)."""
    start(page, env, players, "random", seed=4, options=options)
    assert json.loads(page.evaluate("JSON.stringify(window.bidbluff.state.table.options)")) == options
    for _ in range(6):
        if page.is_visible("#result"):
            break
        buttons = page.query_selector_all("#moves [data-action]")
        assert all(b.inner_text().strip() or b.query_selector("svg") for b in buttons)
        click_and_wait(page, page.query_selector_all("#play [data-action]")[-1])
        assert not page.is_visible("#error")
    assert page.inner_text("#log").strip()


def test_rules_text_on_hover_and_only_own_dice_shown(page: Page) -> None:
    start(page, "liars_dice_v0", 3, "random", seed=3, options={"dice": 2})
    own = page.query_selector_all(".cup.own .die")
    others = page.query_selector_all(".cup:not(.own) .die")
    assert len(own) == 2 and all(d.get_attribute("data-face") != "hidden" for d in own)
    assert len(others) == 4 and all(d.get_attribute("data-face") == "hidden" for d in others)
    page.click("#tab-new")  # a new game from the setup tab, the first one left as it is
    start(page, "libertalia_v0", 2, "random", seed=3)
    card = page.query_selector("#board [data-key^='hand-']")
    assert card is not None and card.get_attribute("title").split(" — ", 1)[0].startswith("play ")
    assert ":" in card.get_attribute("title")  # "play 15 Gunner — 15 Gunner: Day: pay 3, then ..."
    page.click("#tab-table")
    assert page.is_visible("#board")


def test_a_refused_move_cannot_be_made(page: Page) -> None:
    start(page, "liars_dice_v0", 2, "random", seed=7, options={"dice": 1})
    log = page.inner_text("#log")
    # a piece that is no legal move (a die in a cup) is not clickable: nothing is sent
    before = drawn(page)
    page.click("#board .cup .die")
    page.wait_for_timeout(200)
    assert drawn(page) == before and page.inner_text("#log") == log
    # the bet grid offers only raises: nothing at or below the last bet
    offered = {int(b.get_attribute("data-action")) for b in page.query_selector_all("#moves [data-action]")}
    state = page.evaluate("window.bidbluff.state.table")
    assert offered == {m["id"] for m in state["moves"]}
    illegal = next(a for a in range(409) if a not in offered)
    assert "wild dice count too" in page.get_attribute("#moves .group.bid .label", "title")  # rules text
    # a move sent anyway is refused by the server, said on the page, and changes nothing
    before = drawn(page)
    page.evaluate(f"window.bidbluff.sendMove({illegal})")
    page.wait_for_function(
        f"Number(document.body.dataset.drawn || 0) > {before} && document.body.dataset.waiting !== '1'"
    )
    assert "is not legal here" in page.inner_text("#error")
    assert page.inner_text("#log") == log
    click_and_wait(page, "#moves [data-action]")  # a legal move still goes through, and clears the error
    assert not page.is_visible("#error")


def test_a_record_is_replayed_step_by_step(page: Page, server, tmp_path) -> None:
    start(page, "liars_dice_v0", 2, "heuristic", seed=5, options={"dice": 2})
    play_to_the_end(page, seed=2)
    with page.expect_download() as download:
        page.click("#download")
    record_path = tmp_path / "game.json"
    download.value.save_as(record_path)
    record = json.loads(record_path.read_text())
    click_and_wait(page, "#replay-this")
    assert page.is_visible("#replay") and page.inner_text("#replay-step") == f"move 0 of {len(record['actions'])}"
    page.select_option("#replay-view", "1")
    page.wait_for_function("document.querySelector('#replay-board .cup:not(.own) .die[data-face=hidden]') !== null")
    for k in range(1, len(record["actions"]) + 1):
        click_and_wait(page, "#replay-next")
        assert page.inner_text("#replay-step") == f"move {k} of {len(record['actions'])}"
        assert len(page.query_selector_all("#replay-log li.move")) == k
    assert page.is_visible("#replay-result") and page.is_disabled("#replay-next")
    assert "Liar!" in page.inner_text("#replay-log") or "exactly" in page.inner_text("#replay-log")
    click_and_wait(page, "#replay-first")
    assert page.inner_text("#replay-step").startswith("move 0 of")
    # the same record opened from the file and from its path
    page.click("#tab-replay")
    before = drawn(page)
    page.set_input_files("#record-file", str(record_path))
    page.wait_for_function(
        f"Number(document.body.dataset.drawn || 0) > {before} && document.body.dataset.waiting !== '1'"
    )
    assert page.is_visible("#replay") and "game.json" in page.inner_text("#replay-status")
    page.click("#tab-replay")
    (server[1] / "copied.json").write_text(record_path.read_text())  # a path is opened only in the records folder
    page.fill("#record-path", "copied.json")
    click_and_wait(page, "#open-path")
    assert page.is_visible("#replay") and "copied.json" in page.inner_text("#replay-status")
    page.click("#tab-replay")
    page.fill("#record-path", str(record_path))
    click_and_wait(page, "#open-path")
    assert "opened only from this table's folders" in page.inner_text("#replays-error")
    # a file that is no record is refused in words
    page.click("#tab-replay")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**record, "env": "liars_dice_v7"}))
    before = drawn(page)
    page.set_input_files("#record-file", str(bad))
    page.wait_for_function(
        f"Number(document.body.dataset.drawn || 0) > {before} && document.body.dataset.waiting !== '1'"
    )
    assert "this build registers liars_dice_v0" in page.inner_text("#replays-error")
