"""Battles and the final battle: the rulebook's two examples, verbatim."""

from __future__ import annotations

import pytest

from bidbluff.envs.lying_pirates.battle import BATTLE_DIE, Battle, FinalBattle, Icon

ANNE, BOB, CHRIS = 0, 1, 2
SWORDS, DAGGER, SKULL = Icon.SWORDS, Icon.DAGGER, Icon.SKULL


def test_battle_die_faces():
    assert len(BATTLE_DIE) == 8
    assert [BATTLE_DIE.count(i) for i in (SWORDS, DAGGER, SKULL)] == [3, 3, 2]


def test_rulebook_battle_example_looking_for_a_winner():
    battle = Battle([ANNE, BOB, CHRIS], "winner")
    battle.resolve({ANNE: SWORDS, BOB: SWORDS, CHRIS: SKULL})
    assert battle.rolling == [ANNE, BOB] and battle.result is None  # Chris is out
    battle.resolve({ANNE: SKULL, BOB: SKULL})
    assert battle.rolling == [ANNE, BOB]
    battle.resolve({ANNE: SKULL, BOB: DAGGER})
    assert battle.result == BOB


def test_rulebook_battle_example_looking_for_a_loser():
    battle = Battle([ANNE, BOB, CHRIS], "loser")
    battle.resolve({ANNE: SWORDS, BOB: SWORDS, CHRIS: SKULL})
    assert battle.result == CHRIS


def test_battle_checks_who_rolled():
    battle = Battle([ANNE, BOB])
    with pytest.raises(ValueError, match="expected results"):
        battle.resolve({ANNE: SWORDS})
    with pytest.raises(ValueError, match="winner"):
        Battle([ANNE, BOB], "draw")


def test_rulebook_final_battle_example():
    final = FinalBattle({ANNE: 1, BOB: 2, CHRIS: 2})
    # first battle: Chris's skull loses a die
    assert final.resolve({ANNE: DAGGER, BOB: SWORDS, CHRIS: SKULL}) == [CHRIS]
    assert final.crew == {ANNE: 1, BOB: 2, CHRIS: 1}
    # second battle: no clear loser, Bob and Chris roll again
    assert final.resolve({ANNE: SWORDS, BOB: DAGGER, CHRIS: DAGGER}) == []
    assert final.rolling == [BOB, CHRIS]
    assert final.resolve({BOB: SKULL, CHRIS: SKULL}) == [BOB, CHRIS]
    assert final.crew == {ANNE: 1, BOB: 1, CHRIS: 0}  # Chris is eliminated
    assert final.rolling == [ANNE, BOB]
    # third battle: both skulls would knock both out, so they reroll
    assert final.resolve({ANNE: SKULL, BOB: SKULL}) == []
    assert final.crew == {ANNE: 1, BOB: 1, CHRIS: 0}
    assert final.resolve({ANNE: DAGGER, BOB: SWORDS}) == [ANNE]
    assert final.winner == BOB
    assert final.battles == 3


def test_skulls_all_lose_even_when_others_tie_for_worst():
    final = FinalBattle({ANNE: 3, BOB: 3, CHRIS: 3})
    assert final.resolve({ANNE: SKULL, BOB: SKULL, CHRIS: SWORDS}) == [ANNE, BOB]
    assert final.crew == {ANNE: 2, BOB: 2, CHRIS: 3}


def test_a_shared_loss_that_leaves_someone_standing_stands():
    final = FinalBattle({ANNE: 1, BOB: 1, CHRIS: 2})
    assert final.resolve({ANNE: SKULL, BOB: SKULL, CHRIS: DAGGER}) == [ANNE, BOB]
    assert final.winner == CHRIS
