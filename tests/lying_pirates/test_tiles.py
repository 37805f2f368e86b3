"""Every tile of ``content.TILES`` resolved through the engine, each outcome of the P/T die."""

from __future__ import annotations

import pytest

from bidbluff.envs.lying_pirates.content import BASE, SAFE, TILES, TREACHEROUS, UNCHARTED

from .conftest import (
    CURSED,
    DAGGER,
    GHOST,
    KING,
    MERMAID,
    P_O,
    P_X,
    SKULL,
    SWORDS,
    T_O,
    T_X,
    Script,
    fresh,
    give_special,
    load,
    play,
    skip,
    tile,
    window,
)

ANNE, BOB, CHRIS = 0, 1, 2
SLOT_IN = {SAFE: 2, UNCHARTED: 5, TREACHEROUS: 9}  # a base-map slot of each water


def sail_onto(name: str, bob: int = 7, chris: int = 0, edit=None):
    """Anne, alone, sails one tile onto ``name`` (put on a slot of its own water); Bob and Chris wait."""
    d = fresh(3)
    slot = SLOT_IN[TILES[tile(name)].water]
    d["slots"][slot] = tile(name)
    d["progress"] = [slot - 1, bob, chris]
    if edit:
        edit(d)
    return load(window(d, "sail", token=ANNE, winner=ANNE))


def resolve(name: str, *rolls: int, bob: int = 7, chris: int = 0, edit=None):
    state = sail_onto(name, bob, chris, edit)
    before = snapshot(state)
    rng = Script(*rolls)
    skip(state, rng, "window", phase="sail")
    if TILES[tile(name)].roll:
        assert state.pending == ["reroll", ANNE] and state.pt.roller == ANNE
        play(state, rng, ("keep",))
    return state, before, rng


def snapshot(state) -> dict:
    return {
        "coins": state.coins[ANNE],
        "crew": state.crews.crew[ANNE],
        "progress": state.progress[ANNE] + 1,
        "hand": len(state.hands[ANNE]),
    }


def delta(state, before) -> dict:
    now = snapshot(state)
    now["progress"] -= 1
    return {k: now[k] - before[k] for k in now if now[k] != before[k]}


def test_the_tile_set():
    assert len(TILES) == 25 and len({t.name for t in TILES}) == 25
    assert [t.name for t in TILES if t.water == BASE] == ["Start/End"]
    for t in TILES:
        assert (t.roll != "") == bool(t.bad), t.name  # a roll picks between two outcomes


SIMPLE = [
    ("Recruit Crew", None, {"crew": 2}),
    ("Treasure Cove", None, {"coins": 2}),
    ("Trade Winds", None, {"hand": 1}),
    ("Safe Harbour", None, {"coins": 1, "crew": 1}),
    ("Fair Winds", None, {"progress": 1}),
    ("Caught by the Navy", P_O, {"coins": -1}),
    ("Caught by the Navy", P_X, {"crew": -2}),
    ("Gamble", T_O, {"coins": 3}),
    ("Gamble", T_X, {"coins": -2}),
    ("Change of Wind", P_X, {"progress": -1}),
    ("Ghost Ship", P_X, {"crew": -1}),
    ("Cursed Idol", T_O, {"coins": 2}),
    ("Message in a Bottle", T_O, {"hand": 2}),
    ("Fire your Cannons", P_X, {"crew": -1}),
    ("Mutiny", None, {"crew": -2}),
    ("Broken Compass", None, {"progress": -2}),
    ("Whirlpool", None, {"progress": -1, "coins": -1}),
    ("Reef", None, {"crew": -1, "coins": -1}),
    ("Sea Serpent", T_O, {"coins": 3}),
    ("Sea Serpent", T_X, {"crew": -3}),
    ("Doldrums", None, {"coins": -2}),
]


@pytest.mark.parametrize(("name", "roll", "expected"), SIMPLE, ids=[f"{n}-{r}" for n, r, _ in SIMPLE])
def test_tile_effect_on_the_resolver(name, roll, expected):
    rolls = [] if roll is None else [roll]
    state, before, rng = resolve(name, *rolls)
    assert [n for n, _ in rng.drawn] == ([] if roll is None else [6])  # one Pirate or Treasure die roll
    assert delta(state, before) == expected
    assert state.phase == "action" and state.crews.crew[BOB] == 5 and state.coins[BOB] == 2
    assert not rng.left


def test_drawn_cards_come_from_the_top_of_the_deck():
    state = sail_onto("Trade Winds")
    top = state.deck[-1]
    skip(state, Script(), "window")
    assert top in state.hands[ANNE] and len(state.deck) == 83 - 18 - 1


@pytest.mark.parametrize(("name", "roll", "lost"), [("Message in a Bottle", T_X, 1), ("Storm", None, 2)])
def test_tiles_that_discard_random_cards(name, roll, lost):
    rolls = [] if roll is None else [roll]
    state = sail_onto(name)
    hand = list(state.hands[ANNE])
    rng = Script(*rolls, *[0] * lost)  # the first card of the hand each time
    skip(state, rng, "window", "reroll")
    assert state.hands[ANNE] == hand[lost:]
    assert state.discard == hand[:lost]
    assert not rng.left


def test_start_end_resolves_nothing():
    d = fresh(3)
    d["progress"] = [11, 5, 5]
    d["coins"] = [2, 2, 2]
    state = load(window(d, "sail", token=ANNE, winner=ANNE))
    skip(state, Script(), "window")
    assert state.winners == [ANNE] and state.coins == [2, 2, 2] and state.crews.crew == [5, 5, 5]


def test_pirate_king_is_taken_from_whoever_has_it():
    state, _, _ = resolve("Pirate King", edit=lambda d: give_special(d, BOB, KING))
    assert state.crews.holder[KING] == ANNE
    assert state.crews.specials(BOB) == []


def test_mermaids_lagoon_takes_the_mermaid_from_the_board():
    state, _, _ = resolve("Mermaid's Lagoon")
    assert state.crews.holder[MERMAID] == ANNE


@pytest.mark.parametrize(("name", "roll", "die"), [("Ghost Ship", P_O, GHOST), ("Cursed Idol", T_X, CURSED)])
def test_tiles_that_hand_out_a_special_die(name, roll, die):
    state, before, _ = resolve(name, roll, edit=lambda d: give_special(d, CHRIS, die))
    assert state.crews.holder[die] == ANNE
    assert delta(state, before) == {}


def test_change_of_wind_turns_the_token_over_for_the_resolver():
    state, before, _ = resolve("Change of Wind", P_O, edit=lambda d: d.update(token=BOB))
    assert (state.token, state.direction) == (ANNE, -1)
    assert delta(state, before) == {}


def test_steal_a_crewmember_targets_anyone_even_on_the_base():
    state = sail_onto("Steal a Crewmember", bob=7, chris=0)
    rng = Script()
    skip(state, rng, "window")
    assert state.pending == ["target", ANNE]
    assert state.legal_actions() == [("target", BOB), ("target", CHRIS)]  # tiles are no Action card
    play(state, rng, ("target", CHRIS))
    assert state.crews.crew == [6, 5, 4]


def test_fire_your_cannons_o_hits_a_target_for_two():
    state = sail_onto("Fire your Cannons", bob=3)
    rng = Script(P_O)
    skip(state, rng, "window", "reroll")
    play(state, rng, ("target", BOB))
    assert state.crews.crew == [5, 3, 5]


def test_duel_o_steals_two_coins():
    state = sail_onto("Duel", edit=lambda d: d.update(coins=[2, 3, 1]))
    rng = Script(T_O)
    skip(state, rng, "window", "reroll")
    play(state, rng, ("target", CHRIS))
    assert state.coins == [3, 3, 0]  # only one coin to take


@pytest.mark.parametrize(
    ("rolls", "loser"), [((SWORDS, DAGGER), BOB), ((SKULL, DAGGER), ANNE), ((DAGGER, DAGGER, SKULL, SWORDS), ANNE)]
)
def test_duel_x_is_a_duel_whose_loser_loses_a_crew_die(rolls, loser):
    state = sail_onto("Duel")
    rng = Script(T_X, *rolls)
    skip(state, rng, "window", "reroll")
    play(state, rng, ("target", BOB))
    assert state.battle.rolling == [ANNE, BOB]
    skip(state, rng, "reroll")
    assert state.phase == "action"
    crew = [5, 5, 5]
    crew[loser] -= 1
    assert state.crews.crew == crew
    assert not rng.left


def test_kraken_hits_everyone_in_treacherous_waters():
    # Anne resolves on slot 9 (treacherous), Bob waits on slot 11 (treacherous), Chris on slot 6 (uncharted)
    state, _, _ = resolve("Kraken", bob=11, chris=6)
    assert state.crews.crew == [3, 4, 5]  # Anne: the Kraken and the extra crew die


def test_kraken_spares_the_base():
    state, _, _ = resolve("Kraken", bob=0, chris=10)
    assert state.crews.crew == [3, 5, 4]


def test_doldrums_never_takes_coins_below_zero():
    state, _, _ = resolve("Doldrums", edit=lambda d: d.update(coins=[1, 2, 2]))
    assert state.coins[ANNE] == 0


def test_broken_compass_sends_the_ship_back_two_tiles():
    d = fresh(3)
    d["progress"] = [10, 3, 3]
    state = load(window(d, "sail", token=ANNE, winner=ANNE))
    assert TILES[state.slots[11]].name == "Broken Compass"
    skip(state, Script(), "window")
    assert state.progress == [9, 3, 3]


def test_every_tile_is_covered_here():
    covered = {n for n, _, _ in SIMPLE} | {
        "Start/End",
        "Pirate King",
        "Mermaid's Lagoon",
        "Ghost Ship",
        "Cursed Idol",
        "Change of Wind",
        "Steal a Crewmember",
        "Fire your Cannons",
        "Duel",
        "Kraken",
        "Storm",
        "Message in a Bottle",
    }
    assert covered == {t.name for t in TILES}
