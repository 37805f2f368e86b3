"""The batched self-play PPO trainer: its maths on constructed cases, the network and masking, a tiny run +
resume, the table-size list, learning-rate annealing and the KL stop, --init from either checkpoint format."""

from __future__ import annotations

import csv
import gc
import json
import math

import numpy as np
import pytest
import torch

from bidbluff import agents, envs
from bidbluff.agents.networks import ActorCritic, masked_logits
from bidbluff.agents.policy import CheckpointError, load_trainer_state, read_sidecar
from bidbluff.cli import main
from bidbluff.training import batched
from bidbluff.training.batched import (
    BatchedConfig,
    BatchedTrainer,
    all_actions_loss,
    distinct_rows,
    explained_variance,
    position,
    ppo_loss,
    rare_collections,
    reverse_kl,
    segment_gae,
    state_balance,
)


def started(trainer: BatchedTrainer) -> BatchedTrainer:
    """``trainer`` with a game begun at each of its tables, as ``run()`` begins them."""
    for table in trainer.tables:
        trainer._start(table)
    return trainer


# -- advantages ---------------------------------------------------------------------
def test_gae_of_a_finished_game_with_gamma_and_lambda_one_is_reward_minus_value():
    adv, ret = segment_gae(np.array([0.5, 0.2, -0.1]), reward=1.0, terminal=True, bootstrap=99.0, gamma=1.0, lam=1.0)
    assert adv == pytest.approx([0.5, 0.8, 1.1])
    assert ret == pytest.approx([1.0, 1.0, 1.0])  # the bootstrap of a finished game is never used


def test_gae_by_hand_with_discount():
    g, lam = 0.9, 0.5
    v = [0.3, 0.6]
    # last decision: delta1 = r - v1 (terminal); first: delta0 = g*v1 - v0; A0 = delta0 + g*lam*A1
    d1 = -1.0 - v[1]
    d0 = g * v[1] - v[0]
    adv, ret = segment_gae(np.array(v), reward=-1.0, terminal=True, bootstrap=0.0, gamma=g, lam=lam)
    assert adv == pytest.approx([d0 + g * lam * d1, d1])
    assert ret == pytest.approx([d0 + g * lam * d1 + v[0], d1 + v[1]])


def test_a_cut_sequence_bootstraps_and_gets_no_reward():
    adv, ret = segment_gae(np.array([0.25]), reward=1.0, terminal=False, bootstrap=0.75, gamma=0.5, lam=0.9)
    assert adv == pytest.approx([0.5 * 0.75 - 0.25])
    assert ret == pytest.approx([0.375])


def test_gae_with_every_ratio_one_is_plain_gae():
    rng = np.random.default_rng(0)
    values = rng.normal(size=6)
    ones = np.ones(6, dtype=np.float32)
    for terminal in (True, False):
        plain = segment_gae(values, -1.0, terminal, 0.3, 0.9, 0.7)
        weighed = segment_gae(values, -1.0, terminal, 0.3, 0.9, 0.7, own=ones, between=ones)
        np.testing.assert_allclose(weighed[0], plain[0], rtol=1e-6)
        np.testing.assert_allclose(weighed[1], plain[1], rtol=1e-6)


def test_corrected_gae_is_the_policys_advantage_in_expectation_over_the_behaviours_moves():
    """Seat A moves (value v0), the other seat answers from a mix (the policy's answer wins A +1, the other -1), A
    moves again from a mix (value v1; its policy's move +1, the other -1) and the game ends.  Sampled from the
    mixes, the corrected advantage of A's first move averages its advantage under the policies, and the corrected
    value target averages the policy's value of the second state."""
    rng = np.random.default_rng(1)
    policy_answer, mix_answer = 0.9, 0.5  # the chance of the answer that wins A +1 (the policy's / the mix's)
    policy_own, mix_own = 0.8, 0.6  # the chance of A's second move that wins +1
    v0, v1 = 0.1, -0.2
    first, second = [], []
    for _ in range(40_000):
        good_answer = rng.random() < mix_answer
        between_first = (policy_answer if good_answer else 1 - policy_answer) / (
            mix_answer if good_answer else 1 - mix_answer
        )
        if not good_answer:  # the answer ended the game at -1 before A's second move
            adv, _ = segment_gae(np.array([v0]), -1.0, True, 0.0, 1.0, 1.0, np.ones(1), np.array([between_first]))
            first.append(adv[0])
            continue
        good_move = rng.random() < mix_own
        own_second = (policy_own if good_move else 1 - policy_own) / (mix_own if good_move else 1 - mix_own)
        reward = 1.0 if good_move else -1.0
        adv, ret = segment_gae(
            np.array([v0, v1]), reward, True, 0.0, 1.0, 1.0, np.array([1.0, own_second]), np.array([between_first, 1.0])
        )
        first.append(adv[0])
        second.append(ret[1])
    value_second = policy_own - (1 - policy_own)  # the policy's value after the good answer: 0.6
    value_first = policy_answer * value_second + (1 - policy_answer) * -1.0  # 0.44
    assert np.mean(first) == pytest.approx(value_first - v0, abs=0.02)
    assert np.mean(second) == pytest.approx(value_second, abs=0.02)
    # the same samples as played estimate the mixes' value instead, far from the policy's
    assert mix_answer * (mix_own - (1 - mix_own)) + (1 - mix_answer) * -1.0 - v0 < value_first - v0 - 0.3


# -- the loss -------------------------------------------------------------------------
def _loss(ratio, adv, clip=0.2):
    new = torch.tensor([math.log(ratio)], requires_grad=True)
    loss, stats = ppo_loss(
        new,
        torch.zeros(1),
        torch.tensor([adv]),
        torch.zeros(1),
        torch.zeros(1),
        torch.zeros(1),
        clip,
        vf_coef=0.5,
        ent_coef=0.0,
    )
    loss.backward()
    return float(loss.detach()), float(new.grad[0]), stats


def test_unclipped_surrogate_is_minus_ratio_times_advantage():
    loss, grad, stats = _loss(1.0, 2.0)
    assert loss == pytest.approx(-2.0)
    assert grad == pytest.approx(-2.0)  # d(-A r)/d log r = -A r
    assert stats["clip_fraction"] == 0 and stats["approx_kl"] == pytest.approx(0)


def test_a_good_action_already_made_likelier_is_clipped_with_no_gradient():
    loss, grad, stats = _loss(2.0, 1.0)
    assert loss == pytest.approx(-1.2)  # min(r A, clip(r) A) = 1.2, negated
    assert grad == 0.0
    assert stats["clip_fraction"] == 1.0


def test_a_bad_action_made_likelier_keeps_its_full_penalty():
    loss, grad, _ = _loss(2.0, -1.0)
    assert loss == pytest.approx(2.0)  # the pessimistic (unclipped) term
    assert grad == pytest.approx(2.0)


def test_decoupled_surrogate_weighs_the_clip_around_the_rollouts_policy():
    """A rare move the mix explored (the policy's chance a fifth of the mix's), with a negative advantage: centred
    on the mix, the ratio starts at 0.2, below the clip, and the step cannot make the move rarer; centred on the
    rollout's policy, with the weight 0.2 outside, it can."""
    policy, mix, adv = math.log(0.02), math.log(0.1), torch.tensor([-1.0])
    coupled = torch.tensor([policy], requires_grad=True)
    loss, _ = ppo_loss(coupled, torch.tensor([mix]), adv, *[torch.zeros(1)] * 3, 0.1, vf_coef=0.5, ent_coef=0.0)
    loss.backward()
    assert float(coupled.grad[0]) == 0.0
    decoupled = torch.tensor([policy], requires_grad=True)
    weight = torch.tensor([0.2])
    loss, stats = ppo_loss(
        decoupled, torch.tensor([policy]), adv, *[torch.zeros(1)] * 3, 0.1, vf_coef=0.5, ent_coef=0.0, importance=weight
    )
    loss.backward()
    assert float(loss.detach()) == pytest.approx(0.2)  # the weight times -A r at r = 1
    assert float(decoupled.grad[0]) == pytest.approx(0.2)  # descending it makes the move rarer
    assert stats["approx_kl"] == pytest.approx(0.0)


def test_value_and_entropy_terms():
    loss, _ = ppo_loss(
        torch.zeros(2),
        torch.zeros(2),
        torch.zeros(2),
        torch.tensor([1.0, 3.0]),
        torch.tensor([0.0, 0.0]),
        torch.tensor([0.5, 1.5]),
        0.2,
        vf_coef=0.5,
        ent_coef=0.1,
    )
    assert float(loss) == pytest.approx(0.5 * 0.5 * (1 + 9) / 2 - 0.1 * 1.0)


# -- the network and masking ---------------------------------------------------------------
def test_masked_sampling_never_picks_an_illegal_action():
    gen = torch.Generator().manual_seed(0)
    rng = np.random.default_rng(0)
    net = ActorCritic(12, 40, trunk=16, net_arch=[8])
    with torch.no_grad():
        net.action_head.weight.mul_(2000.0)  # logits far apart
        net.action_head.bias[0] = 1000.0  # an illegal favourite
    obs = torch.from_numpy(rng.random((512, 12)).astype(np.float32))
    mask = torch.from_numpy(rng.random((512, 40)) < 0.1)
    mask[:, 0] = False
    mask[torch.arange(512), torch.from_numpy(rng.integers(1, 40, 512))] = True
    with torch.no_grad():
        for _ in range(20):
            step = net.get_action_and_value(obs, mask, generator=gen)
            assert bool(mask[torch.arange(512), step.action].all())
            assert bool(torch.isfinite(step.log_prob).all()) and bool((step.entropy >= 0).all())
        assert float(step.log_probs.exp()[~mask].max()) == 0.0
        probs = torch.softmax(masked_logits(net.logits(obs), mask), -1)
    assert float(probs[~mask].max()) == 0.0


def test_get_action_and_value_of_given_actions_is_what_sampling_reported():
    net = ActorCritic(6, 5, trunk=0, net_arch=[4])  # trunk 0: no shared layer
    obs = torch.rand(32, 6)
    mask = torch.ones(32, 5, dtype=torch.bool)
    mask[:, 3] = False
    sampled = net.get_action_and_value(obs, mask, generator=torch.Generator().manual_seed(1))
    again = net.get_action_and_value(obs, mask, sampled.action)
    assert torch.equal(again.action, sampled.action)
    assert torch.allclose(again.log_prob, sampled.log_prob) and torch.allclose(again.value, net.value(obs))
    probs = again.log_probs.exp()
    assert torch.allclose(again.entropy, -(probs * again.log_probs).sum(-1))


def test_the_policy_over_the_columns_in_use_is_the_policy_over_all_actions():
    net = ActorCritic(6, 30, trunk=8, net_arch=[4])
    rng = np.random.default_rng(3)
    obs = torch.rand(64, 6)
    mask = torch.from_numpy(rng.random((64, 30)) < 0.15)
    mask[torch.arange(64), torch.from_numpy(rng.integers(5, 12, 64))] = True  # never ids 0-4: not in use
    mask[:, :5] = False
    columns = torch.from_numpy(np.flatnonzero(mask.numpy().any(0)))
    assert min(columns.tolist()) >= 5 and len(columns) < 30
    full = net.get_action_and_value(obs, mask, generator=torch.Generator().manual_seed(0))
    within = torch.searchsorted(columns, full.action)  # the sampled ids, counted within the columns
    some = net.get_action_and_value(obs, mask[:, columns], within, columns=columns)
    assert torch.equal(columns[some.action], full.action)
    assert torch.allclose(some.log_prob, full.log_prob, atol=1e-6)
    assert torch.allclose(some.entropy, full.entropy, atol=1e-6)
    assert torch.allclose(some.log_probs.exp(), full.log_probs.exp()[:, columns], atol=1e-6)
    sampled = net.get_action_and_value(obs, mask[:, columns], generator=torch.Generator(), columns=columns)
    assert bool(mask[torch.arange(64), columns[sampled.action]].all())


def test_the_policy_computed_once_per_distinct_row_gives_every_rows_policy_value_and_gradient():
    rng = np.random.default_rng(5)
    net = ActorCritic(6, 7, trunk=8, net_arch=[4])
    distinct, distinct_mask = torch.rand(10, 6), torch.from_numpy(rng.random((10, 7)) < 0.5)
    distinct_mask[:, 2] = True
    rows = torch.from_numpy(rng.integers(0, 10, 40))
    action = torch.where(distinct_mask[rows, 4], 4, 2)  # both taken, each where it is legal
    advantages = torch.randn(40)

    def pass_and_gradient(out):
        net.zero_grad()
        (-(out.log_prob * advantages).sum() + out.value.pow(2).sum() - out.entropy.sum()).backward()
        return out, [p.grad.clone() for p in net.parameters()]

    plain, plain_grads = pass_and_gradient(net.get_action_and_value(distinct[rows], distinct_mask[rows], action))
    once, once_grads = pass_and_gradient(net.get_action_and_value(distinct, distinct_mask, action, rows=rows))
    for name in ("log_prob", "entropy", "value", "log_probs"):
        assert torch.allclose(getattr(once, name), getattr(plain, name), atol=1e-6), name
    assert all(torch.allclose(a, b, atol=1e-5) for a, b in zip(once_grads, plain_grads, strict=True))
    assert any(float(g.abs().max()) > 0 for g in once_grads)
    sampled = net.get_action_and_value(distinct, distinct_mask, generator=torch.Generator(), rows=rows)
    assert bool(distinct_mask[rows, sampled.action].all())


def test_rare_collections_spares_the_long_lived_objects_and_puts_everything_back_after_an_error():
    before = gc.get_threshold()
    with pytest.raises(KeyError), rare_collections(50_000):
        assert gc.get_threshold()[0] == 50_000 and gc.get_threshold()[1:] == before[1:]
        assert gc.get_freeze_count() > 0  # what was alive at the start is out of the collector's passes
        raise KeyError("a run that fails")
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


def test_distinct_rows_finds_each_observation_once_and_maps_every_row_to_it():
    rng = np.random.default_rng(2)
    kinds = (rng.random((30, 12)) < 0.3).astype(np.float32)
    obs = kinds[rng.integers(0, 30, 500)]
    first, inverse = distinct_rows(obs)
    assert len(first) == len({row.tobytes() for row in obs})
    assert np.array_equal(obs[first][inverse], obs)
    assert all(first[inverse[i]] <= i for i in range(len(obs)))  # the first occurrence stands for its rows
    # a row no key can compare (NaN is not equal to itself) takes the exact way: the rows sorted byte by byte
    obs[::7, 3] = np.nan
    first, inverse = distinct_rows(obs)
    assert len(first) == len({row.tobytes() for row in obs})
    assert np.array_equal(obs[first][inverse].view(np.int32), obs.view(np.int32))


# -- the network is the checkpoint's policy ---------------------------------------------------
TINY = ["--num-games", "6", "--rollout-steps", "96", "--minibatch-size", "64",
        "--n-epochs", "1", "--trunk", "32", "--net-arch", "16", "--checkpoint-every", "96", "--eval-games", "2",
        "--opponents", "random", "--pool-fraction", "0.3", "--no-progress"]  # fmt: skip


@pytest.mark.parametrize("env_name", envs.ENVS)
def test_tiny_batched_run_then_resume(env_name, tmp_path):
    out = tmp_path / "run"
    assert main(["selfplay", env_name, "--total-steps", "192", "--out", str(out), *TINY]) == 0
    first = read_sidecar(out / "final.zip", env_name)
    assert first["trainer"] == "batched" and first["steps"] >= 192 and first["network"]["class"] == "ActorCritic"
    assert first["evaluation"] and first["evaluation"][-1]["opponent"] == "random"
    snapshot_steps = [s["steps"] for s in first["league"]["snapshots"]]
    assert snapshot_steps == sorted(snapshot_steps)
    assert len(first["league"]["snapshots"]) >= 2

    # an interrupted run: the newest checkpoint is truncated; resume falls back to the one before
    steps = sorted(int(p.stem.split("_")[1]) for p in (out / "checkpoints").glob("step_*.zip"))
    newest = out / "checkpoints" / f"step_{steps[-1]}.zip"
    newest.write_bytes(newest.read_bytes()[:100])
    with pytest.raises(SystemExit, match="cannot change learning_rate"):
        main(["selfplay", env_name, "--resume", "--learning-rate", "0.1", "--out", str(out), *TINY])
    assert main(["selfplay", env_name, "--resume", "--total-steps", "384", "--out", str(out), *TINY]) == 0
    final = read_sidecar(out / "final.zip", env_name)
    assert final["steps"] >= 384
    assert {s["name"] for s in final["league"]["snapshots"]} >= {
        s["name"] for s in first["league"]["snapshots"] if s["steps"] < steps[-1]
    }
    rows = list(csv.DictReader((out / "progress.csv").open()))
    assert int(rows[-1]["step"]) >= 384 and float(rows[-1]["steps_per_s"]) > 0
    assert json.loads((out / "config.json").read_text())["total_steps"] == 384

    agent = agents.make(str(out / "final.zip"), env_name=env_name)
    env = envs.make(env_name)
    env.reset(seed=0)
    for name in env.agent_iter():
        obs, _, done, truncated, _ = env.last()
        env.step(None if done or truncated else agent.act(obs, name))


def test_trainer_probabilities_are_the_checkpoints(tmp_path):
    """What the trainer samples from is what ``bidbluff.agents.make(checkpoint)`` plays: same network, same mask."""
    env_name = "libertalia_v0"
    out = tmp_path / "run"
    assert main(["selfplay", env_name, "--total-steps", "96", "--out", str(out), *TINY]) == 0
    config = BatchedConfig(**json.loads((out / "config.json").read_text()))
    trainer = BatchedTrainer(config, resume=True, progress_bar=False)
    agent = agents.make(str(out / "final.zip"), env_name=env_name)
    env = envs.make(env_name, raw=True)
    env.reset(seed=3)
    for _ in range(30):
        obs = env.observe(env.agent_selection)
        with torch.no_grad():
            mine = trainer.net.get_action_and_value(
                torch.from_numpy(obs["observation"][None]), torch.from_numpy(obs["action_mask"][None].astype(bool))
            )
        assert np.allclose(mine.log_probs.exp()[0].numpy(), agent.probabilities(obs), atol=1e-6)
        env.step(agent.act(obs, env.agent_selection))


def test_every_learner_decision_is_a_legal_one_in_the_rollout(tmp_path):
    config = BatchedConfig(
        "spytails_v0",
        num_games=4,
        rollout_steps=200,
        trunk=16,
        net_arch=[8],
        opponents=["random"],
        pool_fraction=0.5,
        out=str(tmp_path / "r"),
    )
    trainer = BatchedTrainer(config, progress_bar=False)
    started(trainer)
    trainer.collect()
    r = trainer.rollout
    assert r.count >= 200
    assert r.mask[np.arange(r.count), r.actions[: r.count]].all()
    assert np.isfinite(r.advantages[: r.count]).all()


def test_each_table_deals_its_games_from_one_seeded_stream_and_a_run_deals_them_again(tmp_path):
    def deals(out):
        config = BatchedConfig("liars_dice_v0", num_games=2, rollout_steps=64, trunk=8, net_arch=[4], out=str(out))
        trainer = started(BatchedTrainer(config, progress_bar=False))
        dealt, start = [], trainer._start

        def recording(table):
            start(table)
            if table is trainer.tables[0]:
                dealt.append(repr(table.env.game_state.round.cups))

        trainer._start = recording
        trainer.collect()
        return dealt

    first = deals(tmp_path / "a")
    assert len(first) >= 10 and len(set(first)) == len(first)  # five dice a cup: no deal comes twice
    assert deals(tmp_path / "b") == first


def test_foreign_options_are_refused(tmp_path):
    with pytest.raises(SystemExit, match="--latest-prob"):
        main(["selfplay", "liars_dice_v0", "--trainer", "batched", "--latest-prob", "0.3", "--out", str(tmp_path)])
    with pytest.raises(SystemExit, match="--pool-fraction"):
        main(["selfplay", "liars_dice_v0", "--trainer", "sb3", "--pool-fraction", "0.3", "--out", str(tmp_path)])
    with pytest.raises(SystemExit, match="needs the batched trainer"):
        main(["selfplay", "liars_dice_v0", "--trainer", "sb3", "--players", "2,3", "--out", str(tmp_path)])


def test_imitation_labels_learner_decisions_with_the_teacher_and_pulls_the_policy_toward_it(tmp_path):
    config = BatchedConfig(
        "liars_dice_v0",
        num_games=8,
        rollout_steps=256,
        imitate="heuristic",
        imitate_steps=10**6,
        imitate_coef=5.0,
        ent_coef=0.0,
        trunk=32,
        net_arch=[32],
        learning_rate=3e-3,
        pool_fraction=0.0,
        opponents=[],
        out=str(tmp_path / "r"),
    )
    trainer = BatchedTrainer(config, progress_bar=False)
    assert trainer.imitation_weight() == pytest.approx(5.0)
    started(trainer)
    trainer.collect()
    r = trainer.rollout
    assert r.mask[np.arange(r.count), r.teacher[: r.count]].all()  # the teacher's choices are legal ones
    first = trainer.update()
    for _ in range(30):
        last = trainer.update()
    assert last["imitation_loss"] < first["imitation_loss"] - 0.3
    assert last["teacher_agreement"] > first["teacher_agreement"] + 0.2
    trainer.steps = 750_000
    assert trainer.imitation_weight() == pytest.approx(5.0 * 0.25)


def test_a_teacher_that_needs_the_engine_is_refused(tmp_path):
    with pytest.raises(ValueError, match="observations alone"):
        BatchedTrainer(BatchedConfig("liars_dice_v0", imitate="ismcts:5", out=str(tmp_path)), progress_bar=False)


def test_exact_fits_the_two_player_one_die_tree_while_the_games_are_at_other_tables(tmp_path):
    """``exact="cfr"``: the games are at 3 players x 5 dice, which never reach a state of 2 players x 1 die; the
    network is fitted to CFR's policy there as well, and its exact exploitability at 2 x 1 falls from an untrained
    network's; the checkpoint measures it (``exploitability.csv``).  Without the term it does not move as far."""
    from bidbluff.training.exploitability import ExploitabilityProbe

    probe = ExploitabilityProbe("liars_dice_v0", [2], {"dice": 1})

    def trained(coef: float) -> tuple[BatchedTrainer, list[dict], float]:
        config = BatchedConfig(
            "liars_dice_v0", players=[3], num_games=8, rollout_steps=256, minibatch_size=256, exact="cfr",
            exact_coef=coef, ent_coef=0.0, trunk=32, net_arch=[32], learning_rate=3e-3, pool_fraction=0.0,
            opponents=[], eval_games=0, out=str(tmp_path / f"r{coef}"),
        )  # fmt: skip
        trainer = BatchedTrainer(config, progress_bar=False)
        before = probe.measure(trainer.net)["exploitability"]
        started(trainer)
        rows = []
        for _ in range(12):
            trainer.collect()
            rows.append(trainer.update())
            trainer.steps += trainer.rollout.count
        return trainer, rows, before

    taught, rows, before = trained(3.0)
    after = probe.measure(taught.net)["exploitability"]
    assert rows[-1]["exact_kl"] < rows[0]["exact_kl"] - 0.3
    assert before > 0.5 and after < before - 0.2
    untaught, plain, _ = trained(0.0)
    assert "exact_kl" not in plain[-1]
    assert probe.measure(untaught.net)["exploitability"] > after + 0.1
    taught.save()
    logged = list(csv.DictReader((tmp_path / "r3.0" / "exploitability.csv").open()))
    assert float(logged[-1]["exploitability"]) == pytest.approx(after, abs=1e-6)


@pytest.mark.parametrize(
    ("env_name", "options"),
    [("spytails_v0", {}), ("liars_dice_v0", {"preset": "classic"}), ("liars_dice_v0", {"observation": "compact"})],
)
def test_exact_is_refused_where_its_rows_mean_another_game(env_name, options, tmp_path):
    with pytest.raises(ValueError, match="exact teaches liars_dice_v0"):
        BatchedTrainer(BatchedConfig(env_name, exact="cfr", env_options=options, out=str(tmp_path)), progress_bar=False)


def test_init_starts_a_new_run_from_a_checkpoints_network(tmp_path):
    env_name = "libertalia_v0"
    donor = tmp_path / "donor"
    assert main(["selfplay", env_name, "--total-steps", "96", "--out", str(donor), *TINY]) == 0
    config = BatchedConfig(env_name, trunk=32, net_arch=[16], init=str(donor / "final.zip"), out=str(tmp_path / "r"))
    trainer = BatchedTrainer(config, progress_bar=False)
    assert trainer.steps == 0  # a new run, not a resume
    mine, theirs = trainer.net.state_dict(), agents.make(str(donor / "final.zip")).network.state_dict()
    assert mine.keys() == theirs.keys() and all(torch.equal(mine[k], theirs[k]) for k in mine)

    wider = BatchedConfig(env_name, trunk=64, net_arch=[16], init=str(donor / "final.zip"), out=str(tmp_path / "w"))
    with pytest.raises(ValueError, match=r"--init .*differs from this run's .* trunk 32 \(this run: 64\)"):
        BatchedTrainer(wider, progress_bar=False)
    other = BatchedConfig(
        "spytails_v0", trunk=32, net_arch=[16], init=str(donor / "final.zip"), out=str(tmp_path / "o")
    )
    with pytest.raises(CheckpointError, match="trained on libertalia_v0, not spytails_v0"):
        BatchedTrainer(other, progress_bar=False)
    assert not (tmp_path / "w").exists() and not (tmp_path / "o").exists()  # refused before the run was made


def test_init_takes_an_old_format_checkpoint(old_checkpoint, tmp_path):
    path, model = old_checkpoint
    config = BatchedConfig("liars_dice_v0", trunk=32, net_arch=[16], init=str(path), out=str(tmp_path / "r"))
    trainer = BatchedTrainer(config, progress_bar=False)
    obs = torch.rand(8, trainer.net.sizes["obs_size"])
    with torch.no_grad():
        theirs = model.policy.predict_values(obs).squeeze(-1)
        assert torch.allclose(trainer.net.value(obs), theirs, atol=1e-6)


def test_players_list_plays_every_table_size_and_evaluates_at_the_largest(tmp_path):
    config = BatchedConfig(
        "liars_dice_v0",
        players=[2, 4],
        num_games=12,
        rollout_steps=200,
        trunk=16,
        net_arch=[8],
        opponents=["random"],
        pool_fraction=0.3,
        eval_games=2,
        out=str(tmp_path / "r"),
    )
    trainer = BatchedTrainer(config, progress_bar=False)
    assert trainer.sizes == [2, 4] and trainer.num_players == 4
    seen = set()
    started(trainer)
    for _ in range(3):
        trainer.collect()
        seen |= {t.env.num_players for t in trainer.tables}
    assert seen == {2, 4}
    trainer.steps = trainer.rollout.count
    path = trainer.save()
    meta = read_sidecar(path)
    assert meta["table_sizes"] == [2, 4] and meta["num_players"] == 4
    assert meta["evaluation"][0]["baseline"] == 0.25  # evaluated at 4 players
    with pytest.raises(ValueError, match="no table size"):
        BatchedTrainer(BatchedConfig("liars_dice_v0", players=[], out=str(tmp_path / "e")), progress_bar=False)


def test_learning_rate_anneals_to_zero_and_the_kl_stop_ends_an_update_early(tmp_path):
    config = BatchedConfig(
        "spytails_v0",
        num_games=4,
        rollout_steps=128,
        minibatch_size=32,
        n_epochs=4,
        trunk=16,
        net_arch=[8],
        opponents=[],
        pool_fraction=0.0,
        learning_rate=1e-2,
        total_steps=1000,
        anneal_lr=True,
        out=str(tmp_path / "r"),
    )
    trainer = BatchedTrainer(config, progress_bar=False)
    assert trainer.learning_rate() == pytest.approx(1e-2)
    trainer.steps = 750
    assert trainer.learning_rate() == pytest.approx(2.5e-3)
    started(trainer)
    trainer.collect()
    stats = trainer.update()
    assert stats["learning_rate"] == pytest.approx(2.5e-3) and trainer.optimizer.param_groups[0]["lr"] == 2.5e-3
    assert stats["epochs"] == 4  # no KL stop asked
    trainer.config.target_kl = 1e-12
    trainer.collect()
    assert trainer.update()["epochs"] == 1  # the first epoch moved the policy past the target
    trainer.steps = 2000
    assert trainer.learning_rate() == 0.0


def test_cli_options_for_annealing_and_the_kl_stop(tmp_path):
    out = tmp_path / "run"
    assert (
        main(
            [
                "selfplay",
                "liars_dice_v0",
                "--total-steps",
                "96",
                "--out",
                str(out),
                "--anneal-lr",
                "--target-kl",
                "0.02",
                *TINY,
            ]
        )
        == 0
    )
    config = json.loads((out / "config.json").read_text())
    assert config["anneal_lr"] is True and config["target_kl"] == 0.02
    rows = list(csv.DictReader((out / "progress.csv").open()))
    assert float(rows[0]["learning_rate"]) == pytest.approx(3e-4) and int(rows[0]["epochs"]) == 1


def test_a_run_of_the_old_format_resumes_in_the_new(old_checkpoint, tmp_path):
    import dataclasses
    import shutil

    from bidbluff.agents.policy import checkpoint_paths

    path, _ = old_checkpoint
    out = tmp_path / "run"
    (out / "checkpoints").mkdir(parents=True)
    for src in checkpoint_paths(path):
        shutil.copy(src, out / "checkpoints" / src.name)
    config = BatchedConfig(
        "liars_dice_v0",
        trunk=32,
        net_arch=[16],
        num_games=4,
        rollout_steps=64,
        eval_games=0,
        opponents=["random"],
        checkpoint_every=64,
        out=str(out),
    )
    (out / "config.json").write_text(json.dumps(dataclasses.asdict(config)))
    assert (
        main(["selfplay", "liars_dice_v0", "--resume", "--total-steps", "128", "--out", str(out), "--no-progress"]) == 0
    )
    final = read_sidecar(out / "final.zip", "liars_dice_v0")
    assert final["steps"] >= 128 and final["network"]["trunk"] == 32


def test_a_table_size_listed_twice_is_drawn_twice_as_often(tmp_path):
    config = BatchedConfig(
        "liars_dice_v0",
        players=[4, 2, 2],
        num_games=4,
        rollout_steps=64,
        trunk=16,
        net_arch=[8],
        opponents=["random"],
        pool_fraction=0.3,
        eval_games=0,
        out=str(tmp_path / "r"),
    )
    trainer = BatchedTrainer(config, progress_bar=False)
    assert trainer.sizes == [2, 2, 4] and trainer.num_players == 4
    drawn = []
    for _ in range(600):
        trainer._start(trainer.tables[0])
        drawn.append(trainer.tables[0].env.num_players)
    assert 0.6 < drawn.count(2) / len(drawn) < 0.73


def test_a_snapshot_that_leaves_the_pool_mid_game_still_plays_its_seats_to_the_end(tmp_path):
    """With a small pool a snapshot is forgotten while games that seat it are still running (a checkpoint every
    rollout, games longer than a rollout): those games finish with it, and new games no longer draw it."""
    config = BatchedConfig(
        "liars_dice_v0", players=4, num_games=8, rollout_steps=16, trunk=16, net_arch=[8], opponents=[],
        pool_fraction=0.75, pool_max=1, out=str(tmp_path / "r"),
    )  # fmt: skip
    trainer = BatchedTrainer(config, progress_bar=False)
    sizes = trainer.net.sizes
    first = trainer.league.add_snapshot("first.zip", 16, ActorCritic(sizes["obs_size"], sizes["n_actions"], 16, [8]))
    started(trainer)
    assert any(first in table.seats for table in trainer.tables)
    second = trainer.league.add_snapshot("second.zip", 32, ActorCritic(sizes["obs_size"], sizes["n_actions"], 16, [8]))
    assert trainer.league.names() == [second]
    trainer.collect()  # the games seating the first snapshot go on: no KeyError
    for _ in range(20):
        trainer.collect()
    assert all(first not in table.seats for table in trainer.tables), "no new game draws a forgotten snapshot"


def _two_by_one(tmp_path, **changes) -> BatchedConfig:
    """A small self-play run of liars_dice_v0 at 2 players x 1 die, every seat the learner."""
    options = dict(
        num_games=4,
        rollout_steps=200,
        trunk=16,
        net_arch=[8],
        players=[2],
        env_options={"dice": 1},
        pool_fraction=0.0,
        pool_max=0,
        out=str(tmp_path / "r"),
    )
    return BatchedConfig("liars_dice_v0", **{**options, **changes})


def _skew(trainer: BatchedTrainer) -> None:
    """A policy far from uniform, so that an exploring mix differs from it."""
    with torch.no_grad():
        bias = trainer.net.action_head.bias
        bias.copy_(3 * torch.randn(bias.shape, generator=torch.Generator().manual_seed(0)))


def _rollout_logits(trainer: BatchedTrainer) -> torch.Tensor:
    """The network's masked logits at every decision of the rollout just collected."""
    r, n = trainer.rollout, trainer.rollout.count
    with torch.no_grad():
        logits, _ = trainer.net(torch.from_numpy(r.obs[:n]))
        return masked_logits(logits, torch.from_numpy(r.mask[:n]))


def test_explore_takes_legal_moves_from_the_mix_and_records_their_probability_under_it(tmp_path):
    trainer = BatchedTrainer(_two_by_one(tmp_path, rollout_steps=300, explore=0.5), progress_bar=False)
    _skew(trainer)
    started(trainer)
    trainer.collect()
    r, n = trainer.rollout, trainer.rollout.count
    assert r.mask[np.arange(n), r.actions[:n]].all()
    policy = torch.softmax(_rollout_logits(trainer), dim=-1).numpy()
    uniform = r.mask[:n] / r.mask[:n].sum(1, keepdims=True)
    mix = 0.5 * policy + 0.5 * uniform
    np.testing.assert_allclose(r.log_probs[:n], np.log(mix[np.arange(n), r.actions[:n]]), atol=1e-4)
    # the policy alone would have given other probabilities: the record is the mix's, not the network's
    assert np.abs(r.log_probs[:n] - np.log(policy[np.arange(n), r.actions[:n]])).max() > 0.05
    with pytest.raises(ValueError, match="explore must be in"):
        BatchedTrainer(BatchedConfig("liars_dice_v0", explore=1.0, out=str(tmp_path / "x")), progress_bar=False)


def test_corrected_returns_record_each_moves_ratio_and_the_other_seats_ratios_until_the_seats_next_move(
    tmp_path, monkeypatch
):
    config = _two_by_one(tmp_path, num_games=1, rollout_steps=300, explore=0.5, explore_correction="importance")
    trainer = BatchedTrainer(config, progress_bar=False)
    _skew(trainer)
    ends: list[int] = []  # the rollout's count at each game's end: one table, so a game's rows run in order
    finish = trainer._finish

    def noting(table, truncated):
        ends.append(trainer.rollout.count)
        finish(table, truncated)

    trainer._finish = noting
    started(trainer)
    trainer.collect()
    r, n = trainer.rollout, trainer.rollout.count
    policy = torch.softmax(_rollout_logits(trainer), dim=-1).numpy()
    chosen = policy[np.arange(n), r.actions[:n]]
    mix = (0.5 * policy + 0.5 * r.mask[:n] / r.mask[:n].sum(1, keepdims=True))[np.arange(n), r.actions[:n]]
    np.testing.assert_allclose(r.own_ratio[:n], chosen / mix, rtol=1e-4)
    # the clip is centred on the rollout's policy: its probability is the one recorded, the mix's is the weight
    np.testing.assert_allclose(r.log_probs[:n], np.log(chosen), atol=1e-4)
    assert len(ends) > 5 and r.own_ratio[:n].min() < 0.5 < 1.5 < r.own_ratio[:n].max()
    start, differs = 0, False
    for end in ends:  # two seats take turns: a move's other-seat product is the next move's own ratio
        np.testing.assert_allclose(r.between_ratio[start : end - 1], r.own_ratio[start + 1 : end], rtol=1e-6)
        assert r.between_ratio[end - 1] == 1.0  # nothing followed the game's last move
        # a row's product from the game's start runs over the other seat's moves before it: every second one
        for t in range(start, end):
            before = [r.own_ratio[u] for u in range(t - 1, start - 1, -2)]
            np.testing.assert_allclose(r.prefix_ratio[t], np.prod(before), rtol=1e-5)
        for first in (start, start + 1):  # each seat's rows, closed with its reward, +1 or -1
            rows = list(range(first, end, 2))
            if not rows:
                continue
            g, lam = config.gamma, config.gae_lambda
            ratios = r.own_ratio[rows], r.between_ratio[rows]
            fits = [segment_gae(r.values[rows], reward, True, 0.0, g, lam, *ratios) for reward in (1.0, -1.0)]
            assert any(np.allclose(adv, r.advantages[rows], atol=1e-5) for adv, _ in fits)
            plain = [segment_gae(r.values[rows], reward, True, 0.0, g, lam)[0] for reward in (1.0, -1.0)]
            differs |= not any(np.allclose(adv, r.advantages[rows], atol=1e-5) for adv in plain)
        start = end
    assert differs, "the recorded advantages are the reweighed ones, not the game as played"
    calls = []
    loss = batched.ppo_loss

    def recording(*args, **kwargs):
        calls.append((args[10].clone(), args[11].clone()))  # the surrogate's and the values' weights
        return loss(*args, **kwargs)

    monkeypatch.setattr(batched, "ppo_loss", recording)
    trainer.update()
    epoch = -(-n // config.minibatch_size)
    surrogate = torch.cat([c[0] for c in calls[:epoch]]).sort().values.numpy()
    values = torch.cat([c[1] for c in calls[:epoch]]).sort().values.numpy()
    np.testing.assert_allclose(surrogate, np.sort(r.own_ratio[:n] * r.prefix_ratio[:n]), rtol=1e-6)
    np.testing.assert_allclose(values, np.sort(r.prefix_ratio[:n]), rtol=1e-6)
    with pytest.raises(ValueError, match="needs explore > 0"):
        BatchedTrainer(_two_by_one(tmp_path, explore_correction="importance"), progress_bar=False)
    with pytest.raises(ValueError, match="none or importance"):
        BatchedTrainer(_two_by_one(tmp_path, explore=0.1, explore_correction="weighed"), progress_bar=False)


def test_explore_power_draws_the_exploring_share_from_the_flattened_policy(tmp_path):
    config = _two_by_one(tmp_path, rollout_steps=300, explore=0.5, explore_power=0.5)
    trainer = BatchedTrainer(config, progress_bar=False)
    _skew(trainer)
    started(trainer)
    trainer.collect()
    r, n = trainer.rollout, trainer.rollout.count
    masked = _rollout_logits(trainer)
    policy = torch.softmax(masked, dim=-1).numpy()
    flattened = torch.softmax(0.5 * masked, dim=-1).numpy()  # the policy ** 0.5, normalised
    mix = 0.5 * policy + 0.5 * flattened
    np.testing.assert_allclose(r.log_probs[:n], np.log(mix[np.arange(n), r.actions[:n]]), atol=1e-4)
    assert r.mask[np.arange(n), r.actions[:n]].all()
    with pytest.raises(ValueError, match="explore_power must be in"):
        BatchedTrainer(_two_by_one(tmp_path, explore=0.1, explore_power=1.0), progress_bar=False)


# -- a critic of the whole position ------------------------------------------------------------
def _state_critic_config(tmp_path, **changes) -> BatchedConfig:
    critic = {"minibatch_size": 100, "n_epochs": 1, "critic": "state", "critic_arch": [16]}
    return _two_by_one(tmp_path, **{**critic, **changes})


def _trained_critic(tmp_path, critic: str) -> BatchedTrainer:
    """A 2 x 1 trainer with a position critic after 30 updates, and a fresh rollout collected."""
    config = _state_critic_config(tmp_path, critic=critic, rollout_steps=2048, minibatch_size=256, n_epochs=4,
                                  learning_rate=3e-3, critic_arch=[64, 64])  # fmt: skip
    trainer = started(BatchedTrainer(config, progress_bar=False))
    for _ in range(30):
        trainer.collect()
        trainer.update()
    trainer.collect()
    return trainer


def test_position_is_every_seats_observation_from_the_seat_round_the_table():
    env = envs.make("liars_dice_v0", raw=True, num_players=3, dice=1)
    env.reset(seed=4)
    seen = [env.observe(a)["observation"] for a in env.possible_agents]
    size = len(seen[0])
    np.testing.assert_array_equal(position(env, 1, 3), np.concatenate([seen[1], seen[2], seen[0]]))
    wider = position(env, 2, 5)  # a smaller table than the run's widest: the missing seats read as zeros
    np.testing.assert_array_equal(wider[: 3 * size], np.concatenate([seen[2], seen[0], seen[1]]))
    assert not wider[3 * size :].any()
    dice = [set(np.flatnonzero(s)) for s in seen]
    assert dice[0] != dice[1], "each seat's observation holds its own cup, so the position holds them all"


def test_the_state_critic_gives_the_values_reads_the_hidden_dice_and_learns(tmp_path):
    trainer = started(BatchedTrainer(_state_critic_config(tmp_path), progress_bar=False))
    trainer.collect()
    r, n = trainer.rollout, trainer.rollout.count
    size = r.obs.shape[1]
    np.testing.assert_array_equal(r.state[:n, :size], r.obs[:n])  # the seat's own observation first
    assert (r.state[:n, size:] != r.obs[:n]).any(1).mean() > 0.5  # then the other seat's: another cup
    with torch.no_grad():
        np.testing.assert_allclose(r.values[:n], trainer.critic(torch.from_numpy(r.state[:n])).numpy(), atol=1e-6)
        own = trainer.net.value(torch.from_numpy(r.obs[:n])).numpy()
    assert np.abs(r.values[:n] - own).max() > 1e-3, "the baseline is the critic's, not the network's value head"
    before = [p.detach().clone() for p in trainer.critic.parameters()]
    stats = trainer.update()
    assert stats["critic_loss"] > 0
    assert any(not torch.equal(a, b) for a, b in zip(before, trainer.critic.parameters(), strict=True))


def test_the_state_critic_fits_what_the_seat_cannot_see(tmp_path):
    """A position critic explains the outcome where the seat's own value cannot: one die each, a challenge's
    result is fixed by both cups, which only the position shows."""
    trainer = _trained_critic(tmp_path, "state")
    r, n = trainer.rollout, trainer.rollout.count
    own = explained_variance(r.values[:n], r.returns[:n])
    with torch.no_grad():
        seat = trainer.net.value(torch.from_numpy(r.obs[:n])).numpy()
    assert own > explained_variance(seat, r.returns[:n]) + 0.1


def test_a_state_critic_run_resumes_with_its_critic_and_refuses_a_checkpoint_without_one(tmp_path):
    args = ["--players", "2", "--env-options", '{"dice": 1}', "--pool-fraction", "0", "--pool-max", "0"]
    out = tmp_path / "run"
    critic = ["--critic", "state", "--critic-arch", "16"]
    tiny = [a for a in TINY if a not in ("--pool-fraction", "0.3")]
    assert main(["selfplay", "liars_dice_v0", "--total-steps", "192", "--out", str(out), *tiny, *args, *critic]) == 0
    config = BatchedConfig(**json.loads((out / "config.json").read_text()))
    assert config.critic == "state" and config.critic_arch == [16]
    trainer = BatchedTrainer(config, resume=True, progress_bar=False)
    saved = load_trainer_state(out / "final.zip")
    for name, value in trainer.critic.state_dict().items():
        assert torch.equal(value, saved["critic"][name])
    plain = tmp_path / "plain"
    assert main(["selfplay", "liars_dice_v0", "--total-steps", "96", "--out", str(plain), *tiny, *args]) == 0
    config = BatchedConfig(**{**json.loads((plain / "config.json").read_text()), "critic": "state"})
    with pytest.raises(FileNotFoundError, match="holds no critic"):
        BatchedTrainer(config, resume=True, progress_bar=False)
    with pytest.raises(ValueError, match="critic must be one of own, state, q"):
        BatchedTrainer(BatchedConfig("liars_dice_v0", critic="oracle", out=str(tmp_path / "x")), progress_bar=False)


# -- a critic of every move: the all-actions step ------------------------------------------------------
def test_the_all_actions_loss_is_the_policy_gradient_over_every_legal_move():
    """At the rollout's policy its gradient is that of -sum_a pi(a) A(a): every legal move pushed by its own
    advantage in proportion to its chance, illegal ones by nothing, whatever their advantage."""
    torch.manual_seed(0)
    logits = torch.randn(5, 7, requires_grad=True)
    mask = torch.rand(5, 7) > 0.3
    mask[:, 0] = True
    advantages = torch.where(mask, torch.randn(5, 7), torch.full((5, 7), 1e6))  # huge where illegal: ignored
    weights = torch.rand(5)
    log_probs = torch.log_softmax(masked_logits(logits, mask), -1)
    all_actions_loss(log_probs, log_probs.detach(), advantages, mask, 0.2, weights).backward()
    ours = logits.grad.clone()
    logits.grad = None
    probs = torch.softmax(masked_logits(logits, mask), -1)
    expected = -(weights * torch.where(mask, probs * advantages, torch.zeros(5, 7)).sum(-1)).mean()
    expected.backward()
    torch.testing.assert_close(ours, logits.grad)


def test_the_all_actions_loss_clips_each_move_on_its_own_ratio():
    old = torch.log(torch.tensor([[0.5, 0.5]]))
    mask = torch.ones(1, 2, dtype=torch.bool)
    advantages = torch.tensor([[1.0, -1.0]])
    new = torch.log(torch.tensor([[0.7, 0.3]])).requires_grad_(True)  # both moves already past a clip of 0.2
    all_actions_loss(new, old, advantages, mask, 0.2).backward()
    assert torch.equal(new.grad, torch.zeros(1, 2))
    near = torch.log(torch.tensor([[0.55, 0.45]])).requires_grad_(True)  # inside the clip: both still pushed
    all_actions_loss(near, old, advantages, mask, 0.2).backward()
    assert near.grad[0, 0] < 0 < near.grad[0, 1]


def test_the_q_critic_values_every_move_and_steers_the_policy_by_them(tmp_path, monkeypatch):
    config = _state_critic_config(tmp_path, critic="q", learning_rate=3e-3)
    trainer = started(BatchedTrainer(config, progress_bar=False))
    trainer.collect()
    r, n = trainer.rollout, trainer.rollout.count
    with torch.no_grad():
        value, q = trainer.critic.both(torch.from_numpy(r.state[:n]))
    assert q.shape == (n, r.mask.shape[1])  # a value for every action id
    np.testing.assert_allclose(r.values[:n], value.numpy(), atol=1e-6)  # GAE's baseline: the position's value
    # a critic that values one move at 1 and every other at 0, everywhere: where that move is legal and was not
    # played, only the all-actions step can raise its chance
    favoured = int(np.argmax(r.mask[:n].sum(0)))
    fitted = trainer.critic.both

    def favour(states):
        value, q = fitted(states)
        fixed = torch.zeros_like(q)
        fixed[:, favoured] = 1.0
        return value, fixed

    monkeypatch.setattr(trainer.critic, "both", favour)
    rows = np.flatnonzero(r.mask[:n, favoured] & (r.actions[:n] != favoured))
    obs, legal = torch.from_numpy(r.obs[rows]), torch.from_numpy(r.mask[rows])
    with torch.no_grad():
        before = torch.softmax(masked_logits(trainer.net.logits(obs), legal), -1)[:, favoured]
    stats = trainer.update()
    with torch.no_grad():
        after = torch.softmax(masked_logits(trainer.net.logits(obs), legal), -1)[:, favoured]
    assert len(rows) > 20 and (after > before).float().mean() > 0.9
    assert stats["critic_loss"] > 0


def test_the_residual_is_the_return_less_the_critics_value_of_the_move_played(tmp_path, monkeypatch):
    config = _state_critic_config(tmp_path, critic="q", q_residual=True)
    assert config.normalize_advantages  # the q critic's advantages are left in its units all the same
    trainer = started(BatchedTrainer(config, progress_bar=False))
    trainer.collect()
    r, n = trainer.rollout, trainer.rollout.count
    with torch.no_grad():
        _, q = trainer.critic.both(torch.from_numpy(r.state[:n]))
    expected = r.returns[:n] - q[torch.arange(n), torch.from_numpy(r.actions[:n])].numpy()
    seen = []
    real = batched.ppo_loss

    def spy(new_log_prob, old_log_prob, advantages, *args):
        seen.append(advantages.detach().clone())
        return real(new_log_prob, old_log_prob, advantages, *args)

    monkeypatch.setattr(batched, "ppo_loss", spy)
    trainer.update()
    first_epoch = torch.cat(seen[: -(-n // 100)]).numpy()  # minibatches of 100 rows
    np.testing.assert_allclose(np.sort(first_epoch), np.sort(expected), atol=1e-5)
    with pytest.raises(ValueError, match="q_residual corrects --critic q"):
        BatchedTrainer(_state_critic_config(tmp_path, q_residual=True), progress_bar=False)


def test_the_q_critic_learns_the_value_of_a_challenge_from_the_position(tmp_path):
    """With both cups in view and the move known, the critic's value of the move taken explains the return
    better than the position's value alone (a challenge's outcome, for one, is fixed by the cups and the move)."""
    trainer = _trained_critic(tmp_path, "q")
    r, n = trainer.rollout, trainer.rollout.count
    with torch.no_grad():
        _, q = trainer.critic.both(torch.from_numpy(r.state[:n]))
    taken = q[torch.arange(n), torch.from_numpy(r.actions[:n])].numpy()
    assert explained_variance(taken, r.returns[:n]) > explained_variance(r.values[:n], r.returns[:n]) + 0.05


def test_a_q_critic_checkpoint_does_not_resume_as_a_state_critic(tmp_path):
    args = ["--players", "2", "--env-options", '{"dice": 1}', "--pool-fraction", "0", "--pool-max", "0"]
    tiny = [a for a in TINY if a not in ("--pool-fraction", "0.3")]
    out = tmp_path / "run"
    critic = ["--critic", "q", "--critic-arch", "16"]
    assert main(["selfplay", "liars_dice_v0", "--total-steps", "192", "--out", str(out), *tiny, *args, *critic]) == 0
    config = BatchedConfig(**json.loads((out / "config.json").read_text()))
    trainer = BatchedTrainer(config, resume=True, progress_bar=False)
    saved = load_trainer_state(out / "final.zip")
    assert torch.equal(trainer.critic.q_head.weight, saved["critic"]["q_head.weight"])
    with pytest.raises(ValueError, match="critic does not fit --critic state"):
        BatchedTrainer(BatchedConfig(**{**json.loads((out / "config.json").read_text()), "critic": "state"}),
                       resume=True, progress_bar=False)  # fmt: skip


# -- every information state its own step ------------------------------------------------------------
def test_state_balance_gives_each_observation_the_same_total_weight_at_power_one():
    obs = np.array([[1, 0], [1, 0], [1, 0], [0, 1], [1, 1], [0, 1]], dtype=np.float32)
    weights = state_balance(obs, 1.0)
    assert weights.mean() == pytest.approx(1.0)
    totals = {tuple(row): 0.0 for row in obs.tolist()}
    for row, w in zip(obs.tolist(), weights, strict=True):
        totals[tuple(row)] += w
    assert list(totals.values()) == pytest.approx([2.0, 2.0, 2.0])  # three states, six rows: 2 each
    half = state_balance(obs, 0.5)
    assert half[0] == pytest.approx(half[1]) and half[4] / half[0] == pytest.approx(math.sqrt(3))
    assert (state_balance(obs, 0.0) == 1).all()


def test_weights_scale_the_surrogate_entropy_and_magnet_rows_but_not_the_value():
    new = torch.log(torch.tensor([0.5, 0.25]))
    args = (torch.log(torch.tensor([0.5, 0.25])), torch.tensor([1.0, -2.0]), torch.tensor([0.3, 0.0]),
            torch.tensor([1.0, 1.0]), torch.tensor([0.7, 0.2]), 0.2, 0.5)  # fmt: skip
    weights = torch.tensor([1.5, 0.5])
    plain, _ = ppo_loss(new, *args, ent_coef=0.1)
    weighed, stats = ppo_loss(new, *args, ent_coef=0.1, weights=weights)
    value = 0.5 * 0.5 * ((0.3 - 1.0) ** 2 + (0.0 - 1.0) ** 2) / 2
    assert float(plain) == pytest.approx((-1.0 + 2.0) / 2 + value - 0.1 * (0.7 + 0.2) / 2)
    assert float(weighed) == pytest.approx((-1.5 + 1.0) / 2 + value - 0.1 * (1.05 + 0.1) / 2)
    assert stats["entropy"] == pytest.approx(0.45)  # the log reads the policy's entropy, not the weighted term
    log_probs = torch.log(torch.tensor([[0.5, 0.5], [0.9, 0.1]]))
    reference, mask = torch.log(torch.full((2, 2), 0.5)), torch.ones(2, 2, dtype=torch.bool)
    rows = (log_probs.exp() * (log_probs - reference)).sum(1)
    assert float(reverse_kl(log_probs, reference, mask, weights)) == pytest.approx(float((rows * weights).mean()))


def test_state_balance_weighs_a_rollouts_rare_states_up(tmp_path):
    trainer = started(BatchedTrainer(_state_critic_config(tmp_path, state_balance=1.0), progress_bar=False))
    trainer.collect()
    r, n = trainer.rollout, trainer.rollout.count
    weights = state_balance(r.obs[:n], 1.0)
    openings = r.obs[:n].sum(1) == r.obs[:n].sum(1).min()  # the fewest features set: a first bet's states
    assert weights[openings].mean() < weights[~openings].mean()
    stats = trainer.update()
    assert np.isfinite(stats["policy_loss"])
