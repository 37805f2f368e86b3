"""Cities of Greed (``expansion="cities_of_greed"``): towns, influence cards, cargo, the Mayor die, new tiles."""

from __future__ import annotations

import numpy as np
import pytest

from bidbluff import envs
from bidbluff.envs.lying_pirates import encoder, observation
from bidbluff.envs.lying_pirates.action_codec import CODEC, FULL_CODEC
from bidbluff.envs.lying_pirates.betting import LYING_PIRATES, count_for
from bidbluff.envs.lying_pirates.content import ALL_TILE_INDEX, INFLUENCE, TOWNS
from bidbluff.envs.lying_pirates.dice import BOMB, COIN, Die
from bidbluff.envs.lying_pirates.setup import new_game

from .conftest import SAIL1, T_O, T_X, Script, give_special, load, play, set_crew, set_hand, skip, window
from .optionkit import CITIES, city, set_influence

ANNE, BOB, CHRIS = 0, 1, 2
EASTPORT, LIGHTHOUSE = 0, 1
CARD = 0  # influence kind 0 names towns 0, 1, 2


# -- setup ------------------------------------------------------------------------------------------------
def test_town_cards_go_under_every_tile_but_the_base_in_turns_from_the_first_placer():
    rng = np.random.default_rng(3)
    state = new_game(3, rng, **CITIES)
    x = state.ext
    start = x["town_order"][0]
    assert x["town_order"] == [start, (start + 1) % 3, (start + 2) % 3]  # clockwise from the first placer
    assert state.pending == ["town_place", start]
    legal = state.legal_actions()
    assert len(legal) == 7 * 11 and all(s != 0 for _, _, s in legal)  # any of the 7 towns, any slot but the Base
    seen = []
    while state.pending[0] == "town_place":
        seen.append(state.pending[1])
        seat = state.pending[1]
        town, slot = state.legal_actions()[-1][1:]
        state.apply(("town_place", town, slot), rng)
        assert town not in x["town_cards"][seat] and x["towns"][slot] == town
    assert seen == [x["town_order"][i % 3] for i in range(11)]
    assert x["towns"][0] == -1 and all(t >= 0 for t in x["towns"][1:])
    # the same town may lie under several tiles (each player has a set of seven)
    assert len(set(x["towns"][1:])) < 11


def test_each_player_chooses_a_different_designated_town_in_turn():
    rng = np.random.default_rng(4)
    state = new_game(3, rng, **CITIES)
    while state.pending[0] == "town_place":
        state.apply(state.legal_actions()[0], rng)
    order = state.ext["town_order"]
    for i, seat in enumerate(order):
        assert state.pending == ["town_choose", seat]
        legal = state.legal_actions()
        assert len(legal) == 7 - i
        state.apply(("town_choose", 6 - i), rng)
    assert [state.ext["designated"][s] for s in order] == [6, 5, 4]


def test_influence_setup_draws_three_and_keeps_two():
    rng = np.random.default_rng(5)
    state = new_game(4, rng, **CITIES)
    assert all(len(state.ext["influence"][p]) == 3 for p in range(4))
    while state.pending[0] in ("town_place", "town_choose"):
        state.apply(state.legal_actions()[0], rng)
    for _ in range(4):
        seat = state.pending[1]
        assert state.pending[0] == "influence_return"
        hand = list(state.ext["influence"][seat])
        state.apply(("return_influence", hand[0]), rng)
        assert len(state.ext["influence"][seat]) == 2
        assert state.ext["influence_discard"][-1] == hand[0]
    assert state.pending[0] == "bet"
    assert len(state.ext["influence_deck"]) == 21 - 12


def test_two_players_on_the_extended_map_place_the_phantoms_town_cards_too():
    rng = np.random.default_rng(1)
    state = new_game(2, rng, map="extended", **CITIES)
    while state.pending[0] == "town_place":
        state.apply(state.legal_actions()[0], rng)
    assert all(t >= 0 for t in state.ext["towns"][1:])  # 15 tiles, 14 player cards: the Phantom's set fills in
    assert state.ext["town_cards"][0] == state.ext["town_cards"][1] == []
    assert len(state.ext["town_cards"][2]) == 6
    assert state.ext["designated"][2] == -1 and state.pending[0] == "town_choose"


# -- influence cards ----------------------------------------------------------------------------------------
def action_window(edit=None):
    """Anne holds the token in the Action phase; Anne and Bob are in Eastport, Chris in the Lighthouse."""
    d = city()
    d["progress"] = [1, 8, 2]  # slots 1 and 8: Eastport; slot 2: the Abandoned Lighthouse
    set_influence(d, ANNE, CARD, CARD)
    d["coins"] = [3, 3, 3]
    d["ext"]["designated"] = [4, 5, 6]  # towns nobody is in
    if edit:
        edit(d)
    return load(window(d, "action", token=ANNE, winner=ANNE))


def test_influence_is_played_in_the_action_window_only_once_a_round():
    state = action_window()
    legal = state.legal_actions()
    assert ("influence", CARD) in legal and ("buy_influence",) in legal
    rng = Script()
    play(state, rng, ("influence", CARD))
    assert state.pending == ["influence_town", ANNE]
    assert state.legal_actions() == [("town", t) for t in INFLUENCE[CARD].towns]
    play(state, rng, ("town", 2), ("bonus",))
    assert state.pending == ["window", BOB]
    play(state, rng, ("pass",), ("pass",))
    assert state.pending == ["window", ANNE]
    assert ("influence", CARD) not in state.legal_actions()  # one influence card per Action phase


def test_no_influence_in_the_sail_window():
    d = city()
    set_influence(d, ANNE, CARD)
    state = load(window(d, "sail", token=ANNE, winner=ANNE))
    assert not any(a[0] in ("influence", "buy_influence") for a in state.legal_actions())


def test_attack_makes_every_captain_in_the_town_lose_one_cargo_of_their_choice():
    def edit(d):
        set_hand(d, BOB, "Full Sail")
        set_crew(d, ANNE, 5)

    state = action_window(edit)
    rng = Script()
    play(state, rng, ("influence", CARD), ("town", EASTPORT), ("attack",))
    # Anne (who played it) is in Eastport too: every captain there loses a cargo, in turn order
    assert state.pending == ["cargo", ANNE]
    legal = state.legal_actions()
    assert ("drop_coin",) in legal and ("drop_crew",) in legal
    play(state, rng, ("drop_crew",))
    assert state.crews.crew[ANNE] == 4
    assert state.pending == ["cargo", BOB]
    assert ("drop_card", state.hands[BOB][0]) in state.legal_actions()
    play(state, rng, ("drop_coin",))
    assert state.coins == [3, 2, 3]  # Chris, in the Lighthouse, keeps everything
    assert state.pending == ["window", BOB]


def test_cargo_card_goes_to_the_discard():
    def edit(d):
        set_hand(d, BOB, "Full Sail")
        d["coins"][BOB] = 0
        set_crew(d, BOB, 1)

    state = action_window(edit)
    rng = Script()
    play(state, rng, ("influence", CARD), ("town", EASTPORT), ("attack",), ("drop_coin",))
    # Bob has no coin and cannot spare his last crew die: only the card
    assert state.legal_actions() == [("drop_card", state.hands[BOB][0])]
    kind = state.hands[BOB][0]
    play(state, rng, ("drop_card", kind))
    assert state.hands[BOB] == [] and state.discard[-1] == kind


def test_bonus_pays_a_coin_to_everyone_in_the_town():
    state = action_window()
    play(state, Script(), ("influence", CARD), ("town", EASTPORT), ("bonus",))
    assert state.coins == [4, 4, 3]  # Anne (no designated town there) and Bob; not Chris
    assert state.crews.holder[int(Die.MAYOR)] == -1


def test_bonus_on_your_own_town_while_there_gives_two_coins_and_the_mayor_die():
    def edit(d):
        d["ext"]["designated"] = [EASTPORT, LIGHTHOUSE, 2]
        give_special(d, CHRIS, int(Die.MAYOR))

    state = action_window(edit)
    play(state, Script(), ("influence", CARD), ("town", EASTPORT), ("bonus",))
    assert state.coins == [5, 4, 3]
    assert state.crews.holder[int(Die.MAYOR)] == ANNE  # taken from whoever had it


def test_own_town_bonus_needs_you_there():
    def edit(d):
        d["ext"]["designated"] = [LIGHTHOUSE, EASTPORT, 2]

    state = action_window(edit)
    play(state, Script(), ("influence", CARD), ("town", LIGHTHOUSE), ("bonus",))
    assert state.coins == [3, 3, 4]  # Anne is not in her town: only Chris, who is there, gains
    assert state.crews.holder[int(Die.MAYOR)] == -1


def test_buying_an_influence_card_costs_one_coin():
    state = action_window()
    play(state, Script(), ("buy_influence",))
    assert state.coins[ANNE] == 2 and len(state.ext["influence"][ANNE]) == 3


# -- the Mayor die --------------------------------------------------------------------------------------------
def test_mayor_faces_count_for_no_bet_and_its_one_is_wild():
    cups = {0: [[int(Die.MAYOR), COIN], [0, 3]], 1: [[int(Die.MAYOR), 1], [0, 3]]}
    assert count_for(cups, 3, 0, LYING_PIRATES) == 3
    assert count_for({0: [[int(Die.MAYOR), BOMB]]}, 2, 0, LYING_PIRATES) == 0


def reveal_with(face: int):
    """Chris holds the Mayor die showing ``face``; Bob's bet 2x3 is called a liar by Chris and holds."""
    from .conftest import betting

    d = city()
    give_special(d, CHRIS, int(Die.MAYOR))
    d["coins"] = [2, 2, 2]
    betting(d, {0: [3, 3], 1: [3, 4], 2: [[int(Die.MAYOR), face], 5]}, bids=[[ANNE, 1, 3], [BOB, 2, 3]], token=ANNE)
    return load(d)


def test_mayor_coin_pays_its_holder_at_the_reveal():
    state = reveal_with(COIN)
    play(state, Script(SAIL1), ("liar",))
    assert state.result["winner"] == BOB and CHRIS in state.result["losers"]
    assert state.coins == [2, 3, 3]  # Bob +1 for winning; Chris +1 from the coin face, though she lost


def test_mayor_blank_pays_nothing():
    state = reveal_with(0)
    play(state, Script(SAIL1), ("liar",))
    assert state.coins == [2, 3, 2]


def test_mayor_bomb_makes_a_chosen_captain_lose_one_cargo():
    state = reveal_with(BOMB)
    rng = Script(SAIL1)
    play(state, rng, ("liar",))
    assert state.pending == ["bomb", CHRIS]
    assert state.legal_actions() == [("target", ANNE), ("target", BOB)]
    play(state, rng, ("target", ANNE))
    assert state.pending == ["cargo", ANNE]
    play(state, rng, ("drop_coin",))
    assert state.coins[ANNE] == 1 and state.phase == "sail"


# -- the expansion's tiles ----------------------------------------------------------------------------------
def onto(name: str, *rolls: int):
    """Anne sails alone onto ``name`` (put on slot 3 / 5 / 9 by its water) and resolves it."""
    slot = {"safe": 3, "uncharted": 5, "treacherous": 9}[
        __import__("bidbluff.envs.lying_pirates.content", fromlist=["ALL_TILES"]).ALL_TILES[ALL_TILE_INDEX[name]].water
    ]
    d = city()
    d["slots"][slot] = ALL_TILE_INDEX[name]
    d["progress"] = [slot - 1, 0, 0]
    d["coins"] = [2, 2, 2]
    state = load(window(d, "sail", token=ANNE, winner=ANNE))
    rng = Script(*rolls)
    skip(state, rng, "window", "reroll", phase="sail")
    return state, rng


def test_town_hall_hands_over_the_mayor_die():
    state, _ = onto("Town Hall")
    assert state.crews.holder[int(Die.MAYOR)] == ANNE


def test_tax_office_gives_a_coin_and_an_influence_card():
    state, _ = onto("Tax Office")
    assert state.coins[ANNE] == 3 and len(state.ext["influence"][ANNE]) == 3


@pytest.mark.parametrize(("name", "roll", "lost"), [("Smugglers' Market", T_X, 1), ("Pillaged Port", 0, 2)])
def test_bad_outcomes_of_the_new_tiles_cost_cargo(name, roll, lost):
    state, rng = onto(name, roll)
    for _ in range(lost):
        assert state.pending == ["cargo", ANNE]
        play(state, rng, ("drop_coin",))
    assert state.coins[ANNE] == 2 - lost


def test_smugglers_market_good_outcome():
    state, _ = onto("Smugglers' Market", T_O)
    assert state.coins[ANNE] == 4 and len(state.ext["influence"][ANNE]) == 3


def test_first_game_layout_with_the_expansion_swaps_in_the_new_tiles():
    state = new_game(3, np.random.default_rng(0), **CITIES)
    names = {ALL_TILE_INDEX[n] for n in ("Town Hall", "Smugglers' Market", "Pillaged Port")}
    assert names <= set(state.slots)


# -- observation and spaces ---------------------------------------------------------------------------------
def test_observation_shows_towns_designations_influence_and_the_mayor():
    def edit(d):
        d["ext"]["designated"] = [EASTPORT, LIGHTHOUSE, 2]
        give_special(d, BOB, int(Die.MAYOR))

    state = action_window(edit)
    obs = encoder.encode(state, ANNE)
    assert obs.shape == (observation.FULL_OBSERVATION_SIZE,)
    view = observation.FULL_LAYOUT.view(obs)
    assert view.towns[1, EASTPORT] == 1 and view.towns[0].sum() == 0
    assert view.own_influence[CARD] == pytest.approx(2 / 3)
    assert view.mayor[1] == 1  # Bob: relative seat 1 from Anne
    assert view.designated[1, LIGHTHOUSE] == 1
    # Bob sees his own influence cards, not Anne's
    assert (
        observation.FULL_LAYOUT.view(encoder.encode(state, BOB)).own_influence[CARD] == 0
        or CARD in (state.ext["influence"][BOB])
    )


def test_spaces_base_and_with_options():
    base = envs.make("lying_pirates_v0", num_players=3)
    assert base.action_space("player_0").n == 1062
    assert base.observation_space("player_0")["observation"].shape == (2996,)
    full = envs.make("lying_pirates_v0", num_players=3, expansion="cities_of_greed")
    assert full.action_space("player_0").n == 1326
    assert full.observation_space("player_0")["observation"].shape == (3504,)
    assert FULL_CODEC.kinds[: len(CODEC.kinds)] == CODEC.kinds  # base ids keep their meaning


def test_a_reset_cannot_switch_the_options_spaces():
    env = envs.make("lying_pirates_v0", num_players=3)
    with pytest.raises(ValueError, match="options"):
        env.reset(options={"expansion": "cities_of_greed"})
    full = envs.load("lying_pirates_v0").raw_env(num_players=3, expansion="cities_of_greed")
    full.reset(seed=0)
    with pytest.raises(ValueError, match="options"):
        envs.load("lying_pirates_v0").raw_env(num_players=3).reset(options={"state": full.game_state.to_dict()})


def test_town_names():
    assert len(TOWNS) == 7 and TOWNS[:2] == ("Eastport", "Abandoned Lighthouse")
    assert sum(card.count for card in INFLUENCE) == 21
