"""Lying Pirates' Betting phase: the rulebook's example and every betting rule."""

from __future__ import annotations

import numpy as np
import pytest

from bidbluff.envs import liars_dice_v0
from bidbluff.envs.lying_pirates.betting import CLASSIC, LYING_PIRATES, BettingRound, count_for
from bidbluff.envs.lying_pirates.dice import Die

C, K = Die.CREW, Die.CURSED


def cups_of(*faces_per_seat: list[int]) -> dict[int, list[list[int]]]:
    return {s: [[C, f] for f in faces] for s, faces in enumerate(faces_per_seat)}


def play(betting: BettingRound, *actions: tuple) -> BettingRound:
    for action in actions:
        assert action in betting.legal_actions(), f"{action} should be legal after {betting.bids}"
        betting.apply(action)
    return betting


def test_rulebook_betting_phase_example():
    """Anne, Bob and Chris: ... Bob "nine 5s", Chris "liar!" -> eight 5s: Chris wins, Bob loses, Anne survives."""
    anne, bob, chris = 0, 1, 2
    betting = BettingRound(
        cups_of([1, 2, 3, 5, 6, 6], [2, 3, 5, 5, 5, 6], [1, 1, 3, 4, 5, 6]), [anne, bob, chris], captains=3
    )
    play(betting, ("bid", 3, 6), ("bid", 4, 2), ("bid", 4, 6), ("bid", 8, 6), ("bid", 9, 5), ("liar",))
    outcome = betting.outcome
    assert outcome.count == 8  # five 5s and three 1s
    assert not outcome.correct
    assert (outcome.winners, outcome.losers, outcome.survivors) == ([chris], [bob], [anne])


def test_rulebook_wrong_bets():
    betting = play(BettingRound(cups_of([2] * 5, [3] * 5, [4] * 5), [0, 1, 2], 3), ("bid", 3, 6))
    assert ("bid", 3, 5) not in betting.legal_actions()  # lower face at the same quantity
    betting = play(BettingRound(cups_of([2] * 5, [3] * 5, [4] * 5), [0, 1, 2], 3), ("bid", 3, 5))
    assert ("bid", 2, 6) not in betting.legal_actions()  # lower quantity
    assert ("bid", 3, 6) in betting.legal_actions()
    assert ("bid", 4, 2) in betting.legal_actions()  # lower face is fine with more dice


def test_raises_follow_the_rulebook():
    betting = play(BettingRound(cups_of([2] * 5, [3] * 5, [4] * 5), [0, 1, 2], 3), ("bid", 3, 2), ("bid", 4, 3))
    bids = {a[1:] for a in betting.legal_actions() if a[0] == "bid"}
    assert bids == {(4, 4), (4, 5), (4, 6)} | {(q, f) for q in range(5, 16) for f in range(2, 7)}


def test_first_bet_is_capped_by_the_captains_and_never_on_ones():
    betting = BettingRound(cups_of([2] * 5, [3] * 5, [4] * 5), [0, 1, 2], captains=3)
    first = betting.legal_actions()
    assert {a[0] for a in first} == {"bid"}, "exact and liar need a previous bet"
    assert max(a[1] for a in first) == 3
    assert {a[2] for a in first} == {2, 3, 4, 5, 6}


def test_quantity_never_exceeds_the_dice_in_play():
    betting = play(BettingRound(cups_of([2], [3]), [0, 1], 2), ("bid", 2, 6))
    assert [a for a in betting.legal_actions() if a[0] == "bid"] == []
    assert set(betting.legal_actions()) == {("exact", 2, 6), ("liar",)}


def test_exact_may_restate_or_raise_and_a_right_one_beats_everyone():
    betting = play(BettingRound(cups_of([1, 4], [4, 5], [4, 6]), [0, 1, 2], 3), ("bid", 2, 4))
    assert ("exact", 2, 4) in betting.legal_actions()  # restating
    assert ("exact", 3, 4) in betting.legal_actions()  # raising
    assert ("exact", 1, 4) not in betting.legal_actions()
    play(betting, ("exact", 4, 4))  # 4, 4, 4 and a wild 1
    o = betting.outcome
    assert o.correct and o.count == 4
    assert (o.winners, o.losers, o.survivors, o.wrong_exact) == ([1], [0, 2], [], -1)


def test_a_wrong_exact_loses_to_the_previous_bettor_and_is_excluded():
    betting = play(BettingRound(cups_of([1, 4], [4, 5], [4, 6]), [0, 1, 2], 3), ("bid", 2, 4), ("exact", 3, 4))
    o = betting.outcome
    assert not o.correct and o.count == 4
    assert (o.winners, o.losers, o.survivors) == ([0], [1], [2])
    assert o.wrong_exact == 1


def test_liar_on_a_true_bet_loses():
    betting = play(BettingRound(cups_of([1, 4], [4, 5]), [0, 1], 2), ("bid", 2, 4), ("liar",))
    o = betting.outcome
    assert o.correct and o.count == 3
    assert (o.winners, o.losers, o.survivors) == ([0], [1], [])


def test_alone_in_a_betting_phase_wins_by_default():
    betting = BettingRound(cups_of([2, 3], [4, 5]), [1], 2)
    assert betting.outcome.winners == [1] and betting.outcome.call == "alone"
    assert betting.legal_actions() == []


def cursed_table() -> dict[int, list[list[int]]]:
    """The video's example: 13 twos on the table, 5 of them in the cursed cup (Cursed die shows 2)."""
    return {
        0: [[K, 2], [C, 2], [C, 2], [C, 1], [C, 1], [C, 6]],  # cursed holder: 2, 2, 2 and two wild 1s
        1: [[C, 2], [C, 2], [C, 1], [C, 1], [C, 5]],
        2: [[C, 2], [C, 2], [C, 2], [C, 1], [C, 3]],
    }


def test_video_cursed_example():
    cups = cursed_table()
    assert count_for(cups, 2, judged=1, rules=LYING_PIRATES) == 13
    assert count_for(cups, 2, judged=0, rules=LYING_PIRATES) == 8
    # the holder's bet of nine 2s is wrong ...
    own = BettingRound(cursed_table(), [0, 1, 2], 3, bids=[[0, 9, 2]], turn=1)
    play(own, ("liar",))
    assert not own.outcome.correct and own.outcome.winners == [1] and own.outcome.losers == [0]
    # ... anyone else's is right
    other = BettingRound(cursed_table(), [0, 1, 2], 3, bids=[[1, 9, 2]], turn=2)
    play(other, ("liar",))
    assert other.outcome.correct and other.outcome.winners == [1] and other.outcome.losers == [2]


def test_cursed_die_counts_normally_on_other_faces_and_for_the_holders_exact():
    cups = cursed_table()
    # five wild 1s (the holder's two included) and one 6
    assert count_for(cups, 6, judged=0, rules=LYING_PIRATES) == 5 + 1
    exact = BettingRound(cursed_table(), [0, 1, 2], 3, bids=[[2, 8, 2]], turn=0)
    play(exact, ("exact", 8, 2))  # the holder calls exactly 8 twos: right, as judged for the holder
    assert exact.outcome.correct and exact.outcome.winners == [0]


def test_blank_faces_count_for_nothing():
    cups = {0: [[Die.MERMAID, 0], [C, 3]], 1: [[C, 3]]}
    assert count_for(cups, 3, judged=0, rules=LYING_PIRATES) == 2
    assert count_for({0: [[Die.PIRATE_KING, 1]], 1: [[C, 3]]}, 3, judged=1, rules=LYING_PIRATES) == 2


def test_classic_preset_is_openspiels_liars_dice():
    betting = BettingRound(cups_of([6], [1]), [0, 1], 2, rules=CLASSIC)
    first = betting.legal_actions()
    assert ("bid", 1, 1) in first and ("bid", 2, 6) in first  # any face, no cap
    play(betting, ("bid", 2, 1))
    assert all(a[0] != "exact" for a in betting.legal_actions())
    play(betting, ("liar",))
    assert betting.outcome.count == 2 and betting.outcome.correct  # the 6 is wild for 1s
    sixes = BettingRound(cups_of([6], [1]), [0, 1], 2, rules=CLASSIC, bids=[[0, 2, 6]], turn=1)
    play(sixes, ("liar",))
    assert sixes.outcome.count == 1 and not sixes.outcome.correct


def test_env_payoffs_and_seating():
    env = liars_dice_v0.raw_env(num_players=3, dice=2)
    env.reset(seed=0)
    state = env.game_state
    state.round.cups = cups_of([1, 4], [4, 5], [4, 6])
    assert env.agent_selection == "player_0"
    env.step(env.str_to_action("bid 2x4"))
    env.step(env.str_to_action("exact 4x4"))
    assert env.rewards == {"player_0": -1.0, "player_1": 1.0, "player_2": -1.0}
    assert env.infos["player_1"]["scores"] == [-1.0, 1.0, -1.0]


def test_env_options_and_specials():
    env = liars_dice_v0.raw_env(num_players=4, dice=1, specials=("cursed", "pirate king"))
    env.reset(seed=3)
    kinds = sorted(k for cup in env.game_state.round.cups.values() for k, _ in cup)
    assert kinds == [Die.CREW] * 4 + [Die.PIRATE_KING, Die.CURSED]
    holder = next(s for s, cup in env.game_state.round.cups.items() if any(k == Die.CURSED for k, _ in cup))
    face = next(f for k, f in env.game_state.round.cups[holder] if k == Die.CURSED)
    cursed_slots = slice(6 + 2 * 7, 6 + 3 * 7)  # own special dice: one-hot face per kind, Cursed third
    for s in range(4):
        own = env.observe(f"player_{s}")["observation"][cursed_slots]
        assert list(np.flatnonzero(own)) == ([face] if s == holder else [])
    with pytest.raises(ValueError, match="specials"):
        liars_dice_v0.raw_env(specials=("kraken",))
    with pytest.raises(ValueError, match="dice"):
        liars_dice_v0.raw_env(dice=6)
    classic = liars_dice_v0.raw_env(preset="classic", dice=1)
    classic.reset(seed=0)
    assert classic.num_players == 2
    assert "bid 1x1" in [classic.action_to_str(i) for i in classic.legal_action_ids()]


def test_env_observation_holds_own_dice_the_table_and_every_bet_by_relative_seat():
    from bidbluff.envs.liars_dice import codec as bc

    env = liars_dice_v0.raw_env(num_players=3, dice=3)
    env.reset(seed=0)
    env.game_state.round.cups = cups_of([1, 4, 4], [2, 3, 5], [6, 6, 6])
    env.step(env.str_to_action("bid 2x4"))  # player_0
    env.step(env.str_to_action("bid 3x5"))  # player_1
    obs = env.observe("player_2")["observation"]
    assert list(obs[:6]) == pytest.approx([0, 0, 0, 0, 0, 3 / 5])  # own crew faces 1-6, counts / 5
    seats = obs[bc._SEATS_AT : bc._SEATS_AT + 6 * bc.SEAT].reshape(6, bc.SEAT)
    assert list(seats[:, 0]) == [1, 1, 1, 0, 0, 0]  # present, from the observer on
    assert list(seats[:3, 2]) == pytest.approx([0.3] * 3)  # dice count / 10
    assert obs[bc._TABLE_AT] == pytest.approx(9 / bc.MAX_QUANTITY)
    assert obs[bc._TABLE_AT + 1] == pytest.approx(3 / bc.MAX_QUANTITY) and obs[bc._TABLE_AT + 2 + 4] == 1
    history = obs[bc._HISTORY_AT :].reshape(bc.MAX_QUANTITY, 6, 6)  # quantity, face, relative seat
    assert sorted(map(tuple, np.argwhere(history))) == [(1, 3, 1), (2, 4, 2)]  # player_0 is 1 after, player_1 2
