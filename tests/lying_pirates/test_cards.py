"""Every Action card kind through the engine, the gold/silver limits, buying and drawing, the Base's
immunity and the reaction defence."""

from __future__ import annotations

import pytest

from bidbluff.envs.lying_pirates.content import CARDS, DECK_SIZE, GOLD, SILVER
from bidbluff.envs.lying_pirates.table import GOLD_USED, SILVER_USED

from .conftest import (
    DAGGER,
    MERMAID,
    P_O,
    SKULL,
    SWORDS,
    Script,
    card,
    fresh,
    give_special,
    load,
    play,
    set_hand,
    skip,
    window,
)

ANNE, BOB, CHRIS = 0, 1, 2


def table(*anne: str, bob: tuple = (), chris: tuple = (), progress=(3, 4, 5), kind="action", edit=None):
    """Action phase priority window, Anne to act first; nobody on the Base unless ``progress`` says so."""
    d = fresh(3)
    set_hand(d, ANNE, *anne)
    set_hand(d, BOB, *bob)
    set_hand(d, CHRIS, *chris)
    d["progress"] = list(progress)
    if edit:
        edit(d)
    return load(window(d, kind, token=ANNE, winner=ANNE))


def test_the_deck():
    assert DECK_SIZE == 83 and len(CARDS) == 21
    assert {c.metal for c in CARDS} == {GOLD, SILVER}
    assert {c.icon for c in CARDS} == {"move", "attack", "defend"}
    assert any(c.unique for c in CARDS) and any(c.final_battle for c in CARDS)
    assert {c.name for c in CARDS if c.reaction} == {"Parley", "Hull Plating"}


# name, target (or None), expected (coins, crew, progress) of Anne, Bob, Chris afterwards (all start 2, 5, and 3/4/5)
SIMPLE = [
    ("Full Sail", None, {"progress": [4, 4, 5]}),
    ("Tailwind", None, {"progress": [4, 4, 5]}),
    ("Crosswind", BOB, {"progress": [3, 3, 5]}),
    ("Anchor Chain", CHRIS, {"progress": [3, 4, 4]}),
    ("Cannon Volley", BOB, {"crew": [5, 4, 5]}),
    ("Mutinous Whispers", CHRIS, {"crew": [5, 5, 4]}),
    ("Boarding Party", BOB, {"crew": [6, 4, 5]}),
    ("Plunder", BOB, {"coins": [4, 0, 2]}),
    ("Sabotage", CHRIS, {"coins": [2, 2, 0]}),
    ("Broadside", None, {"crew": [5, 4, 4]}),
    ("Grog Barrel", None, {"crew": [6, 5, 5]}),
    ("Second Wind", None, {"crew": [6, 5, 5]}),
    ("Press Gang", None, {"crew": [6, 5, 5]}),
    ("Smuggler's Cache", None, {"coins": [4, 2, 2]}),
]


@pytest.mark.parametrize(("name", "target", "expected"), SIMPLE, ids=[s[0] for s in SIMPLE])
def test_card_effect(name, target, expected):
    state = table(name)
    rng = Script()
    play(state, rng, ("play", card(name)))
    if target is not None:
        assert state.pending == ["target", ANNE]
        assert state.legal_actions() == [("target", BOB), ("target", CHRIS)]
        play(state, rng, ("target", target))
    got = {"coins": state.coins, "crew": state.crews.crew, "progress": state.progress}
    want = {"coins": [2, 2, 2], "crew": [5, 5, 5], "progress": [3, 4, 5], **expected}
    assert got == want
    assert state.hands[ANNE] == [] and state.discard[-1] == card(name)
    assert [ANNE, card(name)] in state.played
    assert state.used[ANNE][GOLD_USED if CARDS[card(name)].metal == GOLD else SILVER_USED]
    assert state.pending == ["window", BOB]  # the window goes on
    assert not rng.drawn


def test_treasure_map_draws_two_from_the_top():
    state = table("Treasure Map")
    top = state.deck[-2:]
    play(state, Script(), ("play", card("Treasure Map")))
    assert sorted(state.hands[ANNE]) == sorted(top)


def test_mermaids_song_takes_the_mermaid_from_its_holder():
    state = table("Mermaid's Song", edit=lambda d: give_special(d, BOB, MERMAID))
    play(state, Script(), ("play", card("Mermaid's Song")))
    assert state.crews.holder[MERMAID] == ANNE


def test_pickpocket_takes_a_random_card_and_the_victim_knows_which():
    state = table("Pickpocket", bob=("Plunder", "Tailwind"))
    rng = Script(1)  # Bob's sorted hand [Plunder, Tailwind]: the second
    play(state, rng, ("play", card("Pickpocket")), ("target", BOB))
    assert state.hands[ANNE] == [card("Tailwind")] and state.hands[BOB] == [card("Plunder")]
    assert state.known[BOB][ANNE][card("Tailwind")] == 1
    assert state.known[CHRIS][ANNE][card("Tailwind")] == 0


@pytest.mark.parametrize(
    ("rolls", "crew"), [((SWORDS, SKULL), [5, 4, 5]), ((DAGGER, DAGGER, DAGGER, SWORDS), [4, 5, 5])]
)
def test_challenge_is_a_duel_whose_loser_loses_a_crew_die(rolls, crew):
    state = table("Challenge")
    rng = Script(*rolls)
    play(state, rng, ("play", card("Challenge")), ("target", BOB))
    assert state.battle.rolling == [ANNE, BOB] and state.battle.looking_for == "winner"
    skip(state, rng, "reroll")
    assert state.crews.crew == crew and state.pending == ["window", BOB]
    assert not rng.left


def test_brawl_everyone_off_the_base_battles_for_a_loser():
    state = table("Brawl", progress=(3, 4, 0))  # Chris is on the Base
    rng = Script(SWORDS, SKULL)
    play(state, rng, ("play", card("Brawl")))
    assert state.battle.rolling == [ANNE, BOB] and state.battle.looking_for == "loser"
    skip(state, rng, "reroll")
    assert state.crews.crew == [5, 4, 5]
    state = table("Brawl")
    rng = Script(SWORDS, DAGGER, DAGGER, SKULL, SWORDS)  # Anne out; Bob and Chris tie and roll again
    play(state, rng, ("play", card("Brawl")))
    skip(state, rng, "reroll")
    assert state.crews.crew == [5, 4, 5]
    assert not rng.left


def test_one_gold_and_one_silver_per_round():
    state = table("Full Sail", "Grog Barrel", "Tailwind", "Press Gang")
    rng = Script()
    play(state, rng, ("play", card("Full Sail")))
    play(state, rng, ("pass",), ("pass",))
    legal = state.legal_actions()
    assert ("play", card("Grog Barrel")) not in legal
    assert ("play", card("Tailwind")) in legal and ("play", card("Press Gang")) in legal
    play(state, rng, ("play", card("Press Gang")), ("pass",), ("pass",))
    assert state.legal_actions() == [("pass",), ("buy",)]  # no more cards to play this round


def test_limits_reset_at_the_next_round():
    state = table("Full Sail", "Grog Barrel", progress=(0, 0, 0))
    rng = Script(then=3)
    play(state, rng, ("play", card("Full Sail")))
    skip(state, rng, "window", "catchup")
    assert state.phase == "betting" and state.used == [[False, False, False]] * 3


def test_silver_only_in_the_action_phase():
    state = table("Tailwind", "Full Sail", kind="sail")
    assert state.legal_actions() == [("pass",), ("play", card("Full Sail")), ("buy",)]


def test_buying_a_card_costs_two_coins_and_takes_the_top_card():
    state = table("Tailwind")
    top = state.deck[-1]
    play(state, Script(), ("buy",))
    assert state.coins[ANNE] == 0 and sorted(state.hands[ANNE]) == sorted([card("Tailwind"), top])
    assert len(state.deck) == DECK_SIZE - 1 - 1  # Bob and Chris hold nothing here
    play(state, Script(), ("pass",), ("pass",))
    assert ("buy",) not in state.legal_actions()  # no coins left


def test_a_free_draw_only_with_an_empty_hand():
    state = table("Tailwind")
    assert ("draw",) not in state.legal_actions()
    state = table()
    top = state.deck[-1]
    assert ("draw",) in state.legal_actions()
    play(state, Script(), ("draw",))
    assert state.hands[ANNE] == [top] and state.coins[ANNE] == 2
    play(state, Script(), ("pass",), ("pass",))
    assert ("draw",) not in state.legal_actions()


def test_an_empty_deck_is_reshuffled_from_the_discard():
    def empty_deck(d):
        d["discard"], d["deck"] = d["deck"], []

    state = table("Tailwind", edit=empty_deck)
    old = list(state.discard)
    play(state, Script(), ("buy",))  # the test generator's shuffle reverses the pile
    assert state.hands[ANNE] == sorted([card("Tailwind"), old[0]])
    assert state.deck == old[::-1][:-1] and state.discard == []


def test_targets_on_the_base_are_not_offered():
    state = table("Crosswind", progress=(3, 0, 5))
    play(state, Script(), ("play", card("Crosswind")))
    assert state.legal_actions() == [("target", CHRIS)]
    state = table("Cannon Volley", progress=(3, 0, 0))
    play(state, Script(), ("play", card("Cannon Volley")))
    assert state.crews.crew == [5, 5, 5] and state.pending == ["window", BOB]  # nobody to hit
    state = table("Broadside", progress=(3, 0, 5))
    play(state, Script(), ("play", card("Broadside")))
    assert state.crews.crew == [5, 5, 4]
    state = table("Brawl", progress=(3, 0, 0))
    play(state, Script(), ("play", card("Brawl")))
    assert state.crews.crew == [4, 5, 5]  # the only captain off the Base loses


def test_a_targeted_captain_may_react_with_parley():
    state = table("Mutinous Whispers", bob=("Parley", "Tailwind"))
    rng = Script()
    play(state, rng, ("play", card("Mutinous Whispers")), ("target", BOB))
    assert state.pending == ["react", BOB]
    assert state.legal_actions() == [("play", card("Parley")), ("pass",)]
    play(state, rng, ("play", card("Parley")))
    assert state.crews.crew == [5, 5, 5]
    assert state.discard[-2:] == [card("Mutinous Whispers"), card("Parley")]
    assert state.used[BOB][SILVER_USED]
    assert state.pending == ["window", BOB]
    assert ("play", card("Tailwind")) not in state.legal_actions()  # Bob's silver is spent


def test_letting_the_attack_through():
    state = table("Mutinous Whispers", bob=("Parley",))
    play(state, Script(), ("play", card("Mutinous Whispers")), ("target", BOB), ("pass",))
    assert state.crews.crew == [5, 4, 5] and state.hands[BOB] == [card("Parley")]
    assert not state.used[BOB][SILVER_USED]


def test_hull_plating_in_the_sail_phase_uses_up_the_gold():
    state = table("Crosswind", bob=("Hull Plating", "Parley", "Full Sail"), kind="sail")
    rng = Script()
    play(state, rng, ("play", card("Crosswind")), ("target", BOB))
    assert state.legal_actions() == [("play", card("Hull Plating")), ("pass",)]  # no silver in the Sail phase
    play(state, rng, ("play", card("Hull Plating")))
    assert state.progress == [3, 4, 5] and state.used[BOB][GOLD_USED]
    assert state.pending == ["window", BOB]
    assert ("play", card("Full Sail")) not in state.legal_actions()


def test_no_reaction_once_that_metal_is_spent_nor_against_non_attacks_or_tiles():
    def spent(d):
        d["used"][BOB][SILVER_USED] = True

    state = table("Mutinous Whispers", bob=("Parley",), edit=spent)
    play(state, Script(), ("play", card("Mutinous Whispers")), ("target", BOB))
    assert state.crews.crew == [5, 4, 5] and state.pending == ["window", BOB]
    # a tile's attack is no Action card: Fire your Cannons hits through Hull Plating
    d = fresh(3)
    set_hand(d, BOB, "Hull Plating")
    d["progress"] = [7, 4, 5]
    state = load(window(d, "sail", token=ANNE, winner=ANNE))
    rng = Script(P_O)
    skip(state, rng, "window", "reroll")
    assert state.pending == ["target", ANNE]
    play(state, rng, ("target", BOB))
    assert state.crews.crew == [5, 3, 5] and state.phase == "action"


def test_reaction_cards_are_not_played_from_the_window():
    state = table("Parley", "Hull Plating")
    assert state.legal_actions() == [("pass",), ("buy",)]


def test_every_card_kind_is_covered_here():
    covered = {s[0] for s in SIMPLE} | {
        "Treasure Map",
        "Mermaid's Song",
        "Pickpocket",
        "Challenge",
        "Brawl",
        "Parley",
        "Hull Plating",
    }
    assert covered == {c.name for c in CARDS}
