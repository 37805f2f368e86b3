"""Hidden information: what each seat sees, and what ``resample_hidden`` may redraw."""

from __future__ import annotations

from collections import Counter

import numpy as np

from bidbluff.envs.spytails.codec import OBSERVATION_SIZE, SEAT_AT, SEAT_SIZE, encode
from bidbluff.envs.spytails.content import ALKA, ECHO, MIMIC, MIRAGE, STALK
from bidbluff.envs.spytails.rules import FORECAST, new_game

from .conftest import act, cards, make_state, one, play, rng


def test_other_hands_and_the_hand_deck_split_are_not_observed():
    s = make_state(hands=["4S 5S", "6S 7S", "8S 9S"], decks=["", "10S 4C 5C", ""])
    other = s.clone()
    other.hands[1], other.decks[1] = sorted(cards("10S 4C")), cards("6S 7S 5C")
    other.validate()
    assert np.array_equal(encode(s, 0), encode(other, 0))
    assert np.array_equal(encode(s, 2), encode(other, 2))
    assert not np.array_equal(encode(s, 1), encode(other, 1))


def test_resample_redraws_other_hands_from_their_hidden_cards_and_every_deck_order():
    s = make_state(hands=["4S 5S", "6S 7S", "8S 9S"], decks=["4C 5C 6C 7C", "10S 4C 5C", "4C"])
    seen_hands, own_orders = set(), set()
    for seed in range(30):
        r = s.resample_hidden(0, rng(seed))
        assert r.hands[0] == s.hands[0] and sorted(r.decks[0]) == sorted(s.decks[0])
        for o in (1, 2):
            assert len(r.hands[o]) == 2
            assert sorted(r.hands[o] + r.decks[o]) == sorted(s.hands[o] + s.decks[o])
        assert r.discards == s.discards and r.display == s.display
        seen_hands.add(tuple(r.hands[1]))
        own_orders.add(tuple(r.decks[0]))
    assert len(seen_hands) > 3 and len(own_orders) > 3


def test_a_card_echo_takes_back_stays_known_in_its_hand():
    s = make_state(hands=["4S", "5S", "9C 10C"], decks=["", "", "4C 5C"], discards=["", "", "KS"])
    play(s, "4S", "5S")
    act(s, ("power",), ("echo_take", one("KS")), ("echo_give", one("9C")))
    for seed in range(20):
        r = s.resample_hidden(0, rng(seed))
        assert one("KS") in r.hands[2] and len(r.hands[2]) == 2
        assert sorted(r.hands[2] + r.decks[2]) == sorted(cards("10C KS 4C 5C"))


def test_hidden_simultaneous_forecasts_are_redrawn_for_the_others_only():
    s = make_state(phase=FORECAST, forecast_mode="simultaneous", hands=["4S", "5S", "6S"])
    act(s, ("bid", 3), ("stake", 4))
    bids = set()
    for seed in range(30):
        r = s.resample_hidden(1, rng(seed))
        assert r.influence[0] + r.stakes[0] == 10 and 1 <= r.stakes[0] <= 10
        bids.add(r.bids[0])
    assert len(bids) > 1
    own = s.resample_hidden(0, rng())
    assert own.bids[0] == 3 and own.stakes[0] == 4


def test_a_regroup_selection_is_private_until_confirmed():
    s = make_state(hands=["4S 5S 6S", "7S", "8S"])
    act(s, ("regroup",), ("discard", one("4S")))
    other = s.clone()
    other.selection = cards("5S")
    assert np.array_equal(encode(s, 1), encode(other, 1))
    assert not np.array_equal(encode(s, 0), encode(other, 0))
    sizes = set()
    for seed in range(10):
        r = s.resample_hidden(1, rng(seed))
        assert not Counter(r.selection) - Counter(r.hands[0])
        sizes.add(len(r.selection))
    assert len(sizes) > 1, "the selection size is private too"


def test_a_resample_depends_only_on_the_seats_information():
    s = make_state(hands=["4S 5S", "6S 7S", "8S 9S"], decks=["4C 5C 6C 7C", "10S 4C 5C", "4C"], special_known=2)
    for seat in range(3):
        twin = s.resample_hidden(seat, rng(1))
        assert twin.to_dict() != s.to_dict()
        assert s.resample_hidden(seat, rng(2)).to_dict() == twin.resample_hidden(seat, rng(2)).to_dict()


def test_a_seat_that_does_not_follow_shows_a_void_until_it_draws():
    s = make_state(
        hands=["4S 5S", "9C 10C", "6S 7S"], decks=["", "4S 5S 6S 7S 8S", ""], characters=[ECHO, ALKA, MIRAGE]
    )
    play(s, "4S", "9C")
    assert s.voids == [[], [STALK], []]
    assert encode(s, 0)[SEAT_SIZE + SEAT_AT["voids"] + STALK] == 1
    for seed in range(20):
        r = s.resample_hidden(0, rng(seed))
        assert r.hands[1] == cards("10C"), "the only card of its pool that is not Stalk"
    play(s, "6S", "7S", "5S")
    assert s.pending == ["play", 1]
    act(s, ("regroup",), ("discard", one("10C")), ("confirm",))
    assert s.voids[1] == [], "a drawn card may be of any suit"


def test_a_flipped_mimic_keeps_a_card_it_can_mimic_in_every_resample():
    s = make_state(hands=["4S", "9C 4I 5I", "8S"], decks=["", "10I 6I 7I", ""], characters=[ECHO, MIMIC, ALKA])
    play(s, "4S")
    act(s, ("power",))
    assert s.voids[1] == [STALK]
    for seed in range(20):
        r = s.resample_hidden(2, rng(seed))
        assert r.mimic_cards(1) == cards("9C") and r.legal_actions() == [("play", one("9C"))]


def test_known_bottom_of_the_special_deck_is_kept_the_rest_is_shuffled():
    s = make_state(hands=["4S", "5S", "6S"], special_known=3)
    orders = set()
    for seed in range(10):
        r = s.resample_hidden(1, rng(seed))
        assert r.special_deck[:3] == s.special_deck[:3]
        assert sorted(r.special_deck) == sorted(s.special_deck)
        orders.add(tuple(r.special_deck[3:]))
    assert len(orders) > 1


def test_one_observation_shape_for_every_table_with_empty_padding():
    for n in (2, 3, 4):
        s = new_game(n, rng(n))
        obs = encode(s, 0)
        assert obs.shape == (OBSERVATION_SIZE,) and obs.dtype == np.float32
        assert obs.min() >= 0 and obs.max() <= 1
        assert not obs[n * SEAT_SIZE : 4 * SEAT_SIZE].any()
        hand = obs[SEAT_AT["hand"] : SEAT_AT["hand"] + 55]
        assert np.array_equal(np.flatnonzero(hand), sorted(set(s.hands[0])))
