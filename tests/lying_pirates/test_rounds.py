"""Whole rounds through the engine: the rulebook's Betting Phase Example, "exactly", and the Sail phase order."""

from __future__ import annotations

from bidbluff.envs.lying_pirates.content import TILES
from bidbluff.envs.lying_pirates.frames import TileRoll
from bidbluff.envs.lying_pirates.table import GOLD_USED, REROLL_USED

from .conftest import (
    DAGGER,
    P_O,
    P_X,
    SAIL1,
    SAIL2,
    SKULL,
    SWORDS,
    Script,
    betting,
    card,
    fresh,
    load,
    play,
    set_crew,
    set_hand,
    skip,
    tile,
    window,
)

ANNE, BOB, CHRIS = 0, 1, 2
EXAMPLE_CUPS = {ANNE: [1, 2, 3, 5, 6, 6], BOB: [2, 3, 5, 5, 5, 6], CHRIS: [1, 1, 3, 4, 5, 6]}
EXAMPLE_BETS = [("bid", 3, 6), ("bid", 4, 2), ("bid", 4, 6), ("bid", 8, 6), ("bid", 9, 5)]


def example_table():
    d = fresh(3)
    for seat in range(3):
        set_crew(d, seat, 6)
    return load(betting(d, EXAMPLE_CUPS, token=ANNE, direction=1))


def test_rulebook_betting_example_played_as_a_full_round():
    state = example_table()
    rng = Script(SAIL1, SKULL, SWORDS, then=7)  # sail 1; battle: Chris skull, Anne swords
    assert state.pending == ["bet", ANNE]
    for action, seat in zip(EXAMPLE_BETS, (ANNE, BOB, CHRIS, ANNE, BOB), strict=True):
        assert state.pending == ["bet", seat]
        play(state, rng, action)
    assert state.pending == ["bet", CHRIS]
    play(state, rng, ("liar",))
    # eight 5s: Chris wins, Bob loses, Anne survives
    assert state.reveal["outcome"]["count"] == 8
    assert state.result == {"winner": CHRIS, "losers": [BOB], "survivors": [ANNE]}
    # Sail phase: Chris gains a coin, takes the token (same side up), rolls the sail die
    assert state.phase == "sail"
    assert state.coins == [2, 2, 3]
    assert (state.token, state.direction) == (CHRIS, 1)
    assert state.sail_die == 1
    assert state.pending == ["reroll", CHRIS]
    play(state, rng, ("keep",))
    # the priority window opens with the new token holder
    assert state.pending == ["window", CHRIS]
    play(state, rng, ("pass",), ("pass",), ("pass",))
    # Chris and Anne sail one tile, Bob stays; the movers battle (Chris rolls first: he holds the token)
    assert state.progress == [1, 0, 1]
    assert state.battle.rolling == [CHRIS, ANNE]
    assert state.pending == ["reroll", CHRIS]
    play(state, rng, ("keep",))
    assert state.pending == ["reroll", ANNE]
    play(state, rng, ("keep",))
    # Anne won the battle and resolves her tile, Recruit Crew: +2 crew dice
    assert TILES[state.slots[1]].name == "Recruit Crew"
    assert state.crews.crew == [8, 6, 6]
    assert state.crews.bag == 50 - 20
    assert state.coins == [2, 2, 3]
    assert (state.phase, state.pending) == ("action", ["window", CHRIS])
    play(state, rng, ("pass",), ("pass",), ("pass",))
    # catch-up: Bob alone in last place may sacrifice crew to reach the next ship
    assert state.pending == ["catchup", BOB]
    play(state, rng, ("stop",))
    assert state.round_no == 2 and state.phase == "betting"
    assert state.pending == ["bet", CHRIS]  # the new Starting Captain opens
    assert state.progress == [1, 0, 1]
    assert not rng.left


def test_a_tied_movers_battle_is_rolled_again_until_one_winner_remains():
    state = example_table()
    rng = Script(SAIL1, SWORDS, SWORDS, SWORDS, DAGGER, then=7)  # Chris rolls first
    play(state, rng, *EXAMPLE_BETS, ("liar",), ("keep",), ("pass",), ("pass",), ("pass",))
    assert state.battle.rolls[CHRIS] == state.battle.rolls[ANNE]
    skip(state, rng, "reroll")  # the tie: both roll again; Chris swords, Anne dagger
    assert state.phase == "action"
    assert state.crews.crew == [6, 6, 8]  # Chris resolved Recruit Crew
    assert not rng.left


def test_wrong_exact_caller_misses_the_next_betting_phase_and_counts_as_a_loser():
    d = fresh(3)
    cups = {ANNE: [2, 2, 4, 4, 6], BOB: [3, 3, 4, 5, 6], CHRIS: [2, 4, 5, 5, 6]}
    state = load(betting(d, cups, token=ANNE, direction=1))
    # round 1: sail 1; Anne (swords) beats Chris (skull); then round 2 cups: Anne's 7 dice all 2s, Chris's all 3s
    rng = Script(SAIL1, SWORDS, SKULL, *[1] * 7, *[2] * 5, SAIL2)
    play(state, rng, ("bid", 2, 3))
    play(state, rng, ("exact", 3, 3))  # two 3s in play: Bob is wrong
    assert state.result == {"winner": ANNE, "losers": [BOB], "survivors": [CHRIS]}
    assert state.next_excluded == [BOB]
    assert state.crews.crew == [5, 5, 5]  # a wrong "exactly" gains nothing
    skip(state, rng, "reroll", "window")
    assert state.progress == [1, 0, 1]
    assert state.crews.crew == [7, 5, 5]  # Anne resolved Recruit Crew
    assert state.pending == ["catchup", BOB]
    play(state, rng, ("stop",))
    # round 2: Bob has no cup and no turn
    assert state.excluded == [BOB]
    assert sorted(state.betting.cups) == [ANNE, CHRIS]
    assert state.betting.bettors == [ANNE, CHRIS]
    assert state.pending == ["bet", ANNE]
    play(state, rng, ("bid", 2, 2))
    assert state.pending == ["bet", CHRIS]
    play(state, rng, ("liar",))  # seven 2s: Anne's bet holds
    assert state.result == {"winner": ANNE, "losers": [BOB, CHRIS], "survivors": []}
    skip(state, rng, "reroll", "window")
    assert state.progress == [3, 0, 1]  # only Anne sailed, two tiles
    assert state.excluded == [BOB] and state.next_excluded == []
    assert not rng.left


def test_right_exact_caller_wins_everyone_else_loses_and_the_caller_gains_a_crew_die():
    cups = {ANNE: [2, 2, 4, 4, 6], BOB: [3, 1, 4, 5, 6], CHRIS: [2, 4, 5, 5, 6]}  # five 4s with the wild 1
    state = load(betting(fresh(3), cups, token=ANNE, direction=1))
    rng = Script(SAIL1)
    play(state, rng, ("bid", 2, 4), ("exact", 5, 4))
    assert state.result == {"winner": BOB, "losers": [ANNE, CHRIS], "survivors": []}
    assert state.crews.crew == [5, 6, 5] and state.crews.bag == 50 - 16
    assert state.coins == [2, 3, 2] and state.token == BOB
    assert state.next_excluded == []
    skip(state, rng, "reroll", "window")
    assert state.progress == [0, 1, 0]  # nobody else sails
    assert state.crews.crew == [5, 8, 5]  # Bob alone resolved Recruit Crew
    assert state.phase == "action"


def test_exact_may_restate_the_last_bet_and_wrong_it_hands_the_win_to_the_previous_bettor():
    cups = {ANNE: [2, 2, 4, 4, 6], BOB: [3, 1, 4, 5, 6], CHRIS: [2, 4, 5, 5, 6]}
    state = load(betting(fresh(3), cups, token=ANNE, direction=1))
    play(state, Script(SAIL1), ("bid", 3, 4), ("exact", 3, 4))
    assert state.result == {"winner": ANNE, "losers": [BOB], "survivors": [CHRIS]}
    assert state.next_excluded == [BOB] and state.crews.crew == [5, 5, 5]


def test_alone_in_a_betting_phase_wins_by_default():
    d = window(fresh(3), "action", token=ANNE)
    d["next_excluded"] = [BOB, CHRIS]
    state = load(d)
    rng = Script(0, 1, 2, 3, 4, SAIL2)  # Anne's five crew dice, then the sail die
    skip(state, rng, "window")
    # nobody is behind anyone: no catch-up; Anne alone bets and wins at once
    assert state.reveal["outcome"]["call"] == "alone"
    assert list(state.reveal["cups"]) == ["0"]
    assert state.result == {"winner": ANNE, "losers": [BOB, CHRIS], "survivors": []}
    assert state.pending == ["reroll", ANNE] and state.coins[ANNE] == 3 and state.sail_die == 2
    assert not rng.left


# The Sail phase, step by step ---------------------------------------------------------------


def sail_table(anne_coins: int = 2, chris_coins: int = 2):
    """Rulebook example, Chris calls liar: Chris wins, Anne survives; the sail die roll is next."""
    d = fresh(3)
    d["coins"] = [anne_coins, 2, chris_coins]
    return load(betting(d, EXAMPLE_CUPS, token=ANNE, direction=1))


def test_the_winner_may_reroll_the_sail_die_once_for_a_coin_and_then_not_a_battle_die():
    state = sail_table()
    rng = Script(SAIL1, SAIL2, SWORDS, SKULL)
    play(state, rng, *EXAMPLE_BETS, ("liar",))
    assert state.legal_actions() == [("reroll",), ("keep",)]
    play(state, rng, ("reroll",))
    assert state.sail_die == 2 and state.coins[CHRIS] == 2  # won one, paid one
    assert state.used[CHRIS][REROLL_USED]
    assert state.pending == ["window", CHRIS]  # once: no second reroll of the sail die
    play(state, rng, ("pass",), ("pass",), ("pass",))
    assert state.progress == [2, 0, 2]
    # in the battle, only Anne may still reroll this round
    assert state.pending == ["reroll", ANNE]
    play(state, rng, ("keep",))
    assert state.battle is None and state.resolver == CHRIS
    assert state.pending[0] == "target"  # Steal a Crewmember, Chris chooses


def test_battle_reroll_is_of_the_own_die_only_and_needs_a_coin():
    state = sail_table(anne_coins=0)
    rng = Script(SAIL1, DAGGER, SWORDS, SKULL)  # Chris dagger, Anne swords; Chris rerolls to a skull
    play(state, rng, *EXAMPLE_BETS, ("liar",), ("keep",), ("pass",), ("pass",), ("pass",))
    assert state.battle.rolls[CHRIS] == 1 and state.battle.rolls[ANNE] == 2
    # Anne has no coin: only Chris is offered a reroll, and it rerolls only his own die
    assert state.pending == ["reroll", CHRIS]
    play(state, rng, ("reroll",))
    assert state.coins[CHRIS] == 2
    assert state.resolver == ANNE and state.crews.crew == [7, 5, 5]  # Anne's swords beat the skull
    assert [n for n, _ in rng.drawn] == [6, 8, 8, 8]
    assert state.phase == "action"


def test_a_reroll_in_a_tied_battle_is_once_per_round():
    state = sail_table()
    rng = Script(SAIL1, SWORDS, SWORDS, SWORDS, SKULL, DAGGER)
    play(state, rng, *EXAMPLE_BETS, ("liar",), ("keep",), ("pass",), ("pass",), ("pass",))
    play(state, rng, ("keep",), ("reroll",))  # Chris keeps, Anne rerolls: swords again, the tie stands
    # the tie is rolled again; Chris may still reroll, Anne may not (once per round)
    assert state.pending == ["reroll", CHRIS]
    play(state, rng, ("keep",))
    assert state.resolver == ANNE  # Chris skull, Anne dagger
    assert not rng.left


def test_sail_priority_window_offers_gold_cards_but_no_silver():
    d = fresh(3)
    set_hand(d, ANNE, "Full Sail", "Tailwind", "Hull Plating", "Parley")
    state = load(window(d, "sail", token=ANNE, winner=ANNE, survivors=(CHRIS,)))
    legal = state.legal_actions()
    assert ("play", card("Full Sail")) in legal
    assert ("play", card("Tailwind")) not in legal
    assert ("play", card("Hull Plating")) not in legal and ("play", card("Parley")) not in legal  # reactions
    assert ("buy",) in legal
    # in the Action phase silver is fine
    d = fresh(3)
    set_hand(d, ANNE, "Full Sail", "Tailwind")
    state = load(window(d, "action", token=ANNE))
    assert {("play", card("Full Sail")), ("play", card("Tailwind"))} <= set(state.legal_actions())


def test_priority_window_closes_only_after_everyone_passed_in_a_row():
    d = fresh(3)
    state = load(window(d, "sail", token=BOB, winner=BOB, survivors=(ANNE,)))
    rng = Script(SWORDS, SKULL)
    assert state.pending == ["window", BOB]
    play(state, rng, ("pass",))
    assert state.pending == ["window", CHRIS]
    play(state, rng, ("buy",))
    assert state.coins[CHRIS] == 0 and len(state.hands[CHRIS]) == 7
    play(state, rng, ("pass",), ("pass",))  # Anne, Bob
    assert state.pending == ["window", CHRIS]
    play(state, rng, ("pass",))
    assert state.stage != "window" and state.progress == [1, 1, 0]


def test_a_gold_card_in_the_sail_window_moves_before_the_sail_die_move():
    d = fresh(3)
    set_hand(d, ANNE, "Full Sail")
    state = load(window(d, "sail", token=ANNE, winner=ANNE, sail_die=2))
    rng = Script()
    play(state, rng, ("play", card("Full Sail")))
    assert state.progress == [1, 0, 0] and state.used[ANNE][GOLD_USED]
    assert ("play", card("Full Sail")) not in state.legal_actions()
    skip(state, rng, "window")
    assert state.progress == [3, 0, 0]  # Pirate King's tile: Anne takes the die
    assert state.crews.specials(ANNE)


def test_pirate_or_treasure_die_is_rolled_and_may_be_rerolled_by_the_resolver():
    d = fresh(3)
    d["progress"] = [3, 0, 0]
    state = load(window(d, "sail", token=ANNE, winner=ANNE))  # Anne alone sails onto Caught by the Navy
    assert TILES[d["slots"][4]].name == "Caught by the Navy"
    rng = Script(P_X, P_O)
    skip(state, rng, "window")
    assert state.pt == TileRoll("P", "X", ANNE)
    assert state.pending == ["reroll", ANNE]
    play(state, rng, ("reroll",))
    # O: lose a coin (the coin was paid for the reroll first)
    assert state.coins[ANNE] == 0 and state.crews.crew[ANNE] == 5
    # without a coin, no reroll: X stands, two crew dice lost
    d["coins"][ANNE] = 0
    state = load(d)
    rng = Script(P_X)
    skip(state, rng, "window")
    assert state.phase == "action" and state.crews.crew[ANNE] == 3


def test_a_single_ship_back_on_the_base_wins_at_once():
    d = fresh(3)
    d["progress"] = [11, 10, 4]
    set_hand(d, BOB, "Full Sail")
    state = load(window(d, "sail", token=ANNE, winner=ANNE, survivors=(BOB,)))
    rng = Script(SWORDS, SKULL)
    skip(state, rng, "window", "reroll")
    assert state.progress == [12, 11, 4]
    assert state.winners == [ANNE] and state.stage == "over" and state.pending == []
    assert state.scores() == [112.0, 11.0, 4.0]


def test_a_sail_phase_tile_effect_can_finish_the_lap():
    d = fresh(3)
    d["progress"] = [10, 3, 4]
    d["slots"][11] = tile("Fair Winds")
    state = load(window(d, "sail", token=ANNE, winner=ANNE))
    skip(state, Script(), "window")
    assert state.winners == [ANNE] and state.progress[ANNE] == 12


def test_several_ships_back_on_the_base_fight_the_final_battle():
    d = fresh(3)
    d["progress"] = [11, 10, 4]
    state = load(window(d, "sail", token=ANNE, winner=ANNE, survivors=(BOB,), sail_die=2))
    rng = Script(SWORDS, SKULL)
    skip(state, rng, "window", "reroll")
    assert state.progress == [12, 12, 4] and state.finished == [ANNE, BOB]
    assert state.phase == "final" and state.pending == ["buy_crew", ANNE]
    assert state.final.crew == [5, 5, 0]


def test_the_action_phase_cannot_end_the_game():
    d = fresh(3)
    d["progress"] = [11, 5, 6]
    set_hand(d, ANNE, "Full Sail", "Tailwind")
    state = load(window(d, "action", token=ANNE))
    rng = Script()
    play(state, rng, ("play", card("Full Sail")))
    assert state.progress[ANNE] == 11 and state.stage == "window"
    play(state, rng, ("play", card("Tailwind")))
    assert state.progress[ANNE] == 11
    skip(state, Script(then=0), "window", "catchup")
    assert state.stage != "over" and state.phase == "betting"
    assert state.progress[ANNE] == 11
