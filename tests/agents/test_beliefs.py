"""belief=network: the other cups' posterior under the prior network's policy, checked against the
observations the bettors really had and against a cup-by-cup computation."""

from __future__ import annotations

import numpy as np
import pytest

import agents
import envs
from agents.beliefs import PolicyBelief, past_decisions
from agents.evaluators import legal_softmax, load_network
from agents.heuristic.liars_dice_bayes import cup_contents, cup_faces
from envs.liars_dice.codec import EXACT_AT, action_to_id


def played(seed: int, players: int = 3, bets: int = 5, **options):
    """A game of heuristics stopped after ``bets`` bets (no call yet); every decision's observation by seat."""
    env = envs.make("liars_dice_v0", raw=True, num_players=players, **options)
    env.reset(seed=seed)
    heuristic = agents.make("heuristic", env_name="liars_dice_v0", seed=seed)
    seen: dict[int, list[np.ndarray]] = {}
    while len(env.game_state.round.bids) < bets:
        name = env.agent_selection
        seat = int(name.rsplit("_", 1)[1])
        observation = env.observe(name)
        mask = observation["action_mask"].copy()
        mask[EXACT_AT:] = 0  # bets only ("exactly" and "Liar!" end the phase): the test wants a history
        action = heuristic.act({**observation, "action_mask": mask}, name)
        seen.setdefault(seat, []).append(observation["observation"])
        env.step(action)
    return env, seen


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_past_decisions_are_the_observations_the_bettor_had(seed):
    env, seen = played(seed)
    state = env.game_state
    for owner in range(3):
        rebuilt = past_decisions(env.game, state, owner)
        assert len(rebuilt) == len(seen[owner])
        for (observation, legal, bet), real in zip(rebuilt, seen[owner], strict=True):
            assert np.array_equal(observation, real)
            assert bet in legal
    bids = [action_to_id(("bid", q, f)) for _, q, f in state.round.bids]
    assert sorted(b for owner in range(3) for _, _, b in past_decisions(env.game, state, owner)) == sorted(bids)


def test_the_posterior_is_the_prior_times_the_networks_likelihood_of_every_bet():
    env, _ = played(5, players=2, bets=4, dice=2)
    game, state, seat = env.game, env.game_state, env.game_state.current_player()
    network = load_network("shipped", "liars_dice_v0")
    belief = PolicyBelief(game, state, seat, network)
    owner = 1 - seat
    prior, _ = cup_contents(2, 1)
    expected = []
    for c, faces in enumerate(cup_faces(2).tolist()):
        copy = state.clone()
        for die, face in zip(copy.round.cups[owner], faces, strict=True):
            die[1] = face
        likelihood = prior[c]
        for observation, legal, bet in past_decisions(game, copy, owner):
            logits, _ = network.infer(observation[None])
            likelihood *= legal_softmax(logits[0], legal)[legal.index(bet)]
        expected.append(likelihood)
    expected = np.array(expected) / sum(expected)
    np.testing.assert_allclose(belief.cups[1], expected, rtol=1e-4, atol=1e-9)
    assert not np.allclose(expected, prior)  # the bets moved it


def test_redraw_keeps_the_searchers_cup_and_the_cup_sizes():
    env, _ = played(3, players=3, bets=4)
    state, seat = env.game_state, env.game_state.current_player()
    belief = PolicyBelief(env.game, state, seat, load_network("shipped", "liars_dice_v0"))
    redrawn = belief.redraw(state.resample_hidden(seat, np.random.default_rng(0)), seat, np.random.default_rng(1))
    assert redrawn.round.cups[seat] == state.round.cups[seat]
    assert all(len(redrawn.round.cups[s]) == len(state.round.cups[s]) for s in range(3))
    assert redrawn.round.bids == state.round.bids


def test_belief_network_needs_a_network_prior_and_searches():
    with pytest.raises(ValueError, match="prior network"):
        agents.make("ismcts:20,belief=network")
    with pytest.raises(ValueError, match="prior network"):
        agents.make("ismcts:20,prior=heuristic,belief=network")
    env, _ = played(4, players=3, bets=3)
    agent = agents.make("ismcts:20,prior=shipped,value=shipped,others=prior,belief=network", env_name="liars_dice_v0")
    agent.bind(env)
    name = env.agent_selection
    result = agent.search(env.observe(name), name)
    assert result.simulations == 20 and env.observe(name)["action_mask"][result.action]
