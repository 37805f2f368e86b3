"""Restored states are checked: ``LyingPiratesState.from_dict`` refuses every class of bad position with a
``ValueError`` naming the field by its path, and every position a real game reaches loads as it was."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from bidbluff import envs
from bidbluff.envs.lying_pirates.content import CARD_INDEX
from bidbluff.envs.lying_pirates.stages import STAGES
from bidbluff.envs.lying_pirates.state import LyingPiratesState
from bidbluff.envs.lying_pirates.state_shapes import FRAME_FIELDS
from tests.lying_pirates.savedkit import TABLES, table_options

from .conftest import fresh, set_hand, window
from .optionkit import CITIES, ready

ANNE, BOB, CHRIS = 0, 1, 2


def sail_window() -> dict[str, Any]:
    """A base game of three at the Sail phase's window, Anne to act."""
    return window(fresh(3), "sail", token=ANNE, winner=ANNE, survivors=(BOB,))


def refusal(d: dict[str, Any], change: Callable[[dict[str, Any]], Any]) -> str:
    d = json.loads(json.dumps(d))
    LyingPiratesState.from_dict(json.loads(json.dumps(d)))  # the position itself loads
    change(d)
    with pytest.raises(ValueError) as refused:
        LyingPiratesState.from_dict(d)
    return str(refused.value)


def put(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """A change that sets the field at ``path`` ("stack.1.order" style) to ``value``."""

    def change(d: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        for key in parents:
            d = d[int(key)] if isinstance(d, list) else d[key]
        d[int(last) if isinstance(d, list) else last] = value

    return change


def drop(path: str) -> Callable[[dict[str, Any]], None]:
    def change(d: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        for key in parents:
            d = d[int(key)] if isinstance(d, list) else d[key]
        del d[last]

    return change


def add_card(name: str, seat: int) -> Callable[[dict[str, Any]], None]:
    def change(d: dict[str, Any]) -> None:
        d["hands"][seat] = sorted([*d["hands"][seat], CARD_INDEX[name]])

    return change


def test_every_frame_of_the_stage_table_has_its_fields_declared():
    assert set(FRAME_FIELDS) == {stage.frame for stage in STAGES.values()}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (put("coins.1", True), r"^coins\[1\]: True \(boolean\) is not an integer"),
        (put("stack.1.order", "0 1 2"), r"^stack\[1\]\.order: '0 1 2' \(string\) is not a list"),
        (put("crews.holder.1", 1.0), r"^crews\.holder\.1: 1\.0 \(number\) is not an integer"),
        (put("log", [["no"]]), r"^log\[0\]: \['no'\] \(list\) is not a string"),
    ],
)
def test_a_wrong_type_is_refused(change, message):
    assert re.search(message, refusal(sail_window(), change))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (put("coins.0", -1), r"^coins\[0\]: -1 is not a count 0\.\.\d+"),
        (put("direction", 0), r"^direction: 0 \(integer\) is not a direction: 1, -1"),
        (put("crews.crew.2", 13), r"^crews\.crew\[2\]: 13 is not a number of crew dice 0\.\.12"),
        (put("progress.1", 13), r"^progress\[1\]: 13 is past a lap of 12"),
        (put("known.1.0.3", 7), r"^known\[1\]\[0\]\[3\]: 7 is not a count of cards 0\.\.6"),
        (put("sail_die", 9), r"^sail_die: 9 is not a sail die's face \(or 0\) 0\.\.2"),
        (put("round_no", 10**18), r"^round_no: 1000000000000000000 is not a count 0\.\.1000000"),
        (put("log", ["x"] * 31), r"^log: 31 entries, not 0\.\.30"),
    ],
)
def test_an_out_of_range_value_is_refused(change, message):
    assert re.search(message, refusal(sail_window(), change))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (put("stack.0.stage", "bogus"), r"^stack\[0\]\.stage: 'bogus' \(string\) is not a stage: 'place', 'draft'"),
        (put("phase", "bogus"), r"^phase: 'bogus' \(string\) is not a phase: 'betting', 'sail'"),
        (put("pending.0", "bogus"), r"^pending\.decision: 'bogus' \(string\) is not a decision"),
        (put("phase", "action"), r"^phase: 'action' while the SailPhase is at 'move'"),
    ],
)
def test_an_unknown_or_wrong_stage_or_phase_is_refused(change, message):
    assert re.search(message, refusal(sail_window(), change))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (drop("stack.1.order"), r"^stack\[1\]\.order: missing"),
        (put("stack.1.bogus", 1), r"^stack\[1\]\.bogus: is not a field of this state"),
        (put("stack.1.kind", "action"), r"^stack\[1\]\.kind: the SailPhase's window is 'sail'"),
        (put("stack.1.passes", 3), r"^stack\[1\]\.passes: a full round of passes closes the window"),
        (put("stack.0.stage", "tile"), r"^stack\[0\]: a SailPhase at 'tile' is no phase of a round"),
        (lambda d: d["stack"].reverse(), r"^stack\[0\]: a Window at 'window' is no phase of a round"),
        (
            lambda d: d["stack"].insert(1, {"stage": "reroll", "outcome": -1, "queue": [0], "die": "sail"}),
            r"^stack\[1\]: a Reroll does not stand on a SailPhase at 'move'",
        ),
        (
            lambda d: d["stack"].append({"stage": "reroll", "outcome": -1, "queue": [CHRIS], "die": "sail"}),
            r"^stack\[2\]: a Reroll does not stand on a Window",
        ),
        (
            lambda d: d["stack"].append(
                {
                    "stage": "keep_one",
                    "outcome": -1,
                    "seat": 0,
                    "what": "card",
                    "cards": [d["deck"].pop(), d["deck"].pop()],
                }
            ),
            r"^stack\[2\]: a KeepOne needs the \"Draw Two, Keep One\" variant card",
        ),
    ],
)
def test_a_broken_frame_or_stack_is_refused(change, message):
    assert re.search(message, refusal(sail_window(), change))


def test_the_open_decision_must_be_the_one_the_top_frame_asks():
    assert re.search(
        r"^pending: \['window', 1\] is not the decision the Window at 'window' asks \(\['window', 0\]\)",
        refusal(sail_window(), put("pending.1", BOB)),
    )
    assert re.search(r"^pending: the game goes on: a decision is open", refusal(sail_window(), put("pending", [])))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (add_card("Broadside", BOB), r"the action cards: Broadside appears 2 times, 1 exists"),
        (lambda d: d["discard"].append(d["deck"][0]), r"the action cards: .* appears \d+ times"),
        (lambda d: d["hands"][ANNE].reverse(), r"^hands\[0\]: a hand is kept sorted"),
    ],
)
def test_a_duplicated_card_is_refused(change, message):
    def with_cards(d: dict[str, Any]) -> None:
        set_hand(d, ANNE, "Full Sail", "Grog Barrel")
        change(d)

    assert re.search(message, refusal(sail_window(), with_cards))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["deck"].pop(), r"^the action cards: .* is missing \(\d of \d accounted for\)"),
        (
            lambda d: d["crews"].update(bag=d["crews"]["bag"] + 1),
            r"^crews\.bag: 36 in the bag and 15 in the crews, "
            r"more than the game's 50 crew dice",
        ),
        (put("known.1.0.0", 1), r"^known\[1\]\[0\]\[0\]: 1 known Full Sail where captain 0 holds 0"),
    ],
)
def test_a_count_that_is_not_conserved_is_refused(change, message):
    assert re.search(message, refusal(sail_window(), change))


def test_influence_cards_are_conserved():
    d = ready(3, **CITIES)
    message = refusal(d, lambda d: d["ext"]["influence_deck"].append(0))
    assert re.search(r"^ext\.influence_deck: the influence cards: .* appears 4 times, 3 exist", message)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (put("pending.1", 3), r"^pending\.seat: 3 is not a player 0\.\.2"),
        (put("token", 3), r"^token: 3 is not a captain 0\.\.2"),
        (put("stack.1.order.2", 5), r"^stack\[1\]\.order\[2\]: 5 is not a player 0\.\.2"),
        (put("crews.holder.2", 7), r"^crews\.holder\.2: 7 is not a captain \(or -1\) -1\.\.2"),
        (put("phantom", 2), r"^phantom: the Phantom is captain 3 of a two-player game, else -1"),
    ],
)
def test_a_bad_seat_index_is_refused(change, message):
    assert re.search(message, refusal(sail_window(), change))


@pytest.mark.parametrize(
    ("options", "change", "message"),
    [
        (
            {},
            put(
                "ext",
                {
                    "options": {"expansion": None, "abilities": None, "variants": [], "merchant_ships": False},
                    "captain": [-1] * 3,
                    "captain_order": [],
                    "sabotaged": [False] * 3,
                    "merchant": -1,
                    "navy": -1,
                },
            ),
            r"^ext\.options: no option is on: a base game's state has no ext",
        ),
        ({}, put("crews.mortal", True), r"^crews\.mortal: is not a field of this state"),
        ({"abilities": "dealt"}, put("ext.towns", [-1] * 12), r"^ext\.towns: is not a field of this state"),
        ({"merchant_ships": True}, put("crews.holder.5", -1), r"^crews\.holder\.5: is not a field of this state"),
        (CITIES, drop("ext.towns"), r"^ext\.towns: missing"),
        (CITIES, drop("crews.holder.5"), r"^crews\.holder\.5: missing"),
        ({"abilities": "dealt"}, drop("crews.limits"), r"^crews\.limits: missing"),
        ({"variants": ["Instant Death"]}, put("crews.mortal", False), r"^crews\.mortal: sinking is \"Instant Death\""),
        ({"merchant_ships": True}, put("ext.navy", 0), r"^ext\.navy: the Merchant and the Navy ship lie on two slots"),
    ],
)
def test_an_option_field_without_its_option_or_missing_with_it_is_refused(options, change, message):
    d = ready(3, **options) if options else sail_window()
    assert re.search(message, refusal(d, change))


def test_a_state_of_no_format_or_another_game_is_refused():
    with pytest.raises(ValueError, match=r"^format: Lying Pirates state format 0 is not 1"):
        LyingPiratesState.from_dict({"game": "lying_pirates", "num_players": 3})
    with pytest.raises(ValueError, match=r"^not a Lying Pirates state"):
        LyingPiratesState.from_dict([1, 2])  # type: ignore[arg-type]


@pytest.mark.parametrize("config", TABLES, ids=lambda c: "-".join([f"{c['num_players']}p", *table_options(c)]))
def test_positions_of_random_games_load_as_they_were(config):
    rng = np.random.default_rng(7)
    env = envs.make("lying_pirates_v0", raw=True, num_players=config["num_players"], **table_options(config))
    env.reset(seed=int(rng.integers(2**31)))
    step = 0
    while True:
        state = env.game_state
        if step % 7 == 0 or state.is_terminal():
            data = json.loads(json.dumps(state.to_dict()))
            assert LyingPiratesState.from_dict(data).to_dict() == data
        if state.is_terminal():
            break
        env.step(int(rng.choice(env.legal_action_ids())))
        step += 1


def _reached(options: dict[str, Any], frame: str, seats: int = 3) -> dict[str, Any]:
    """A position of a random game with a ``frame`` on the stack."""
    for seed in range(200):
        env = envs.make("lying_pirates_v0", raw=True, num_players=seats, **options)
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while not env.game_state.is_terminal():
            saved = env.game_state.to_dict()
            if any(type(f).__name__ == frame for f in env.game_state.stack):
                return saved
            env.step(int(rng.choice(env.legal_action_ids())))
    raise AssertionError(f"no game reached a {frame}")


def test_a_reroll_offered_to_a_captain_who_cannot_pay_is_refused():
    """The queue holds the captains who could pay when the die was rolled; their coins do not change while it is
    asked (the fuzz found a queued captain with its coins set to 0 paying into debt)."""
    d = _reached({}, "Reroll")
    at = next(i for i, f in enumerate(d["stack"]) if "queue" in f and "die" in f)
    captain = d["stack"][at]["queue"][-1]
    message = refusal(d, put(f"coins.{captain}", 0))
    assert re.match(rf"^stack\[{at}\]\.queue\[\d\]: captain {captain} cannot pay for a reroll", message), message


def test_a_tile_in_hand_that_is_not_a_tile_of_the_game_is_refused():
    d = _reached({"map_setup": "collaborative"}, "Placing", seats=2)
    at = next(i for i, f in enumerate(d["stack"]) if "tiles" in f)
    seat = next(s for s, hand in enumerate(d["stack"][at]["tiles"]) if hand)
    message = refusal(d, put(f"stack.{at}.tiles.{seat}.0", 25))
    assert re.match(rf"^stack\[{at}\]\.tiles\[{seat}\]\[0\]: 25 is not a tile of this game", message), message
