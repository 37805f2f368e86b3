"""IS-MCTS with evaluators: network priors (PUCT), value cut-offs, heuristic and network rollouts; the search
result; the ``ismcts:...`` and ``expert`` specs; constructed positions whose best move is known."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from bidbluff import agents, envs
from bidbluff.agents.evaluators import (
    NUMPY_ROWS,
    Evaluator,
    HeuristicPrior,
    HeuristicRollout,
    PolicyRollout,
    load_network,
    rules_player,
)
from bidbluff.agents.ismcts import EXPERT, ISMCTSAgent

NETWORKED = "prior=shipped,value=shipped"


def bet_that_surely_holds(face: int):
    """2 captains x 1 die, classic rules (6s wild): seat 0 bets "one of" ``face`` and seat 1, to act, holds a
    die that counts toward it."""
    for seed in range(100):
        env = envs.make("liars_dice_v0", raw=True, num_players=2, dice=1, preset="classic")
        env.reset(seed=seed)
        if env.game_state.round.cups[1][0][1] in (face, 6):
            env.step(env.game.action_to_id(env.game_state, ("bid", 1, face), 0))
            return env
    raise AssertionError("no deal found")


def liar_id(env) -> int:
    return env.game.action_to_id(env.game_state, ("liar",), 1)


@pytest.mark.parametrize(
    "spec",
    [
        "ismcts:300",
        f"ismcts:150,{NETWORKED}",
        "ismcts:150,rollout=heuristic",
        "ismcts:150,prior=shipped,value=shipped,rollout=heuristic,steps=2",
    ],
)
def test_never_calls_a_bet_that_surely_holds(spec):
    """Calling "Liar!" on a bet the caller's own die makes true loses for sure: a dominated move.  Its backed-up
    value is exactly the loss, and the search spends few visits on it."""
    env = bet_that_surely_holds(face=3)
    agent = agents.make(spec, env_name="liars_dice_v0", seed=0)
    agent.bind(env)
    result = agent.search(env.observe("player_1"), "player_1")
    liar = liar_id(env)
    assert result.action != liar
    assert result.action_values.get(liar, -1.0) == pytest.approx(-1.0)
    assert result.visits[liar] < 0.2 * sum(result.visits.values())


@pytest.mark.parametrize("spec", ["ismcts:300", f"ismcts:100,{NETWORKED}", "ismcts:100,rollout=shipped"])
def test_finds_the_certain_liar_call(spec):
    """Two dice in play and seat 0 bets "two of" a face seat 1's own die does not count for: the bet cannot
    hold, so "Liar!" surely wins, even where the network's prior all but rules the call out."""
    for seed in range(100):
        env = envs.make("liars_dice_v0", raw=True, num_players=2, dice=1, preset="classic")
        env.reset(seed=seed)
        own = env.game_state.round.cups[1][0][1]
        if own == 6:
            continue
        face = next(f for f in range(1, 6) if f != own)
        env.step(env.game.action_to_id(env.game_state, ("bid", 2, face), 0))
        break
    agent = agents.make(spec, env_name="liars_dice_v0", seed=0)
    agent.bind(env)
    result = agent.search(env.observe("player_1"), "player_1")
    assert result.action == liar_id(env)
    assert result.action_values[result.action] == pytest.approx(1.0)
    assert result.value > 0


def test_forced_libertalia_pick():
    """A Libertalia decision with one legal pick: the search puts every visit and the whole policy on it."""
    env = envs.make("libertalia_v0", raw=True, num_players=3)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    while env.action_masks().sum() != 1:
        env.step(int(rng.choice(env.legal_action_ids())))
    name = env.agent_selection
    forced = int(np.flatnonzero(env.action_masks())[0])
    agent = agents.make(f"ismcts:12,{NETWORKED}", env_name="libertalia_v0", seed=0)
    agent.bind(env)
    result = agent.search(env.observe(name), name)
    assert result.action == forced
    assert result.visits == {forced: 11}  # the first simulation expands the root
    assert result.policy[forced] == 1.0 and result.policy.sum() == 1.0


@pytest.mark.parametrize("selection", ["ucb", "puct"])
def test_result_is_the_root_visit_distribution(selection):
    env = envs.make("libertalia_v0", raw=True, num_players=4)
    env.reset(seed=1)
    name = env.agent_selection
    agent = ISMCTSAgent(simulations=40, selection=selection, prior="shipped", seed=0)
    agent.bind(env)
    result = agent.search(env.observe(name), name)
    mask = env.action_masks()
    assert sum(result.visits.values()) == 39
    assert set(result.visits) == set(np.flatnonzero(mask))
    assert result.policy.shape == mask.shape and result.policy[mask == 0].sum() == 0
    assert result.policy.sum() == pytest.approx(1.0)
    assert result.visits[result.action] == max(result.visits.values())
    q = result.action_values
    assert result.value == pytest.approx(sum(q[a] * n for a, n in result.visits.items() if n) / 39)


def test_probabilities_are_the_visit_distribution_of_the_seat_to_act():
    """What a distillation reads from a search teacher: the same seeded search's visit distribution."""
    env = envs.make("liars_dice_v0", raw=True, num_players=3)
    env.reset(seed=2)
    name = env.agent_selection
    first, second = (ISMCTSAgent(simulations=30, seed=5) for _ in range(2))
    first.bind(env)
    second.bind(env)
    probs = first.probabilities(env.observe(name))
    assert np.array_equal(probs, second.search(env.observe(name), name).policy)
    assert probs.sum() == pytest.approx(1.0) and probs[env.action_masks() == 0].sum() == 0
    with pytest.raises(RuntimeError, match="bind"):
        ISMCTSAgent(simulations=5).probabilities(env.observe(name))


def test_one_batched_forward_per_leaf_when_prior_and_value_share_the_network():
    """AlphaZero's evaluator: the prior is the acting seat's row of the value pass over every seat."""
    env = envs.make("liars_dice_v0", raw=True, num_players=4)
    env.reset(seed=2)
    network = load_network("shipped", "liars_dice_v0")
    shapes = []
    infer = network.infer
    evaluator = Evaluator(value=network, steps=0, prior=network, reward_mode=network.reward_mode)
    state = env.game_state
    actor = state.current_player()
    obs = env.game.encode(state, actor)
    legal = env.game.legal_action_ids(state, actor)
    network.infer = lambda rows: shapes.append(rows.shape) or infer(rows)
    try:
        leaf = evaluator.leaf(env.game, state.clone(), actor, obs, legal, np.random.default_rng(0))
    finally:
        del network.infer
    assert shapes == [(4, env.game.observation_size)]
    logits, values = network.infer(np.stack([env.game.encode(state, s) for s in range(4)]))
    chosen = np.exp(logits[actor][legal] - logits[actor][legal].max())
    np.testing.assert_allclose(leaf.prior, chosen / chosen.sum(), rtol=1e-5)
    np.testing.assert_allclose(leaf.values, values, rtol=1e-5)


def test_value_cut_off_after_k_steps_and_final_rewards_at_the_end():
    """``steps=3``: three heuristic decisions, then every seat's value head at that position; without a value
    network the rollout plays to the end and the final rewards come back."""
    env = envs.make("liars_dice_v0", raw=True, num_players=4)
    env.reset(seed=2)
    network = load_network("shipped", "liars_dice_v0")
    game, state = env.game, env.game_state
    values = Evaluator(
        HeuristicRollout("liars_dice_v0", seed=0), network, steps=3, reward_mode=network.reward_mode
    ).evaluate(game, state.clone(), np.random.default_rng(0))
    again, rng, rollout = state.clone(), np.random.default_rng(0), HeuristicRollout("liars_dice_v0", seed=0)
    for _ in range(3):
        again.apply(rollout.choose(game, again, again.current_player(), rng), rng)
    _, expected = network.infer(np.stack([game.encode(again, s) for s in range(4)]))
    np.testing.assert_allclose(values, expected, rtol=1e-5)

    to_the_end = Evaluator(PolicyRollout(network)).evaluate(game, state.clone(), np.random.default_rng(0))
    played, rng, rollout = state.clone(), np.random.default_rng(0), PolicyRollout(network)
    while not played.is_terminal():
        played.apply(rollout.choose(game, played, played.current_player(), rng), rng)
    assert to_the_end.tolist() == game.final_rewards(played, "win")


class _Forbidden:
    """A prior that must not be asked (a forced move)."""

    name = "forbidden"

    def policy(self, observation, legal, actor):
        raise AssertionError("the prior was asked about a forced move")


class _Fixed:
    name = "fixed"

    def __init__(self, probs):
        self.probs = np.asarray(probs, dtype=np.float64)

    def policy(self, observation, legal, actor):
        return self.probs[: len(legal)] / self.probs[: len(legal)].sum()


def test_a_policy_rollout_samples_its_prior_and_skips_forced_moves(monkeypatch):
    env = envs.make("liars_dice_v0", raw=True, num_players=2)
    env.reset(seed=3)
    game, state = env.game, env.game_state
    actor = state.current_player()
    legal = game.legal_action_ids(state, actor)
    assert len(legal) >= 3
    probs = np.zeros(len(legal))
    probs[:3] = (0.6, 0.3, 0.1)
    rollout, rng = PolicyRollout(_Fixed(probs)), np.random.default_rng(0)
    picks = [game.action_to_id(state, rollout.choose(game, state, actor, rng), actor) for _ in range(4000)]
    shares = [picks.count(legal[i]) / len(picks) for i in range(3)]
    np.testing.assert_allclose(shares, (0.6, 0.3, 0.1), atol=0.03)
    assert set(picks) <= set(legal[:3])

    # one legal move: taken without a forward pass
    monkeypatch.setattr(game, "legal_action_ids", lambda state, actor: legal[:1])
    assert game.action_to_id(state, PolicyRollout(_Forbidden()).choose(game, state, actor, rng), actor) == legal[0]


def test_network_forward_keeps_the_callers_thread_setting():
    network = load_network("shipped", "liars_dice_v0")
    before = torch.get_num_threads()
    network.infer(np.zeros((2, network.net.sizes["obs_size"]), dtype=np.float32))
    assert torch.get_num_threads() == before


def test_the_value_network_sets_the_reward_mode():
    """A value head learnt its run's reward: Libertalia's network of 2026-12 the score difference, the one shipped
    now the win (``winner``); a search reading either backs that up."""
    network = load_network("shipped@2026-12", "libertalia_v0")
    assert (network.reward_mode, load_network("shipped", "libertalia_v0").reward_mode) == ("score", "winner")
    with pytest.raises(ValueError, match="reward_mode 'score'"):
        Evaluator(value=network, steps=0, reward_mode="win")
    env = envs.make("libertalia_v0", raw=True, num_players=4)
    env.reset(seed=0)
    for version, mode in (("shipped@2026-12", "score"), ("shipped", "winner")):
        agent = agents.make(f"ismcts:5,prior={version},value={version}", env_name="libertalia_v0")
        agent.bind(env)
        assert agent.evaluator.reward_mode == mode
    with pytest.raises(ValueError, match=r"no checkpoint shipped@1999-01 .*retired versions: shipped@2026-12"):
        load_network("shipped@1999-01", "libertalia_v0")


def test_a_network_of_another_layout_is_refused():
    env = envs.make("lying_pirates_v0", raw=True, num_players=4)
    env.reset(seed=0)
    agent = ISMCTSAgent(simulations=5, prior=str(agents.shipped_path("liars_dice_v0")))
    with pytest.raises(ValueError, match="trained on liars_dice_v0"):
        agent.bind(env)


def test_specs():
    agent = agents.make("ismcts:200,prior=shipped,value=shipped", env_name="liars_dice_v0")
    assert (agent.simulations, agent.selection, agent.specs["steps"]) == (200, "puct", 0)
    agent = agents.make("ismcts:500ms,rollout=heuristic")
    assert (agent.simulations, agent.time_ms, agent.selection, agent.specs["rollout"]) == (
        None,
        500,
        "ucb",
        "heuristic",
    )
    agent = agents.make("ismcts:50,300ms,prior=shipped,select=ucb,c=0.4,mix=0.1")
    assert (agent.simulations, agent.time_ms, agent.selection, agent.exploration, agent.mix) == (
        50,
        300,
        "ucb",
        0.4,
        0.1,
    )
    assert agents.make("ismcts:value=shipped,rollout=heuristic,steps=4").specs["steps"] == 4
    assert agents.make("ismcts:100,reward=winner").reward_mode == "winner"
    for bad, words in (
        ("ismcts:prior", "neither a budget"),
        ("ismcts:depth=3", "neither a budget"),
        ("ismcts:steps=x,value=shipped", "must be a number"),
        ("ismcts:select=best", "selection"),
        ("ismcts:steps=3", "name the value network"),
        ("ismcts:prior=shipped,mix=2", "between"),
        ("ismcts:reward=most", "reward mode"),
        ("ismcts:value=shipped,rollout=heuristic", "steps=K"),
    ):
        with pytest.raises(ValueError, match=words):
            agents.make(bad)
    with pytest.raises(ValueError, match="pass env_name"):
        agents.make("expert")
    with pytest.raises(ValueError, match="no ':' argument"):
        agents.make("expert:3", env_name="liars_dice_v0")


def test_the_browser_table_offers_the_expert():
    pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")
    from bidbluff.arena.web.app import games

    assert all("expert" in game["opponents"] for game in games())


@pytest.mark.parametrize("env_name", envs.ENVS)
def test_expert_of_every_game_plays(env_name):
    assert set(EXPERT) == set(envs.ENVS)
    env = envs.make(env_name, raw=True, num_players=4)
    env.reset(seed=0)
    agent = agents.make("expert", env_name=env_name, seed=0, simulations=3, time_ms=None)
    assert isinstance(agent, ISMCTSAgent)
    agent.bind(env)
    name = env.agent_selection
    assert env.action_masks()[agent.act(env.observe(name), name)] == 1


def test_a_search_spec_keeps_its_settings_in_a_list_of_specs():
    assert agents.split_specs("ismcts:200,prior=shipped,value=shipped,heuristic*3") == [
        "ismcts:200,prior=shipped,value=shipped",
        "heuristic*3",
    ]
    assert agents.split_specs(" random, ismcts:50ms,rollout=heuristic ,shipped,") == [
        "random",
        "ismcts:50ms,rollout=heuristic",
        "shipped",
    ]


@pytest.mark.parametrize("env_name", ["liars_dice_v0", "libertalia_v0"])
def test_heuristic_prior(env_name):
    """The heuristic's own distribution where it has one (Liar's dice), else all on its pick (Libertalia)."""
    env = envs.make(env_name, raw=True, num_players=4)
    env.reset(seed=4)
    name = env.agent_selection
    seen = env.observe(name)
    legal = env.legal_action_ids()
    prior = HeuristicPrior(env_name, env.game.codec.n, seed=0).policy(seen["observation"], legal, agents.seat_of(name))
    heuristic = agents.make("heuristic", env_name=env_name, seed=0)
    if hasattr(heuristic, "probabilities"):
        np.testing.assert_allclose(prior, heuristic.probabilities(seen)[legal])
    else:
        assert prior.tolist() == [float(i == heuristic.act(seen, name)) for i in legal]
    assert prior.sum() == pytest.approx(1.0)
    agent = agents.make("ismcts:20,prior=heuristic", env_name=env_name, seed=0)
    assert agent.selection == "puct"
    agent.bind(env)
    assert seen["action_mask"][agent.act(seen, name)] == 1


@pytest.mark.parametrize(("env_name", "player", "seed"), [("liars_dice_v0", "odds", 4), ("libertalia_v0", "myopic", 1)])
def test_an_outside_style_player_as_prior_and_rollout(env_name, player, seed):
    """``prior=odds`` puts the prior all on the move ``odds`` makes (not the heuristic's), and ``rollout=odds``
    plays ``odds``' moves: a search that knows a table of ``odds`` move for move."""
    env = envs.make(env_name, raw=True, num_players=4)
    env.reset(seed=seed)
    name = env.agent_selection
    seen = env.observe(name)
    legal = env.legal_action_ids()
    outsider = agents.make(player, env_name=env_name, seed=0)
    heuristic = agents.make("heuristic", env_name=env_name, seed=0)
    agent = agents.make(f"ismcts:20,prior={player},rollout={player},others=prior", env_name=env_name, seed=0)
    agent.bind(env)
    prior = agent.evaluator.prior
    assert prior.name == player
    expected = [float(i == outsider.act(seen, name)) for i in legal]
    assert prior.policy(seen["observation"], legal, agents.seat_of(name)).tolist() == expected
    rollout = agent.evaluator.rollout
    assert rollout.name == player
    move = rollout.choose(env.game, env.game_state, agents.seat_of(name), np.random.default_rng(0))
    assert env.game.action_to_id(env.game_state, move, agents.seat_of(name)) == outsider.act(seen, name)
    assert seen["action_mask"][agent.act(seen, name)] == 1
    # the position is one where the two players differ, so a prior or rollout of the heuristic fails above
    assert outsider.act(seen, name) != heuristic.act(seen, name)


def test_a_rules_player_the_game_lacks_is_refused():
    env = envs.make("liars_dice_v0", raw=True, num_players=2)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="myopic"):
        agents.make("ismcts:20,prior=myopic", env_name="liars_dice_v0", seed=0).bind(env)
    with pytest.raises(ValueError, match="rules-based player 'nobody'"):
        rules_player("liars_dice_v0", "nobody")


class CallsLiarAtOnce:
    """A prior under which seat 1 calls "Liar!" whenever it may (seat 0's prior is uniform)."""

    def __init__(self, liar: int) -> None:
        self.liar = liar

    def policy(self, observation, legal, actor):
        if actor == 1 and self.liar in legal:
            return np.array([1.0 if i == self.liar else 0.0 for i in legal])
        return np.full(len(legal), 1.0 / len(legal))


@pytest.mark.parametrize("others", ["search", "prior"])
def test_others_prior_answers_with_the_model_not_a_search(others):
    """2 captains x 1 die, classic: seat 0 bets "one of" its own die's face, a bet that surely holds.  If seat 1
    moves as the prior says (it calls at once) that bet wins every simulation through it; a searched seat 1
    learns to raise instead, and the bet's value falls."""
    env = envs.make("liars_dice_v0", raw=True, num_players=2, dice=1, preset="classic")
    env.reset(seed=4)
    face = env.game_state.round.cups[0][0][1]
    game, state = env.game, env.game_state
    liar = game.action_to_id(state, ("liar",), 1)
    agent = ISMCTSAgent(simulations=400, prior="shipped", others=others, seed=0)
    agent.evaluator = Evaluator(prior=CallsLiarAtOnce(liar))
    agent.bind(env)
    result = agent.search(env.observe("player_0"), "player_0")
    sure = game.action_to_id(state, ("bid", 1, face), 0)
    assert result.visits[sure] > 0
    if others == "prior":
        assert result.action_values[sure] == 1.0
    else:
        assert result.action_values[sure] < 0.9


def test_others_prior_needs_a_prior():
    assert agents.make("ismcts:50,prior=shipped,others=prior").others == "prior"
    with pytest.raises(ValueError, match="name it"):
        agents.make("ismcts:50,others=prior")
    with pytest.raises(ValueError, match="others='best'"):
        agents.make("ismcts:50,prior=shipped,others=best")


class Uniform:
    name = "uniform"

    def policy(self, observation, legal, actor):
        return np.full(len(legal), 1.0 / len(legal))


@pytest.mark.parametrize("model", ["calls", "uniform"])
def test_others_prior_or_heuristic_plays_the_drawn_model(model):
    """As above, with others=prior+heuristic: the other seat moves as the model drawn for it says, not as the
    search's prior does.  Both models call at once: the sure bet wins every simulation; both uniform: it does not."""
    env = envs.make("liars_dice_v0", raw=True, num_players=2, dice=1, preset="classic")
    env.reset(seed=4)
    face = env.game_state.round.cups[0][0][1]
    game, state = env.game, env.game_state
    liar = game.action_to_id(state, ("liar",), 1)
    agent = ISMCTSAgent(simulations=400, prior="shipped", others="prior+heuristic", belief="prior", seed=0)
    agent.evaluator = Evaluator(prior=Uniform())
    played = CallsLiarAtOnce(liar) if model == "calls" else Uniform()
    played.name = model
    agent.models = [played, played]
    agent.model_rollouts = [PolicyRollout(played), PolicyRollout(played)]
    agent.bind(env)
    result = agent.search(env.observe("player_0"), "player_0")
    sure = game.action_to_id(state, ("bid", 1, face), 0)
    assert result.visits[sure] > 0
    if model == "calls":
        assert result.action_values[sure] == 1.0
    else:
        assert result.action_values[sure] < 0.9


@pytest.mark.parametrize("env_name", ["liars_dice_v0", "libertalia_v0", "lying_pirates_v0", "spytails_v0"])
def test_the_numpy_forward_pass_is_the_torch_one(env_name):
    """A few rows go through numpy (first layer on the columns in use), more through torch: the same numbers."""
    network = load_network("shipped", env_name)
    env = envs.make(env_name, raw=True, num_players=4)
    env.reset(seed=2)
    rows = np.stack([env.game.encode(env.game_state, s) for s in range(4)] * 3)
    assert len(rows) > NUMPY_ROWS
    logits, values = network.infer(rows)
    for first in (0, 4):
        few_logits, few_values = network.infer(rows[first : first + 4])
        np.testing.assert_allclose(few_logits, logits[first : first + 4], atol=2e-5)
        np.testing.assert_allclose(few_values, values[first : first + 4], atol=2e-5)
