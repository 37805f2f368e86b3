"""Crew rules: limit of ten, the last crew die, specials, stealing, the bag, the curse."""

from __future__ import annotations

import pytest

from bidbluff.envs.lying_pirates.crew import BOARD, Crews
from bidbluff.envs.lying_pirates.dice import Die


def test_start_five_each_and_the_rest_in_the_bag():
    crews = Crews.start(4)
    assert crews.crew == [5, 5, 5, 5] and crews.bag == 30
    assert all(h == BOARD for h in crews.holder.values())


def test_gaining_beyond_ten_returns_normal_crew_to_the_bag():
    crews = Crews([9, 5], bag=10)
    assert crews.gain(0, 3) == 1
    assert crews.crew[0] == 10 and crews.bag == 9
    crews.take_special(0, Die.MERMAID)
    assert crews.crew[0] == 9 and crews.dice(0) == 10 and crews.bag == 10


def test_an_empty_bag_gives_nothing():
    crews = Crews([5, 5], bag=1)
    assert crews.gain(1, 2) == 1
    assert crews.gain(1, 1) == 0 and crews.crew[1] == 6


def test_the_last_crew_die_is_never_lost_but_a_special_goes_instead():
    crews = Crews([2, 5], bag=0)
    crews.take_special(0, Die.MERMAID)
    crews.take_special(0, Die.CURSED)
    assert crews.lose(0, 3) == ["crew", "mermaid"]  # then nothing: the Cursed die never goes instead
    assert crews.crew[0] == 1 and crews.specials(0) == [Die.CURSED]
    assert crews.holder[int(Die.MERMAID)] == BOARD and crews.bag == 1


def test_the_owner_may_choose_which_special_goes():
    crews = Crews([1, 5], bag=0)
    crews.take_special(0, Die.PIRATE_KING)
    crews.take_special(0, Die.GHOST)
    assert crews.lose(0, 1, instead=(Die.GHOST,)) == ["ghost"]
    assert crews.specials(0) == [Die.PIRATE_KING]


def test_a_special_is_taken_from_whoever_has_it():
    crews = Crews([5, 5], bag=0)
    crews.take_special(0, Die.PIRATE_KING)
    crews.take_special(1, Die.PIRATE_KING)
    assert crews.specials(0) == [] and crews.specials(1) == [Die.PIRATE_KING]


def test_stealing_moves_a_die_but_never_the_last():
    crews = Crews([2, 10], bag=0)
    assert crews.steal(1, 0)  # the thief is at ten: the stolen die goes to the bag
    assert crews.crew == [1, 10] and crews.bag == 1
    assert not crews.steal(1, 0)
    assert crews.crew == [1, 10]


def test_passing_the_curse_costs_two_crew_and_needs_a_third():
    crews = Crews([3, 5], bag=0)
    crews.take_special(0, Die.CURSED)
    crews.pass_curse(0, 1)
    assert crews.crew == [1, 5] and crews.bag == 2 and crews.specials(1) == [Die.CURSED]
    with pytest.raises(ValueError, match="cannot pass"):
        crews.pass_curse(0, 1)


def test_final_battle_counts_each_special_as_two_crew_beyond_ten():
    crews = Crews([9, 5], bag=0)
    crews.take_special(0, Die.CURSED)
    crews.take_special(0, Die.MERMAID)
    assert crews.dice(0) == 10
    assert crews.final_battle_crew(0) == 8 + 4


def test_round_trip():
    crews = Crews([3, 7], bag=12)
    crews.take_special(1, Die.GHOST)
    assert Crews.from_dict(crews.to_dict()) == crews
