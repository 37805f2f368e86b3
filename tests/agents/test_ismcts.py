"""IS-MCTS: bound to the engine, uses only what the acting seat knows, finds the obvious move."""

from __future__ import annotations

import numpy as np
import pytest

from bidbluff import agents, envs
from bidbluff.agents.ismcts import ISMCTSAgent


def test_needs_a_bind_and_the_right_env():
    env = envs.make("liars_dice_v0", num_players=2)
    env.reset(seed=0)
    agent = ISMCTSAgent(simulations=5, seed=0)
    obs = env.observe(env.agent_selection)
    with pytest.raises(RuntimeError, match="bind"):
        agent.act(obs, env.agent_selection)
    other = envs.make("liars_dice_v0", num_players=2)
    other.reset(seed=1)
    agent.bind(other)
    with pytest.raises(RuntimeError, match="does not match"):
        agent.act(obs, env.agent_selection)
    with pytest.raises(TypeError):
        agent.bind(object())
    with pytest.raises(ValueError, match="budget"):
        ISMCTSAgent(simulations=None, time_ms=None)


def live_position(env_name: str, seed: int = 3):
    n = envs.game(env_name).default_players
    env = envs.make(env_name, raw=True, num_players=n)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(5):
        env.step(int(rng.choice(env.legal_action_ids())))
    return env, n, rng


class OnlyWhatTheSeatKnows:
    """Stands in for the real state: answers who acts and draws determinisations, refuses anything else."""

    def __init__(self, state):
        self._state = state

    def current_player(self):
        return self._state.current_player()

    def resample_hidden(self, seat, rng):
        assert seat == self._state.current_player(), "determinised for another seat"
        return self._state.resample_hidden(seat, rng)

    def __getattr__(self, name):
        raise AssertionError(f"IS-MCTS read state.{name} of the real position")


@pytest.mark.parametrize("env_name", envs.ENVS)
def test_reads_the_real_state_only_through_resample_hidden(env_name):
    env, _, _ = live_position(env_name)
    name = env.agent_selection
    obs = env.observe(name)
    env.game_state = OnlyWhatTheSeatKnows(env.game_state)
    agent = ISMCTSAgent(simulations=6, seed=0)
    agent.bind(env)
    assert obs["action_mask"][agent.act(obs, name)] == 1


@pytest.mark.parametrize("env_name", envs.ENVS)
def test_same_information_same_search(env_name):
    """Two positions that differ only in what the acting seat cannot see give the same search:
    every engine's ``resample_hidden`` is a function of the information set and the generator."""
    env, n, rng = live_position(env_name)
    state = env.game_state
    seat = state.current_player()
    twin = envs.make(env_name, raw=True, num_players=n)
    twin.reset(options={"state": state.resample_hidden(seat, rng).to_dict()})
    draws = [s.resample_hidden(seat, np.random.default_rng(1)).to_dict() for s in (state, twin.game_state)]
    assert draws[0] == draws[1], "resample_hidden must not depend on the hidden truth"
    name = f"player_{seat}"
    choices = []
    for e in (env, twin):
        agent = ISMCTSAgent(simulations=12, seed=7)
        agent.bind(e)
        result = agent.search(e.observe(name), name)
        choices.append((result.action, result.visits))
    assert choices[0] == choices[1]


def test_finds_the_sure_liar_call():
    """2 captains x 1 die, classic rules: seat 0 bets "two of" a face; seat 1's own die does not count,
    so the bet is surely false and "liar" surely wins.  The search must see it."""
    for seed in range(50):
        env = envs.make("liars_dice_v0", raw=True, num_players=2, dice=1, preset="classic")
        env.reset(seed=seed)
        cups = env.game_state.round.cups
        face = next(f for f in range(1, 6) if f != cups[1][0][1])  # not the wild 6, not seat 1's face
        if cups[1][0][1] == 6:
            continue  # seat 1's wild die counts for anything
        env.step(env.game.action_to_id(env.game_state, ("bid", 2, face), 0))
        agent = agents.make("ismcts:300", seed=0)
        agent.bind(env)
        assert agent.act(env.observe("player_1"), "player_1") == env.game.action_to_id(env.game_state, ("liar",), 1)
        return
    pytest.fail("no deal found")


def test_time_budget_stops():
    env = envs.make("libertalia_v0", raw=True, num_players=3)
    env.reset(seed=0)
    agent = ISMCTSAgent(simulations=None, time_ms=30, seed=0)
    agent.bind(env)
    name = env.agent_selection
    result = agent.search(env.observe(name), name)
    assert env.action_masks()[result.action] == 1
    assert 1 <= result.simulations < 200
