"""Lying Pirates' observation, field by field, against the state it encodes (seats relative to the observer)."""

from __future__ import annotations

import numpy as np
import pytest

from bidbluff import envs
from bidbluff.envs.lying_pirates import action_codec, encoder, observation
from bidbluff.envs.lying_pirates.content import CARDS, TILES
from bidbluff.envs.lying_pirates.dice import SPECIALS, Die


def states(players: int, games: int = 3, **options):
    """(state, acting seat) at every decision of seeded random games."""
    env = envs.load("lying_pirates_v0").raw_env(num_players=players, **options)
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


def crew_counts(cup) -> np.ndarray:
    counts = np.zeros(6, dtype=np.float32)
    for kind, face in cup:
        if kind == Die.CREW:
            counts[face - 1] += 1
    return counts


def card_counts(cards, per_one: float) -> np.ndarray:
    return np.minimum(np.bincount(np.asarray(cards, dtype=int), minlength=len(CARDS)) / per_one, 1.0)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_every_checked_field_matches_the_state(players):
    checked = 0
    for state, seat in states(players):
        view = observation.view(encoder.encode(state, seat))
        n = state.captains
        for rel in range(n):
            c = (seat + rel) % n
            assert view.present[rel] == 1
            assert view.position[rel][state.position(c)] == 1 and view.position[rel].sum() == 1
            assert view.counts("coins")[rel] == min(state.coins[c], 20)
            assert view.counts("crew")[rel] == min(state.crews.crew[c], 10)
            assert view.counts("hand_size")[rel] == min(len(state.hands[c]), 10)
            assert view.decoded("laps")[rel] * state.lap == pytest.approx(min(state.progress[c], 2 * state.lap))
            held = [i for i, d in enumerate(SPECIALS) if state.crews.holder[int(d)] == c]
            assert list(np.flatnonzero(view.specials[rel])) == held
            known = card_counts(state.hands[c], 3) if c == seat else np.minimum(np.array(state.known[seat][c]) / 3, 1)
            assert np.allclose(view.known[rel], known)
            cup = state.reveal["cups"].get(str(c)) if state.reveal else None
            assert np.allclose(view.reveal[rel], crew_counts(cup or []) / 10)
        assert not view.present[n:].any()
        own_cup = state.betting.cups.get(seat, []) if state.betting else []
        assert np.allclose(view.cup, crew_counts(own_cup) / 10)
        assert np.allclose(view.discard, card_counts(state.discard, 5))
        assert np.allclose(view.played, card_counts([k for _, k in state.played], 3))
        assert view.counts("deck") == len(state.deck) and view.counts("round") == min(state.round_no, 30)
        if state.betting is not None and state.betting.bids:
            _, q, f = state.betting.bids[-1]
            assert view.counts("last_quantity") == q and view.index("last_face") + action_codec.LOWEST_FACE == f
        assert all(view.map[s, t] == 1 for s, t in enumerate(state.slots) if 0 <= t < len(TILES))
        assert view.map.sum() == sum(0 <= t < len(TILES) for t in state.slots)
        checked += 1
    assert checked > 100


def test_the_option_fields_match_the_state():
    checked = 0
    for state, seat in states(4, games=2, expansion="cities_of_greed", abilities="dealt"):
        view = observation.view(encoder.encode(state, seat))
        x, n = state.ext, state.captains
        assert view.options.tolist() == [1, 1, 0, 0]
        for rel in range(n):
            c = (seat + rel) % n
            assert view.counts("influence_size")[rel] == min(len(x["influence"][c]), 10)
            assert view.counts("town_cards")[rel] == len(x["town_cards"][c])
            assert view.index("captain")[rel] == x["captain"][c]
            assert view.index("designated")[rel] == x["designated"][c]
        own = np.bincount(np.asarray(x["influence"][seat], dtype=int), minlength=action_codec.INFLUENCE_N)
        assert view.counts("own_influence").tolist() == np.minimum(own, 3).tolist()
        assert view.counts("influence_deck") == len(x["influence_deck"])
        towns = [t for t in x["towns"] if t >= 0]
        assert view.towns.sum() == len(towns)
        checked += 1
    assert checked > 100


def test_views_tell_the_two_layouts_apart_by_size():
    assert observation.LAYOUT.size == 2996 and observation.FULL_LAYOUT.size == 3504
    assert observation.view(np.zeros(observation.FULL_LAYOUT.size, np.float32)).option_decision.shape == (11,)
    with pytest.raises(AttributeError, match="option_decision"):
        _ = observation.view(np.zeros(observation.LAYOUT.size, np.float32)).option_decision
    with pytest.raises(ValueError, match="2996 values, or 3504"):
        observation.view(np.zeros(100, np.float32))


def test_legal_ids_are_the_engines_actions_converted():
    """The env's fast route to the mask (a table per seat, the bets cached) names the engine's actions."""
    for players, options in ((4, {}), (2, {}), (5, {"expansion": "cities_of_greed", "merchant_ships": True})):
        game = envs.game("lying_pirates_v0", **options)
        for state, seat in states(players, games=1, **options):
            expected = sorted(action_codec.action_to_id(a, seat, state.captains) for a in state.legal_actions())
            assert game.legal_action_ids(state, seat) == expected
    with pytest.raises(ValueError, match="not an action of this game"):
        action_codec.action_ids([("fly",)], 0, 4)


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
