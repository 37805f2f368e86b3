"""belief=prior: the other cups' posterior under the prior network's policy, checked against the
observations the bettors really had and against a cup-by-cup computation."""

from __future__ import annotations

import numpy as np
import pytest

from bidbluff import agents, envs
from bidbluff.agents.beliefs import SAME_POLICY, TREMBLE, PolicyBelief, past_decisions
from bidbluff.agents.evaluators import HeuristicPrior, load_network
from bidbluff.agents.heuristic.liars_dice_bayes import cup_contents, cup_faces
from bidbluff.envs.liars_dice.codec import EXACT_AT, action_to_id


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


def brute_force(game, state, owner, size, models):
    """The joint posterior over (model, content of ``owner``'s cup), one content and one bet at a time."""
    prior, _ = cup_contents(size, 1)
    joint = np.zeros((len(models), len(prior)))
    for m, model in enumerate(models):
        for c, faces in enumerate(cup_faces(size).tolist()):
            copy = state.clone()
            for die, face in zip(copy.round.cups[owner], faces, strict=True):
                die[1] = face
            likelihood = prior[c]
            for observation, legal, bet in past_decisions(game, copy, owner):
                p = model.policy(observation, legal, owner)[legal.index(bet)]
                likelihood *= p * (1 - TREMBLE) + TREMBLE / len(legal)
            joint[m, c] = likelihood
    return joint / joint.sum()


def test_the_posterior_is_the_prior_times_the_networks_likelihood_of_every_bet():
    env, _ = played(5, players=2, bets=4, dice=2)
    game, state, seat = env.game, env.game_state, env.game_state.current_player()
    network = load_network("shipped", "liars_dice_v0")
    belief = PolicyBelief(game, state, seat, [network])
    expected = brute_force(game, state, 1 - seat, 2, [network])
    np.testing.assert_allclose(belief.joint[1], expected, rtol=1e-4, atol=1e-9)
    np.testing.assert_allclose(belief.cups[1], expected[0], rtol=1e-4, atol=1e-9)
    assert not np.allclose(expected[0], cup_contents(2, 1)[0])  # the bets moved it


def test_the_joint_posterior_over_models_and_cups():
    env, _ = played(6, players=2, bets=5, dice=2)
    game, state, seat = env.game, env.game_state, env.game_state.current_player()
    models = [load_network("shipped", "liars_dice_v0"), HeuristicPrior("liars_dice_v0", game.codec.n, seed=0)]
    cache: dict = {}
    belief = PolicyBelief(game, state, seat, models, cache)
    np.testing.assert_allclose(belief.joint[1], brute_force(game, state, 1 - seat, 2, models), rtol=1e-4, atol=1e-9)
    assert cache  # and read from it, the same again
    np.testing.assert_array_equal(PolicyBelief(game, state, seat, models, cache).joint[1], belief.joint[1])


def bets_by(spec: str, seed: int, players: int = 4, bets: int = 6):
    """A game in which every captain plays ``spec``, stopped after ``bets`` bets (a call is replaced by the
    lowest raise, so that the phase goes on)."""
    env = envs.make("liars_dice_v0", raw=True, num_players=players)
    env.reset(seed=seed)
    player = agents.make(spec, env_name="liars_dice_v0", seed=seed)
    while len(env.game_state.round.bids) < bets:
        name = env.agent_selection
        observation = env.observe(name)
        action = player.act(observation, name)
        env.step(action if action < EXACT_AT else int(np.flatnonzero(observation["action_mask"])[0]))
    return env


@pytest.mark.parametrize(("spec", "heuristic_share"), [("heuristic", (0.75, 1.0)), ("shipped", (0.0, 0.4))])
def test_the_bets_tell_which_policy_a_captain_plays(spec, heuristic_share):
    """Over 8 games of 4 captains who all play ``spec``, the posterior's mean weight on the heuristic: high when
    they bet as the heuristic does, low when they bet as the network does (both are near-deterministic, but
    often agree, so single captains stay in doubt)."""
    network = load_network("shipped", "liars_dice_v0")
    weights = []
    for seed in range(8):
        env = bets_by(spec, seed)
        game, state, seat = env.game, env.game_state, env.game_state.current_player()
        models = [network, HeuristicPrior("liars_dice_v0", game.codec.n, seed=0)]
        weights += [joint[1].sum() for joint in PolicyBelief(game, state, seat, models).joint.values()]
    low, high = heuristic_share
    assert low <= np.mean(weights) <= high


def test_the_drawn_models_follow_the_posterior():
    env, _ = played(2, players=3, bets=6)
    game, state, seat = env.game, env.game_state, env.game_state.current_player()
    models = [load_network("shipped", "liars_dice_v0"), HeuristicPrior("liars_dice_v0", game.codec.n, seed=0)]
    belief, rng = PolicyBelief(game, state, seat, models), np.random.default_rng(0)
    drawn = [belief.draw(state.resample_hidden(seat, rng), seat, rng)[1] for _ in range(400)]
    for rel in (1, 2):
        owner = (seat + rel) % 3
        share = np.mean([d[owner] == 1 for d in drawn])
        assert abs(share - belief.joint[rel][1].sum()) < 0.08


def test_redraw_keeps_the_searchers_cup_and_the_cup_sizes():
    env, _ = played(3, players=3, bets=4)
    state, seat = env.game_state, env.game_state.current_player()
    belief = PolicyBelief(env.game, state, seat, [load_network("shipped", "liars_dice_v0")])
    redrawn = belief.redraw(state.resample_hidden(seat, np.random.default_rng(0)), seat, np.random.default_rng(1))
    assert redrawn.round.cups[seat] == state.round.cups[seat]
    assert all(len(redrawn.round.cups[s]) == len(state.round.cups[s]) for s in range(3))
    assert redrawn.round.bids == state.round.bids


def test_belief_prior_needs_a_prior_and_searches():
    with pytest.raises(ValueError, match="with the prior"):
        agents.make("ismcts:20,belief=prior")
    assert agents.make("ismcts:20,prior=heuristic,belief=prior").belief == "prior"
    env, _ = played(4, players=3, bets=3)
    agent = agents.make("ismcts:20,prior=shipped,value=shipped,others=prior,belief=prior", env_name="liars_dice_v0")
    agent.bind(env)
    name = env.agent_selection
    result = agent.search(env.observe(name), name)
    assert result.simulations == 20 and env.observe(name)["action_mask"][result.action]


def test_others_prior_or_heuristic_reads_the_models_from_the_bets_and_searches():
    with pytest.raises(ValueError, match="belief=prior"):
        agents.make("ismcts:20,prior=shipped,others=prior+heuristic")
    env, _ = played(7, players=4, bets=5)
    agent = agents.make(
        "ismcts:30,prior=shipped,rollout=shipped,others=prior+heuristic,belief=prior", env_name="liars_dice_v0", seed=0
    )
    agent.bind(env)
    assert [type(model).__name__ for model in agent.models] == ["Network", "HeuristicPrior"]
    name = env.agent_selection
    result = agent.search(env.observe(name), name)
    assert result.simulations == 30 and env.observe(name)["action_mask"][result.action]
    assert agent.likelihoods  # the bets' likelihoods, kept for the next decision


def test_before_any_bet_the_models_keep_their_prior():
    """No bet yet: every assignment of models to the 3 other captains has its prior chance, SAME_POLICY shared by
    the two in which the whole table plays one policy."""
    env = envs.make("liars_dice_v0", raw=True, num_players=4)
    env.reset(seed=0)
    game, state, seat = env.game, env.game_state, env.game_state.current_player()
    models = [load_network("shipped", "liars_dice_v0"), HeuristicPrior("liars_dice_v0", game.codec.n, seed=0)]
    belief = PolicyBelief(game, state, seat, models)
    assert len(belief.assignments) == 8
    for assignment, chance in zip(belief.assignments, belief.chances, strict=True):
        same = SAME_POLICY / 2 if len(set(assignment)) == 1 else 0.0
        assert chance == pytest.approx(same + (1 - SAME_POLICY) / 8)
    np.testing.assert_allclose(belief.cups[1], cup_contents(5, 1)[0])
