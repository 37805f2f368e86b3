"""The outside-style players: legal in every option table, built by their spec names, and their rules of play."""

from __future__ import annotations

import numpy as np
import pytest

from bidbluff import agents, envs
from bidbluff.agents import outsiders
from bidbluff.agents.heuristic import liars_dice as ld
from bidbluff.agents.heuristic import libertalia as lib
from tests.agents.test_agents_legal import random_states

OUTSIDE = {game: name for name, games in outsiders.OUTSIDERS.items() for game in games}


def test_every_game_has_one():
    assert set(OUTSIDE) == set(envs.ENVS)
    for game, name in OUTSIDE.items():
        assert agents.make(name, env_name=game, seed=0).name == name
        assert type(agents.make("outsider", env_name=game, seed=0)) is outsiders.OUTSIDERS[name][game]
    with pytest.raises(ValueError, match="lowball"):
        agents.make("lowball", env_name="liars_dice_v0")


def test_outside_players_pick_legal_actions(env_name, num_players, env_options):
    agent = agents.make("outsider", env_name=env_name, seed=1)
    checked = 0
    for _, name, obs in random_states(env_name, num_players, env_options, games=2, seed=num_players):
        action = agent.act(obs, name)
        assert isinstance(action, int) and obs["action_mask"][action] == 1, f"{agent.name} picked {action}"
        checked += 1
    assert checked > 0


def _after_bids(bids: list[int], seed: int = 1):
    env = envs.make("liars_dice_v0", raw=True, num_players=2, dice=3)
    env.reset(seed=seed)
    for bid in bids:
        env.step(bid)
    seat = env.game_state.current_player()
    return env, seat, env.observe(f"player_{seat}")


def test_odds_calls_a_bet_below_even_odds_and_believes_one_above():
    odds = outsiders.LiarsDiceOdds(seed=0)
    # "every die shows the face": far below even odds
    env, _, _ = _after_bids([ld._BID + 1])
    env.step(max(i for i in env.legal_action_ids() if i < ld._EXACT))
    seat = env.game_state.current_player()
    assert odds.act(env.observe(f"player_{seat}"), f"player_{seat}") == ld._LIAR
    # "one die shows 2" among six: well above even odds, so it raises instead of calling
    _, seat, obs = _after_bids([ld._BID + 1])
    assert odds.act(obs, f"player_{seat}") < ld._EXACT


def test_odds_jumps_to_the_highest_even_bet_on_its_strongest_face():
    odds = outsiders.LiarsDiceOdds(seed=0)
    _, seat, obs = _after_bids([])
    legal = np.flatnonzero(obs["action_mask"])
    seen = odds.read(obs["observation"])
    own_mine, _, (_, at_least) = odds._tables(seen, wild=1)
    choice = odds.act(obs, f"player_{seat}")
    q, f = divmod(choice - ld._BID, ld.FACE_SLOTS)
    top = at_least.shape[1] - 1

    def chance(quantity: int, face: int) -> float:
        return float(at_least[face, np.clip(quantity - own_mine[face], 0, top)])

    assert chance(q + 1, f) >= outsiders.EVEN
    higher = [i for i in legal if i < ld._EXACT and divmod(i - ld._BID, ld.FACE_SLOTS)[1] == f and i > choice]
    assert all(chance(divmod(i - ld._BID, ld.FACE_SLOTS)[0] + 1, f) < outsiders.EVEN for i in higher)


def test_myopic_plays_the_card_worth_most_today(monkeypatch):
    env = envs.make("libertalia_v0", raw=True, num_players=4)
    env.reset(seed=2)
    seat = env.game_state.current_player()
    obs = env.observe(f"player_{seat}")
    view = lib.read(obs["observation"])
    favourite = view.me.hand[len(view.me.hand) // 2]  # neither the highest nor the lowest card

    def today_only(self, view, day, rank, place=None, odds=None):
        return 10.0 if (day, rank) == (view.day, favourite) else float(rank) / 100

    monkeypatch.setattr(lib.LibertaliaHeuristic, "card_value", today_only)
    action = outsiders.LibertaliaMyopic(seed=0).act(obs, f"player_{seat}")
    assert env.unwrapped.action_to_str(action) == env.unwrapped.action_to_str(lib.CODEC.encode(("play", favourite - 1)))
