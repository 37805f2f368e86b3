"""Hidden information: the sunrise pick and the Surgeon's revival."""

from __future__ import annotations

from bidbluff.envs.libertalia.codec import SEAT_AT, SEAT_SIZE, encode
from bidbluff.envs.libertalia.content import CHARACTERS, NUM_RANKS, Rank

from .conftest import act, make_state, play, rng

SPARE = Rank.SPANISH_GOVERNOR


def test_sunrise_pick_is_hidden_until_everyone_has_chosen():
    s = make_state(hands=[[3, 7, 16, 20], [3, 7, 16, 20], [3, 7, 16, 20]])
    play(s, 16)
    assert s.chosen == [16, 0, 0] and s.pending == ["play", 1]
    seen = set()
    for seed in range(40):
        view = s.resample_hidden(1, rng(seed))
        assert view.chosen[0] in s.hands[0]
        assert view.chosen[1:] == [0, 0]
        seen.add(view.chosen[0])
    assert len(seen) > 1  # another seat's pick may be redrawn
    # The seat's own pick is never redrawn in its own view.
    assert {s.resample_hidden(0, rng(seed)).chosen[0] for seed in range(10)} == {16}
    # Red's observation is the same whatever Yellow chose.
    other = s.clone()
    other.chosen[0] = 3
    assert (encode(s, 1) == encode(other, 1)).all()
    assert not (encode(s, 0) == encode(other, 0)).all()


def test_picks_are_public_once_revealed():
    s = make_state(hands=[[16, SPARE], [20], [3]], booty_days={0: [0, 0, 1, 0, 0, 0, 0]})
    play(s, 16, 20, 3)
    assert s.pending == ["booty", 1]
    for seed in range(10):
        assert s.resample_hidden(2, rng(seed)).ship == [[2, 3], [0, 16], [1, 20]]


def test_surgeons_revival_is_hidden_from_the_others_but_known_to_its_owner():
    s = make_state(hands=[[22, 8, SPARE], [16, 18], []], discards=[[4, 7], [], []])
    play(s, 22, 16)
    act(s, ("surgeon", 7))
    # The owner knows.
    assert s.hands[0] == [7, 8, SPARE]
    assert s.discards[0] == [4]
    # The others know that one of 4 and 7 came back, not which.
    assert s.known_hand(0) == [8, SPARE]
    assert s.known_discard(0) == []
    assert s.possible_hand(0) == [4, 7, 8, SPARE]
    assert s.hidden_count(0) == 1
    private = [text for reader, text in s.log if reader == 0]
    public = [text for reader, text in s.log if reader == -1]
    assert any("Surgeon" in t for t in public)
    assert not any("Barkeep" in t for t in public)
    assert any("Barkeep" in t for t in private)
    # Another seat's view redraws which card came back.
    backs = set()
    for seed in range(30):
        view = s.resample_hidden(1, rng(seed))
        back = set(view.hands[0]) - {8, SPARE}
        assert len(back) == 1 and back <= {4, 7}
        assert sorted(view.discards[0] + list(back)) == [4, 7]
        assert all(entry[0] in (-1, 1) for entry in view.log)
        backs |= back
    assert backs == {4, 7}
    # The owner's own view is exact.
    own = s.resample_hidden(0, rng(1))
    assert own.hands[0] == [7, 8, SPARE] and own.discards[0] == [4]
    # The observation of seat 1 marks both as possible and one unseen card.
    obs = encode(s, 1)
    base = 2 * SEAT_SIZE  # seat 0 seen from seat 1 is two seats along
    assert obs[base + SEAT_AT["hand"] + 4 - 1] == 1 and obs[base + SEAT_AT["hand"] + 7 - 1] == 1
    assert obs[base + SEAT_AT["discard"] + 4 - 1] == 0
    assert obs[base + SEAT_AT["unseen"]] > 0


def test_playing_the_revived_card_reveals_it():
    s = make_state(hands=[[22, SPARE], [16, 18], []], discards=[[4, 7], [], []])
    play(s, 22, 16)
    act(s, ("surgeon", 7))
    assert s.hidden_count(0) == 1
    play(s, 7, 18)
    assert s.hidden_count(0) == 0
    assert s.known_discard(0) == [4]
    assert s.possible_hand(0) == [SPARE]


def test_positions_the_engine_cannot_play_are_refused():
    import numpy as np
    import pytest

    from bidbluff.envs.libertalia.rules import LibertaliaState, new_game

    data = new_game(3, np.random.default_rng(0)).to_dict()
    for bad, match in (
        ({"pending": []}, "^pending: .* empty exactly when"),
        ({"pending": ["recruit", 0]}, "^pending: 'recruit' is not a decision of the sunrise phase"),
        ({"chosen": [31, 0, 0]}, r"^chosen\[0\]: 31 is not a rank \(or 0\) 0..30"),
        ({"chosen": [1, 0, 0]} if 1 not in data["hands"][0] else {"chosen": [0, 0, 0, 0]}, "^chosen"),
        ({"phase": "night"}, "^phase: 'night' \\(string\\) is not a phase: 'sunrise', "),
        ({"bag": [4, 6, 10, 8, 10, 6, -1]}, r"^bag\.officer: -1 is not a count of officer 0..6"),
        ({"num_players": 10**9}, "^num_players: 1000000000 is not a table of 2..6"),
        ({"hands": [[1, 1], [], []]}, r"^hands\[0\]: seat 0's cards: rank 1 appears 2 times"),
        ({"undealt": "all"}, "^undealt: 'all' .* is not a list"),
    ):
        with pytest.raises(ValueError, match=match):
            LibertaliaState.from_dict({**data, **bad})


def test_the_last_reveal_is_read_from_the_public_log_until_the_next():
    s = make_state(hands=[[16, 3, SPARE], [20, 7], [3, 12]], booty_days={0: [0, 0, 1, 0, 0, 0, 0]})
    assert s.last_reveal() == (None, {})
    play(s, 16, 20, 3)
    # the cards as they were turned over, before any of them acted
    assert s.last_reveal() == ((0, 0), {0: 16, 1: 20, 2: 3})
    view = s.resample_hidden(2, rng(0))
    assert view.last_reveal() == s.last_reveal()  # every seat sees it
    while s.phase != "sunrise":
        act(s, s.legal_actions()[0])
    assert s.day == 1
    assert s.last_reveal() == ((0, 0), {0: 16, 1: 20, 2: 3})  # the day before's, until the next reveal
    play(s, 3, 7, 12)
    assert s.last_reveal() == ((0, 1), {0: 3, 1: 7, 2: 12})


def test_every_character_name_reads_back_from_the_reveal():
    for rank in range(1, NUM_RANKS + 1):
        other, spare = (3 if rank != 3 else 4), (SPARE if rank != SPARE else SPARE - 1)
        s = make_state(hands=[[rank, spare], [other, spare], [other, spare]])  # spares: the day ends at a sunrise
        play(s, rank, other, other)
        assert s.last_reveal()[1][0] == rank, CHARACTERS[rank]
