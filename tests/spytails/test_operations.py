"""Operations: following suit, who wins, the special ranks and the no-suit specials.

Three seats unless a test says otherwise: seat 0 Mimic, seat 1 Mirage, seat 2
Echo, 10 influence each; seat 0 leads the first operation of round 1.
"""

from __future__ import annotations

from bidbluff.envs.spytails.content import ALKA, CODEBREAKING, ECHO, INTIMIDATION, MIMIC, MIRAGE, STALK
from bidbluff.envs.spytails.rules import DEBRIEFING, GHOST_TOKEN

from .conftest import act, cards, make_state, one, play, plays, tokens


def plain(**kw):
    """Seat 0 Echo (an empty discard pile: no power yet), seat 1 Alka, seat 2 Mimic."""
    kw.setdefault("characters", [ECHO, ALKA, MIMIC])
    return make_state(**kw)


# -- following suit ----------------------------------------------------------------------------
def test_the_leader_plays_any_card_and_an_ace_either_way():
    s = make_state(hands=["7S AC 2I skunk", "4S", "5S"])
    assert plays(s) == {"7S", "AC", "AC low", "2I", "skunk"}


def test_a_seat_holding_the_led_suit_must_follow_but_may_play_no_suit_specials():
    s = make_state(hands=["7S", "4S 9C AI alpha ghost skunk", "10V"])
    play(s, "7S")
    assert plays(s) == {"4S", "alpha", "ghost", "skunk"}


def test_a_seat_without_the_led_suit_plays_anything():
    s = make_state(hands=["7S", "9C AI 3V", "10V"])
    play(s, "7S")
    assert plays(s) == {"9C", "AI", "AI low", "3V"}


def test_intimidation_led_must_be_followed_by_intimidation():
    s = make_state(hands=["5I", "2I 9S KC", "10V"])
    play(s, "5I")
    assert plays(s) == {"2I"}


def test_after_a_no_suit_lead_the_next_card_sets_the_suit():
    for lead in ("alpha", "ghost", "skunk"):
        s = make_state(hands=[lead, "9C 4S", "4C 10S"])
        play(s, lead)
        assert s.led_suit() == -1
        assert plays(s) == {"9C", "4S"}
        play(s, "9C")
        assert s.led_suit() == CODEBREAKING
        assert plays(s) == {"4C"}, lead


def test_mirage_flips_its_token_to_play_off_suit():
    s = make_state(hands=["7S", "4S 9C 5I", "8S"])
    play(s, "7S")
    assert s.characters[1] == MIRAGE
    assert plays(s) == {"4S"}
    assert "power" in tokens(s)
    act(s, ("power",))
    assert s.power_used[1] and s.armed == "mirage"
    assert plays(s) == {"4S", "9C", "5I"}
    assert tokens(s) == set(), "once flipped, the seat must play"
    play(s, "5I", "8S")
    assert s.won == [0, 1, 0], "Mirage's off-suit intimidation trumps the led suit"


def test_mirage_power_is_offered_only_when_it_widens_the_choice():
    all_stalk = make_state(hands=["7S", "4S 5S", "8S"])
    play(all_stalk, "7S")
    assert "power" not in tokens(all_stalk)
    void = make_state(hands=["7S", "9C 5I", "8S"])
    play(void, "7S")
    assert "power" not in tokens(void)
    leading = make_state(hands=["7S", "9C 5I", "8S"], leader=1)
    assert "power" not in tokens(leading)


# -- who wins ---------------------------------------------------------------------------------
def test_highest_card_of_the_led_suit_wins_even_against_higher_off_suit_cards():
    s = plain(hands=["4S", "10C", "5S"])
    play(s, "4S", "10C", "5S")
    assert s.won == [0, 0, 1]
    assert s.leader == 2, "the winner leads the next operation"


def test_any_intimidation_beats_the_led_suit_and_the_highest_intimidation_wins():
    s = plain(hands=["7S", "2I", "10S"])
    play(s, "7S", "2I", "10S")
    assert s.won == [0, 1, 0]
    s = plain(hands=["7S", "2I", "4I"])
    play(s, "7S", "2I", "4I")
    assert s.won == [0, 0, 1]


def test_equal_winning_cards_the_earlier_one_wins():
    s = plain(hands=["7S", "7S", "4S"])
    play(s, "7S", "7S", "4S")
    assert s.won == [1, 0, 0]
    s = plain(hands=["4S", "KI", "KI"])
    play(s, "4S", "KI", "KI")
    assert s.won == [0, 1, 0]
    s = plain(hands=["4S", "9C", "9C"], leader=1)
    play(s, "9C", "9C", "4S")
    assert s.won == [0, 1, 0]


def test_ace_high_is_fourteen():
    s = plain(hands=["KS", "AS", "4S"])
    play(s, "KS", "AS", "4S")
    assert s.won == [0, 1, 0]


def test_ace_low_is_one_and_costs_the_winner_one_influence():
    s = plain(hands=["4S", "AS", "5S"])
    play(s, "4S", "AS low", "5S")
    assert s.won == [0, 0, 1]
    assert s.influence == [10, 10, 9], "the winner pays 1 for the low ace"
    assert s.round_ops[0][1][1] == [1, one("AS"), 1, 0]


def test_shrews_cost_the_winner_one_influence_each():
    s = plain(hands=["9S", "2S", "3S"])
    play(s, "9S", "2S", "3S")
    assert s.won == [1, 0, 0]
    assert s.influence == [8, 10, 10]


def test_a_shrew_with_no_influence_left_takes_leverage():
    s = plain(hands=["9S", "2S", "3S"], influence=[0, 10, 10])
    play(s, "9S", "2S", "3S")
    assert s.leverage == [1, 0, 0] and s.leverage_supply == 5
    assert s.influence[0] == 3  # 0, leverage +5, then two shrews


def test_king_gains_one_influence_before_shrews_are_paid():
    s = plain(hands=["KS", "4S", "5S"])
    play(s, "KS", "4S", "5S")
    assert s.influence == [11, 10, 10]
    broke = plain(hands=["KS", "2S", "5S"], influence=[0, 10, 10])
    play(broke, "KS", "2S", "5S")
    assert broke.influence[0] == 0 and broke.leverage == [0, 0, 0], "K's +1 pays the shrew: no leverage"


def test_queen_draws_a_card_and_alka_draws_two():
    s = plain(hands=["QS", "4S", "5S"], decks=["4C 5C", "", ""])
    play(s, "QS", "4S", "5S")
    assert s.hands[0] == cards("5C")
    assert s.decks[0] == cards("4C")
    alka = make_state(hands=["QS", "4S", "5S"], decks=["4C 5C 6C", "", ""], characters=[ALKA, ECHO, MIMIC])
    play(alka, "QS", "4S", "5S")
    assert alka.hands[0] == sorted(cards("5C 6C"))
    assert alka.decks[0] == cards("4C")


def test_jack_refreshes_the_winners_regroup_token():
    s = plain(hands=["JS", "4S", "5S"], regroup_used=[True, True, True])
    play(s, "JS", "4S", "5S")
    assert s.regroup_used == [False, True, True]


# -- no-suit specials ------------------------------------------------------------------------------
def test_the_first_alpha_strike_wins_over_everything():
    s = plain(hands=["7S", "10I", "alpha"])
    play(s, "7S", "10I", "alpha")
    assert s.won == [0, 0, 1]
    s = plain(hands=["7S", "alpha", "alpha"])
    play(s, "7S", "alpha", "alpha")
    assert s.won == [0, 1, 0]
    s = plain(hands=["alpha", "AI", "9C"])
    play(s, "alpha", "AI", "9C")
    assert s.won == [1, 0, 0]


def test_ghost_move_always_loses():
    s = plain(hands=["ghost", "4S", "3S"])
    play(s, "ghost", "4S", "3S")
    assert s.won == [0, 1, 0]
    assert s.influence == [10, 9, 10], "seat 1 won the 3S shrew"


def test_skunk_bomb_has_no_winner_and_the_same_leader_leads_again():
    s = plain(hands=["2S 8C", "skunk 8S", "4S 9C alpha"])
    play(s, "2S", "skunk")
    assert plays(s) == {"4S", "alpha"}, "after a Skunk Bomb the others must still play legally"
    play(s, "alpha")
    assert s.won == [0, 0, 0] and s.operation == 1
    assert s.leader == 0 and s.pending == ["play", 0]
    assert s.influence == [10, 10, 10], "no winner pays the shrew"
    assert s.discards == [cards("2S"), cards("skunk"), cards("alpha")]
    assert s.round_ops == [[-1, [[0, one("2S"), 0, 0], [1, one("skunk"), 0, 0], [2, one("alpha"), 0, 0]]]]


def test_leading_a_skunk_bomb():
    s = plain(hands=["skunk 8C", "9C 4S", "4C 10S"])
    play(s, "skunk", "9C")
    assert plays(s) == {"4C"}
    play(s, "4C")
    assert s.won == [0, 0, 0] and s.leader == 0


def test_an_operation_with_no_suited_card_has_no_winner():
    s = plain(hands=["ghost 4C", "4S 5S", "4S 6S"])
    play(s, "ghost")
    act(s, ("ghost",), ("ghost",))
    assert s.won == [0, 0, 0] and s.leader == 0 and s.operation == 1


# -- the ghost token ---------------------------------------------------------------------------------
def test_ghost_token_pays_one_and_skips_the_operation():
    s = plain(hands=["4S 5S", "10S 9S", "3S 6S"])
    play(s, "4S")
    assert "ghost" in tokens(s)
    act(s, ("ghost",))
    assert s.influence[1] == 9 and s.ghost_used[1]
    assert s.hands[1] == cards("9S 10S")
    assert s.trick[-1] == [1, GHOST_TOKEN, 0, 0]
    play(s, "3S")
    assert s.won == [1, 0, 0], "a ghosting seat cannot win"
    assert s.influence == [9, 9, 10], "seat 0 won the 3S shrew"
    play(s, "5S")
    assert "ghost" not in tokens(s), "once a round"


def test_ghost_token_needs_influence_and_the_leader_may_ghost():
    s = plain(hands=["4S 5S", "10S 9S", "3S 6S"], influence=[1, 0, 10])
    assert "ghost" in tokens(s)
    act(s, ("ghost",))
    assert s.influence[0] == 0
    assert "ghost" not in tokens(s), "no influence: no ghost token (leverage is never optional)"
    play(s, "9S")
    assert s.led_suit() == STALK


# -- Mimic -----------------------------------------------------------------------------------------------
def test_mimic_makes_its_card_intimidation_when_leading():
    s = make_state(hands=["7S 9C", "2I 10S", "KS"])
    assert s.characters[0] == MIMIC and "power" in tokens(s)
    act(s, ("power",))
    assert plays(s) == {"7S", "9C"}
    play(s, "7S")
    assert s.trick[0] == [0, cards("7S")[0], 0, 1]
    assert s.led_suit() == INTIMIDATION
    assert plays(s) == {"2I"}, "a mimicked lead is intimidation: intimidation must follow"
    play(s, "2I", "KS")
    assert s.won == [1, 0, 0]
    assert s.discards[0] == cards("7S"), "the card itself is unchanged"


def test_mimic_only_where_intimidation_may_be_played():
    must_follow = make_state(hands=["9S 10C", "2I", "4S"], leader=2, characters=[MIMIC, ALKA, ECHO])
    play(must_follow, "4S")
    assert must_follow.pending == ["play", 0]
    assert "power" not in tokens(must_follow), "Mimic holds the led suit: it must follow"
    void = make_state(hands=["10C KV", "2I", "4S"], leader=2, characters=[MIMIC, ALKA, ECHO])
    play(void, "4S")
    act(void, ("power",))
    assert plays(void) == {"10C", "KV"}
    play(void, "10C", "2I")
    assert void.won == [1, 0, 0], "a mimicked 10 beats the 2I"
    only_intimidation = make_state(hands=["5I", "2I", "4S"], characters=[MIMIC, ALKA, ECHO])
    assert "power" not in tokens(only_intimidation)


def test_the_seventh_operation_ends_the_phase_and_unplayed_cards_are_discarded():
    s = plain(hands=["4S 9V", "5S", "6S"], operation=6, won=[2, 2, 2])
    play(s, "4S", "5S", "6S")
    assert s.phase == DEBRIEFING
    assert s.hands == [[], [], []]
    assert sorted(s.discards[0]) == sorted(cards("4S 9V"))
    assert s.reinforce_first == 2, "the final operation's winner reinforces first"
    assert s.pending == ["reinforce", 2]
