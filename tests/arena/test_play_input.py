"""The terminal table: what a player may type, the move list's ranges, the board at 80 columns, public
calls and rolled dice in words, rules text on ``?``, Ctrl-C."""

from __future__ import annotations

import io

import numpy as np
import pytest

from bidbluff import envs
from bidbluff.agents.human import move_list, parse_choice
from bidbluff.arena.play import dice_lines, play, rules_lookup, said
from tests.arena.test_play import Script


def _at(env_name: str, kind: str, num_players: int = 3, seed: int = 0, **options) -> object:
    """A raw env whose acting seat faces a decision with a ``kind`` move (random play up to it)."""
    for s in range(seed, seed + 40):
        env = envs.make(env_name, raw=True, num_players=num_players, **options)
        env.reset(seed=s)
        rng = np.random.default_rng(s)
        for _ in range(3000):
            if env.game_state.is_terminal():
                break
            legal = env.legal_action_ids()
            if any(env.game.codec.decode(a)[0] == kind for a in legal):
                return env
            env.step(int(rng.choice(legal)))
    raise AssertionError(f"no {kind} decision met in {env_name}")


def _name(env, text: str) -> str:
    return env.action_to_str(parse_choice(env, text))


def test_a_number_is_a_value_never_a_place_in_the_list() -> None:
    env = _at("spytails_v0", "bid")
    assert env.action_to_str(env.legal_action_ids()[0]) == "bid 0"
    assert _name(env, "2") == "bid 2"
    assert _name(env, "bid 2") == "bid 2"
    assert _name(env, "#2") == "bid 1"  # the list's second line, asked for with '#'
    with pytest.raises(ValueError, match="not a place in the list"):
        parse_choice(env, "#99")


def test_bids_calls_and_names_as_said_at_the_table() -> None:
    env = _at("lying_pirates_v0", "liar")
    legal = [env.action_to_str(a) for a in env.legal_action_ids()]
    bid = next(t for t in legal if t.startswith("bid ") and f"exact {t[4:]}" in legal)
    quantity, face = bid[4:].split("x")
    for typed in (bid[4:], f"{quantity}X{face}", f"bid {quantity} {face}", f"{quantity} {face}", bid.upper()):
        assert _name(env, typed) == bid, typed
    assert _name(env, f"exactly {quantity}x{face}") == f"exact {quantity}x{face}"
    for typed in ("liar", "Liar!", " LIAR "):
        assert _name(env, typed) == "liar"
    with pytest.raises(ValueError, match=r"'bid' fits \d+ moves"):
        parse_choice(env, "bid")


def test_libertalia_characters_by_name_or_rank() -> None:
    env = _at("libertalia_v0", "play")
    for a in env.legal_action_ids():
        text = env.action_to_str(a)  # "play 15 Gunner"
        _, rank, name = text.split(" ", 2)
        assert _name(env, rank) == text
        assert _name(env, name.lower()) == text


def test_long_move_lists_collapse_into_ranges() -> None:
    names = [f"bid {q}x{f}" for q in range(1, 31) for f in range(2, 7)] + ["exact 1x2", "liar"]
    assert move_list(names) == ["#1-#150  bid 1x2 ... bid 30x6 (150 moves)", "#151  exact 1x2", "#152  liar"]
    assert move_list(["reroll", "keep"]) == ["#1  reroll", "#2  keep"]
    cards = ["remove 4 Stalk", "remove 5 Stalk", "remove 7 Stalk", "remove 8 Stalk", "remove 9 Stalk"]
    assert move_list(cards, [4, 5, 7, 8, 9]) == [
        "#1  remove 4 Stalk",
        "#2  remove 5 Stalk",
        "#3  remove 7 Stalk",
        "#4  remove 8 Stalk",
        "#5  remove 9 Stalk",
    ]
    env = _at("lying_pirates_v0", "liar")
    shown = move_list([env.action_to_str(a) for a in env.legal_action_ids()], env.legal_action_ids())
    assert len(shown) <= 4 and shown[-1].endswith("liar")  # the bids, the "exactly" calls, Liar!


@pytest.mark.parametrize("env_name", sorted(envs.ENVS))
def test_the_table_fits_80_columns(env_name: str) -> None:
    out = io.StringIO()
    play(env_name, seat=0, num_players=2, seed=4, opponents=["random"], input=Script([]), output=out, max_steps=300)
    lines = out.getvalue().splitlines()
    assert max(map(len, lines)) <= 80, max(lines, key=len)


def test_public_calls_are_named_and_rolled_dice_shown() -> None:
    env = _at("lying_pirates_v0", "liar")
    liar = next(a for a in env.legal_action_ids() if env.game.codec.decode(a)[0] == "liar")
    other = (env.game_state.pending[1] + 1) % env.num_players
    assert said(env, "lying_pirates_v0", other, liar) == "calls Liar!"
    env = _at("lying_pirates_v0", "reroll")
    lines = dice_lines("lying_pirates_v0", env.game_state, 0)
    assert any(line.startswith("to decide: reroll the ") for line in lines)
    assert any(line.startswith(("sail die: ", "battle rolls: ", "Pirate die", "Treasure die")) for line in lines)
    out = io.StringIO()
    play(
        "lying_pirates_v0",
        seat=0,
        num_players=3,
        seed=2,
        opponents=["heuristic"],
        input=Script([]),
        output=out,
        max_steps=400,
    )
    text = out.getvalue()
    assert "sail die: " in text and "makes a secret choice" not in text


def test_rules_text_on_question_mark() -> None:
    assert rules_lookup("libertalia_v0", "gunner")[0].startswith("Gunner: ")
    assert rules_lookup("libertalia_v0", "no such thing") == []
    assert rules_lookup("spytails_v0", "stalk")
    assert rules_lookup("lying_pirates_v0", "liar")  # the calls' rules
    out = io.StringIO()
    play(
        "libertalia_v0",
        seat=0,
        num_players=2,
        seed=1,
        opponents=["random"],
        input=Script(["? parrot", "quit"]),
        output=out,
        width=400,
    )
    assert f"  {rules_lookup('libertalia_v0', 'parrot')[0]}" in out.getvalue()


def test_ctrl_c_leaves_with_one_line() -> None:
    class Interrupt(io.StringIO):
        def readline(self, size: int = -1) -> str:
            raise KeyboardInterrupt

    out = io.StringIO()
    assert play("liars_dice_v0", num_players=2, seed=1, opponents=["random"], input=Interrupt(), output=out) is None
    assert out.getvalue().rstrip().endswith("You left the game; it is not saved.")
    assert "Traceback" not in out.getvalue()


def test_ctrl_c_in_a_tournament_is_one_line(monkeypatch, capsys) -> None:
    from bidbluff import cli

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("bidbluff.arena.tournament.run_tournament", interrupted)
    with pytest.raises(SystemExit) as stopped:
        cli.main(["tournament", "spytails_v0", "--agents", "random", "--games", "2", "--quiet"])
    assert stopped.value.code == 130
    assert capsys.readouterr().err.strip() == "bidbluff tournament: interrupted"
