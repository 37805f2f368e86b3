"""The tabular control of self-play PPO at 2 players x 1 die (``bidbluff.training.tabular_control``)."""

from __future__ import annotations

import functools

import numpy as np
import pytest

pytest.importorskip("pyspiel")

from bidbluff.training import tabular_control as tc
from bidbluff.training.exploitability import game_tree, nash_conv


@pytest.fixture(scope="module")
def tree() -> tc.Tree:
    return tc.build_tree("lying_pirates")


def exact_config(**changes) -> tc.ControlConfig:
    base = {"mode": "exact", "total_steps": 10**9, "learning_rate": 0.01, "anneal_lr": False, "eval_every": 1}
    return tc.ControlConfig(**(base | changes))


def test_tree_matches_the_bridge_information_states(tree):
    bridge = game_tree(2, 1, "lying_pirates")
    assert set(tree.keys) == set(bridge.infostates)
    for i, key in enumerate(tree.keys):
        assert tree.actions[i] == bridge.infostates[key].actions
        assert tree.player[i] == bridge.infostates[key].player


def test_uniform_exploitability_matches_openspiel(tree):
    uniform = tc.uniform_policy(tree)
    theirs = nash_conv(game_tree(2, 1, "lying_pirates"), tc.policy_dict(tree, uniform))
    assert tc.exploitability(tree, uniform) == pytest.approx(theirs.exploitability, abs=1e-9)
    assert tc.evaluate(tree, uniform).value == pytest.approx(theirs.on_policy[0], abs=1e-9)


def test_a_random_policy_matches_openspiel(tree):
    rng = np.random.default_rng(3)
    policy = rng.random(tree.mask.shape) ** 4 * tree.mask
    policy /= policy.sum(1, keepdims=True)
    theirs = nash_conv(game_tree(2, 1, "lying_pirates"), tc.policy_dict(tree, policy))
    b0, b1 = tc.best_response_values(tree, policy)
    assert [b0, b1] == pytest.approx(theirs.best_response, abs=1e-9)
    assert tc.policy_array(tree, tc.policy_dict(tree, policy)) == pytest.approx(policy)


def test_exact_q_values_average_to_the_game_value(tree):
    ev = tc.evaluate(tree, tc.uniform_policy(tree))
    first = np.flatnonzero((tree.player == 0) & (ev.visit > 0.16))  # the six opening states, 1/6 each
    assert len(first) == 6
    assert ev.visit[first].sum() == pytest.approx(1.0)
    assert (ev.visit[first] * ev.v[first]).sum() == pytest.approx(ev.value)


def test_an_exact_update_moves_probability_toward_a_positive_advantage(tree):
    control = tc.TabularControl(tree, exact_config(n_epochs=1, clip_range=0.2))
    before = control.policy()
    ev = tc.evaluate(tree, before)
    state = int(np.argmax(ev.visit * (tree.player == 0)))
    best = int(np.argmax(np.where(tree.mask[state], ev.advantages[state], -np.inf)))
    assert ev.advantages[state, best] > 0
    control.iterate()
    assert control.policy()[state, best] > before[state, best]


def test_sampled_states_move_only_the_states_drawn(tree):
    control = tc.TabularControl(tree, exact_config(n_epochs=1, clip_range=0.2, state_samples=50, seed=1))
    before = control.logits.detach().clone()
    control.iterate()
    moved = (control.logits.detach() != before).any(1).numpy()
    assert 0 < moved.sum() <= 50
    assert not moved[tc.evaluate(tree, tc.uniform_policy(tree)).visit == 0].any()


def test_sampled_states_converge_on_the_exact_update(tree):
    """Drawn often enough, the states' weights are their visit odds, and the step is the exact one."""
    exact = tc.TabularControl(tree, exact_config(n_epochs=1, optimizer="sgd", learning_rate=1.0))
    drawn = tc.TabularControl(tree, exact_config(n_epochs=1, optimizer="sgd", learning_rate=1.0, state_samples=10**9))
    exact.iterate()
    drawn.iterate()
    assert drawn.policy() == pytest.approx(exact.policy(), abs=1e-5)
    few = tc.TabularControl(tree, exact_config(n_epochs=1, optimizer="sgd", learning_rate=1.0, state_samples=20))
    few.iterate()
    assert np.abs(few.policy() - exact.policy()).max() > 1e-3
    moves = tc.TabularControl(
        tree, exact_config(n_epochs=1, optimizer="sgd", learning_rate=1.0, state_samples=10**9, sampled_moves=True)
    )
    moves.iterate()
    assert moves.policy() == pytest.approx(exact.policy(), abs=1e-5)


def test_sampled_moves_step_on_the_drawn_moves_alone(tree):
    control = tc.TabularControl(tree, exact_config(n_epochs=1, state_samples=1, sampled_moves=True, seed=2))
    before = control.logits.detach().clone()
    control.iterate()
    moved = np.argwhere((control.logits.detach() != before).numpy())
    assert len({int(r) for r, _ in moved}) == 1, "one decision drawn: one state's row moves"
    with pytest.raises(ValueError, match="needs mode exact, state_samples > 0"):
        tc.TabularControl(tree, exact_config(sampled_moves=True))


def test_drawn_positions_average_to_their_states_advantages(tree):
    """Each position's advantages are its own given both cups; weighed by their draws they are the state's."""
    control = tc.TabularControl(tree, exact_config(state_samples=10**8, hidden_states=True, seed=3))
    policy = control.policy()
    ev = tc.evaluate(tree, policy)
    infos, counts, advantages = control.draw_positions(policy, ev)
    opening = int(np.argmax(ev.visit * (tree.player == 1)))  # the second seat's commonest state
    mine = infos == opening
    assert mine.sum() == 6, "one position for each of the first seat's hidden faces"
    assert np.ptp(advantages[mine][:, 0]) > 0.1, "the hidden die changes a move's advantage"
    mean = (counts[mine, None] * advantages[mine]).sum(0) / counts[mine].sum()
    assert mean == pytest.approx(np.where(tree.mask[opening], ev.advantages[opening], 0.0), abs=0.01)


def test_drawn_positions_converge_on_the_exact_update(tree):
    """Without the advantages' normalisation, which the positions' wider spread would change."""
    sgd = {"n_epochs": 1, "optimizer": "sgd", "learning_rate": 1.0, "normalize_advantages": False}
    exact = tc.TabularControl(tree, exact_config(**sgd))
    drawn = tc.TabularControl(tree, exact_config(**sgd, state_samples=10**9, hidden_states=True))
    exact.iterate()
    drawn.iterate()
    assert drawn.policy() == pytest.approx(exact.policy(), abs=1e-5)
    with pytest.raises(ValueError, match="hidden_states draws positions"):
        tc.TabularControl(tree, exact_config(hidden_states=True))


def test_a_sampled_update_moves_probability_toward_a_positive_advantage(tree):
    control = tc.TabularControl(tree, tc.ControlConfig(learning_rate=0.01, n_epochs=1))
    state, action = 0, 1
    batch = tc.Batch(
        infos=np.array([state]),
        slots=np.array([action]),
        log_probs=np.log(control.policy()[[state], [action]]).astype(np.float32),
        values=np.zeros(1, dtype=np.float32),
        advantages=np.ones(1, dtype=np.float32),
        returns=np.ones(1, dtype=np.float32),
        seats=np.zeros(1, dtype=np.int64),
        episodes=1,
    )
    before = control.policy()[state, action]
    control.update_sampled(batch, ent_coef=0.0, kl_coef=0.0)
    assert control.policy()[state, action] > before


def test_mmd_with_a_huge_kl_weight_stays_at_its_magnet(tree):
    free = tc.TabularControl(tree, exact_config(ent_coef=tc.Schedule(0.0), n_epochs=4))
    held = tc.TabularControl(
        tree, exact_config(ent_coef=tc.Schedule(0.0), kl_coef=tc.Schedule(1e4), magnet_rate=0.0, n_epochs=4)
    )
    for _ in range(3):
        free.iterate()
        held.iterate()
    uniform = tc.uniform_policy(tree)
    assert np.abs(held.policy() - uniform).max() < 0.02
    assert np.abs(free.policy() - uniform).max() > 5 * np.abs(held.policy() - uniform).max()


def test_sampled_batches_are_whole_self_play_episodes(tree):
    config = tc.ControlConfig(rollout_steps=500, num_games=16, gamma=1.0, gae_lambda=1.0)
    control = tc.TabularControl(tree, config)
    policy = control.policy()
    ev = tc.evaluate(tree, policy)
    batch = control.sample(policy, exact_values=ev.v)
    assert len(batch.infos) >= 500
    assert set(np.unique(tree.player[batch.infos])) == {0, 1}
    assert (tree.player[batch.infos] == batch.seats).all()
    assert np.allclose(batch.log_probs, np.log(policy[batch.infos, batch.slots]))
    # gamma = lambda = 1: the return of every decision is the seat's final reward, +1 or -1
    assert set(np.round(batch.returns, 5)) <= {-1.0, 1.0}
    assert np.allclose(batch.advantages, batch.returns - ev.v[batch.infos], atol=1e-5)
    # decisions per episode match the tree's expectation
    assert len(batch.infos) / batch.episodes == pytest.approx(ev.decisions_per_episode, rel=0.15)


def test_schedules():
    assert tc.Schedule.parse("0.1").at(0.7, 50) == 0.1
    assert tc.Schedule.parse("linear:0.1:0.0").at(0.5, 0) == pytest.approx(0.05)
    sqrt = tc.Schedule.parse("sqrt:0.1:0.01:0.02")
    assert sqrt.at(0.0, 300) == pytest.approx(0.05)
    assert sqrt.at(0.0, 10**6) == 0.02
    with pytest.raises(ValueError):
        tc.Schedule.parse("cosine:1")


def test_a_short_run_logs_every_row(tree, tmp_path):
    log = tmp_path / "log.csv"
    rows = tc.TabularControl(tree, exact_config(total_steps=2048 * 3, eval_every=2, n_epochs=2)).run(log)
    assert [row["update"] for row in rows] == [2, 3]
    assert rows[-1]["exploitability"] < tc.exploitability(tree, tc.uniform_policy(tree))
    assert log.read_text().count("\n") == 3


def test_the_closed_form_mmd_step_improves_on_uniform(tree):
    config = exact_config(mode="closed", learning_rate=0.05, ent_coef=tc.Schedule(0.1), total_steps=2048 * 10)
    rows = tc.TabularControl(tree, config).run()
    assert rows[-1]["exploitability"] < tc.exploitability(tree, tc.uniform_policy(tree)) - 0.01
    assert rows[-1]["kl_successive"] > 0


@pytest.mark.slow
def test_closed_form_mmd_with_a_refreshed_magnet_converges(tree):
    # docs/convergence.md: 0.049 at 450 steps, 0.036 at 600, 0.0103 at 1,500
    config = exact_config(
        mode="closed", total_steps=2048 * 600, learning_rate=0.05, ent_coef=tc.Schedule(0.0),
        kl_coef=tc.Schedule(0.2), magnet_every=150, eval_every=600,
    )  # fmt: skip
    rows = tc.TabularControl(tree, config).run()
    assert rows[-1]["exploitability"] < 0.05
    assert rows[-1]["value_seat0"] == pytest.approx(-1 / 9, abs=0.02)


def test_soft_values_charge_each_seats_regulariser_to_its_own_utility(tree):
    rng = np.random.default_rng(5)
    policy = rng.random(tree.mask.shape) * tree.mask
    policy /= policy.sum(1, keepdims=True)
    reg = rng.random(tree.num_infostates)
    hard, soft = tc.evaluate(tree, policy), tc.evaluate(tc.regularised(tree, reg), policy)
    # the first seat pays its own states' terms and collects the second's, each weighted by its visit
    sign = np.where(tree.player == 0, -1.0, 1.0)
    assert soft.value == pytest.approx(hard.value + (sign * hard.visit * reg).sum(), abs=1e-9)
    # a state's Q holds the later states' terms but not its own
    state = int(np.flatnonzero((tree.player == 1) & (hard.visit > 0))[0])
    bumped = reg.copy()
    bumped[state] += 1.0
    again = tc.evaluate(tc.regularised(tree, bumped), policy)
    assert again.q[state] == pytest.approx(soft.q[state], abs=1e-12)
    assert again.value == pytest.approx(soft.value + hard.visit[state], abs=1e-9)
    assert np.abs(again.q - soft.q).max() > 1e-6  # the states before it see the change


def test_soft_values_need_exact_expectations(tree):
    with pytest.raises(ValueError, match="soft_values"):
        tc.TabularControl(tree, exact_config(mode="sampled", soft_values=True))


def dilated_objective(tree, seat, policy, old, log_magnet, eta, ent, kappa):
    """The proximal problem the dilated step solves for ``seat``, the other seat at ``old``: eta x the seat's
    expected utility minus, at each of its states weighted by its own reach, ``c sum pi log pi - eta kappa
    sum pi log magnet - sum pi log old`` (c = 1 + eta (ent + kappa))."""
    mine = tree.player == seat
    mix = np.where(mine[:, None], policy, old)
    ev = tc.evaluate(tree, mix)
    utility = ev.value if seat == 0 else -ev.value
    log = functools.partial(tc.masked_log, tree)
    c = 1 + eta * (ent + kappa)
    per_state = (policy * (c * log(policy) - eta * kappa * log_magnet - log(old))).sum(1)
    return eta * utility - (ev.own_reach * per_state)[mine].sum()


@pytest.mark.parametrize("seat", [0, 1])
def test_the_dilated_step_solves_its_proximal_problem(tree, seat):
    """MMD over the sequence form: the step's policy for each seat maximises the dilated proximal objective, so
    the old policy and any small change at a reachable state score lower."""
    rng = np.random.default_rng(11)

    def random_policy():
        p = rng.random(tree.mask.shape) * tree.mask
        return p / p.sum(1, keepdims=True)

    old, magnet = random_policy(), random_policy()
    log_magnet = np.log(np.where(tree.mask, magnet, 1.0))
    eta, ent, kappa = 5.0, 0.01, 0.05
    new = tc.dilated_step(tree, old, log_magnet, eta, ent, kappa)
    assert np.allclose(new.sum(1), 1.0) and (new[~tree.mask] == 0).all()
    best = dilated_objective(tree, seat, new, old, log_magnet, eta, ent, kappa)
    assert best > dilated_objective(tree, seat, old, old, log_magnet, eta, ent, kappa) + 1e-6
    reach = tc.evaluate(tree, new).own_reach
    states = np.flatnonzero((tree.player == seat) & (reach > 1e-3))
    for state in rng.choice(states, 8, replace=False):
        for shift in (random_policy()[state], np.eye(tree.num_actions)[0]):
            changed = new.copy()
            changed[state] = 0.97 * new[state] + 0.03 * shift
            assert dilated_objective(tree, seat, changed, old, log_magnet, eta, ent, kappa) < best


def test_the_dilated_step_weighs_a_state_by_the_seats_own_reach_only(tree):
    """Unlike the behavioural step, a state the other seat rarely leads to stays near its magnet: with a uniform
    magnet, the dilated step's policy is closer to uniform at states of small counterfactual reach."""
    config = exact_config(mode="dilated", learning_rate=3.0, ent_coef=tc.Schedule(0.0), kl_coef=tc.Schedule(0.03),
                          magnet_every=0, magnet_rate=0.0, total_steps=2048 * 100, eval_every=100)  # fmt: skip
    control = tc.TabularControl(tree, config)
    rows = control.run()
    assert rows[-1]["exploitability"] < tc.exploitability(tree, tc.uniform_policy(tree)) - 0.05
    policy = control.policy()
    ev = tc.evaluate(tree, policy)
    counterfactual = ev.visit / np.maximum(ev.own_reach, 1e-300)
    played = ev.own_reach > 1e-2
    rare = played & (counterfactual < np.quantile(counterfactual[played], 0.1))
    common = played & (counterfactual > np.quantile(counterfactual[played], 0.9))
    distance = tc.kl(policy, tc.uniform_policy(tree))
    assert distance[rare].mean() < distance[common].mean()


def test_the_dilated_step_needs_the_table_and_no_soft_values(tree):
    with pytest.raises(ValueError, match="soft_values"):
        tc.TabularControl(tree, exact_config(mode="dilated", soft_values=True))
    with pytest.raises(ValueError, match="table"):
        tc.TabularControl(tree, exact_config(mode="dilated", policy_net="0:8"))


def test_a_magnet_on_the_average_copies_the_average_strategy(tree):
    config = exact_config(mode="closed", learning_rate=0.05, kl_coef=tc.Schedule(0.2), magnet_every=2,
                          magnet_source="average", total_steps=2048 * 4, eval_every=4)  # fmt: skip
    control = tc.TabularControl(tree, config)
    control.run()
    magnet = control.magnet_policy().numpy()
    assert np.allclose(magnet, control.average_policy(), atol=1e-9)
    assert not np.allclose(magnet, control.policy(), atol=1e-3)
    with pytest.raises(ValueError, match="magnet_source"):
        tc.TabularControl(tree, exact_config(magnet_source="mean"))
