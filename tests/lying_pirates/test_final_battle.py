"""The final battle through the engine: the rulebook's example, specials, buying crew, rerolls and cards."""

from __future__ import annotations

from bidbluff.envs.lying_pirates.crew import BOARD

from .conftest import (
    CURSED,
    DAGGER,
    KING,
    MERMAID,
    SKULL,
    SWORDS,
    Script,
    card,
    fresh,
    give_special,
    load,
    play,
    set_crew,
    set_hand,
    skip,
    window,
)

ANNE, BOB, CHRIS = 0, 1, 2
TILE_BATTLE = (SWORDS, SKULL, SKULL)  # the movers' battle for the (empty) Base tile: Anne wins


def finale(*script, crew=(5, 5, 5), coins=(0, 0, 0), hands=((), (), ()), specials=(), finishers=(ANNE, BOB, CHRIS)):
    """Anne (token) and the others in ``finishers`` sail from the last tile back onto the Base together.

    ``script`` holds the battle dice rolled after the movers' battle (the final battle's)."""
    d = fresh(3)
    for seat in range(3):
        set_crew(d, seat, crew[seat])
        set_hand(d, seat, *hands[seat])
        d["progress"][seat] = 11 if seat in finishers else 5
    d["coins"] = list(coins)
    for seat, die in specials:
        give_special(d, seat, die)
    survivors = tuple(s for s in finishers if s != ANNE)
    state = load(window(d, "sail", token=ANNE, winner=ANNE, survivors=survivors))
    rng = Script(*TILE_BATTLE[: len(finishers)], *script)
    skip(state, rng, "window", "reroll", phase="sail")
    assert state.phase == "final"
    return state, rng


def settle(state, rng) -> None:
    """Everyone still to answer this roll's window passes: the roll stands and is resolved."""
    w = state.window
    for _ in range(len(w.order) - w.passes):
        play(state, rng, ("pass",))


def test_rulebook_final_battle_example():
    state, rng = finale(
        DAGGER,
        SWORDS,
        SKULL,  # battle 1: Chris's skull
        SWORDS,
        DAGGER,
        DAGGER,  # battle 2: Bob and Chris tie worst...
        SKULL,
        SKULL,  # ...and both roll skulls: Chris is out
        SKULL,
        SKULL,  # battle 3: Anne and Bob would both be out: reroll
        DAGGER,
        SWORDS,  # Anne loses her last crew die
        crew=(1, 2, 2),
    )
    assert state.final.crew == [1, 2, 2] and state.final.rolling == [ANNE, BOB, CHRIS]
    assert state.pending == ["final", ANNE] and state.legal_actions() == [("pass",)]
    settle(state, rng)
    assert state.final.crew == [1, 2, 1]
    settle(state, rng)
    assert state.final.rolling == [BOB, CHRIS]  # no clear loser yet: the tied worst roll again
    assert state.final.crew == [1, 2, 1]
    settle(state, rng)
    assert state.final.crew == [1, 1, 0] and state.final.rolling == [ANNE, BOB]
    settle(state, rng)
    assert state.final.crew == [1, 1, 0] and state.final.rolling == [ANNE, BOB]  # both out: reroll
    settle(state, rng)
    assert state.stage == "over" and state.winners == [BOB] and state.pending == []
    assert state.final.crew == [0, 1, 0]
    assert not rng.left


def test_only_the_ships_back_on_the_base_fight_it():
    state, rng = finale(SWORDS, SKULL, DAGGER, DAGGER, finishers=(ANNE, BOB))
    assert state.final.crew == [5, 5, 0] and state.final.rolling == [ANNE, BOB]
    settle(state, rng)
    assert state.final.crew == [5, 4, 0]


def test_special_dice_become_two_crew_dice_each_and_the_limit_is_ignored():
    specials = ((ANNE, KING), (ANNE, CURSED), (BOB, MERMAID))
    state, _ = finale(SWORDS, SWORDS, SWORDS, crew=(9, 10, 5), specials=specials)
    assert state.final.crew == [13, 12, 5]
    assert all(state.crews.holder[d] == BOARD for d in (KING, CURSED, MERMAID))


def test_buying_crew_for_two_coins_each():
    state, rng = finale(SWORDS, SWORDS, SWORDS, coins=(5, 1, 2), crew=(10, 5, 5))
    assert state.pending == ["buy_crew", ANNE]
    assert state.legal_actions() == [("buy",), ("pass",)]
    play(state, rng, ("buy",), ("buy",))
    # Anne has one coin left: no more to buy; Bob has one coin: never asked; Chris buys or not
    assert state.pending == ["buy_crew", CHRIS]
    play(state, rng, ("pass",))
    assert state.final.crew == [12, 5, 5] and state.coins == [1, 1, 2]
    assert state.pending[0] == "final"


def test_every_skull_loses_a_crew_die_even_in_a_tie():
    state, rng = finale(SKULL, SKULL, SWORDS, DAGGER, DAGGER, DAGGER)
    settle(state, rng)
    assert state.final.crew == [4, 4, 5]


def test_the_coin_reroll_is_once_per_battle():
    state, rng = finale(
        SKULL,
        SWORDS,
        SWORDS,  # battle 1, first roll: Anne's skull...
        SWORDS,  # ...which she rerolls: all three swords, all tied: everyone rolls again
        SKULL,
        SWORDS,
        SWORDS,  # Anne's skull again, and no second reroll in this battle
        SKULL,
        SWORDS,
        SWORDS,  # battle 2: Anne's skull, rerolled...
        DAGGER,  # ...to a dagger: she loses the die all the same
        DAGGER,
        DAGGER,
        DAGGER,  # battle 3
        coins=(2, 0, 0),
    )
    play(state, rng, ("pass",))  # no crew bought
    assert state.pending == ["final", ANNE] and ("reroll",) in state.legal_actions()
    play(state, rng, ("reroll",))
    assert state.coins[ANNE] == 1 and state.final.rolls[ANNE] == 2
    assert state.pending == ["final", BOB] and state.legal_actions() == [("pass",)]  # no coins
    play(state, rng, ("pass",), ("pass",))
    assert state.pending == ["final", ANNE] and state.legal_actions() == [("pass",)]  # used this battle
    play(state, rng, ("pass",))
    assert state.final.crew == [5, 5, 5] and state.final.rolling == [ANNE, BOB, CHRIS]
    assert state.pending == ["final", ANNE] and state.legal_actions() == [("pass",)]  # still the same battle
    settle(state, rng)
    assert state.final.crew == [4, 5, 5]
    assert state.pending == ["final", ANNE] and ("reroll",) in state.legal_actions()  # a new battle
    play(state, rng, ("reroll",))
    settle(state, rng)
    assert state.final.crew == [3, 5, 5] and state.coins[ANNE] == 0
    assert not rng.left


def test_cannon_volley_in_the_final_battle_once_per_battle():
    hands = (("Cannon Volley", "Second Wind", "Grog Barrel"), (), ())
    state, rng = finale(SWORDS, SWORDS, SKULL, SWORDS, SWORDS, SKULL, hands=hands)
    legal = state.legal_actions()
    assert legal == [("pass",), ("play", card("Cannon Volley")), ("play", card("Second Wind"))]  # not Grog Barrel
    play(state, rng, ("play", card("Cannon Volley")))
    assert state.pending == ["target", ANNE] and state.legal_actions() == [("target", BOB), ("target", CHRIS)]
    play(state, rng, ("target", BOB))
    assert state.final.crew == [5, 4, 5] and state.crews.crew == [5, 5, 5]  # only the battle's crew
    assert state.pending == ["final", BOB]
    play(state, rng, ("pass",), ("pass",))
    assert state.pending == ["final", ANNE] and state.legal_actions() == [("pass",)]
    play(state, rng, ("pass",))
    assert state.final.crew == [5, 4, 4]  # Chris's skull
    assert ("play", card("Second Wind")) in state.legal_actions()  # the next battle
    play(state, rng, ("play", card("Second Wind")))
    assert state.final.crew == [6, 4, 4]
    assert card("Cannon Volley") in state.discard and card("Second Wind") in state.discard


def test_broadside_in_the_final_battle_hits_every_rival():
    state, rng = finale(SWORDS, SWORDS, SKULL, hands=(("Broadside",), (), ()), crew=(5, 5, 1))
    play(state, rng, ("play", card("Broadside")))
    # Chris is out: the battle ends with that loss and everyone left rolls for the next one
    assert state.final.crew == [5, 4, 0]
    assert state.stage == "final_window" and state.final.rolling == [ANNE, BOB]


def test_a_card_that_knocks_out_the_last_rival_wins_the_game():
    state, rng = finale(SWORDS, SKULL, finishers=(ANNE, BOB), hands=(("Cannon Volley",), (), ()), crew=(5, 1, 5))
    play(state, rng, ("play", card("Cannon Volley")), ("target", BOB))
    assert state.stage == "over" and state.winners == [ANNE]
