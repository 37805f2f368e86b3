"""The declared shapes of saved states (``bidbluff.envs.core.validate``): the parts games combine."""

from __future__ import annotations

import pytest

from bidbluff.envs.core.validate import Depends, EmptyOr, Int, ListOf, PerSeat, Record, Str, read


def test_per_seat_may_count_another_number_of_the_context():
    spec = Record(
        {"num_players": Int(2, 6), "captains": Int(2, 6), "coins": PerSeat(Int(0, 9), "captains")},
        into=("num_players", "captains"),
    )
    assert read(spec, {"num_players": 2, "captains": 3, "coins": [1, 2, 3]})["coins"] == [1, 2, 3]
    with pytest.raises(ValueError, match=r"^coins: 2 entries for 3 seats"):
        read(spec, {"num_players": 2, "captains": 3, "coins": [1, 2]})


def test_a_list_length_may_come_from_the_context():
    spec = Record(
        {"lap": Int(1, 20), "slots": ListOf(Int(0, 9), lambda c: c["lap"], lambda c: c["lap"])}, into=("lap",)
    )
    assert read(spec, {"lap": 2, "slots": [0, 1]})["slots"] == [0, 1]
    with pytest.raises(ValueError, match=r"^slots: 3 entries, not 2$"):
        read(spec, {"lap": 2, "slots": [0, 1, 2]})


def test_empty_or_takes_another_empty_value():
    spec = EmptyOr(Record({"winner": Int(0, 3)}), dict)
    assert read(spec, {}) == {} and read(spec, {"winner": 1}) == {"winner": 1}
    with pytest.raises(ValueError, match=r"^\[\] \(list\) is not an object"):
        read(spec, [])
    assert read(EmptyOr(Int(0, 1)), []) == []


def test_depends_picks_the_spec_from_what_was_read_before():
    spec = Record(
        {"kind": Str(), "value": Depends(lambda c: Int(0, 1) if c["kind"] == "bit" else Str())}, into=("kind",)
    )
    assert read(spec, {"kind": "bit", "value": 1})["value"] == 1
    assert read(spec, {"kind": "text", "value": "x"})["value"] == "x"
    with pytest.raises(ValueError, match=r"^value: 'x' \(string\) is not an integer"):
        read(spec, {"kind": "bit", "value": "x"})
