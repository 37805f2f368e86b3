"""The browser table in real Chromium (Playwright driving Debian's ``chromium``): a table's address across
reload, Back, a second tab and a server restart; the other seats' moves shown one at a time; the waiting
state while an agent thinks; two humans at one table from two browser contexts; and a full game of each
title at phone width (390 px) with every touch target at least 40 px.

``BIDBLUFF_SCREENSHOTS=DIR`` saves a phone picture of each title there (``docs/screenshots``)."""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time
from pathlib import Path

import pytest
import uvicorn
from playwright.sync_api import Page, sync_playwright

from bidbluff.arena.web.app import Settings, create_app
from tests.arena.test_web_e2e import CHROMIUM, FLAGS, QUICK, click_and_wait, free_port, play_to_the_end, start

SHOTS = os.environ.get("BIDBLUFF_SCREENSHOTS")
PHONE = {"width": 390, "height": 844}
SETTLED = "document.body.dataset.ready === '1' && document.body.dataset.waiting !== '1'"


@contextlib.contextmanager
def serving(settings: Settings, port: int | None = None):
    """The app on a loopback port in a thread; the address."""
    config = uvicorn.Config(
        create_app(settings=settings), host="127.0.0.1", port=port or free_port(), log_level="warning"
    )
    run = uvicorn.Server(config)
    thread = threading.Thread(target=run.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not run.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{config.port}"
    finally:
        run.should_exit = True
        thread.join(10)


def folders(tmp_path: Path, **more) -> Settings:
    return Settings(records=tmp_path / "records", tables=tmp_path / "tables", **more)


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield chromium
        chromium.close()


@contextlib.contextmanager
def opened(browser, url: str, viewport=None, init: str | None = QUICK):
    """A page of a fresh browser context at ``url`` (its errors fail the test)."""
    context = browser.new_context(viewport=viewport or {"width": 1400, "height": 1000})
    if init:
        context.add_init_script(init)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']")
    try:
        yield page
    finally:
        context.close()
    assert errors == [], f"the page's script failed: {errors}"


def board_text(page: Page) -> str:
    return page.inner_text("#board") + page.inner_text("#log")


def test_a_table_keeps_its_address_across_reload_back_a_second_tab_and_a_restart(browser, tmp_path) -> None:
    port = free_port()
    with serving(folders(tmp_path), port) as url, opened(browser, url + "/") as page:
        start(page, "libertalia_v0", 3, "heuristic", seed=8)
        address = page.url
        assert "/t/" in address and "#" in address
        click_and_wait(page, "#play [data-action]")
        page.wait_for_function(SETTLED)
        seen = board_text(page)
        page.reload()
        page.wait_for_function(SETTLED)
        assert page.url == address and board_text(page) == seen
        page.go_back()
        page.wait_for_function("document.querySelector('#setup').hidden === false")
        page.go_forward()
        page.wait_for_function(SETTLED + " && !document.querySelector('#play').hidden")
        assert board_text(page) == seen
        second = page.context.new_page()
        second.goto(address)
        second.wait_for_function(SETTLED)
        assert board_text(second) == seen
    with serving(folders(tmp_path), port) as url, opened(browser, address) as page:  # a new server, same folders
        page.wait_for_function(SETTLED)
        assert board_text(page) == seen
        click_and_wait(page, "#play [data-action]")  # and the game goes on
        assert not page.is_visible("#error")


def test_other_seats_moves_are_shown_one_at_a_time_and_can_be_skipped(browser, tmp_path) -> None:
    pace = "localStorage.setItem('bidbluff-pace', 'normal'); localStorage.setItem('bidbluff-auto', '0');"
    with serving(folders(tmp_path)) as url, opened(browser, url + "/", init=pace) as page:
        page.select_option("#game", "liars_dice_v0")
        page.fill("#players", "4")
        page.dispatch_event("#players", "change")
        page.select_option("#seat", "3")  # three agents bet before the human: three frames
        for select in page.query_selector_all(".opponent-kind"):
            select.select_option("heuristic")
        page.fill("#seed", "3")
        page.click("#start")
        frames = []
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            frame = page.evaluate("document.body.dataset.frame || null")
            if frame and frame not in frames:
                frames.append(frame)
                assert page.is_visible(".just-now") and "P" in page.inner_text(".just-now")
                assert page.evaluate("document.querySelector('#board').classList.contains('inactive')")
                assert page.query_selector_all("#moves [data-action]") == []
            if page.evaluate(SETTLED) and page.is_visible(".your-move"):
                break
            time.sleep(0.05)
        assert frames == ["1", "2", "3"], frames
        assert page.query_selector_all("#board .bids li")  # the bets are on the table
        assert len(page.query_selector_all("#log li.new")) >= 3  # what happened since the last look is marked
        assert page.is_visible(".your-move"), "the agents bet and the human is to move"
        # Skip: the frames of the next round of agents' moves end at once
        page.click("#moves [data-action]")
        page.wait_for_selector("#skip")
        page.click("#skip")
        page.wait_for_function(SETTLED, timeout=5000)


def test_while_an_agent_thinks_the_page_says_who_and_the_board_waits(browser, tmp_path) -> None:
    settings = folders(tmp_path, agents={"slow": "ismcts:2000,2000ms,rollout=heuristic"}, move_time=1.5)
    with serving(settings) as url, opened(browser, url + "/") as page:
        page.select_option("#game", "libertalia_v0")
        page.fill("#players", "2")
        page.dispatch_event("#players", "change")
        page.select_option("#seat", "1")
        page.select_option(".opponent-kind", "slow")
        page.click("#start")
        page.wait_for_selector(".thinking")
        assert "P0 (slow) is thinking" in page.inner_text("#prompt")
        assert page.query_selector_all("#play [data-action]") == []
        assert page.evaluate("document.querySelector('#board').classList.contains('inactive')")
        page.wait_for_function(SETTLED, timeout=10_000)
        assert page.is_visible(".your-move") and page.query_selector_all("#play [data-action]")


def test_two_humans_at_one_table_each_see_only_their_seat(browser, tmp_path) -> None:
    with serving(folders(tmp_path)) as url, opened(browser, url + "/") as first:
        first.select_option("#game", "liars_dice_v0")
        first.fill("#players", "3")
        first.dispatch_event("#players", "change")
        kinds = first.query_selector_all(".opponent-kind")
        kinds[0].select_option("human")
        kinds[1].select_option("random")
        first.fill("#seed", "5")
        click_and_wait(first, "#start")
        link = first.get_attribute("[data-seat-link='1']", "value")
        assert link.startswith(url + "/t/") and "#" in link
        with opened(browser, link) as second:  # another browser context: no shared storage
            second.wait_for_function("document.body.dataset.ready === '1' && !!window.bidbluff.state.table")
            mine = [c for c in second.evaluate("window.bidbluff.state.table.board.cups")]
            assert all(d["face"] is not None for d in mine[1]["dice"])
            assert all(d["face"] is None for c in (mine[0], mine[2]) for d in c["dice"])
            assert "you are P1" in second.inner_text("#play-title")
            assert second.query_selector_all("#play [data-action]") == []  # P0 is to move
            assert "Waiting for P0" in second.inner_text("#prompt")
            refused = second.evaluate(
                """fetch(location.pathname.replace('/t/', '/api/tables/') + '/move', {method: 'POST',
                   headers: {'Content-Type': 'application/json', 'X-Seat-Key': location.hash.slice(1)},
                   body: JSON.stringify({action: 1})}).then((r) => r.status)"""
            )
            assert refused == 400
            first.click("#moves [data-action]")  # P0 bets; P1's page sees it and it is P1's turn
            first.wait_for_function("document.querySelector('#prompt').innerText.includes('Waiting for P1')")
            second.wait_for_selector(".your-move", timeout=15_000)
            assert "P0 (you)" not in second.inner_text("#log") and "P0 (human)" in second.inner_text("#log")
            theirs = first.evaluate("window.bidbluff.state.table.board.cups")
            assert all(d["face"] is None for d in theirs[1]["dice"])


PHONE_GAMES = [
    pytest.param("liars_dice_v0", 3, "heuristic", {"dice": 3}, id="liars_dice_v0"),
    pytest.param("libertalia_v0", 3, "heuristic", {}, id="libertalia_v0", marks=pytest.mark.slow),
    pytest.param("lying_pirates_v0", 3, "heuristic", {}, id="lying_pirates_v0", marks=pytest.mark.slow),
    pytest.param("spytails_v0", 3, "random", {}, id="spytails_v0", marks=pytest.mark.slow),
]
SMALL_TARGETS = """Array.from(document.querySelectorAll('#play [data-action], #play button, #play select'))
  .filter((el) => el.offsetParent !== null)
  .map((el) => [el.getBoundingClientRect(), el.outerHTML.slice(0, 80)])
  .filter(([r]) => r.width < 40 || r.height < 40)
  .map(([r, html]) => `${Math.round(r.width)}x${Math.round(r.height)} ${html}`)"""
OVERLAPS = """(() => {
  const tiles = Array.from(document.querySelectorAll('#board .tile')).map((t) => t.getBoundingClientRect());
  let n = 0;
  for (let i = 0; i < tiles.length; i++) for (let j = i + 1; j < tiles.length; j++) {
    const a = tiles[i], b = tiles[j];
    if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) n++;
  }
  return n; })()"""


@pytest.mark.parametrize(("env", "players", "opponents", "options"), PHONE_GAMES)
def test_a_full_game_at_phone_width(browser, tmp_path, env, players, opponents, options) -> None:
    with serving(folders(tmp_path)) as url, opened(browser, url + "/", viewport=PHONE) as page:
        start(page, env, players, opponents, seed=11, options=options)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1  # nothing off the side
        assert page.evaluate(SMALL_TARGETS) == []
        if env == "lying_pirates_v0":
            assert page.evaluate(OVERLAPS) == 0 and page.is_visible("#board .tile:has-text('Start/End')")
        shot = str(Path(SHOTS) / f"{env}-phone.png") if SHOTS else None
        moves_top = page.evaluate("document.querySelector('#turn').getBoundingClientRect().top")
        assert moves_top < PHONE["height"], "the moves are on the first screen, above the board"
        play_to_the_end(page, seed=1, shot=shot, shot_after=1)
        assert page.evaluate(SMALL_TARGETS) == []
        assert page.is_visible(".breakdown")


@pytest.mark.slow
def test_forced_moves_play_themselves(browser, tmp_path) -> None:
    auto = "localStorage.setItem('bidbluff-pace', 'instant'); localStorage.setItem('bidbluff-auto', '1');"
    with serving(folders(tmp_path)) as url, opened(browser, url + "/", init=auto) as page:
        start(page, "libertalia_v0", 2, "random", seed=6)
        clicks = play_to_the_end(page, seed=2)
        record = json.loads(next((tmp_path / "records").glob("libertalia_v0-*.json")).read_text())
        own = [a for a in record["actions"] if a[0] == 0]
        assert len(own) > clicks, "some of P0's moves were the only ones possible and played themselves"
