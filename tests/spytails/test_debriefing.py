"""Debriefing after the forecasts and missions: reinforcements, the display, the next round,
the game's length, ties and the partnership winner."""

from __future__ import annotations

import pytest

from bidbluff.envs.spytails.content import ALKA, ECHO, MIMIC, MIRAGE, SPECIAL_DECK
from bidbluff.envs.spytails.env import SpytailsGame
from bidbluff.envs.spytails.rules import FORECAST, new_game

from .conftest import act, cards, make_state, one, play, rng

EVENTS_ONLY = [12, 13, 14]  # Radio Silence, Frozen Assets, Blackout: no mission pays


def test_reinforcements_two_passes_from_the_last_winner_take_then_optionally_remove():
    s = make_state(
        hands=["4S", "5S", "9S"],
        operation=6,
        won=[2, 2, 2],
        row=EVENTS_ONLY,
        display="KI alpha QS 2C",
        discards=["10S", "", ""],
    )
    play(s, "4S", "5S", "9S")
    top = list(s.special_deck)
    assert s.pending == ["reinforce", 2]
    assert s.legal_actions() == [("take", c) for c in sorted(cards("KI alpha QS 2C"))] + [("take_top",)]
    act(s, ("take", one("alpha")))
    assert s.pending == ["remove", 2]
    assert s.legal_actions() == [("remove", c) for c in sorted(cards("9S alpha"))] + [("remove_none",)]
    act(s, ("remove", one("9S")))
    assert s.removed[2] == cards("9S") and s.discards[2] == [] and s.decks[2] == cards("alpha")
    assert s.pending == ["reinforce", 0]
    act(s, ("take_top",), ("remove_none",))
    assert s.decks[0] == [top[-1]] and s.special_deck == top[:-1]
    assert s.pool[0] == [top[-1]], "the card taken from the top is revealed"
    act(s, ("take", one("KI")), ("remove_none",))  # seat 1
    act(s, ("take", one("QS")), ("remove_none",))  # seat 2, second pass
    act(s, ("take", one("2C")), ("remove", one("10S")))  # seat 0
    assert s.pending == ["reinforce", 1] and s.legal_actions() == [("take_top",)], "the display is empty"
    act(s, ("take_top",), ("remove_none",))
    assert s.phase == FORECAST and s.round == 1
    collections = [sorted(s.hands[i] + s.decks[i]) for i in range(3)]
    assert collections[0] == sorted([*cards("4S 2C"), top[-1]])
    assert collections[1] == sorted([*cards("5S KI"), top[-2]])
    assert collections[2] == sorted(cards("alpha QS"))
    assert s.removed == [cards("10S"), [], cards("9S")]


def test_unchosen_display_cards_go_under_the_special_deck_and_a_new_display_is_dealt():
    s = make_state(n=2, hands=["4S", "9S"], operation=6, won=[3, 3], row=EVENTS_ONLY, display="KI alpha QS")
    play(s, "4S", "9S")
    top = list(s.special_deck)
    assert s.pending == ["reinforce", 1]
    act(s, ("take_top",), ("remove_none",), ("take", one("KI")), ("remove_none",))
    act(s, ("take_top",), ("remove_none",), ("take_top",), ("remove_none",))
    assert s.special_deck[:2] == cards("alpha QS") and s.special_known == 2
    assert s.display == [top[-4], top[-5], top[-6]]
    assert len(s.special_deck) == len(top) - 6 + 2


def test_the_next_round_reshuffles_refreshes_tokens_and_passes_the_start_token():
    s = make_state(
        hands=["4S", "5S", "9S"],
        operation=6,
        won=[2, 2, 2],
        row=EVENTS_ONLY,
        start=2,
        leader=2,
        decks=["4C 5C 6C 7C 8C 9C 10C", "4C 5C 6C 7C 8C 9C 10C", "4C 5C 6C 7C 8C 9C 10C"],
        characters=[ALKA, MIRAGE, ECHO],
        ghost_used=[True] * 3,
        regroup_used=[True] * 3,
        power_used=[True] * 3,
    )
    play(s, "9S", "4S", "5S")
    for _ in range(6):
        act(s, ("take_top",), ("remove_none",))
    assert s.round == 1 and s.start == 0 and s.pending == ["bid", 0]
    assert [len(h) for h in s.hands] == [8, 7, 7], "Alka draws 8"
    assert s.discards == [[], [], []]
    assert s.ghost_used == s.regroup_used == s.power_used == [False] * 3
    assert s.bids == [-1] * 3 and s.won == [0] * 3 and s.round_ops == []


def test_five_rounds_with_four_players_six_with_two_or_three():
    assert [new_game(n, rng()).last_round + 1 for n in (2, 3, 4)] == [6, 6, 5]


def test_the_last_round_ends_the_game_without_reinforcements():
    s = make_state(
        hands=["4S", "5S", "9S"],
        operation=6,
        won=[2, 2, 2],
        row=EVENTS_ONLY,
        round=5,
        last_round=5,
        influence=[10, 11, 12],
        bids=[5, 5, 5],
    )
    play(s, "4S", "5S", "9S")
    assert s.is_terminal() and s.scores() == [10.0, 11.0, 12.0]


def test_a_tie_at_the_top_plays_another_round_up_to_three_then_the_win_is_shared():
    s = make_state(
        hands=["4S", "5S", "9S"],
        operation=6,
        won=[2, 2, 2],
        row=EVENTS_ONLY,
        round=5,
        last_round=5,
        influence=[12, 12, 3],
        bids=[5, 5, 5],
    )
    play(s, "4S", "5S", "9S")
    assert not s.is_terminal()
    assert s.extra_rounds == 1 and s.last_round == 6 and s.pending == ["reinforce", 2]
    capped = make_state(
        hands=["4S", "5S", "9S"],
        operation=6,
        won=[2, 2, 2],
        row=EVENTS_ONLY,
        round=8,
        last_round=8,
        extra_rounds=3,
        influence=[12, 12, 3],
        bids=[5, 5, 5],
    )
    play(capped, "4S", "5S", "9S")
    assert capped.is_terminal()
    assert SpytailsGame().final_rewards(capped, "win") == [0.25, 0.25, -0.5]


# -- partnership -------------------------------------------------------------------------------------------
def partnership_end(influence: list[int], **kw):
    s = make_state(
        n=4,
        mode="partnership",
        teams=[0, 1, 0, 1],
        hands=["4S", "5S", "9S", "6S"],
        operation=6,
        won=[2, 2, 1, 1],
        row=EVENTS_ONLY,
        round=4,
        last_round=4,
        influence=influence,
        bids=[5, 5, 5, 5],
        characters=[MIMIC, MIRAGE, ECHO, ALKA],
        **kw,
    )
    play(s, "4S", "5S", "9S", "6S")
    return s


def test_the_team_of_the_single_highest_scorer_wins_partnership_mode():
    s = partnership_end([30, 20, 0, 25])
    assert s.is_terminal()
    game = SpytailsGame()
    assert game.final_rewards(s, "win") == [1.0, -1.0, 1.0, -1.0], "team 1 holds more influence but not the top"
    assert game.final_rewards(s, "rank") == [1.0, -1.0, 1.0, -1.0]
    assert game.final_rewards(s, "score") == pytest.approx([0.25, -0.25, 0.25, -0.25])


def test_partnership_ties_only_matter_across_teams():
    within = partnership_end([30, 20, 30, 25])
    assert within.is_terminal()
    assert SpytailsGame().final_rewards(within, "win") == [1.0, -1.0, 1.0, -1.0]
    across = partnership_end([30, 30, 0, 25])
    assert not across.is_terminal() and across.extra_rounds == 1


def test_partnership_teams_are_random_pairs():
    teams = {tuple(new_game(4, rng(seed), mode="partnership").teams) for seed in range(20)}
    assert all(sorted(t) == [0, 0, 1, 1] for t in teams) and len(teams) > 2
    assert new_game(4, rng(), mode="individual").teams == []
    with pytest.raises(ValueError, match="4 players"):
        new_game(3, rng(), mode="partnership")


def test_chosen_characters_are_a_setup_decision_from_the_start_player():
    s = new_game(3, rng(1), characters="chosen")
    first = s.start
    assert s.pending == ["character", first] and s.hands == [[], [], []]
    assert s.legal_actions() == [("character", c) for c in range(4)]
    act(s, ("character", ECHO))
    assert s.pending == ["character", (first + 1) % 3]
    assert ("character", ECHO) not in s.legal_actions()
    act(s, ("character", ALKA), ("character", MIMIC))
    assert s.characters[first] == ECHO and s.characters[(first + 1) % 3] == ALKA
    assert len(s.hands[(first + 1) % 3]) == 8 and s.pending == ["bid", first]


def test_the_special_deck_holds_71_cards():
    assert len(SPECIAL_DECK) == 71


def test_a_flow_that_never_reaches_a_decision_is_stopped_with_its_state(monkeypatch):
    import numpy as np
    import pytest

    from bidbluff.envs.core.game import EngineLoopError
    from bidbluff.envs.spytails.rules import FLOW_STEPS, SpytailsState, new_game

    state = new_game(3, np.random.default_rng(0))
    monkeypatch.setattr(SpytailsState, "_forecast_flow", lambda self: None)  # a bug: the forecast never ends
    state.pending = []
    stuck = f"Spytails' automatic flow ran past {FLOW_STEPS} steps without stopping; the state: {{"
    stuck += r".*\"game\":\"spytails\""
    with pytest.raises(EngineLoopError, match=stuck):
        state._advance(np.random.default_rng(0))
