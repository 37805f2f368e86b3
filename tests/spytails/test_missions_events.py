"""Every mission (a data row with a predicate over the public round record) and every event
(a rule change for the round it is in force)."""

from __future__ import annotations

from bidbluff.envs.spytails.content import ALKA, ECHO, EVENTS, MIMIC, MISSIONS, ROW_CARDS, round_rules
from bidbluff.envs.spytails.rules import FORECAST, GHOST_TOKEN

from .conftest import act, make_state, one, play, tokens


def row_card(name: str) -> int:
    return next(i for i, c in enumerate(ROW_CARDS) if c.name == name)


def met(state, name: str) -> list[int]:
    """Seats that meet the mission ``name`` on the state's round record."""
    mission = MISSIONS[row_card(name)]
    table = tuple(state.seat_round(s) for s in range(state.num_players))
    return [s for s in range(state.num_players) if mission.test(table[s], table)]


def p(seat: int, word: str, low: int = 0, mimic: int = 0) -> list[int]:
    return [seat, GHOST_TOKEN if word == "token" else one(word), low, mimic]


def finished_round(round_ops, bids=(2, 2, 2)):
    won = [sum(w == s for w, _ in round_ops) for s in range(3)]
    return make_state(hands=["4S", "5S", "6S"], round_ops=round_ops, operation=len(round_ops), won=won, bids=list(bids))


# -- missions ----------------------------------------------------------------------------------------------
def simple_ops(winners: list[int]) -> list:
    return [[w, [p(w, "9S")] if w >= 0 else [p(0, "skunk")]] for w in winners]


def test_missions_on_operation_counts():
    s = finished_round(simple_ops([0, 0, 0, 0, 1, 1, -1]))
    assert s.won == [4, 2, 0]
    assert met(s, "Double Agent") == [1]
    assert met(s, "Doppelganger") == []
    assert met(s, "Lie Low") == [2]
    assert met(s, "Mastermind") == [0]
    assert met(s, "Opening Gambit") == [0]
    assert met(s, "Last Word") == [], "the seventh operation had no winner"
    s = finished_round(simple_ops([1, 0, 0, 1, 2, -1, 2]))
    assert s.won == [2, 2, 2]
    assert met(s, "Doppelganger") == [0, 1, 2]
    assert met(s, "Double Agent") == [0, 1, 2]
    assert met(s, "Opening Gambit") == [1]
    assert met(s, "Last Word") == [2]
    s = finished_round(simple_ops([1, 0, 0, 1, 2, 2, 2]))
    assert met(s, "Doppelganger") == [0, 1], "seat 2 won three: nobody matches it"


def test_missions_on_the_cards_of_the_round():
    ops = [
        [0, [p(0, "KS"), p(1, "4S"), p(2, "5S")]],
        [0, [p(0, "7C"), p(1, "3C"), p(2, "token")]],
        [1, [p(0, "4V"), p(1, "5V", mimic=1), p(2, "6V")]],
        [1, [p(1, "alpha"), p(2, "9S"), p(0, "ghost")]],
        [-1, [p(1, "skunk"), p(2, "10S"), p(0, "8S")]],
        [1, [p(1, "10C"), p(2, "4C"), p(0, "5C")]],
        [2, [p(1, "9V"), p(2, "QI"), p(0, "4V")]],
    ]
    s = finished_round(ops, bids=(2, 3, 0))
    assert s.won == [2, 3, 1]
    assert met(s, "Heavy Hand") == [1, 2], "a mimicked card counts as intimidation"
    assert met(s, "Royal Seal") == [0, 2]
    assert met(s, "Underdog") == [1], "an Alpha Strike has no value; 10C is too high"
    assert met(s, "Shrew Wrangler") == [0]
    assert met(s, "Ghost Protocol") == [0, 2], "a Ghost Move card or the ghost token"
    assert met(s, "Sure Thing") == [1], "seat 0 met a forecast of 2 only"
    low_ace = finished_round([[2, [p(2, "AS", low=1), p(0, "9C"), p(1, "9V")]]])
    assert met(low_ace, "Underdog") == [2] and met(low_ace, "Shrew Wrangler") == [2]
    high_ace = finished_round([[2, [p(2, "AS"), p(0, "9C"), p(1, "9V")]]])
    assert met(high_ace, "Underdog") == [] and met(high_ace, "Shrew Wrangler") == []


def test_twelve_missions_and_eight_events():
    assert len(MISSIONS) == 12 and len(EVENTS) == 8
    assert len({c.name for c in ROW_CARDS}) == 20


# -- events ----------------------------------------------------------------------------------------------------
def test_radio_silence_no_ghost_tokens():
    s = make_state(hands=["4S", "5S", "6S"], row=[row_card("Radio Silence"), 0, 2])
    assert "ghost" not in tokens(s) and "regroup" in tokens(s)
    assert "ghost" in tokens(make_state(hands=["4S", "5S", "6S"]))


def test_frozen_assets_no_regroup():
    s = make_state(hands=["4S", "5S", "6S"], row=[0, row_card("Frozen Assets"), 2])
    assert "regroup" not in tokens(s)
    forecast = make_state(phase=FORECAST, hands=["4S", "5S", "6S"], row=[0, row_card("Frozen Assets"), 2])
    assert tokens(forecast) == set()


def test_blackout_no_power_tokens_but_alka_still_draws_one_more():
    row = [0, 2, row_card("Blackout")]
    s = make_state(hands=["4S", "5S", "9C 10C"], discards=["", "", "KS"], row=row)
    play(s, "4S", "5S")
    assert "power" not in tokens(s)
    alka = make_state(hands=["QS", "4S", "5S"], decks=["4C 5C 6C", "", ""], characters=[ALKA, ECHO, MIMIC], row=row)
    play(alka, "QS", "4S", "5S")
    assert len(alka.hands[0]) == 2


def test_martial_law_intimidation_is_no_trump():
    row = [0, 2, row_card("Martial Law")]
    s = make_state(hands=["7S", "10I", "8S"], row=row)
    play(s, "7S", "10I", "8S")
    assert s.won == [0, 0, 1]
    led = make_state(hands=["4I", "10S", "5I"], row=row)
    play(led, "4I", "10S", "5I")
    assert led.won == [0, 0, 1], "led intimidation still wins as the led suit"


def test_double_cross_the_lowest_card_wins():
    row = [0, 2, row_card("Double Cross")]
    s = make_state(hands=["9S", "4S", "5S"], row=row)
    play(s, "9S", "4S", "5S")
    assert s.won == [0, 1, 0]
    trump = make_state(hands=["9S", "10I", "2I"], row=row)
    play(trump, "9S", "10I", "2I")
    assert trump.won == [0, 0, 1], "the lowest intimidation wins"
    tie = make_state(hands=["4S", "4S", "5S"], row=row)
    play(tie, "4S", "4S", "5S")
    assert tie.won == [1, 0, 0]
    ace = make_state(hands=["4S", "AS", "5S"], row=row)
    play(ace, "4S", "AS low", "5S")
    assert ace.won == [0, 1, 0] and ace.influence[1] == 9, "a low ace is lowest and still a shrew"


def test_high_stakes_a_met_forecast_gains_twice_its_stake():
    s = make_state(
        hands=["4S", "5S", "6S"],
        operation=6,
        won=[2, 2, 2],
        bids=[2, 2, 5],
        stakes=[3, 4, 5],
        influence=[7, 6, 5],
        row=[12, 13, row_card("High Stakes")],
    )
    play(s, "4S", "5S", "6S")
    assert s.influence == [7 + 9, 6 + 12, 5]


def test_audit_caps_stakes_at_three_for_its_round_only():
    audit = row_card("Audit")
    s = make_state(phase=FORECAST, hands=["4S", "5S", "6S"], row=[audit, 12, 13])
    act(s, ("bid", 2))
    assert s.legal_actions() == [("stake", k) for k in (1, 2, 3)]
    # At the round's end the row is replaced (from the top of its deck) and the cap is gone.
    end = make_state(
        hands=["4S", "5S", "6S"],
        operation=6,
        won=[2, 2, 2],
        row=[audit, 12, 13],
        row_deck=[c for c in range(20) if c not in (audit, 12, 13, 0, 2, 4)] + [0, 2, 4],
        decks=["4C 5C 6C 7C 8C 9C", "4C 5C 6C 7C 8C 9C", "4C 5C 6C 7C 8C 9C"],
    )
    play(end, "4S", "5S", "6S")
    assert end.row == [4, 2, 0] and sorted(end.row_discard) == sorted([audit, 12, 13])
    for _ in range(6):
        act(end, ("take_top",), ("remove_none",))
    assert end.pending == ["bid", 1]
    act(end, ("bid", 2))
    assert end.legal_actions() == [("stake", k) for k in range(1, 11)]
    assert end.rules == round_rules((4, 2, 0))


def test_shrew_season_each_shrew_costs_two():
    s = make_state(hands=["9S", "2S", "3S"], row=[0, 2, row_card("Shrew Season")])
    play(s, "9S", "2S", "3S")
    assert s.influence == [6, 10, 10]
