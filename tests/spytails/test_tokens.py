"""Regroup and the character powers (the ghost token and Mimic/Mirage's play-time powers: test_operations).

Three seats unless a test says otherwise: seat 0 Mimic, seat 1 Mirage, seat 2 Echo.
A deck's top is its last card.
"""

from __future__ import annotations

from bidbluff.envs.spytails.content import ALKA, ECHO, MIMIC, MIRAGE
from bidbluff.envs.spytails.rules import FORECAST, new_game

from .conftest import act, cards, make_state, one, play, plays, rng, tokens


# -- regroup -------------------------------------------------------------------------------------------
def test_regroup_discards_the_chosen_cards_and_draws_as_many():
    s = make_state(hands=["4S 5S 9C", "6S", "7S"], decks=["4C 5C 6C 7C", "", ""])
    assert "regroup" in tokens(s)
    act(s, ("regroup",))
    assert s.pending == ["regroup", 0] and s.regroup_used[0]
    assert sorted(s.legal_actions()) == sorted(("discard", c) for c in cards("4S 5S 9C")), "confirm needs a card"
    act(s, ("discard", one("4S")), ("discard", one("9C")))
    assert s.selection == cards("4S 9C")
    act(s, ("confirm",))
    assert s.discards[0] == cards("4S 9C")
    assert s.hands[0] == sorted(cards("5S 6C 7C"))
    assert s.decks[0] == cards("4C 5C")
    assert s.pending == ["play", 0] and "regroup" not in tokens(s)


def test_each_copy_is_chosen_once_and_choices_only_add_up():
    s = make_state(hands=["4S alpha alpha", "6S", "7S"], decks=["4C 5C 6C", "", ""])
    alpha = one("alpha")
    act(s, ("regroup",), ("discard", one("4S")))
    assert s.selection == cards("4S")
    assert s.legal_actions() == [("discard", alpha), ("confirm",)], "4S is chosen: no second copy"
    act(s, ("discard", alpha), ("discard", alpha))
    assert s.selection == sorted(cards("4S alpha alpha"))
    assert s.legal_actions() == [("confirm",)]
    act(s, ("confirm",))
    assert s.hands[0] == sorted(cards("4C 5C 6C")) and sorted(s.discards[0]) == sorted(cards("4S alpha alpha"))


def test_alka_draws_one_more_when_regrouping():
    s = make_state(hands=["4S 5S", "6S", "7S"], decks=["4C 5C 6C", "", ""], characters=[ALKA, MIRAGE, ECHO])
    act(s, ("regroup",), ("discard", one("4S")), ("confirm",))
    assert s.hands[0] == sorted(cards("5S 5C 6C"))
    assert s.decks[0] == cards("4C")


def test_an_empty_deck_is_remade_from_the_discard_pile_and_the_hand_becomes_known():
    s = make_state(hands=["4S 5S 6S", "6S", "7S"], discards=["9C", "", ""])
    act(s, ("regroup",), ("discard", one("4S")), ("confirm",))
    assert len(s.hands[0]) == 3 and s.discards[0] == []
    assert sorted(s.hands[0] + s.decks[0]) == sorted(cards("4S 5S 6S 9C"))
    # The table saw 4S join 9C in the pile that became the deck: 5S and 6S are surely in hand.
    assert s.known[0] == cards("5S 6S")
    assert s.pool[0] == sorted(cards("4S 9C")) and s.pool_in_hand[0] == 1


def test_nothing_is_drawn_when_deck_and_discard_are_empty():
    s = make_state(hands=["4S", "6S", "7S"], characters=[ALKA, MIRAGE, ECHO])
    act(s, ("regroup",), ("discard", one("4S")), ("confirm",))
    assert s.hands[0] == cards("4S"), "Alka's second card finds nothing to draw"
    assert s.decks[0] == [] and s.discards[0] == []


def test_regroup_is_open_during_the_forecast():
    s = make_state(phase=FORECAST, hands=["4S 5S", "6S", "7S"], decks=["4C", "", ""])
    assert s.pending == ["bid", 0]
    assert tokens(s) == {"regroup"}, "no ghost in the forecast; Mimic's power is for a card play"
    act(s, ("regroup",), ("discard", one("5S")), ("confirm",))
    assert s.hands[0] == sorted(cards("4S 4C"))
    assert s.pending == ["bid", 0]


# -- the characters ----------------------------------------------------------------------------------------
def test_alka_starts_with_eight_cards():
    for seed in range(5):
        s = new_game(4, rng(seed))
        sizes = [len(h) for h in s.hands]
        alka = s.characters.index(ALKA)
        assert sizes[alka] == 8
        assert sizes.count(7) == 3
        assert sorted(s.characters) == [0, 1, 2, 3]


def test_echo_swaps_a_hand_card_with_a_discard_card():
    s = make_state(hands=["4S", "5S", "9C 10C"], discards=["", "", "KS"])
    play(s, "4S", "5S")
    assert s.characters[2] == ECHO and "power" in tokens(s)
    act(s, ("power",))
    assert s.pending == ["echo_take", 2] and s.legal_actions() == [("echo_take", one("KS"))]
    act(s, ("echo_take", one("KS")))
    assert s.pending == ["echo_give", 2]
    assert {a[1] for a in s.legal_actions()} == set(cards("9C 10C KS"))
    act(s, ("echo_give", one("9C")))
    assert s.hands[2] == sorted(cards("10C KS")) and s.discards[2] == cards("9C")
    assert s.known[2] == cards("KS"), "everyone saw KS go to the hand"
    assert plays(s) == {"KS"}
    play(s, "KS")
    assert s.won == [0, 0, 1]


def test_echo_during_the_forecast_and_not_without_a_discard_pile():
    s = make_state(phase=FORECAST, start=2, hands=["4S", "5S", "9C 10C"], discards=["", "", "KS"])
    assert s.pending == ["bid", 2] and tokens(s) == {"regroup", "power"}
    act(s, ("power",), ("echo_take", one("KS")), ("echo_give", one("10C")))
    assert s.pending == ["bid", 2] and s.hands[2] == sorted(cards("9C KS"))
    empty = make_state(phase=FORECAST, start=2, hands=["4S", "5S", "9C 10C"])
    assert tokens(empty) == {"regroup"}


def test_powers_are_once_a_round():
    s = make_state(hands=["7S 9C 5S", "4S", "8S"], characters=[MIMIC, MIRAGE, ECHO])
    act(s, ("power",))
    play(s, "9C", "4S", "8S")
    assert s.won == [1, 0, 0]
    assert s.pending == ["play", 0] and "power" not in tokens(s)
