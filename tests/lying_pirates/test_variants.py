"""Variant cards (``variants=[...]``): each card's rule, and Instant Death's sunk captains."""

from __future__ import annotations

import numpy as np
import pytest

from bidbluff.envs.lying_pirates.content import VARIANTS
from bidbluff.envs.lying_pirates.engine import advance
from bidbluff.envs.lying_pirates.frames import SailPhase
from bidbluff.envs.lying_pirates.setup import new_game

from .conftest import (
    GHOST,
    SAIL1,
    T_X,
    Script,
    betting,
    give_special,
    load,
    play,
    set_crew,
    set_hand,
    skip,
    window,
)
from .optionkit import CITIES, card, city, ready, set_influence

ANNE, BOB, CHRIS, DAN = 0, 1, 2, 3


def test_the_variant_table():
    assert len(VARIANTS) == 9 and VARIANTS[0].name == "Instant Death"
    assert VARIANTS[-1].name == "Draw Two, Keep One"


def test_unknown_variant_cards_are_refused():
    with pytest.raises(ValueError, match="no variant card"):
        new_game(3, np.random.default_rng(0), variants=["Free Beer"])


# -- Instant Death --------------------------------------------------------------------------------------------
def hit_bob(num_players: int = 4, variants=("Instant Death",), edit=None):
    """Anne plays Mutinous Whispers (a crew die) on Bob, who has one crew die left."""
    d = ready(num_players, variants=list(variants))
    set_hand(d, ANNE, "Mutinous Whispers")
    set_hand(d, BOB)
    set_crew(d, BOB, 1)
    d["progress"] = [1] * d["captains"]  # off the Base, which protects from cards
    if edit:
        edit(d)
    state = load(window(d, "action", token=ANNE, winner=ANNE))
    play(state, Script(then=0), ("play", card("Mutinous Whispers")), ("target", BOB))
    return state


def test_instant_death_sinks_a_captain_who_loses_the_last_die():
    state = hit_bob(edit=lambda d: give_special(d, BOB, GHOST))
    # the special goes first (the one-crew-die rule still holds while there is a special to lose)
    assert state.crews.crew[BOB] == 1 and state.crews.out == []
    state = hit_bob()
    assert state.crews.out == [BOB] and state.crews.crew[BOB] == 0 and state.crews.dice(BOB) == 0


def test_without_instant_death_the_last_die_stays():
    state = hit_bob(variants=("Rich Harbour",))
    assert state.crews.crew[BOB] == 1 and state.crews.out == []


def test_the_game_goes_on_without_the_sunk_captain():
    state = hit_bob()
    rng = Script(then=1)
    assert state.pending == ["window", BOB] or state.pending[1] != BOB
    while state.phase != "betting":
        assert state.pending[1] != BOB, "a sunk captain gets no decision"
        play(state, rng, state.legal_actions()[0])
    assert BOB not in state.betting.cups and BOB not in state.betting.bettors
    assert state.scores()[BOB] < 0  # ranked below every ship still sailing
    while not state.is_terminal():
        assert state.pending[1] != BOB
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))], rng)
    assert BOB not in state.winners


def test_the_last_player_afloat_wins():
    def edit(d):
        d["crews"]["out"] = [CHRIS]
        d["crews"]["crew"][CHRIS] = 0

    state = hit_bob(num_players=3, edit=edit)
    assert state.is_terminal() and state.winners == [ANNE]


def test_two_players_one_sunk_the_other_wins():
    state = hit_bob(num_players=2)
    assert state.is_terminal() and state.winners == [ANNE]


# -- the other cards ------------------------------------------------------------------------------------------
def test_rich_harbour_starts_with_four_coins():
    state = new_game(4, np.random.default_rng(0), variants=["Rich Harbour"])
    assert state.coins == [4, 4, 4, 4]


def exact_by_chris(variants):
    """Chris calls "exactly 2 threes" and is right: he alone sails (sail die 1)."""
    d = ready(3, variants=list(variants))
    d["coins"] = [2, 2, 2]
    betting(d, {0: [3, 4], 1: [2, 5], 2: [3, 6]}, bids=[[ANNE, 1, 3], [BOB, 2, 2]], token=ANNE)
    state = load(d)
    rng = Script(SAIL1, then=0)
    play(state, rng, ("exact", 2, 3))
    return state, rng


def test_strong_winds_sails_the_winner_one_tile_further():
    state, rng = exact_by_chris(["Strong Winds"])
    skip(state, rng, "reroll", "window", phase="sail")
    assert state.progress[CHRIS] == 2  # the Steal a Crewmember tile: a target to choose
    state, rng = exact_by_chris(["Rich Harbour"])
    skip(state, rng, "reroll", "window", phase="sail")
    assert state.progress[CHRIS] == 1


def test_bounty_makes_the_losers_pay_the_winner():
    state, _ = exact_by_chris(["Bounty"])
    assert state.coins == [1, 1, 5]  # +1 for winning, +1 from each loser
    state, _ = exact_by_chris(["Rich Harbour"])
    assert state.coins == [2, 2, 3]


def test_pirate_code_forbids_exact_calls():
    d = ready(3, variants=["Pirate Code"])
    state = new_game(3, np.random.default_rng(2), variants=["Pirate Code"])
    play(state, Script(), state.legal_actions()[0])
    assert not any(a[0] == "exact" for a in state.legal_actions())
    assert ("liar",) in state.legal_actions()
    assert d["ext"]["options"]["variants"] == ["Pirate Code"]


def test_deep_pockets_makes_rerolls_free():
    d = ready(3, variants=["Deep Pockets"])
    d["coins"] = [0, 0, 0]
    d["slots"][5] = 10  # Gamble: a Treasure die roll
    d["progress"] = [4, 0, 0]
    state = load(window(d, "sail", token=ANNE, winner=ANNE))
    rng = Script(T_X, T_X)
    skip(state, rng, "window", phase="sail")
    assert state.pending == ["reroll", ANNE]  # offered with no coin
    play(state, rng, ("reroll",))
    assert state.coins[ANNE] == 0 and state.used[ANNE][2]


def test_supply_drop_tops_up_small_hands_at_the_action_phase():
    d = ready(3, variants=["Supply Drop"])
    set_hand(d, ANNE)
    set_hand(d, BOB, "Full Sail")
    set_hand(d, CHRIS, "Full Sail", "Tailwind")
    d["slots"][1] = 5  # Treasure Cove: no choices
    d["progress"] = [0, 7, 7]
    state = load(window(d, "sail", token=ANNE, winner=ANNE))
    skip(state, Script(then=0), "window", phase="sail")
    assert state.phase == "action"
    assert [len(h) for h in state.hands] == [1, 2, 2]


def test_kraken_wakes_bites_ships_in_treacherous_waters_at_round_end():
    d = ready(3, variants=["Kraken Wakes"])
    d["progress"] = [9, 1, 9]  # slot 9: treacherous; slot 1: safe
    crews = list(d["crews"]["crew"])
    state = load(window(d, "action", token=ANNE, winner=ANNE))
    skip(state, Script(then=0), "window", "catchup", phase="action")
    assert state.crews.crew[ANNE] == crews[ANNE] - 1 and state.crews.crew[CHRIS] == crews[CHRIS] - 1
    assert state.crews.crew[BOB] == crews[BOB]


def test_draw_two_keep_one_when_buying_an_action_card():
    d = ready(3, variants=["Draw Two, Keep One"])
    d["coins"][ANNE] = 2
    hand = list(d["hands"][ANNE])
    state = load(window(d, "action", token=ANNE, winner=ANNE))
    top_two = state.deck[-2:]
    play(state, Script(), ("buy",))
    assert state.pending == ["card_return", ANNE] and sorted(state.drawn("card").cards) == sorted(top_two)
    returned = state.drawn("card").cards[0]
    kept = state.drawn("card").cards[1]
    play(state, Script(), ("return_card", returned))
    assert sorted(state.hands[ANNE]) == sorted([*hand, kept]) and state.discard[-1] == returned
    assert state.coins[ANNE] == 0 and state.pending == ["window", BOB]


def test_draw_two_keep_one_when_buying_an_influence_card():
    d = city(variants=["Draw Two, Keep One"])
    set_influence(d, ANNE, 0)
    d["coins"][ANNE] = 1
    state = load(window(d, "action", token=ANNE, winner=ANNE))
    play(state, Script(), ("buy_influence",))
    assert state.pending == ["influence_return", ANNE]
    drawn = list(state.drawn("influence").cards)
    play(state, Script(), ("return_influence", drawn[0]))
    assert sorted(state.ext["influence"][ANNE]) == sorted([0, drawn[1]])
    assert state.ext["influence_discard"][-1] == drawn[0]


def test_all_variants_and_the_expansion_together_set_up():
    state = new_game(5, np.random.default_rng(0), variants=[v.name for v in VARIANTS], **CITIES)
    assert state.crews.mortal and state.coins == [4] * 5


def test_a_ship_sunk_after_reaching_the_base_is_not_in_the_final_battle():
    d = ready(3, variants=["Instant Death"])
    set_crew(d, BOB, 1)
    d["progress"] = [11, 11, 3]  # Anne and Bob one tile from home
    d["slots"][0] = 0
    state = load(window(d, "sail", token=ANNE, winner=ANNE, survivors=(BOB,)))
    rng = Script(then=0)
    skip(state, rng, "window", phase="sail")
    state.finished = [ANNE, BOB]
    state.crews.lose(BOB, 1)
    state.stack[:], state.pending = [SailPhase(stage="end_of_sail")], []
    advance(state, rng)
    assert state.finished == [ANNE] and state.winners == [ANNE]
