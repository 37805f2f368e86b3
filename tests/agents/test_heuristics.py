"""The heuristic agents read their observations right and beat random play."""

from __future__ import annotations

import numpy as np

from bidbluff import agents, envs
from bidbluff.agents.heuristic import liars_dice as ld
from bidbluff.agents.heuristic import libertalia as lib
from bidbluff.arena.match import play_match
from bidbluff.envs.libertalia.rules import booty_total


def test_poisson_binomial_matches_the_binomial():
    pmf = ld.poisson_binomial([1 / 3] * 6)
    from math import comb

    expected = [comb(6, k) * (1 / 3) ** k * (2 / 3) ** (6 - k) for k in range(7)]
    assert np.allclose(pmf, expected)
    assert ld.poisson_binomial([]).tolist() == [1.0]


def test_liars_dice_reads_its_own_cup_and_the_table():
    env = envs.make("liars_dice_v0", raw=True, num_players=3, dice=4, specials=("pirate king", "cursed"))
    env.reset(seed=4)
    env.step(env.legal_action_ids()[0])  # one bid on the table
    state = env.game_state
    seat = state.current_player()
    seen = ld.LiarsDiceHeuristic.read(env.observe(f"player_{seat}")["observation"])
    crew = [f for kind, f in state.round.cups[seat] if kind == 0]
    assert seen["crew"].tolist() == [crew.count(f) for f in range(1, 7)]
    assert sorted(seen["own_specials"]) == sorted((k, f) for k, f in state.round.cups[seat] if k != 0)
    others = sorted(k for s, cup in state.round.cups.items() if s != seat for k, _ in cup)
    assert sorted(seen["unseen"]) == others
    _, q, f = state.round.bids[-1]
    assert seen["last"] == (q, f)


def test_liars_dice_calls_an_impossible_bet_and_tells_the_preset():
    agent = agents.make("heuristic", env_name="liars_dice_v0", seed=0)
    for preset in ("lying_pirates", "classic"):
        env = envs.make("liars_dice_v0", raw=True, num_players=2, dice=2, preset=preset)
        env.reset(seed=1)
        mask = env.action_masks()
        assert ld.LiarsDiceHeuristic.classic(mask, False) == (preset == "classic")
        env.step(min(env.legal_action_ids()))  # the smallest first bet
        env.step(max(i for i in env.legal_action_ids() if i < ld._EXACT))  # then "every die shows f"
        seat = env.game_state.current_player()
        obs = env.observe(f"player_{seat}")
        assert ld.LiarsDiceHeuristic.classic(obs["action_mask"], True) == (preset == "classic")
        assert agent.act(obs, f"player_{seat}") == ld._LIAR


def test_libertalia_reads_its_own_seat():
    env = envs.make("libertalia_v0", raw=True, num_players=4)
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(150):
        env.step(int(rng.choice(env.legal_action_ids())))
    state = env.game_state
    seat = state.current_player()
    view = lib.read(env.observe(f"player_{seat}")["observation"])
    me = view.me
    assert view.n == 4 and me.colour == seat
    assert me.hand == sorted(state.hands[seat])
    assert me.den == sorted(state.dens[seat])
    assert me.booty == state.den_booty[seat]
    assert me.doubloons == min(80, state.doubloons[seat])
    assert (view.campaign, view.day) == (state.campaign, state.day)
    assert view.booty_days == state.booty_days
    assert view.decision == state.pending[0]
    for rel in range(1, 4):
        other = (seat + rel) % 4
        assert view.seats[rel].colour == other
        assert view.seats[rel].den == sorted(state.dens[other])
    assert me.total() == me.score + me.doubloons + booty_total(me.booty)


def test_heuristics_beat_random_play():
    for env_name, n, games, floor in (("liars_dice_v0", 2, 300, 0.7), ("libertalia_v0", 4, 12, 0.5)):
        seats = [agents.make("heuristic", env_name=env_name, seed=0)]
        seats += [agents.make("random", seed=s) for s in range(1, n)]
        result = play_match(env_name, seats, games, seed=0, num_players=n)
        assert result.wins[0] / result.games > floor, f"{env_name}: {result.wins}"
