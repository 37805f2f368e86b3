"""The batched self-play PPO trainer: its maths on constructed cases, masking, the pool, a tiny run + resume."""

from __future__ import annotations

import csv
import json
import math

import numpy as np
import pytest
import torch

import agents
import envs
from agents.policy import CheckpointError, read_sidecar
from training.batched import (
    BatchedConfig,
    BatchedTrainer,
    Pool,
    masked_logits,
    policy_outputs,
    ppo_loss,
    sample,
    segment_gae,
)
from training.cli import main


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


# -- the loss -------------------------------------------------------------------------
def _loss(ratio, adv, clip=0.2):
    new = torch.tensor([math.log(ratio)], requires_grad=True)
    loss, stats = ppo_loss(new, torch.zeros(1), torch.tensor([adv]), torch.zeros(1), torch.zeros(1),
                           torch.zeros(1), clip, vf_coef=0.5, ent_coef=0.0)  # fmt: skip
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


def test_value_and_entropy_terms():
    loss, _ = ppo_loss(torch.zeros(2), torch.zeros(2), torch.zeros(2), torch.tensor([1.0, 3.0]),
                       torch.tensor([0.0, 0.0]), torch.tensor([0.5, 1.5]), 0.2, vf_coef=0.5, ent_coef=0.1)  # fmt: skip
    assert float(loss) == pytest.approx(0.5 * 0.5 * (1 + 9) / 2 - 0.1 * 1.0)


# -- masking ----------------------------------------------------------------------------
def test_masked_sampling_never_picks_an_illegal_action():
    gen = torch.Generator().manual_seed(0)
    rng = np.random.default_rng(0)
    logits = torch.from_numpy(rng.normal(0, 20, (512, 40)).astype(np.float32))
    logits[:, 0] = 1000.0  # an illegal favourite
    mask = torch.from_numpy(rng.random((512, 40)) < 0.1)
    mask[:, 0] = False
    mask[torch.arange(512), torch.from_numpy(rng.integers(1, 40, 512))] = True
    for _ in range(20):
        actions, log_probs = sample(logits, mask, gen)
        assert bool(mask[torch.arange(512), actions].all())
        assert bool(torch.isfinite(log_probs).all())
    probs = torch.softmax(masked_logits(logits, mask), -1)
    assert float(probs[~mask].max()) == 0.0


# -- the pool ----------------------------------------------------------------------------
def test_pool_prefers_opponents_the_learner_loses_to():
    pool = Pool(BatchedConfig("liars_dice_v0", opponents=["random", "heuristic"], pfsp_power=2.0))
    for _ in range(50):
        pool.record("baseline:random", 1.0)
        pool.record("baseline:heuristic", 0.0)
    rng = np.random.default_rng(0)
    draws = [pool.draw(rng) for _ in range(500)]
    assert draws.count("baseline:heuristic") > 0.9 * len(draws)


# -- the network is the checkpoint's policy ---------------------------------------------------
TINY = ["--trainer", "batched", "--num-games", "6", "--rollout-steps", "96", "--minibatch-size", "64",
        "--n-epochs", "1", "--trunk", "32", "--net-arch", "16", "--checkpoint-every", "96", "--eval-games", "2",
        "--opponents", "random", "--pool-fraction", "0.3", "--no-progress"]  # fmt: skip


@pytest.mark.parametrize("env_name", envs.ENVS)
def test_tiny_batched_run_then_resume(env_name, tmp_path):
    out = tmp_path / "run"
    assert main(["selfplay", env_name, "--total-steps", "192", "--out", str(out), *TINY]) == 0
    first = read_sidecar(out / "final.zip", env_name)
    assert first["trainer"] == "batched" and first["steps"] >= 192
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
    """What the trainer samples from is what ``agents.make(checkpoint)`` plays: same network, same mask."""
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
            logits, _ = policy_outputs(trainer.policy, torch.from_numpy(obs["observation"][None]))
            mine = torch.softmax(masked_logits(logits, torch.from_numpy(obs["action_mask"][None].astype(bool))), -1)
        assert np.allclose(mine[0].numpy(), agent.probabilities(obs), atol=1e-6)
        env.step(agent.act(obs, env.agent_selection))


def test_every_learner_decision_is_a_legal_one_in_the_rollout(tmp_path):
    config = BatchedConfig("spytails_v0", num_games=4, rollout_steps=200, trunk=16, net_arch=[8],
                           opponents=["random"], pool_fraction=0.5, out=str(tmp_path / "r"))  # fmt: skip
    trainer = BatchedTrainer(config, progress_bar=False)
    for table in trainer.tables:
        trainer._start(table)
    trainer.collect()
    r = trainer.rollout
    assert r.count >= 200
    assert r.mask[np.arange(r.count), r.actions[: r.count]].all()
    assert np.isfinite(r.advantages[: r.count]).all()


def test_foreign_options_are_refused(tmp_path):
    with pytest.raises(SystemExit, match="--latest-prob"):
        main(["selfplay", "liars_dice_v0", "--trainer", "batched", "--latest-prob", "0.3", "--out", str(tmp_path)])
    with pytest.raises(SystemExit, match="--pool-fraction"):
        main(["selfplay", "liars_dice_v0", "--pool-fraction", "0.3", "--out", str(tmp_path)])


def test_imitation_labels_learner_decisions_with_the_teacher_and_pulls_the_policy_toward_it(tmp_path):
    config = BatchedConfig("liars_dice_v0", num_games=8, rollout_steps=256, imitate="heuristic",
                           imitate_steps=10**6, imitate_coef=5.0, ent_coef=0.0, trunk=32, net_arch=[32],
                           learning_rate=3e-3, pool_fraction=0.0, opponents=[], out=str(tmp_path / "r"))  # fmt: skip
    trainer = BatchedTrainer(config, progress_bar=False)
    assert trainer.imitation_weight() == pytest.approx(5.0)
    for table in trainer.tables:
        trainer._start(table)
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


def test_init_starts_a_new_run_from_a_checkpoints_network(tmp_path):
    env_name = "libertalia_v0"
    donor = tmp_path / "donor"
    assert main(["selfplay", env_name, "--total-steps", "96", "--out", str(donor), *TINY]) == 0
    config = BatchedConfig(env_name, trunk=32, net_arch=[16], init=str(donor / "final.zip"), out=str(tmp_path / "r"))
    trainer = BatchedTrainer(config, progress_bar=False)
    assert trainer.steps == 0  # a new run, not a resume
    mine, theirs = trainer.policy.state_dict(), agents.make(str(donor / "final.zip")).model.policy.state_dict()
    assert mine.keys() == theirs.keys() and all(torch.equal(mine[k], theirs[k]) for k in mine)

    wider = BatchedConfig(env_name, trunk=64, net_arch=[16], init=str(donor / "final.zip"), out=str(tmp_path / "w"))
    with pytest.raises(ValueError, match=r"--init .*differs from this run's"):
        BatchedTrainer(wider, progress_bar=False)
    other = BatchedConfig("spytails_v0", trunk=32, net_arch=[16], init=str(donor / "final.zip"),
                          out=str(tmp_path / "o"))
    with pytest.raises(CheckpointError, match="trained on libertalia_v0, not spytails_v0"):
        BatchedTrainer(other, progress_bar=False)
