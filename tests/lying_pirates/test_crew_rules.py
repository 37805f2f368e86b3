"""Crew rules and the catch-up step, through the engine."""

from __future__ import annotations

from bidbluff.envs.lying_pirates.crew import BOARD

from .conftest import (
    CURSED,
    GHOST,
    KING,
    MERMAID,
    SAIL1,
    Script,
    betting,
    card,
    fresh,
    give_special,
    load,
    play,
    set_crew,
    set_hand,
    skip,
    tile,
    window,
)

ANNE, BOB, CHRIS = 0, 1, 2


def sail_onto(name: str, edit=None):
    """Anne alone sails from slot 1 onto ``name`` put on slot 2; nobody has rolled a die yet."""
    d = fresh(3)
    d["slots"][2] = tile(name)
    d["progress"] = [1, 6, 7]
    if edit:
        edit(d)
    state = load(window(d, "sail", token=ANNE, winner=ANNE))
    skip(state, Script(), "window", phase="sail")
    return state


# Limit of ten -----------------------------------------------------------------------------------


def test_gaining_beyond_ten_returns_crew_dice_to_the_bag():
    state = sail_onto("Recruit Crew", edit=lambda d: set_crew(d, ANNE, 9))
    assert state.crews.crew[ANNE] == 10 and state.crews.bag == 50 - 20


def test_special_dice_count_toward_the_ten():
    def edit(d):
        set_crew(d, ANNE, 8)
        give_special(d, ANNE, KING)

    state = sail_onto("Recruit Crew", edit=edit)
    assert state.crews.crew[ANNE] == 9 and state.crews.dice(ANNE) == 10
    state = sail_onto("Mermaid's Lagoon", edit=lambda d: set_crew(d, ANNE, 10))
    assert state.crews.crew[ANNE] == 9 and state.crews.holder[MERMAID] == ANNE


def test_an_exact_call_at_ten_dice_gains_nothing():
    d = fresh(3)
    set_crew(d, BOB, 10)
    cups = {ANNE: [2] * 5, BOB: [3] * 10, CHRIS: [4] * 5}
    state = load(betting(d, cups, token=ANNE, direction=1))
    play(state, Script(SAIL1), ("bid", 1, 3), ("exact", 10, 3))
    assert state.result["winner"] == BOB and state.crews.crew[BOB] == 10


def test_an_empty_bag_gives_nothing():
    state = sail_onto("Recruit Crew", edit=lambda d: d["crews"].update(bag=0))
    assert state.crews.crew[ANNE] == 5


# The last crew die ------------------------------------------------------------------------------


def test_a_non_cursed_special_goes_instead_of_the_last_crew_die():
    def edit(d):
        set_crew(d, ANNE, 2)
        give_special(d, ANNE, GHOST)
        give_special(d, ANNE, CURSED)

    state = sail_onto("Mutiny", edit=edit)  # lose two: one crew die, then the Ghost instead of the last
    assert state.crews.crew[ANNE] == 1
    assert state.crews.holder[GHOST] == BOARD and state.crews.holder[CURSED] == ANNE


def test_the_cursed_die_never_goes_instead_and_then_nothing_is_lost():
    def edit(d):
        set_crew(d, ANNE, 1)
        give_special(d, ANNE, CURSED)

    state = sail_onto("Mutiny", edit=edit)
    assert state.crews.crew[ANNE] == 1 and state.crews.holder[CURSED] == ANNE


def test_attacks_never_take_the_last_crew_die():
    d = fresh(3)
    set_hand(d, ANNE, "Cannon Volley", "Tailwind")
    set_crew(d, BOB, 1)
    set_crew(d, CHRIS, 1)
    d["progress"] = [3, 4, 5]
    state = load(window(d, "action", token=ANNE))
    play(state, Script(), ("play", card("Cannon Volley")), ("target", BOB))
    assert state.crews.crew == [5, 1, 1]


# Passing the curse -------------------------------------------------------------------------------


def curse_table(kind: str, anne_crew: int = 5):
    d = fresh(3)
    set_crew(d, ANNE, anne_crew)
    give_special(d, ANNE, CURSED)
    return load(window(d, kind, token=ANNE, winner=ANNE))


def test_passing_the_curse_costs_two_crew_dice_in_either_window():
    for kind in ("sail", "action"):
        state = curse_table(kind)
        assert {("curse", BOB), ("curse", CHRIS)} <= set(state.legal_actions())
        play(state, Script(), ("curse", CHRIS))
        assert state.crews.holder[CURSED] == CHRIS
        assert state.crews.crew == [3, 5, 5] and state.crews.bag == 50 - 13
        assert state.pending == ["window", BOB]


def test_the_curse_cannot_be_passed_with_only_two_crew_dice():
    state = curse_table("action", anne_crew=2)
    assert not [a for a in state.legal_actions() if a[0] == "curse"]


def test_only_the_holder_may_pass_the_curse():
    state = curse_table("action")
    play(state, Script(), ("pass",))
    assert not [a for a in state.legal_actions() if a[0] == "curse"]


# Catch-up ----------------------------------------------------------------------------------------------


def action_end(progress, crew=(5, 5, 5), token=ANNE, num_players=3):
    """The Action phase's window, everyone about to pass; the catch-up step comes next."""
    d = fresh(num_players)
    d["progress"] = list(progress)
    for seat, n in enumerate(crew):
        set_crew(d, seat, n)
    state = load(window(d, "action", token=token))
    skip(state, Script(then=0), "window")
    return state


def test_the_sole_last_captain_sacrifices_a_crew_die_per_tile_up_to_the_next_ship():
    state = action_end((0, 3, 5), crew=(8, 5, 5))
    rng = Script(then=0)
    for step in range(1, 4):
        assert state.pending == ["catchup", ANNE]
        assert state.legal_actions() == [("advance",), ("stop",)]
        play(state, rng, ("advance",))
        assert state.progress[ANNE] == step and state.crews.crew[ANNE] == 8 - step
    assert state.crews.bag == 50 - 18 + 3
    # Anne reached Bob's ship: now tied last, they may go on together (Anne first: she holds the token)
    assert state.pending == ["catchup", ANNE]
    play(state, rng, ("advance",))
    assert state.pending == ["catchup", BOB] and state.progress == [3, 3, 5]
    play(state, rng, ("advance",))
    assert state.progress == [4, 4, 5] and state.crews.crew == [4, 4, 5]
    play(state, rng, ("advance",), ("advance",))
    # all three on one tile: nobody is behind, the round is over
    assert state.progress == [5, 5, 5] and state.crews.crew == [3, 3, 5]
    assert state.phase == "betting" and state.pending[0] == "bet"


def test_stopping_ends_the_catch_up():
    state = action_end((0, 3, 5))
    play(state, Script(then=0), ("advance",), ("stop",))
    assert state.progress == [1, 3, 5] and state.crews.crew == [4, 5, 5]
    assert state.phase == "betting"


def test_tied_last_captains_decide_in_turn_order_and_one_refusal_stops_all():
    state = action_end((2, 2, 5), token=BOB)
    assert state.pending == ["catchup", BOB]
    play(state, Script(then=0), ("stop",))  # Anne is never asked
    assert state.progress == [2, 2, 5] and state.phase == "betting"
    state = action_end((2, 2, 5), token=BOB)
    play(state, Script(then=0), ("advance",))
    assert state.pending == ["catchup", ANNE] and state.progress == [2, 2, 5]
    play(state, Script(then=0), ("stop",))
    assert state.progress == [2, 2, 5] and state.crews.crew == [5, 5, 5]
    state = action_end((2, 2, 5), token=BOB)
    play(state, Script(then=0), ("advance",), ("advance",))
    assert state.progress == [3, 3, 5] and state.crews.crew == [4, 4, 5]
    assert state.pending == ["catchup", BOB]


def test_tied_last_captains_cannot_go_if_one_has_no_crew_to_spare():
    state = action_end((2, 2, 5), crew=(1, 5, 5))
    assert state.phase == "betting" and state.progress == [2, 2, 5]


def test_a_lone_captain_with_one_crew_die_cannot_catch_up():
    state = action_end((0, 3, 5), crew=(1, 5, 5))
    assert state.phase == "betting"


def test_nobody_catches_up_when_all_share_a_tile():
    state = action_end((4, 4, 4))
    assert state.phase == "betting"


def test_catch_up_never_steps_onto_the_base():
    # two players: the Phantom is a lap ahead (slot 2); Anne may reach Bob's tile, but not the Base beyond
    state = action_end((10, 11, 14), num_players=2)
    assert state.pending == ["catchup", ANNE]
    play(state, Script(then=0), ("advance",))
    assert state.progress == [11, 11, 14] and state.phase == "betting"
    state = action_end((11, 11, 14), num_players=2)
    assert state.phase == "betting" and state.progress == [11, 11, 14]
