"""The Liar's dice player that believes the bets: an exact posterior, the heuristic when it believes nothing."""

from __future__ import annotations

import numpy as np
import pytest

from bidbluff import agents, envs
from bidbluff.agents.heuristic.liars_dice import LiarsDiceHeuristic
from bidbluff.agents.heuristic.liars_dice_bayes import LiarsDiceBayes, cup_contents
from bidbluff.envs.liars_dice.codec import EXACT_AT


@pytest.mark.parametrize(("size", "wild"), [(1, 1), (3, 1), (5, 6)])
def test_cup_contents_are_every_cup_with_its_chance(size, wild):
    prior, counts = cup_contents(size, wild)
    assert prior.sum() == pytest.approx(1.0)
    assert len(prior) == {1: 6, 3: 56, 5: 252}[size]
    # a fair die counts toward a non-wild face with chance 2/6: the expected count is size / 3
    face = 3
    assert float(prior @ counts[:, face - 1]) == pytest.approx(size / 3)
    assert float(prior @ counts[:, wild - 1]) == pytest.approx(size / 6)


def _positions(seed, n=4, dice=3, steps=3):
    """Observations of the seat to act after ``steps`` heuristic bets."""
    env = envs.make("liars_dice_v0", num_players=n, dice=dice)
    env.reset(seed=seed)
    bettor = LiarsDiceHeuristic(seed=seed)
    for _ in range(steps):
        obs = env.observe(env.agent_selection)
        action = bettor.act(obs, env.agent_selection)
        if action >= EXACT_AT:  # a call ends the phase
            return None
        env.step(action)
    return env.observe(env.agent_selection), env.agent_selection


def test_believing_nothing_is_the_heuristic():
    for seed in range(40):
        found = _positions(seed)
        if found is None:
            continue
        obs, name = found
        assert LiarsDiceBayes(seed=1, belief=0.0).act(obs, name) == LiarsDiceHeuristic(seed=1).act(obs, name)


def test_bets_on_a_face_raise_its_odds():
    """After the others bet on a face, the believer thinks more of it is out there than the heuristic does."""
    checked = 0
    for seed in range(40):
        found = _positions(seed, steps=3)
        if found is None:
            continue
        obs, _ = found
        believer, fair = LiarsDiceBayes(seed=0, belief=1.0), LiarsDiceHeuristic(seed=0)
        believer._faces_bet = believer._bets_by_seat(obs["observation"])
        seen_b, seen_f = believer.read(obs["observation"]), fair.read(obs["observation"])
        _, _, (_, at_least_b) = believer._tables(seen_b, 1)
        _, _, (_, at_least_f) = fair._tables(seen_f, 1)
        for face in {f for seat, faces in believer._faces_bet.items() if seat > 0 for f in faces}:
            mean_b, mean_f = at_least_b[face, 1:].sum(), at_least_f[face, 1:].sum()  # E[count] = sum P(>= k)
            assert mean_b > mean_f
            checked += 1
    assert checked > 10


def test_the_spec_and_its_errors():
    assert agents.make("bayes:2", env_name="liars_dice_v0").belief == 2.0
    assert agents.make("bayes", env_name="liars_dice_v0").belief == 1.0
    with pytest.raises(ValueError, match="liars_dice_v0 only"):
        agents.make("bayes", env_name="libertalia_v0")
    with pytest.raises(ValueError, match="a number"):
        agents.make("bayes:much", env_name="liars_dice_v0")


def test_it_plays_legal_moves_with_special_dice_and_the_classic_preset():
    specials = ("pirate king", "cursed", "ghost", "mermaid")
    for options in ({"dice": 2, "specials": specials}, {"dice": 1, "preset": "classic"}):
        env = envs.make("liars_dice_v0", num_players=3, **options)
        player = LiarsDiceBayes(seed=3)
        for seed in range(20):
            env.reset(seed=seed)
            for name in env.agent_iter():
                obs, _, done, cut, _ = env.last()
                action = None if done or cut else player.act(obs, name)
                assert action is None or obs["action_mask"][action]
                env.step(action)
    assert np.isfinite(player.belief)


def test_probabilities_read_the_bets_of_the_position_asked_about():
    """``probabilities`` (what a distillation or an exploitability table reads) puts the choice where ``act``
    chooses, on each position by itself: no bets carried over from the position before."""
    compared = 0
    for seed in range(40):
        found = _positions(seed, steps=3)
        if found is None:
            continue
        obs, name = found
        fresh = LiarsDiceBayes(seed=0).probabilities(obs)
        warmed = LiarsDiceBayes(seed=0)
        other = _positions(seed + 1000, steps=1)
        if other is not None:
            warmed.act(*other)  # another position's bets must not leak into this one
        assert np.array_equal(warmed.probabilities(obs), fresh)
        choice, _ = LiarsDiceBayes(seed=0).decide(obs, name)
        assert fresh[choice] == fresh.max()
        compared += 1
    assert compared > 10


def test_search_determinisations_believe_the_bets():
    """``BetBelief`` keeps every determinisation consistent with the searcher's observation, and a cup whose
    owner bet on a face holds more of that face than fair dice would."""
    from bidbluff.agents.heuristic.liars_dice_bayes import BetBelief

    env = envs.make("liars_dice_v0", num_players=2, dice=5)
    env.reset(seed=0)
    raw = env.unwrapped
    env.step(raw.game.action_to_id(raw.game_state, ("bid", 2, 5), 0))  # seat 0 bets on 5s
    env.step(raw.game.action_to_id(raw.game_state, ("bid", 3, 5), 1))
    env.step(raw.game.action_to_id(raw.game_state, ("bid", 4, 5), 0))  # and again
    observation = env.observe("player_1")
    belief, rng = BetBelief(observation), np.random.default_rng(0)
    fives = fair = 0
    for _ in range(400):
        sample = belief.redraw(raw.game_state.resample_hidden(1, rng), 1, rng)
        assert np.array_equal(raw.game.encode(sample, 1), observation["observation"])
        assert sample.round.cups[1] == raw.game_state.round.cups[1]  # the searcher's own cup untouched
        fives += sum(face in (5, 1) for _, face in sample.round.cups[0])  # 1s are wild
        fair += sum(face in (5, 1) for _, face in raw.game_state.resample_hidden(1, rng).round.cups[0])
    assert fives / 400 > fair / 400 + 0.5  # fair: 5/3 dice of five count toward 5s


def test_the_belief_setting_of_a_search_spec():
    agent = agents.make("ismcts:20,belief=bayes", env_name="liars_dice_v0", seed=0)
    assert agent.belief == "bayes"
    env = envs.make("liars_dice_v0", num_players=3)
    env.reset(seed=1)
    agent.bind(env)
    assert 0 <= agent.act(env.observe(env.agent_selection), env.agent_selection) < 409
    with pytest.raises(ValueError, match="not one of"):
        agents.make("ismcts:20,belief=psychic", env_name="liars_dice_v0")
    other = envs.make("libertalia_v0", num_players=3)
    other.reset(seed=0)
    with pytest.raises(ValueError, match="liars_dice_v0 only"):
        agents.make("ismcts:20,belief=bayes", env_name="libertalia_v0").bind(other)
