"""Lying Pirates' observation, field by field, against the state it encodes (seats relative to the observer)."""

from __future__ import annotations

import numpy as np
import pytest

import envs
from envs.lying_pirates import codec
from envs.lying_pirates.content import TILES
from envs.lying_pirates.dice import SPECIALS, Die


def states(players: int, games: int = 3):
    """(state, acting seat) at every decision of seeded random games."""
    env = envs.load("lying_pirates_v0").raw_env(num_players=players)
    rng = np.random.default_rng(players)
    for game in range(games):
        env.reset(seed=game)
        for agent in env.agent_iter():
            obs, _, done, truncated, _ = env.last()
            if done or truncated:
                env.step(None)
                continue
            yield env.game_state, env.possible_agents.index(agent)
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def seat_field(obs: np.ndarray, rel: int, name: str) -> np.ndarray:
    at = rel * codec.SEAT_SIZE + codec.SEAT_AT[name]
    return obs[at : at + dict(codec.SEAT_FIELDS)[name]]


def shared_field(obs: np.ndarray, name: str) -> np.ndarray:
    at = codec.MAX_CAPTAINS * codec.SEAT_SIZE + codec.SHARED_AT[name]
    return obs[at : at + dict(codec.SHARED_FIELDS)[name]]


def crew_counts(cup) -> np.ndarray:
    counts = np.zeros(6, dtype=np.float32)
    for kind, face in cup:
        if kind == Die.CREW:
            counts[face - 1] += 1
    return counts


def card_counts(cards, per_one: float) -> np.ndarray:
    return np.minimum(np.bincount(np.asarray(cards, dtype=int), minlength=len(codec.CARDS)) / per_one, 1.0)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_every_checked_field_matches_the_state(players):
    checked = 0
    for state, seat in states(players):
        obs = codec.encode(state, seat)
        n = state.captains
        for rel in range(n):
            c = (seat + rel) % n
            assert seat_field(obs, rel, "present") == 1
            assert seat_field(obs, rel, "position")[state.position(c)] == 1
            assert seat_field(obs, rel, "position").sum() == 1
            assert seat_field(obs, rel, "coins")[0] == pytest.approx(min(state.coins[c] / 20, 1))
            assert seat_field(obs, rel, "crew")[0] == pytest.approx(min(state.crews.crew[c] / 10, 1))
            assert seat_field(obs, rel, "hand_size")[0] == pytest.approx(min(len(state.hands[c]) / 10, 1))
            held = [i for i, d in enumerate(SPECIALS) if state.crews.holder[int(d)] == c]
            assert list(np.flatnonzero(seat_field(obs, rel, "specials"))) == held
            known = card_counts(state.hands[c], 3) if c == seat else np.minimum(np.array(state.known[seat][c]) / 3, 1)
            assert np.allclose(seat_field(obs, rel, "known"), known)
            cup = state.reveal["cups"].get(str(c)) if state.reveal else None
            assert np.allclose(seat_field(obs, rel, "reveal"), crew_counts(cup or []) / 10)
        for rel in range(n, codec.MAX_CAPTAINS):
            assert not seat_field(obs, rel, "present").any()
        own_cup = state.betting.cups.get(seat, []) if state.betting else []
        assert np.allclose(shared_field(obs, "cup"), crew_counts(own_cup) / 10)
        assert np.allclose(shared_field(obs, "discard"), card_counts(state.discard, 5))
        assert np.allclose(shared_field(obs, "played"), card_counts([k for _, k in state.played], 3))
        board = shared_field(obs, "map").reshape(codec.MAX_SLOTS, len(TILES))
        assert all(board[s, t] == 1 for s, t in enumerate(state.slots) if 0 <= t < len(TILES))
        assert board.sum() == sum(0 <= t < len(TILES) for t in state.slots)
        checked += 1
    assert checked > 100


def test_a_base_table_names_no_expansion_action():
    """Id 1062 is an expansion action: the base game's own codec ends before it."""
    base = envs.game("lying_pirates_v0")
    env = envs.make("lying_pirates_v0", raw=True, num_players=3)
    env.reset(seed=0)
    state = env.unwrapped.game_state
    with pytest.raises(ValueError, match=r"outside this table's actions 0\.\.1061"):
        base.id_to_action(state, 1062, 0)
    cities = envs.game("lying_pirates_v0", expansion="cities_of_greed")
    assert cities.codec.n > 1062
