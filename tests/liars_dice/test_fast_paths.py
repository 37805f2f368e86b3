"""The betting env's fast paths against the references they replace (behaviour must not move a bit)."""

from __future__ import annotations

import numpy as np
import pytest

from bidbluff.envs.core import speedups
from bidbluff.envs.liars_dice import codec
from bidbluff.envs.liars_dice.game import new_game
from bidbluff.envs.lying_pirates.dice import FACES, Die


@pytest.mark.parametrize("compiled", [True, False], ids=["compiled", "python"])
@pytest.mark.parametrize(("players", "dice"), [(2, 1), (3, 1), (2, 2), (4, 5), (6, 5)])
def test_dice_are_rolled_as_one_batched_draw(players, dice, compiled, monkeypatch):
    """Small tables roll die by die, large ones in one batch, the compiled path through ``_speedups.bounded``:
    the same faces and the same stream after."""
    if compiled and speedups.kernels is None:
        pytest.skip("the compiled kernels are not built")
    monkeypatch.setattr(speedups, "active", speedups.kernels if compiled else None)
    for seed in range(30):
        rng, reference = np.random.default_rng(seed), np.random.default_rng(seed)
        state = new_game(players, rng, dice=dice)
        sides = reference.integers(6, size=players * dice).tolist()
        faces = [face for seat in range(players) for _, face in state.round.cups[seat]]
        assert faces == [FACES[Die.CREW][side] for side in sides]
        assert rng.bit_generator.state == reference.bit_generator.state


def test_id_to_action_is_the_codec_decoded():
    for action_id in range(codec.CODEC.n):
        coded = codec.CODEC.decode(action_id)
        expected = coded if coded[0] == "liar" else (coded[0], coded[1] + 1, coded[2] + 1)
        assert codec.id_to_action(action_id) == expected
        assert codec.action_to_id(expected) == action_id
    for bad in (-1, codec.CODEC.n):
        with pytest.raises(ValueError, match="outside"):
            codec.id_to_action(bad)


def test_cached_masks_are_read_only():
    state = new_game(2, np.random.default_rng(0), dice=1)
    ids, mask = codec.legal_mask(state.round)
    assert codec.legal_mask(state.round)[1] is mask  # one array per legal set
    with pytest.raises(ValueError, match="read-only"):
        mask[0] = 1
    assert list(ids) == codec.legal_action_ids(state.round) == np.flatnonzero(mask).tolist()
