"""Setup: the first-game layouts, the collaborative map, the 3-2-1 card draft, the components."""

from __future__ import annotations

from collections import Counter

import numpy as np
import numpy.testing as npt
import pytest

from bidbluff.envs.lying_pirates.content import CARDS, DECK_SIZE, MAP_WATERS, TILES
from bidbluff.envs.lying_pirates.encoder import encode
from bidbluff.envs.lying_pirates.setup import new_game
from bidbluff.envs.lying_pirates.state import LyingPiratesState

RULEBOOK_FIRST_GAME = [
    "Start/End", "Recruit Crew", "Steal a Crewmember", "Pirate King", "Caught by the Navy", "Gamble",
    "Change of Wind", "Duel", "Fire your Cannons", "Mutiny", "Kraken", "Broken Compass",
]  # fmt: skip


def all_cards(state: LyingPiratesState) -> Counter:
    return Counter(state.deck + state.discard + state.phantom_pile + [k for h in state.hands for k in h])


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_components_dealt(n):
    state = new_game(n, np.random.default_rng(n))
    assert len(TILES) == 25 and DECK_SIZE == 83
    assert all_cards(state) == Counter({k: c.count for k, c in enumerate(CARDS)})
    assert [len(h) for h in state.hands[:n]] == [6] * n
    assert state.crews.crew == [5] * state.captains and state.crews.bag == 50 - 5 * state.captains
    assert state.coins == [2] * state.captains and state.progress == [0] * state.captains
    assert 0 <= state.token < n and state.direction == 1
    assert state.phase == "betting" and state.pending[0] == "bet"


def test_first_game_layout_is_the_rulebooks():
    state = new_game(4, np.random.default_rng(0))
    assert [TILES[t].name for t in state.slots] == RULEBOOK_FIRST_GAME
    # sailing order: three waters, each tile in its own water
    assert [TILES[t].water for t in state.slots] == list(MAP_WATERS["base"])


def test_extended_map():
    state = new_game(3, np.random.default_rng(0), map="extended")
    assert len(state.slots) == 16 and len(set(state.slots)) == 16
    assert [TILES[t].water for t in state.slots] == list(MAP_WATERS["extended"])
    assert [TILES[t].name for t in state.slots if TILES[t].name in RULEBOOK_FIRST_GAME] == RULEBOOK_FIRST_GAME
    assert [len(h) for h in state.hands] == [7, 7, 7]


def test_bad_options_are_refused():
    with pytest.raises(ValueError):
        new_game(3, np.random.default_rng(0), map="huge")
    with pytest.raises(ValueError):
        new_game(3, np.random.default_rng(0), map_setup="random")


# The collaborative map --------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "map_name"), [(2, "base"), (3, "base"), (4, "extended"), (5, "base"), (6, "extended")])
def test_collaborative_map(n, map_name):
    rng = np.random.default_rng(10 + n)
    state = new_game(n, rng, map=map_name, map_setup="collaborative")
    base = next(t for t, tile in enumerate(TILES) if tile.name == "Start/End")
    dealt = [list(tiles) for tiles in state.placing.tiles]
    sizes = [len(t) for t in dealt]
    sizes[state.token] += 1  # the Base tile, already placed
    assert sum(sizes) == 25 and max(sizes) - min(sizes) <= 1  # dealt as evenly as possible
    assert sorted(sum(dealt, [base])) == list(range(25))
    # whoever was dealt the Base takes the token clockwise side up; the Base is the map's first slot
    assert state.direction == 1 and state.slots[0] == base and state.slots[1:] == [-1] * (len(state.slots) - 1)
    waters = MAP_WATERS[map_name]
    previous = state.token  # placing the Base was the holder's turn

    def can_place(seat):
        return any(
            state.slots[s] == -1 and waters[s] == TILES[t].water
            for t in state.placing.tiles[seat]
            for s in range(len(state.slots))
        )

    while state.stage == "place":
        # clockwise from the last placer, passing over anyone with no tile that fits an empty slot
        clockwise = [(previous + i) % n for i in range(1, n + 1)]
        assert state.pending == ["place", next(s for s in clockwise if can_place(s))]
        seat = state.pending[1]
        legal = state.legal_actions()
        assert {(t, s) for _, t, s in legal} == {
            (t, s)
            for t in state.placing.tiles[seat]
            for s in range(len(state.slots))
            if state.slots[s] == -1 and waters[s] == TILES[t].water
        }
        action = legal[int(rng.integers(len(legal)))]
        state.apply(action, rng)
        assert state.slots[action[2]] == action[1]
        previous = seat
    assert -1 not in state.slots and len(set(state.slots)) == len(state.slots)
    assert [TILES[t].water for t in state.slots] == list(waters)
    assert state.placing is None and state.phase == "betting"


def test_collaborative_map_before_the_draft():
    rng = np.random.default_rng(3)
    state = new_game(3, rng, map_setup="collaborative", draft=True)
    while state.stage == "place":
        state.apply(state.legal_actions()[0], rng)
    assert state.pending[0] == "draft"


# The 3-2-1 draft ---------------------------------------------------------------------------------------


def draft_game(seed: int = 4, n: int = 3) -> LyingPiratesState:
    state = new_game(n, np.random.default_rng(seed), draft=True)
    assert state.stage == "draft" and state.pending == ["draft", 0]
    return state


def pick(state: LyingPiratesState, *kinds: int) -> None:
    for k in kinds:
        assert ("pick", k) in state.legal_actions()
        state.apply(("pick", k), np.random.default_rng(0))


def test_draft_picks_are_hidden_until_everyone_chose():
    a, b = draft_game(), draft_game()
    hand = list(a.hands[0])
    assert a.legal_actions() == [("pick", k) for k in sorted(set(hand))]
    pick(a, *hand[:3])
    pick(b, *hand[-3:])
    assert a.pending == b.pending == ["draft", 1]
    assert a.hands == b.hands and a.hands[0] == hand  # nothing has moved yet
    for seat in (1, 2):
        npt.assert_array_equal(encode(a, seat), encode(b, seat))
    assert not np.array_equal(encode(a, 0), encode(b, 0))  # the picker sees its own picks


def test_a_picked_card_cannot_be_picked_twice():
    state = draft_game()
    hand = state.hands[0]
    single = next(k for k in hand if hand.count(k) == 1)
    pick(state, single)
    assert ("pick", single) not in state.legal_actions()


def test_three_then_two_then_one_cards_pass_clockwise_and_the_passer_knows_them():
    state = draft_game()
    n = 3
    for size in (3, 2, 1):
        before = [list(h) for h in state.hands]
        picks = []
        for seat in range(n):
            assert state.pending == ["draft", seat]
            chosen = before[seat][:size]
            pick(state, *chosen)
            picks.append(chosen)
        for seat in range(n):
            giver = (seat - 1) % n
            expected = Counter(before[seat]) - Counter(picks[seat]) + Counter(picks[giver])
            assert Counter(state.hands[seat]) == expected
            assert len(state.hands[seat]) == 6
            if size == 3:
                known = Counter({k: c for k, c in enumerate(state.known[giver][seat]) if c})
                assert known == Counter(picks[giver])
                assert sum(state.known[(seat + 1) % n][seat]) == 0  # the others know nothing of this hand
    assert state.draft is None and state.phase == "betting" and state.pending[0] == "bet"


def test_knowledge_fades_when_the_receiver_passes_the_card_on():
    state = draft_game()
    first = [list(state.hands[s][:3]) for s in range(3)]
    for seat in range(3):
        pick(state, *first[seat])
    received = first[0][0]  # seat 1 received it from seat 0 and passes it on to seat 2
    own = state.hands[1].count(received)
    pick(state, *state.hands[0][:2])
    others = [k for k in state.hands[1] if k != received][:1]
    pick(state, received, *others)
    assert state.known[0][1][received] == Counter(first[0])[received]  # not yet: seat 2 has not chosen
    pick(state, *state.hands[2][:2])
    assert state.known[0][1][received] == min(Counter(first[0])[received], own - 1)
    assert state.known[1][2][received] >= 1


def test_two_player_draft_is_between_the_players():
    state = draft_game(seed=9, n=2)
    for size in (3, 2, 1):
        for seat in (0, 1):
            assert state.pending == ["draft", seat]
            pick(state, *state.hands[seat][:size])
    assert state.hands[2] == [] and len(state.phantom_pile) == 6 and state.phase == "betting"
