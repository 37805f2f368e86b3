"""Phantom mode (two players): the rulebook's exceptions, through the engine."""

from __future__ import annotations

import numpy as np

from bidbluff.envs.lying_pirates.content import CARDS, SILVER
from bidbluff.envs.lying_pirates.env import LyingPiratesGame
from bidbluff.envs.lying_pirates.setup import new_game

from .conftest import (
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
    set_hand,
    skip,
    window,
)

ANNE, BOB, PHANTOM = 0, 1, 2


def two_players(pile: tuple[str, ...] = (), bob_hand: tuple[str, ...] = (), **fields):
    """A two-player game, both hands empty unless Bob is given cards; the Phantom's pile holds ``pile``
    (last = top), the rest goes to the deck."""
    d = fresh(2)
    set_hand(d, ANNE)
    set_hand(d, BOB, *bob_hand)
    d["deck"] += d["phantom_pile"]
    d["phantom_pile"] = []
    for name in pile:
        d["deck"].remove(card(name))
        d["phantom_pile"].append(card(name))
    d.update(fields)
    return d


def test_phantom_setup():
    state = new_game(2, np.random.default_rng(5))
    assert (state.captains, state.phantom) == (3, PHANTOM)
    assert len(state.phantom_pile) == 6 and all(CARDS[k].metal == SILVER for k in state.phantom_pile)
    assert state.hands[PHANTOM] == [] and [len(h) for h in state.hands[:2]] == [6, 6]
    assert len(state.deck) == 83 - 6 - 12
    assert state.crews.crew == [5, 5, 5] and state.coins == [2, 2, 2] and state.progress == [0, 0, 0]
    extended = new_game(2, np.random.default_rng(5), map="extended")
    assert len(extended.phantom_pile) == 7 and [len(h) for h in extended.hands[:2]] == [7, 7]


def test_the_phantom_never_bets_while_both_players_do_but_its_dice_count():
    d = two_players()
    cups = {ANNE: [1, 5, 2, 3, 4], BOB: [2, 3, 4, 6, 6], PHANTOM: [5, 5, 5, 2, 3]}
    state = load(betting(d, cups, token=ANNE, bettors=[ANNE, BOB]))
    assert state.betting.bettors == [ANNE, BOB]
    assert max(a[1] for a in state.legal_actions()) == 3  # three captains: the Phantom counts
    rng = Script(SAIL1, SWORDS, SKULL)
    play(state, rng, ("bid", 3, 5))
    assert state.pending == ["bet", BOB]
    play(state, rng, ("bid", 3, 6))
    assert state.pending == ["bet", ANNE]
    play(state, rng, ("bid", 5, 5))
    assert state.pending == ["bet", BOB]
    play(state, rng, ("liar",))  # five 5s, three of them the Phantom's: Anne's bet holds
    assert state.reveal["outcome"]["count"] == 5
    assert state.result == {"winner": ANNE, "losers": [BOB], "survivors": [PHANTOM]}
    # the Phantom sails with Anne; only Anne may reroll anything
    assert state.pending == ["reroll", ANNE]
    play(state, rng, ("keep",), ("pass",), ("pass",))
    assert state.progress == [1, 0, 1] and state.battle.rolling == [ANNE, PHANTOM]
    assert state.pending == ["reroll", ANNE]
    play(state, rng, ("keep",))
    assert state.resolver == ANNE and state.crews.crew == [7, 5, 5]


def test_an_excluded_player_bets_for_the_phantom():
    d = two_players()
    cups = {ANNE: [2, 2, 2, 2, 2], BOB: [3, 3, 3, 3, 3], PHANTOM: [4, 4, 4, 4, 4]}
    state = load(betting(d, cups, token=ANNE, bettors=[ANNE, BOB]))
    rng = Script(SAIL1, SWORDS, SKULL, *[1] * 7, *[4] * 5, SAIL1)  # round 2: Anne's seven dice 2s, the Phantom's 5s
    play(state, rng, ("bid", 2, 3), ("exact", 6, 3))  # Bob is wrong (five 3s)
    assert state.result == {"winner": ANNE, "losers": [BOB], "survivors": [PHANTOM]}
    skip(state, rng, "reroll", "window", "catchup")
    assert state.excluded == [BOB] and state.phase == "betting"
    assert state.betting.bettors == [ANNE, PHANTOM] and sorted(state.betting.cups) == [ANNE, PHANTOM]
    assert state.pending == ["bet", ANNE]
    play(state, rng, ("bid", 3, 5))
    assert state.pending == ["bet", BOB]  # Bob takes the Phantom's turn
    play(state, rng, ("liar",))  # five 5s: Anne's bet holds
    assert state.result == {"winner": ANNE, "losers": [BOB, PHANTOM], "survivors": []}


def test_a_phantom_win_offers_no_reroll_of_its_sail_die():
    d = two_players(excluded=[BOB])
    cups = {ANNE: [2, 2, 2, 2, 2], PHANTOM: [4, 4, 4, 4, 4]}
    state = load(betting(d, cups, token=ANNE, bettors=[ANNE, PHANTOM]))
    rng = Script(SAIL2, SWORDS, SKULL)
    play(state, rng, ("bid", 3, 5), ("liar",))  # Bob, playing the Phantom, calls Anne a liar and is right
    assert state.result == {"winner": PHANTOM, "losers": [ANNE, BOB], "survivors": []}
    assert state.token == PHANTOM and state.coins[PHANTOM] == 3
    assert state.pending == ["window", ANNE]  # no reroll decision: straight to the priority window
    play(state, rng, ("pass",), ("pass",))
    assert state.progress == [0, 0, 2]
    # the Phantom resolves Steal a Crewmember: the players battle, the loser (Bob) is the target
    assert state.battle.rolling == [ANNE, BOB] and state.battle.looking_for == "loser"
    skip(state, rng, "reroll")
    assert state.crews.crew == [5, 4, 6] and state.phase == "action"


def test_the_phantom_takes_no_reroll_in_a_battle():
    d = two_players()
    state = load(window(d, "sail", token=ANNE, winner=ANNE, survivors=(PHANTOM,)))
    rng = Script(SKULL, SWORDS)
    skip(state, rng, "window", phase="sail")
    assert state.pending == ["reroll", ANNE]
    play(state, rng, ("keep",))
    assert state.resolver == PHANTOM and state.crews.crew == [5, 5, 7]  # Recruit Crew for the Phantom


def test_the_phantom_takes_no_reroll_of_its_pirate_die():
    d = two_players(progress=[3, 0, 3])  # Anne and the Phantom sail onto Caught by the Navy (slot 4)
    state = load(window(d, "sail", token=ANNE, winner=ANNE, survivors=(PHANTOM,)))
    rng = Script(SKULL, SWORDS, P_X)
    skip(state, rng, "window", "reroll", phase="sail")
    assert state.resolver == PHANTOM and state.crews.crew == [5, 5, 3]  # X stands: no reroll decision
    assert state.phase == "action" and not rng.left


def phantom_plays(name: str, progress=(3, 4, 0), bob_hand=()):
    """The Action phase starts (Anne resolved Recruit Crew alone); the Phantom's top card is ``name``."""
    d = two_players(pile=("Tailwind", name), bob_hand=bob_hand, progress=[progress[0] - 1, *progress[1:]])
    d["slots"][progress[0]] = 1  # Recruit Crew under Anne
    return load(window(d, "sail", token=ANNE, winner=ANNE))


def test_the_phantom_plays_its_top_card_and_the_players_battle_to_be_the_target():
    state = phantom_plays("Mutinous Whispers")
    rng = Script(SWORDS, SKULL)
    skip(state, rng, "window", phase="sail")
    assert state.phase == "action" and state.battle.looking_for == "loser"
    assert state.battle.rolling == [ANNE, BOB]
    assert state.phantom_pile == [card("Tailwind")] and state.discard == [card("Mutinous Whispers")]
    assert [PHANTOM, card("Mutinous Whispers")] in state.played
    skip(state, rng, "reroll")
    assert state.crews.crew == [7, 4, 5]  # Bob lost the battle and is the target
    assert state.pending == ["window", ANNE]
    assert not rng.left


def test_a_phantom_card_with_one_possible_target_needs_no_battle():
    state = phantom_plays("Sabotage", progress=(3, 0, 0))  # Bob on the Base is immune
    skip(state, Script(), "window", phase="sail")
    assert state.coins == [0, 2, 2] and state.pending == ["window", ANNE]


def test_the_target_may_react_to_a_phantom_card():
    state = phantom_plays("Mutinous Whispers", bob_hand=("Parley",))
    rng = Script(SWORDS, SKULL)
    skip(state, rng, "window", "reroll", phase="sail")
    skip(state, rng, "reroll")
    assert state.pending == ["react", BOB]
    play(state, rng, ("play", card("Parley")))
    assert state.crews.crew == [7, 5, 5]


def test_the_phantom_sails_past_the_base_without_ending_the_game():
    for sail_die, phantom in ((1, 12), (2, 13)):
        d = two_players(progress=[4, 2, 11])
        d["slots"][4 + sail_die] = 1  # Recruit Crew under Anne
        state = load(window(d, "sail", token=ANNE, winner=ANNE, survivors=(PHANTOM,), sail_die=sail_die))
        rng = Script(SWORDS, SKULL)
        skip(state, rng, "window", "reroll", phase="sail")
        assert state.progress == [4 + sail_die, 2, phantom] and state.finished == []
        assert state.phase == "action" and state.stage != "over" and state.winners == []
        assert not rng.left


def test_the_phantom_overtaking_a_ship_on_its_first_lap_sinks_nothing():
    d = two_players(progress=[4, 2, 1])  # Bob's ship waits on slot 2, just ahead of the Phantom
    d["slots"][6] = 1  # Recruit Crew under Anne
    state = load(window(d, "sail", token=ANNE, winner=ANNE, survivors=(PHANTOM,), sail_die=2))
    skip(state, Script(SWORDS, SKULL), "window", "reroll", phase="sail")
    assert state.progress == [6, 2, 3] and state.stage != "over" and state.phase == "action"


def test_only_what_the_phantom_sails_after_the_base_can_catch_a_ship():
    for bob, sunk in ((1, True), (3, False)):
        d = two_players(progress=[4, bob, 11])
        d["slots"][6] = 1  # Recruit Crew under Anne
        state = load(window(d, "sail", token=ANNE, winner=ANNE, survivors=(PHANTOM,), sail_die=2))
        skip(state, Script(SWORDS, SKULL), "window", "reroll", phase="sail")
        assert state.progress == [6, bob, 13]
        assert (state.winners == [ANNE]) is sunk


def test_the_phantom_catching_one_ship_sinks_it_and_the_other_player_wins():
    d = two_players(progress=[4, 3, 13])  # the Phantom is on its second lap, on slot 1
    state = load(window(d, "sail", token=ANNE, winner=ANNE, survivors=(PHANTOM,), sail_die=2))
    skip(state, Script(), "window", phase="sail")
    assert state.progress == [6, 3, 15]
    assert state.stage == "over" and state.winners == [ANNE]
    assert LyingPiratesGame().final_rewards(state, "win") == [1.0, -1.0]


def test_the_phantom_catching_both_ships_wins():
    # the Phantom is on its second lap, on slot 1; Anne sails from there to Bob's tile, slot 2
    d = two_players(pile=("Tailwind",), progress=[1, 2, 13])
    d["slots"][2] = 1  # Recruit Crew
    state = load(window(d, "sail", token=ANNE, winner=ANNE))
    skip(state, Script(), "window", phase="sail")
    # Anne reached Bob's tile (slot 2) and resolved Recruit Crew; then the Phantom plays Tailwind onto it
    assert state.progress == [2, 2, 14] and state.stage == "over"
    assert state.winners == [PHANTOM]
    assert LyingPiratesGame().final_rewards(state, "win") == [-1.0, -1.0]
    assert state.scores() == [2.0, 2.0]


def test_the_phantom_takes_no_part_in_catch_up_or_windows():
    d = two_players(progress=[2, 5, 0])
    state = load(window(d, "action", token=ANNE))
    assert state.window.order == [ANNE, BOB]
    play(state, Script(), ("pass",), ("pass",))
    assert state.pending == ["catchup", ANNE]  # the Phantom, furthest behind, is not asked


def test_a_ship_back_on_the_base_is_safe_from_a_lapping_phantom():
    # Anne completes her lap (11 + 2 = 12, stops on the Base); the Phantom, one tile behind on its second lap,
    # sails the same 2 and would otherwise "close the gap"
    d = two_players(progress=[11, 5, 22])
    state = load(window(d, "sail", token=ANNE, winner=ANNE, survivors=(PHANTOM,), sail_die=2))
    skip(state, Script(SWORDS, SKULL), "window", "reroll", phase="sail")
    assert state.progress[ANNE] == 12 and state.progress[PHANTOM] == 24
    assert state.winners == [ANNE], "Anne is home and wins; the Phantom sank nothing"


def test_the_phantom_takes_no_cards():
    state = phantom_plays("Treasure Map")
    hand_sizes = [len(h) for h in state.hands]
    skip(state, Script(), "window", phase="sail")
    assert state.hands[PHANTOM] == [] and [len(h) for h in state.hands] == hand_sizes
    state = phantom_plays("Pickpocket", progress=(3, 4, 0), bob_hand=("Grog Barrel",))
    rng = Script(SWORDS, SKULL, 0)  # the players battle, Bob loses; his only card is taken
    skip(state, rng, "window", phase="sail")
    skip(state, rng, "reroll")
    assert state.hands[PHANTOM] == [] and state.hands[BOB] == []
    assert state.discard[-1] == card("Grog Barrel"), "the stolen card goes to the discard pile"


def test_a_lapped_phantom_behind_the_last_player_is_no_ship_to_reach():
    # the Phantom has sailed more tiles (14, slot 2) but sits behind both players on the ring
    d = two_players(progress=[3, 6, 14])
    state = load(window(d, "action", token=ANNE))
    play(state, Script(), ("pass",), ("pass",))
    assert state.pending == ["catchup", ANNE]
    d = two_players(progress=[3, 3, 14])  # tied last with nothing ahead: no catch-up at all
    state = load(window(d, "action", token=ANNE))
    play(state, Script(then=0), ("pass",), ("pass",))
    assert state.stage != "catchup" and state.pending[0] == "bet"
