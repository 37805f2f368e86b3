"""The browser table's boards and tables without a server: what a seat sees, the log, moves, records."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")

from bidbluff import envs
from bidbluff.arena import records
from bidbluff.arena.web.app import local_table
from bidbluff.arena.web.guard import BadRequestError
from bidbluff.arena.web.tables import RefusedMoveError, Replay, Table, moves_for
from bidbluff.arena.web.views import VIEWS, plain, view_of

make_table = local_table  # the human at table.human; its agents move at once, in this thread


# one small table of every env, and the option tables whose hidden information differs
TABLES = [
    ("libertalia_v0", 3, {}),
    ("liars_dice_v0", 3, {"dice": 2}),
    ("liars_dice_v0", 2, {"specials": ["Pirate King", "Cursed"]}),
    ("lying_pirates_v0", 2, {}),
    ("lying_pirates_v0", 3, dict(expansion="cities_of_greed", abilities="dealt", merchant_ships=True, draft=True)),
    ("spytails_v0", 3, {}),
    ("spytails_v0", 4, {"forecast_mode": "simultaneous", "mode": "partnership"}),
]


def positions(env_name: str, n: int, options: dict, seed: int, every: int = 3):
    """Positions of a random game, every ``every``-th one, and the last."""
    env = envs.make(env_name, num_players=n, raw=True, **options)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    k = 0
    while not env.game_state.is_terminal():
        if k % every == 0:
            yield env
        env.step(int(rng.choice(env.legal_action_ids())))
        k += 1
    yield env


@pytest.mark.parametrize(("env_name", "n", "options"), TABLES)
def test_a_board_shows_only_what_the_seat_knows(env_name: str, n: int, options: dict) -> None:
    """Redrawing everything a seat cannot see (``resample_hidden``) leaves its board as it was."""
    view = view_of(env_name)
    rng = np.random.default_rng(1)
    checked = 0
    for env in positions(env_name, n, options, seed=3):
        state = env.game_state
        for seat in range(n):
            board = view.board(state, seat)
            json.dumps(board)
            for _ in range(2):
                assert view.board(state.resample_hidden(seat, rng), seat) == board
            checked += 1
    assert checked > n


def test_the_boards_would_see_a_leak() -> None:
    """The check above has teeth: the everything-board of a live Liar's dice round changes on a redraw."""
    env = next(positions("liars_dice_v0", 3, {}, seed=0))
    state = env.game_state
    again = state.resample_hidden(0, np.random.default_rng(5))
    assert view_of("liars_dice_v0").board(again, None) != view_of("liars_dice_v0").board(state, None)
    own = view_of("liars_dice_v0").board(state, 0)["cups"]
    assert all(d["face"] is not None for d in own[0]["dice"])
    assert all(d["face"] is None for cup in own[1:] for d in cup["dice"])


@pytest.mark.parametrize(("env_name", "n", "options"), TABLES)
def test_moves_come_from_the_mask_and_name_distinct_board_pieces(env_name: str, n: int, options: dict) -> None:
    for env in positions(env_name, n, options, seed=2, every=5):
        if env.game_state.is_terminal():
            break
        moves = moves_for(env, env_name)
        assert [m["id"] for m in moves] == env.legal_action_ids()
        targets = [m["target"] for m in moves if m["target"]]
        assert len(targets) == len(set(targets))


def test_every_glossary_names_its_pieces() -> None:
    from bidbluff.arena.web.views import libertalia, lying_pirates, spytails

    assert len(libertalia.GLOSSARY["characters"]) == 30
    assert "pay 3" in libertalia.GLOSSARY["characters"]["15"]["text"]  # the Gunner
    gunner = lying_pirates.GLOSSARY["tiles"][12]["text"]  # Duel
    assert gunner.startswith("uncharted waters: roll the Treasure die") and "take up to 2 coins from a target" in gunner
    assert lying_pirates.GLOSSARY["cards"][10]["text"].endswith("cancels an attack card that targets you")
    assert "sails 1 tile back" in lying_pirates.GLOSSARY["cards"][1]["text"]  # Crosswind
    assert spytails.GLOSSARY["cards"][52]["text"].startswith("Alpha Strike: no suit")
    assert "the trump suit" in spytails.GLOSSARY["cards"][3 * 13 + 5]["text"]
    for module in VIEWS.values():
        json.dumps(module.GLOSSARY)
        json.dumps([o.to_dict() for o in module.OPTIONS])


def play_out(table: Table, seed: int = 0) -> None:
    rng = random.Random(seed)
    while not table.over:
        table.play(table.human, rng.choice(table.view(table.human)["moves"])["id"])


@pytest.mark.parametrize("env_name", envs.ENVS)
def test_a_table_plays_to_the_end_and_saves_a_record_that_replays(env_name: str, tmp_path) -> None:
    table = make_table(env_name, 2, seat=1, opponents=["random"], seed=4, records_dir=tmp_path)
    assert table.view(1)["to_act"] == 1
    play_out(table)
    view = table.view(1)
    assert view["over"] and view["moves"] == [] and view["result"] and view["seed"] == 4
    saved = list(tmp_path.glob(f"{env_name}-*.json"))
    assert len(saved) == 1 and view["saved"] == saved[0].name
    record = records.load(saved[0])
    assert record["agents"] == ["random", "human"] and record["seed"] == 4
    replay = Replay(record)
    assert replay.steps == len(record["actions"])
    last = replay.view(replay.steps, None)
    assert last["scores"] == record["scores"] and last["next"] is None
    assert replay.view(0, 1)["next"].startswith("P")
    assert last["log"] == replay.history.log(None)


def test_the_table_refuses_moves_with_reasons() -> None:
    table = make_table("liars_dice_v0", 2, seat=0, opponents=["random"], seed=1, options={"dice": 1})
    legal = [m["id"] for m in table.view(0)["moves"]]
    illegal = next(a for a in range(409) if a not in legal)
    with pytest.raises(RefusedMoveError, match="is not legal here; legal now: bid 1x2"):
        table.play(0, illegal)
    with pytest.raises(RefusedMoveError, match="not legal here"):
        table.play(0, 10_000)
    with pytest.raises(RefusedMoveError, match="a whole number"):
        table.play(0, "bid 1x2")
    with pytest.raises(RefusedMoveError, match="it is P0's turn"):
        table.play(1, legal[0])
    assert table.history.moves == []
    play_out(table)
    with pytest.raises(RefusedMoveError, match="the game is over"):
        table.play(0, legal[0])


def test_bad_set_ups_are_refused_in_words() -> None:
    with pytest.raises(BadRequestError, match="seat must be a whole number from 0 to 1, not 2"):
        make_table("liars_dice_v0", 2, seat=2)
    with pytest.raises(BadRequestError, match="num_players must be a whole number from 2 to 6, not 9"):
        make_table("liars_dice_v0", 9)
    with pytest.raises(BadRequestError, match="no option"):
        make_table("liars_dice_v0", 2, options={"sails": 3})
    with pytest.raises(BadRequestError, match="unknown agent"):
        make_table("liars_dice_v0", 2, opponents=["grandmaster"])


def test_the_log_says_public_calls_and_hides_secret_choices() -> None:
    record = {
        "format": 1,
        "env": "liars_dice_v0",
        "num_players": 2,
        "env_options": {"dice": 1},
        "seed": 0,
        "agents": ["a", "b"],
        "actions": [[0, 1], [1, 408]],
        "scores": [],
        "truncated": False,
    }
    env = records.make_env(record)
    for _, action in record["actions"]:
        env.step(action)
    record["scores"] = [float(s) for s in env.game_state.scores()]
    log = Replay(record).view(2, 0)["log"]
    assert [line["text"] for line in log if line["kind"] == "move"] == ["bid 1x2", "calls Liar!"]
    # Libertalia: a character put face down at sunrise is a secret to the others, not to its owner
    table = make_table("libertalia_v0", 3, seat=0, opponents=["random"], seed=2)
    first = table.history.moves
    table.play(0, table.view(0)["moves"][0]["id"])
    played = [m for m in table.history.moves if m.kind == "play"]
    assert played and all(0 not in m.hidden_from for m in played if m.seat == 0)
    hidden = [m for m in played if m.seat != 0 and 0 in m.hidden_from]
    assert hidden, "an opponent's sunrise card before the reveal is hidden from P0"
    texts = [line["text"] for line in table.history.log(0) if line["kind"] == "move"]
    assert "puts a character face down" in texts
    assert first is table.history.moves


def test_a_replay_checks_its_steps_and_seats() -> None:
    table = make_table("liars_dice_v0", 2, seat=0, opponents=["random"], seed=3, options={"dice": 1})
    play_out(table)
    replay = Replay(table.record)
    with pytest.raises(ValueError, match="this record has steps 0-"):
        replay.view(replay.steps + 1, None)
    with pytest.raises(ValueError, match="the record has seats 0-1"):
        replay.view(0, 5)
    hidden = replay.view(0, 1)["board"]["cups"][0]["dice"]
    assert hidden[0]["face"] is None
    assert replay.view(0, None)["board"]["cups"][0]["dice"][0]["face"] is not None


def test_every_die_a_lying_pirates_reroll_asks_about_is_on_the_board() -> None:
    """The terminal asked 'reroll or keep?' about dice it never drew: the board shows each one."""
    from bidbluff.arena.web.views import lying_pirates

    asked = set()
    for seed in range(6):
        for env in positions("lying_pirates_v0", 3, {"merchant_ships": True}, seed=seed, every=1):
            state = env.game_state
            if not state.pending or state.pending[0] != "reroll":
                continue
            seat = state.pending[1]
            board = lying_pirates.board(state, seat)
            die = board["reroll"]["die"]
            asked.add(die)
            shown = {
                "sail": board["sail_die"] > 0,
                "pt": board["pt"] is not None,
                "battle": board["rolls"] is not None and board["rolls"]["rolls"][seat] >= 0,
                "encounter": board["encounter"] is not None and board["encounter"]["roll"] >= 0,
            }
            assert shown[die], (die, board)
    assert {"sail", "battle", "pt"} <= asked


def test_every_open_decision_is_worded() -> None:
    from bidbluff.arena.web.views import libertalia, lying_pirates, spytails
    from bidbluff.envs.libertalia.rules import DECISIONS as LIBERTALIA
    from bidbluff.envs.lying_pirates.table import ALL_DECISIONS as LYING_PIRATES
    from bidbluff.envs.spytails.rules import DECISIONS as SPYTAILS

    assert set(libertalia.DECISIONS) == set(LIBERTALIA)
    assert set(lying_pirates.DECISIONS) == set(LYING_PIRATES)
    assert set(spytails.DECISIONS) == set(SPYTAILS)


def test_no_python_list_or_other_seat_name_shows_through() -> None:
    assert plain("winners [1], losers [0], survivors []") == "winners 1, losers 0, survivors none"
    assert plain("sail 2: [1, 2] move") == "sail 2: 1, 2 move"
    assert plain("C1 takes ['a', 'b']") == "P1 takes a, b"
    for env_name in envs.ENVS:
        table = make_table(env_name, 3, seat=0, opponents=["random"], seed=7)
        play_out(table)
        for line in table.view(0)["log"]:
            assert not any(mark in line["text"] for mark in ("[", "]", "(over)")), line


@pytest.mark.parametrize("env_name", envs.ENVS)
def test_the_end_explains_the_result(env_name: str) -> None:
    table = make_table(env_name, 3, seat=0, opponents=["random"], seed=5)
    play_out(table, seed=1)
    view = table.view(0)
    parts = view["breakdown"]
    assert parts and all(part["title"] and isinstance(part["rows"], list) for part in parts)
    json.dumps(parts)
    scores = view["scores"]
    if env_name == "libertalia_v0":  # the campaigns' scores add up to the final score
        rows = parts[0]["rows"]
        assert len(rows) == 3 * 3
        for s in range(3):
            assert sum(int(r[-1]) for r in rows if r[1] == f"P{s}") == scores[s]
    elif env_name == "lying_pirates_v0":
        assert [float(r[-1]) for r in parts[0]["rows"]] == scores
    elif env_name == "spytails_v0":
        assert [float(r[-1]) for r in parts[-1]["rows"]] == scores
    else:
        outcome = view["board"]["outcome"]
        assert sum(int(r[2]) for r in parts[0]["rows"]) == outcome["count"] or outcome["call"] == "exact"
        marked = [d for c in view["board"]["cups"] for d in c["dice"] if d.get("mark")]
        assert all(d["face"] in (outcome["bet"][1], view["board"]["wild"]) for d in marked)


def test_a_capped_opening_bet_says_why() -> None:
    table = make_table("liars_dice_v0", 2, seat=0, opponents=["random"], seed=1, options={"dice": 1})
    view = table.view(0)
    assert {m["args"][0] for m in view["moves"] if m["kind"] == "bid"} == {1, 2}
    assert view["notes"] == ["A bet may go up to the 2 dice in play."] or "at most 2×" in view["notes"][0]
    table = make_table("liars_dice_v0", 2, seat=0, opponents=["random"], seed=1, options={"dice": 3})
    assert "The opening bet is at most 2×: one die per captain" in table.view(0)["notes"][0]


def test_every_move_button_has_rules_text() -> None:
    from bidbluff.arena.web.app import games

    for game in games():
        kinds = game["glossary"]["moves"]
        assert kinds and all(text for text in kinds.values()), game["env"]
    pirates = {g["env"]: g for g in games()}["lying_pirates_v0"]["glossary"]["moves"]
    assert {"pass", "buy"} <= set(pirates)
    spies = {g["env"]: g for g in games()}["spytails_v0"]["glossary"]["moves"]
    assert {"regroup", "power"} <= set(spies)
