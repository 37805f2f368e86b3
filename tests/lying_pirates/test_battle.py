"""Battles and the final battle: the rulebook's two examples, verbatim, on the engine's one resolution of each."""

from __future__ import annotations

from bidbluff.envs.lying_pirates.battle import BATTLE_DIE, Icon, final_roll_lost, standing
from bidbluff.envs.lying_pirates.frames import FinalBattle

ANNE, BOB, CHRIS = 0, 1, 2
SWORDS, DAGGER, SKULL = Icon.SWORDS, Icon.DAGGER, Icon.SKULL


def _rolls(rolled: dict[int, Icon]) -> list[int]:
    return [rolled.get(c, -1) for c in (ANNE, BOB, CHRIS)]


def _final(crew: list[int]) -> FinalBattle:
    return FinalBattle(crew=crew, rolling=[c for c, n in enumerate(crew) if n > 0], rolls=[-1] * len(crew))


def _resolve(final: FinalBattle, rolled: dict[int, Icon]) -> list[int]:
    """One roll of the final battle: who lost a die."""
    final.rolls = _rolls(rolled)
    return final_roll_lost(final, [c for c, n in enumerate(final.crew) if n > 0])


def _winner(final: FinalBattle) -> int | None:
    alive = [c for c, n in enumerate(final.crew) if n > 0]
    return alive[0] if len(alive) == 1 else None


def test_battle_die_faces():
    assert len(BATTLE_DIE) == 8
    assert [BATTLE_DIE.count(i) for i in (SWORDS, DAGGER, SKULL)] == [3, 3, 2]


def test_rulebook_battle_example_looking_for_a_winner():
    rolling = standing([ANNE, BOB, CHRIS], _rolls({ANNE: SWORDS, BOB: SWORDS, CHRIS: SKULL}), "winner")
    assert rolling == [ANNE, BOB]  # Chris is out
    rolling = standing(rolling, _rolls({ANNE: SKULL, BOB: SKULL}), "winner")
    assert rolling == [ANNE, BOB]
    assert standing(rolling, _rolls({ANNE: SKULL, BOB: DAGGER}), "winner") == [BOB]


def test_rulebook_battle_example_looking_for_a_loser():
    assert standing([ANNE, BOB, CHRIS], _rolls({ANNE: SWORDS, BOB: SWORDS, CHRIS: SKULL}), "loser") == [CHRIS]


def test_rulebook_final_battle_example():
    final = _final([1, 2, 2])
    # first battle: Chris's skull loses a die
    assert _resolve(final, {ANNE: DAGGER, BOB: SWORDS, CHRIS: SKULL}) == [CHRIS]
    assert final.crew == [1, 2, 1]
    # second battle: no clear loser, Bob and Chris roll again
    assert _resolve(final, {ANNE: SWORDS, BOB: DAGGER, CHRIS: DAGGER}) == []
    assert final.rolling == [BOB, CHRIS]
    assert _resolve(final, {BOB: SKULL, CHRIS: SKULL}) == [BOB, CHRIS]
    assert final.crew == [1, 1, 0]  # Chris is eliminated
    assert final.rolling == [ANNE, BOB]
    # third battle: both skulls would knock both out, so they reroll
    assert _resolve(final, {ANNE: SKULL, BOB: SKULL}) == []
    assert final.crew == [1, 1, 0]
    assert _resolve(final, {ANNE: DAGGER, BOB: SWORDS}) == [ANNE]
    assert _winner(final) == BOB
    assert final.battles == 3


def test_skulls_all_lose_even_when_others_tie_for_worst():
    final = _final([3, 3, 3])
    assert _resolve(final, {ANNE: SKULL, BOB: SKULL, CHRIS: SWORDS}) == [ANNE, BOB]
    assert final.crew == [2, 2, 3]


def test_a_shared_loss_that_leaves_someone_standing_stands():
    final = _final([1, 1, 2])
    assert _resolve(final, {ANNE: SKULL, BOB: SKULL, CHRIS: DAGGER}) == [ANNE, BOB]
    assert _winner(final) == CHRIS
