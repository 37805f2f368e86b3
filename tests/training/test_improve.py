"""Rollout policy improvement (``bidbluff.training.improve``): labels, cross-fitting, the distilled checkpoint,
resuming."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from bidbluff import envs
from bidbluff.agents.evaluators import seat_view
from bidbluff.agents.networks import ActorCritic
from bidbluff.agents.policy import env_signature, load_network, read_sidecar, save_checkpoint
from bidbluff.envs.liars_dice.codec import EXACT_AT, LIAR_ID
from bidbluff.envs.lying_pirates.betting import count_for
from bidbluff.training.improve import Collector, ImproveConfig, as_policy, gain, halves, load_shards, main, run


@pytest.fixture(scope="module")
def fresh(tmp_path_factory) -> str:
    torch.manual_seed(0)
    game = envs.game("liars_dice_v0")
    net = ActorCritic(game.observation_size, game.codec.n, trunk=32, net_arch=[16])
    meta = {
        **env_signature("liars_dice_v0"),
        "env_options": {},
        "num_players": 4,
        "steps": 0,
        "algorithm": "none (untrained)",
    }
    return str(save_checkpoint(tmp_path_factory.mktemp("fresh") / "fresh.zip", net, meta))


def config(out, init, **changes) -> ImproveConfig:
    base = {
        "env": "liars_dice_v0",
        "init": init,
        "out": str(out),
        "seconds": 600.0,
        "decisions": 40,
        "rollouts": 2,
        "epochs": 2,
        "value_epochs": 1,
        "seed": 4,
    }
    return ImproveConfig(**{**base, **changes})


def a_position_after_a_bet(collector: Collector):
    rng = np.random.default_rng(2)
    state = collector.game.new_state(4, rng)
    state.apply(collector.game.id_to_action(state, 6 * 1 + 2, 0), rng)  # seat 0 bets two 3s
    return state


def test_candidates_are_the_top_moves_the_best_of_each_kind_then_others(tmp_path, fresh):
    collector = Collector(config(tmp_path, fresh), 0)
    state = a_position_after_a_bet(collector)
    move, _, legal, logits = collector.greedy(state, 1)
    moves = collector.candidates(legal, logits)
    ranked = sorted(legal, key=lambda a: -logits[a])
    assert moves[:4] == ranked[:4] and moves[0] == move
    assert LIAR_ID in moves and any(EXACT_AT <= a < LIAR_ID for a in moves)
    assert len(moves) == 8 == len(set(moves)) and set(moves) <= set(legal)


def test_a_label_is_the_mean_win_of_rollouts_from_the_true_position(tmp_path, fresh):
    collector = Collector(config(tmp_path, fresh, rollouts=3), 0)
    state = a_position_after_a_bet(collector)
    count = count_for(state.round.cups, 3, 0, state.round.rules)
    q = collector.label(state, 1, [LIAR_ID])
    assert q[0] == (1.0 if count < 2 else 0.0)  # "Liar!" ends the game: no chance left in its rollouts
    assert np.isnan(q[1:]).all()


def test_the_gain_is_what_the_pick_wins_over_the_networks_move():
    net = ActorCritic(4, 5, trunk=0, net_arch=[])
    with torch.no_grad():
        net.action_head.weight.zero_()
        net.action_head.bias.copy_(torch.tensor([0.0, 0.5, 0.2, 0.9, 0.1]))
    cand = torch.tensor([[0, 1, 2], [2, 4, -1]])
    q = torch.tensor([[0.25, 0.75, 0.0], [0.5, 0.0, 0.0]])
    row = gain(net, torch.zeros(2, 4), cand, q)
    # row 0 picks action 1 (0.75 - 0.25); row 1 keeps action 2 (a padding -1 never wins)
    assert row["gain"] == pytest.approx(0.25) and row["changed"] == 0.5


def test_the_halves_split_the_decisions():
    a, b = halves(101, 3)
    assert len(set(a) & set(b)) == 0 and sorted([*a, *b]) == list(range(101))


def test_the_policy_is_the_q_networks_argmax_and_keeps_the_old_values(tmp_path, fresh):
    cfg = config(tmp_path, fresh, temperature=0.05, value_epochs=300)
    old, _, _ = load_network(fresh, "liars_dice_v0")
    qnet, _, _ = load_network(fresh, "liars_dice_v0")
    obs = torch.rand(64, old.sizes["obs_size"]).round()
    with torch.no_grad():
        # a moved trunk: the old value head reads it wrong
        qnet.trunk[0].weight.add_(0.2 * torch.randn_like(qnet.trunk[0].weight))
        before = qnet.logits(obs).clone()
        moved = ((qnet.value(obs) - old.value(obs)) ** 2).mean().item()
    data = {"obs": obs.numpy().astype(np.float16)}
    policy, row = as_policy(cfg, qnet, data, lambda r: None)
    assert torch.allclose(policy.logits(obs), before / 0.05, atol=1e-4)
    assert row["value_mse"] < moved / 4


def test_a_run_leaves_a_checkpoint_and_a_resumed_one_refits_nothing(tmp_path, fresh):
    final = run(config(tmp_path, fresh))
    data = load_shards(tmp_path)
    assert len(data["obs"]) == 40 and (data["q"][:, 0] >= 0).all() and (data["q"][:, 0] <= 1).all()
    assert all(data["mask"][i, c] for i in range(40) for c in data["cand"][i] if c >= 0)
    meta = read_sidecar(final, "liars_dice_v0")
    assert meta["improvement"]["improved_from"] == fresh and len(meta["improvement"]["cross_fitted"]) == 2
    assert "gain" in meta["improvement"]["cross_fitted"][0]
    net, _, _ = load_network(final, "liars_dice_v0")
    q_all, _, _ = load_network(fresh, "liars_dice_v0")
    q_all.load_state_dict(torch.load(tmp_path / "q_all.pt", weights_only=True))
    obs = torch.from_numpy(data["obs"].astype(np.float32))
    assert torch.allclose(net.logits(obs), q_all.logits(obs) / 0.02, atol=1e-3)
    rows = [json.loads(line) for line in (tmp_path / "log.jsonl").read_text().splitlines()]
    assert sum("fold" in r for r in rows) == 6  # two folds and all of it, two epochs each
    main(["liars_dice_v0", "--init", fresh, "--out", str(tmp_path), "--decisions", "40", "--rollouts", "2",
          "--epochs", "2", "--value-epochs", "1", "--seed", "4"])  # fmt: skip
    rows = [json.loads(line) for line in (tmp_path / "log.jsonl").read_text().splitlines()]
    assert sum("fold" in r for r in rows) == 6 and len(load_shards(tmp_path)["obs"]) == 40


def test_an_opponent_that_needs_the_live_env_is_refused(tmp_path, fresh):
    with pytest.raises(ValueError, match="needs a live env"):
        Collector(config(tmp_path, fresh, opponents="ismcts:5"), 0)


def test_seat_view_of_the_collector_is_the_envs(tmp_path, fresh):
    collector = Collector(config(tmp_path, fresh), 0)
    state = a_position_after_a_bet(collector)
    observation, legal = seat_view(collector.game, state, 1)
    assert collector.greedy(state, 1)[2] == legal
    assert observation["action_mask"][LIAR_ID] == 1


def test_each_other_seat_draws_one_of_the_listed_opponents_for_the_whole_game(tmp_path, fresh):
    collector = Collector(config(tmp_path, fresh, opponents="heuristic*2,random", players=(4,)), 0)
    assert [type(o).__name__ for o in collector.opponents].count(type(collector.opponents[0]).__name__) == 2
    drawn: set[str] = set()
    seen_games = 0

    def spy_step(state, actor, me, original=collector.step):
        assert actor == me or actor in collector.seated, "an opponent seat with no agent"
        assert me not in collector.seated, "the learner's own seat is never an opponent's"
        drawn.update(type(collector.seated[seat]).__name__ for seat in collector.seated)
        return original(state, actor, me)

    collector.step = spy_step
    collector.label = lambda state, actor, moves: np.zeros(collector.config.candidates, dtype=np.float32)
    rows: dict[str, list] = {"obs": [], "mask": [], "cand": [], "q": []}
    while seen_games < 12:
        collector.play(rows)
        assert len(collector.seated) == 3
        seen_games += 1
    assert len(drawn) == 2, f"both kinds of opponent should be drawn in 12 games, got {drawn}"
