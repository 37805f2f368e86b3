"""The Lying Pirates and Spytails heuristics read their observations right and beat random play.

Legal actions over many random states of every table are checked by
``tests/agents/test_agents_legal.py`` (parametrised over every env with a heuristic).
"""

from __future__ import annotations

import numpy as np
import pytest

from bidbluff import agents, envs
from bidbluff.agents.heuristic import lying_pirates as lp
from bidbluff.agents.heuristic import spytails as sp
from bidbluff.agents.heuristic import spytails_2026_11 as sp_first
from bidbluff.arena.match import play_match
from bidbluff.envs.lying_pirates.dice import Die


def _random_decisions(env_name: str, seed: int, steps: int, num_players: int = 4):
    """Yield the raw env at each of ``steps`` decisions of random play (new games as needed)."""
    env = envs.make(env_name, raw=True, num_players=num_players)
    rng = np.random.default_rng(seed)
    game = 0
    env.reset(seed=seed)
    for _ in range(steps):
        if env.game_state.current_player() < 0 or not env.legal_action_ids():
            game += 1
            env.reset(seed=seed * 1000 + game)
        yield env
        env.step(int(rng.choice(env.legal_action_ids())))


def test_lying_pirates_reads_its_cup_and_the_table():
    agent = lp.LyingPiratesHeuristic(seed=0)
    checked = 0
    for env in _random_decisions("lying_pirates_v0", seed=3, steps=3000):
        state = env.game_state
        if state.pending[0] != "bet":
            continue
        seat = state.current_player()
        if seat >= state.num_players:
            continue  # a player betting for the Phantom
        obs = env.observe(f"player_{seat}")["observation"]
        seen = agent.betting_view(obs)
        cups = state.betting.cups
        crew = [f for kind, f in cups[seat] if kind == Die.CREW]
        assert seen["crew"].tolist() == [crew.count(f) for f in range(1, 7)]
        assert sorted(seen["own_specials"]) == sorted((k, f) for k, f in cups[seat] if k != Die.CREW)
        assert sorted(seen["unseen"]) == sorted(k for s, cup in cups.items() if s != seat for k, _ in cup)
        assert seen["last"] == (tuple(state.betting.bids[-1][1:]) if state.betting.bids else None)
        for rel in range(state.captains):
            c = (seat + rel) % state.captains
            assert agent.progress(obs, rel) == min(state.progress[c], 2 * state.lap)
            assert agent.crew(obs, rel) == state.crews.crew[c]
        assert sorted(agent.hand(obs)) == sorted(state.hands[seat])
        checked += 1
    assert checked > 20


def test_lying_pirates_calls_an_impossible_bet():
    env = envs.make("lying_pirates_v0", raw=True, num_players=4)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    while env.game_state.pending[0] != "bet" or env.game_state.betting.bids:
        env.step(int(rng.choice(env.legal_action_ids())))
    env.step(min(env.legal_action_ids()))  # the smallest first bet
    env.step(max(i for i in env.legal_action_ids() if i < lp._EXACT))  # then "every die shows 6"
    seat = env.game_state.current_player()
    agent = agents.make("heuristic", env_name="lying_pirates_v0", seed=0)
    assert agent.act(env.observe(f"player_{seat}"), f"player_{seat}") == lp._LIAR


def test_spytails_reads_its_hand_and_the_operation():
    agent = sp.SpytailsHeuristic(seed=0)
    checked = 0
    for env in _random_decisions("spytails_v0", seed=5, steps=3000):
        state = env.game_state
        if state.pending[0] != "play":
            continue
        seat = state.current_player()
        obs = env.observe(f"player_{seat}")["observation"]
        assert sorted(agent.hand(obs)) == sorted(state.hands[seat])
        trick, n = agent.trick(obs)
        assert n == state.num_players
        assert [c for c, _, _ in trick] == [p[1] if p[1] >= 0 else -1 for p in state.trick]
        if state.trick:
            best = state.winning_play()
            index = sp.wins(trick, agent.rules(obs))
            assert (None if index is None else state.trick[index][0]) == (None if best is None else best[0])
        checked += 1
    assert checked > 100


def test_first_spytails_forecast_follows_hand_strength():
    from bidbluff.envs.spytails.content import ALPHA_STRIKE, INTIMIDATION, SKUNK_BOMB, card

    strong = [ALPHA_STRIKE, card(INTIMIDATION, 14), card(INTIMIDATION, 13), card(0, 14), card(1, 13)]
    weak = [SKUNK_BOMB, card(0, 4), card(1, 5), card(2, 4)]
    assert sum(map(sp_first.win_chance, strong)) > 3.5
    assert sum(map(sp_first.win_chance, weak)) < 0.5
    assert sp_first.strength(card(0, 14), low=True) < sp_first.strength(card(0, 4))


def _win_share(env_name: str, games: int) -> float:
    seats = [agents.make("heuristic", env_name=env_name, seed=0)]
    seats += [agents.make("random", seed=s) for s in range(1, 4)]
    result = play_match(env_name, seats, games, seed=0, num_players=4)
    return result.wins[0] / result.games


@pytest.mark.parametrize("env_name", ["lying_pirates_v0", "spytails_v0"])
def test_heuristic_beats_three_random_players(env_name):
    assert _win_share(env_name, 60) > 0.45  # a random seat wins a quarter


@pytest.mark.slow
@pytest.mark.parametrize(("env_name", "floor"), [("lying_pirates_v0", 0.7), ("spytails_v0", 0.7)])
def test_heuristic_win_share_over_many_games(env_name, floor):
    assert _win_share(env_name, 400) > floor
