"""The RLlib trainer (slow; needs the rllib extra): the env adapter's seating and results, the masked
module and its weights against ``ActorCritic``, a tiny run through the command line that exports project
checkpoints (played by ``bidbluff.agents.make`` and tournaments), is resumed from its newest RLlib checkpoint, and
``--init`` from a project checkpoint."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest
import torch

pytest.importorskip("ray.rllib")
pytestmark = pytest.mark.slow

import ray  # noqa: E402
from ray.rllib.core.columns import Columns  # noqa: E402

from bidbluff import agents, envs  # noqa: E402
from bidbluff.agents.networks import ActorCritic  # noqa: E402
from bidbluff.agents.policy import env_signature, read_sidecar, save_checkpoint  # noqa: E402
from bidbluff.arena.play import play as play_at_terminal  # noqa: E402
from bidbluff.arena.tournament import run_tournament  # noqa: E402
from bidbluff.arena.web.app import local_table  # noqa: E402
from bidbluff.cli import main  # noqa: E402
from bidbluff.training.rllib import RllibConfig  # noqa: E402
from bidbluff.training.rllib.env import LEARNER, TableEnv, module_of, pool_slot  # noqa: E402
from bidbluff.training.rllib.module import MaskedActorCritic, module_state, network_of  # noqa: E402

ENV = "liars_dice_v0"


@pytest.fixture(autouse=True)
def _own_ray():
    """Each test connects as its config says; none inherits another's Ray."""
    yield
    ray.shutdown()


def table(**changes):
    config = {
        "env": ENV,
        "sizes": [3],
        "env_options": {},
        "reward_mode": "win",
        "opponents": ["heuristic"],
        "seed": 0,
        "pool_fraction": 0.5,
        "pool_max": 2,
        "max_game_steps": 5000,
        "league": [
            {"name": "baseline:heuristic", "weight": 1.0, "module": None},
            {"name": "gen1@100", "weight": 1.0, "module": pool_slot(1, 2)},
        ],
    }
    return TableEnv({**config, **changes})


def play(env, games, rng):
    """Random legal play of ``games`` games; every step's observation is one network seat's."""
    finished = 0
    obs, _ = env.reset(seed=1)
    while finished < games:
        (acting,) = obs
        assert module_of(acting) in (LEARNER, pool_slot(1, 2))
        legal = np.flatnonzero(obs[acting]["action_mask"])
        obs, rewards, done, cut, _ = env.step({acting: int(rng.choice(legal))})
        if done["__all__"] or cut["__all__"]:
            assert set(rewards) == set(obs) and all(done[a] for a in obs)
            finished += 1
            obs, _ = env.reset()
    return env.take_results()


def test_the_adapter_seats_learner_snapshots_and_baselines_and_files_results():
    env = table()
    results = play(env, 30, np.random.default_rng(0))
    assert len(results) == 30 and env.take_results() == []
    against = [name for game in results for name, _ in game["against"]]
    assert {"baseline:heuristic", "gen1@100"} <= set(against)  # both drawn; baselines act inside the env
    assert all(0 < game["learner_decisions"] <= game["length"] for game in results)
    assert all(result in (0.0, 0.5, 1.0) for game in results for _, result in game["against"])


def test_the_adapter_with_no_pool_share_seats_only_the_learner():
    results = play(table(pool_fraction=0.0), 5, np.random.default_rng(1))
    assert all(game["against"] == [] for game in results)


def test_set_league_refuses_an_opponent_it_cannot_play():
    with pytest.raises(ValueError, match="neither baselines of this env nor snapshots"):
        table().set_league([{"name": "baseline:random", "weight": 1.0, "module": None}])


def option_tables() -> list[tuple[str, dict, list[int]]]:
    """``(env, options, table sizes)``: every game's base table at all its sizes, and each distinct option set
    of its test tables at the sizes listed for it."""
    tables = []
    for name in envs.ENVS:
        game = envs.game(name)
        found = {"{}": ({}, list(range(game.min_players, game.max_players + 1)))}
        for config in game.test_configs:
            options = {k: v for k, v in config.items() if k not in ("num_players", "slow")}
            found.setdefault(json.dumps(options, sort_keys=True), (options, []))[1].append(config["num_players"])
        tables += [(name, options, sorted(set(sizes))) for options, sizes in found.values()]
    return tables


@pytest.mark.parametrize(
    ("env_name", "options", "sizes"),
    option_tables(),
    ids=lambda v: v if isinstance(v, str) else json.dumps(v, sort_keys=True),
)
def test_the_adapter_plays_every_game_and_option_table(env_name, options, sizes):
    env = table(
        env=env_name,
        env_options=options,
        sizes=sizes,
        opponents=["random"],
        pool_fraction=0.4,
        league=[{"name": "baseline:random", "weight": 1.0, "module": None}],
    )
    size = envs.game(env_name, **options).observation_size
    assert env.observation_spaces[env.possible_agents[0]]["observation"].shape == (size,)
    results = play(env, 2 * len(sizes), np.random.default_rng(2))
    assert len(results) == 2 * len(sizes)


def _module(env):
    space = env.observation_spaces[env.possible_agents[0]]
    return MaskedActorCritic(
        observation_space=space,
        action_space=env.action_spaces[env.possible_agents[0]],
        model_config={"trunk": 32, "net_arch": [16]},
    )


def test_the_module_masks_illegal_actions_and_holds_an_actor_critic():
    env = table()
    module = _module(env)
    obs, _ = env.reset(seed=3)
    (seen,) = obs.values()
    batch = {Columns.OBS: {k: torch.as_tensor(np.stack([v, v])) for k, v in seen.items()}}
    logits = module.forward_exploration(batch)[Columns.ACTION_DIST_INPUTS]
    legal = torch.as_tensor(seen["action_mask"]).bool()
    probs = torch.softmax(logits, -1)
    assert torch.all(probs[:, ~legal] == 0) and torch.allclose(probs.sum(-1), torch.ones(2))
    # the same weights as an ActorCritic: same masked policy, same value
    net = network_of({f"net.{k}": v for k, v in module.net.state_dict().items()}, module.net.sizes)
    step = net.get_action_and_value(batch[Columns.OBS]["observation"], legal.expand(2, -1))
    assert torch.allclose(step.log_probs.exp(), probs, atol=1e-6)
    values = module.compute_values({Columns.OBS: batch[Columns.OBS]})
    assert torch.allclose(values, step.value)


def test_weights_copy_both_ways():
    module = _module(table())
    net = ActorCritic(module.net.sizes["obs_size"], module.net.sizes["n_actions"], 32, [16])
    module.set_state(module_state(net))
    for key, value in net.state_dict().items():
        assert torch.equal(module.net.state_dict()[key], value)
    back = network_of(module.get_state(), net.sizes)
    assert all(torch.equal(back.state_dict()[k], v) for k, v in net.state_dict().items())


def _rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


TINY = ["--players", "3", "--opponents", "heuristic,random", "--rollout-steps", "256", "--minibatch-size", "128",
        "--checkpoint-every", "200", "--eval-games", "3", "--num-env-runners", "1", "--num-envs-per-env-runner",
        "2", "--pool-max", "2", "--trunk", "32", "--net-arch", "16", "--no-progress"]  # fmt: skip


def test_a_tiny_run_exports_checkpoints_that_play_and_resumes_from_rllibs(tmp_path):
    out = tmp_path / "run"
    argv = ["selfplay", ENV, "--trainer", "rllib", "--out", str(out), *TINY]
    assert main([*argv, "--total-steps", "400"]) == 0
    saved = json.loads((out / "config.json").read_text())
    assert saved["num_env_runners"] == 1 and saved["address"] == "local"
    steps = [int(r["step"]) for r in _rows(out / "progress.csv")]
    assert steps == sorted(steps) and steps[-1] >= 400
    assert {r["opponent"] for r in _rows(out / "eval.csv")} == {"heuristic", "random"}
    assert all(
        float(r["ci_low"]) - 1e-9 <= float(r["win_share"]) <= float(r["ci_high"]) + 1e-9
        for r in _rows(out / "eval.csv")
    )
    meta = read_sidecar(out / "final.json", ENV)
    assert meta["trainer"] == "rllib" and meta["steps"] == steps[-1] and meta["network"]["trunk"] == 32
    assert len(meta["league"]["snapshots"]) >= 2 and meta["league"]["results"]
    assert (out / "rllib" / f"step_{steps[-1]}").is_dir()
    # the export plays like any checkpoint
    agent = agents.make(str(out / "final.zip"), env_name=ENV)
    assert isinstance(agent.network, ActorCritic)
    result = run_tournament(ENV, [str(out / "final.zip"), "heuristic", "random"], 3, 3, seed=0)
    assert sum(row["games"] for row in result.rows()) > 0
    quit_at_once = io.StringIO("quit\n")
    assert (
        play_at_terminal(
            ENV, opponents=[str(out / "final.zip")], num_players=3, seed=0, input=quit_at_once, output=io.StringIO()
        )
        is None
    )
    assert "final.zip" in " ".join(local_table(ENV, 3, opponents=[str(out / "final.zip")], seed=0, runs=(out,)).labels)
    # resume: from the newest RLlib checkpoint, with the league and the logs carried on
    assert main([*argv, "--total-steps", "700", "--resume"]) == 0
    resumed = [int(r["step"]) for r in _rows(out / "progress.csv")]
    assert resumed[: len(steps)] == steps and resumed[-1] >= 700
    after = read_sidecar(out / "final.json", ENV)
    assert after["league"]["snapshots"][: len(meta["league"]["snapshots"])] == meta["league"]["snapshots"]


def test_init_starts_the_learner_from_a_project_checkpoint(tmp_path):
    from bidbluff.training.rllib.trainer import RllibTrainer

    game = envs.game(ENV)
    donor = ActorCritic(game.observation_size, game.codec.n, 32, [16])

    path = save_checkpoint(tmp_path / "donor.zip", donor, {**env_signature(ENV), "env_options": {}, "steps": 0})
    config = RllibConfig(
        ENV,
        players=2,
        init=str(path),
        trunk=32,
        net_arch=[16],
        num_env_runners=1,
        num_envs_per_env_runner=1,
        out=str(tmp_path / "run"),
    )
    trainer = RllibTrainer(config, progress_bar=False)
    try:
        mine = trainer.network().state_dict()
        on_runner = trainer.algo.env_runner_group.foreach_env_runner(
            lambda r: r.module[LEARNER].net.state_dict(), local_env_runner=False
        )[0]
    finally:
        trainer.algo.stop()
    for key, value in donor.state_dict().items():
        assert torch.equal(mine[key], value) and torch.equal(on_runner[key], value)


def test_init_of_another_size_is_refused_before_ray_starts(tmp_path, capsys):
    shipped = "checkpoints/liars_dice/selfplay.zip"  # trunk 256, this run's 32
    with pytest.raises(SystemExit):
        main(["selfplay", ENV, "--trainer", "rllib", "--init", shipped, "--out", str(tmp_path / "r"), *TINY])
    assert "its network differs from this run's" in capsys.readouterr().err
    assert not ray.is_initialized()
