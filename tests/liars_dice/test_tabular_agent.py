"""The tabular agents: the shipped CFR table loads as ``cfr``, plays legal moves, and says what is wrong."""

from __future__ import annotations

import json

import numpy as np
import pytest

from bidbluff import agents, envs
from bidbluff.agents.tabular import load_table, save_table
from bidbluff.arena.match import play_match


def test_the_cfr_agent_plays_legal_moves():
    cfr = agents.make("cfr", env_name="liars_dice_v0", seed=1)
    assert cfr.meta["num_players"] == 2 and cfr.meta["env_options"]["preset"] == "lying_pirates"
    assert cfr.meta["exploitability"] < 0.001
    result = play_match(
        "liars_dice_v0", [cfr, agents.make("random", seed=2)], 40, seed=0, num_players=2, env_options={"dice": 1}
    )
    assert result.games == 40  # play_match raises on an illegal move


def test_probabilities_follow_the_table():
    cfr = agents.make("cfr", seed=0)
    env = envs.make("liars_dice_v0", num_players=2, dice=1)
    env.reset(seed=3)
    seen = env.observe("player_0")
    probs = cfr.probabilities(seen)
    assert probs.sum() == pytest.approx(1.0) and np.all(probs[seen["action_mask"] == 0] == 0)
    picks = [cfr.act(seen, "player_0") for _ in range(400)]
    assert all(probs[a] > 0 for a in picks)
    assert set(picks) >= set(np.flatnonzero(probs > 0.05).tolist())  # every likely action gets played


def test_another_table_size_is_a_clear_error():
    cfr = agents.make("cfr", seed=0)
    env = envs.make("liars_dice_v0", num_players=3, dice=1)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="has other legal actions"):  # a first bid of up to 3 with 3 captains
        cfr.act(env.observe("player_0"), "player_0")
    classic = envs.make("liars_dice_v0", num_players=2, dice=1, preset="classic")
    classic.reset(seed=0)
    with pytest.raises(ValueError, match="has other legal actions"):  # bets on 1s
        cfr.act(classic.observe("player_0"), "player_0")
    two_dice = envs.make("liars_dice_v0", num_players=2, dice=2)
    two_dice.reset(seed=0)
    with pytest.raises(ValueError, match="has no information state"):
        cfr.act(two_dice.observe("player_0"), "player_0")
    with pytest.raises(ValueError, match="liars_dice_v0 only"):
        agents.make("cfr", env_name="spytails_v0")


def test_files_round_trip_and_bad_files_are_refused(tmp_path):
    table = {"P0 | own 3 | bets -": {1: 0.25, 7: 0.75, 2: 0.0}}
    path = save_table(tmp_path / "t.json", table, {"num_players": 2})
    policy, meta = load_table(path)
    assert policy == table and meta["num_players"] == 2
    assert agents.make(f"cfr:{path}").policy == policy
    data = json.loads(path.read_text())
    path.write_text(json.dumps({**data, "policy": {"P0 | own 3 | bets -": {"bid 9x9": 1.0}}}))
    with pytest.raises(ValueError, match="unknown actions"):
        load_table(path)
    path.write_text(json.dumps({**data, "format_version": 9}))
    with pytest.raises(ValueError, match="not a bidbluff-tabular-policy file"):
        load_table(path)
    with pytest.raises(ValueError, match="does not exist"):
        agents.make(f"cfr:{tmp_path / 'none.json'}")


def test_the_heuristic_says_the_odds_it_acts_on():
    """Its probabilities (what the exploitability reads) are the frequencies of its acts."""
    heuristic = agents.make("heuristic", env_name="liars_dice_v0", seed=0)
    env = envs.make("liars_dice_v0", num_players=2, dice=1)
    bluffed = 0
    for seed in range(12):
        env.reset(seed=seed)
        seen = env.observe("player_0")
        probs = heuristic.probabilities(seen)
        bluffed += probs.max() < 1
        acts = np.bincount([heuristic.act(seen, "player_0") for _ in range(400)], minlength=probs.size) / 400
        assert np.abs(acts - probs).max() < 0.06
    assert bluffed  # some openings mix a bluff in
