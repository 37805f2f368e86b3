"""The AEC env's own parts: options, ids and words, the text board, partnership rewards."""

from __future__ import annotations

import numpy as np
import pytest

from bidbluff.envs import spytails_v0
from bidbluff.envs.spytails.codec import CODEC, action_to_id, action_to_str, id_to_action
from bidbluff.envs.spytails.render import render_state
from bidbluff.envs.spytails.rules import SpytailsState

from .conftest import make_state, one, play


def test_options_are_checked_and_also_taken_by_reset():
    with pytest.raises(ValueError, match="4 players"):
        spytails_v0.raw_env(num_players=3, mode="partnership")
    with pytest.raises(ValueError, match="forecast_mode"):
        spytails_v0.raw_env(num_players=3, forecast_mode="open")
    env = spytails_v0.raw_env(num_players=4)
    env.reset(seed=1, options={"mode": "partnership", "characters": "chosen"})
    state = env.game_state
    assert state.mode == "partnership" and state.character_mode == "chosen"
    assert state.pending[0] == "character" and env.agent_selection == f"player_{state.pending[1]}"


def test_ids_and_words():
    assert CODEC.n == 364
    assert action_to_id(("stake", 3)) == 12 and id_to_action(12) == ("stake", 3)
    assert action_to_id(("play", one("AS"))) == 22 + one("AS")
    assert action_to_str(("play", one("AS"))) == "play A Stalk high"
    assert action_to_str(("play_low", 0)) == "play A Stalk low"
    assert action_to_str(("play", one("7S"))) == "play 7 Stalk"
    assert action_to_str(("echo_take", one("alpha"))) == "echo take Alpha Strike"
    words = [action_to_str(id_to_action(i)) for i in range(CODEC.n)]
    assert len(set(words)) == CODEC.n
    assert [action_to_id(id_to_action(i)) for i in range(CODEC.n)] == list(range(CODEC.n))
    for bad in (("stake", 0), ("play", 55), ("fold",)):
        with pytest.raises(ValueError, match="not a Spytails action"):
            action_to_id(bad)
    for bad in (-1, CODEC.n):
        with pytest.raises(ValueError, match=r"outside 0\.\.363"):
            id_to_action(bad)


def test_every_action_kind_has_its_handler():
    assert set(SpytailsState._ON) == {kind.name for kind in CODEC.kinds}


def test_the_board_shows_the_operation_forecasts_and_only_the_viewers_hand():
    s = make_state(hands=["4S 9C", "5S 10C", "6S"])
    play(s, "4S")
    text = render_state(s, 1)
    assert "operation: P0 4 Stalk | led suit: Stalk" in text
    assert "hand: 5 Stalk, 10 Codebreaking" in text
    assert "9 Codebreaking" not in text
    assert "influence 10, leverage 0, forecast 2 stake 1, won 0" in text
    assert "9 Codebreaking" in render_state(s, None)


def test_partnership_teammates_share_their_reward():
    env = spytails_v0.raw_env(num_players=4, mode="partnership")
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, _ = env.last()
        totals[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    teams = env.game_state.teams
    by_team = [{totals[f"player_{s}"] for s in range(4) if teams[s] == t} for t in (0, 1)]
    assert all(len(rewards) == 1 for rewards in by_team)
    assert sum(totals.values()) == 0.0
