"""The RLlib self-play run (see ``bidbluff.training.rllib``): PPO's new API stack on ``TableEnv``, one shared policy.

The driver holds the league (``bidbluff.training.league.League``, as every trainer does) and each iteration
collects the env runners' finished games (``TableEnv.take_results``) into it; after each checkpoint it
copies the learner's weights into the snapshot's frozen slot and sends every env the new PFSP weights
(``TableEnv.set_league``).  PPO's settings follow the batched trainer's (same clipped surrogate, value
and entropy coefficients, GAE per seat over its own decisions, global gradient norm clip; RLlib's KL
penalty and value clipping are off, as there).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import ray
import torch
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.tune.registry import register_env

from bidbluff import envs
from bidbluff.agents.networks import ActorCritic
from bidbluff.agents.policy import save_checkpoint
from bidbluff.training.batched import start_from, table_sizes
from bidbluff.training.league import League
from bidbluff.training.rllib.config import RllibConfig
from bidbluff.training.rllib.env import LEARNER, TableEnv, module_ids, module_of, pool_slot
from bidbluff.training.rllib.module import MaskedActorCritic, module_state, network_of
from bidbluff.training.run import Run

ENV_NAME = "bidbluff_table"
SYNC_TIMEOUT_S = 120.0  # new weights reach every env runner before its next games (RLlib by default does not wait)
PROGRESS_COLUMNS = [
    "step", "seconds", "steps_per_s", "env_steps", "episodes", "truncated", "ep_length_mean", "learner_win_rate",
    "policy_loss", "value_loss", "entropy", "approx_kl", "explained_variance", "env_runners", "sample_s", "learn_s",
]  # fmt: skip


def ppo_config(config: RllibConfig, sizes: list[int], league: list[dict[str, Any]]) -> PPOConfig:
    """RLlib's PPO for this run: ``TableEnv`` games, the learner and the snapshot slots as modules."""
    c = config
    env_config = {
        "env": c.env,
        "sizes": sizes,
        "env_options": dict(c.env_options),
        "reward_mode": c.reward_mode,
        "opponents": list(dict.fromkeys(c.opponents)),
        "seed": c.seed,
        "pool_fraction": c.pool_fraction,
        "pool_max": c.pool_max,
        "max_game_steps": c.max_game_steps,
        "league": league,
    }
    spec = {"trunk": c.trunk, "net_arch": list(c.net_arch)}
    modules = module_ids(max(c.pool_max, 0))
    ppo = PPOConfig().environment(ENV_NAME, env_config=env_config, disable_env_checking=True)
    # whole games per sample: RLlib's cut of a running turn-based episode at a fragment's end loses the seat
    # due to act (ray-project/ray#61602), and our games are short
    ppo.env_runners(
        num_env_runners=c.num_env_runners,
        num_envs_per_env_runner=c.num_envs_per_env_runner,
        num_cpus_per_env_runner=1,
        batch_mode="complete_episodes",
    )
    ppo.learners(num_learners=0)
    ppo.multi_agent(policies=set(modules), policy_mapping_fn=module_of, policies_to_train=[LEARNER])
    ppo.rl_module(
        rl_module_spec=MultiRLModuleSpec(
            rl_module_specs={m: RLModuleSpec(module_class=MaskedActorCritic, model_config=spec) for m in modules}
        )
    )
    ppo.training(
        train_batch_size_per_learner=c.rollout_steps,
        minibatch_size=c.minibatch_size,
        num_epochs=c.n_epochs,
        lr=c.learning_rate,
        gamma=c.gamma,
        lambda_=c.gae_lambda,
        clip_param=c.clip_range,
        entropy_coeff=c.ent_coef,
        vf_loss_coeff=c.vf_coef,
        grad_clip=c.max_grad_norm,
        grad_clip_by="global_norm",
        use_kl_loss=False,
        vf_clip_param=float("inf"),
    )
    return ppo.debugging(seed=c.seed, log_level="ERROR")


def connect(address: str) -> None:
    """Join the Ray cluster at ``address`` ('local': start one in this process).  The workers import
    ``bidbluff`` as this process does, from the environment each node runs in (the package installed there,
    editable or not): no path is handed to them."""
    if ray.is_initialized():
        return
    if address == "local":  # never a cluster this machine happens to have joined
        ray.init(address="local", include_dashboard=False, log_to_driver=False)
    else:
        ray.init(address=address, log_to_driver=False)


class RllibTrainer:
    """One run (see ``bidbluff.training.rllib``): ``run()`` trains to ``total_steps`` and returns the final zip."""

    def __init__(self, config: RllibConfig, resume: bool = False, progress_bar: bool = True) -> None:
        if not 0.0 <= config.pool_fraction < 1.0:
            raise ValueError(f"pool_fraction must be in [0, 1), not {config.pool_fraction}")
        if config.pool_fraction > 0 and not config.opponents and config.pool_max <= 0:
            raise ValueError("pool_fraction > 0 needs pool opponents: --opponents or pool_max > 0")
        for name in (
            "total_steps",
            "num_envs_per_env_runner",
            "rollout_steps",
            "minibatch_size",
            "n_epochs",
            "checkpoint_every",
        ):
            if getattr(config, name) < 1:
                raise ValueError(f"{name} must be positive, not {getattr(config, name)}")
        if config.num_env_runners < 0:
            raise ValueError(f"num_env_runners must be 0 or more, not {config.num_env_runners}")
        self.config = config
        self.progress_bar = progress_bar
        game = envs.game(config.env, **config.env_options)
        self.sizes = table_sizes(config, game.default_players)  # type: ignore[arg-type]
        self.num_players = max(self.sizes)
        self.out = Path(config.out or f"runs/{config.env}-rllib")
        self.net_sizes = ActorCritic(game.observation_size, game.codec.n, config.trunk, config.net_arch).sizes
        torch.set_num_threads(config.torch_threads)
        self.league = League.of_specs(
            dict.fromkeys(config.opponents),
            config.env,
            config.seed,
            pool_max=config.pool_max,
            pfsp_power=config.pfsp_power,
        )
        self.core = Run(config, self.out, PROGRESS_COLUMNS, self.num_players, resume)
        self.episodes = self.truncated = 0
        found = self.core.resumed
        if found is not None:
            path, meta = found
            self.restored_from = self.out / "rllib" / f"step_{self.steps}"
            if not self.restored_from.is_dir():
                raise FileNotFoundError(f"--resume: {path.name} has no RLlib checkpoint {self.restored_from}")
            saved = meta.get("league", {})
            slots = {s["path"]: pool_slot(i + 1, config.pool_max) for i, s in enumerate(saved.get("snapshots", []))}
            self.league.restore(saved, lambda snap_path, _steps: slots[str(snap_path)], up_to_step=self.steps)
        initial = None
        if found is None and config.init:  # checked before Ray starts: a wrong --init costs nothing
            initial = ActorCritic(**self.net_sizes)
            start_from(initial, Path(config.init), config)  # type: ignore[arg-type]
        self.core.open(resumed_from=self.out / "rllib" / f"step_{self.steps}")
        connect(config.address)
        register_env(ENV_NAME, TableEnv)
        self.algo = ppo_config(config, self.sizes, self.draw_table()).build_algo()
        if found is not None:
            self.algo.restore_from_path(str(self.restored_from.resolve()))
            self.push_league()
        elif initial is not None:
            self.set_module(LEARNER, module_state(initial))
        self.stop = self.core.stop  # set by SIGINT / SIGTERM while run() runs

    @property
    def steps(self) -> int:
        """Learner decisions trained on (the run's step)."""
        return self.core.steps

    @steps.setter
    def steps(self, value: int) -> None:
        self.core.steps = value

    # -- the league on the env runners -------------------------------------------------------
    def draw_table(self) -> list[dict[str, Any]]:
        slots = {s["name"]: pool_slot(i + 1, self.config.pool_max) for i, s in enumerate(self.league.snapshots)}
        return [{"name": n, "weight": self.league.weight(n), "module": slots.get(n)} for n in self.league.names()]

    def _each_env(self, method: str, *args: Any) -> list[Any]:
        def call(runner: Any) -> list[Any]:
            env = getattr(runner, "env", None)
            return [] if env is None else list(env.unwrapped.call(method, *args))

        return self.algo.env_runner_group.foreach_env_runner(call, local_env_runner=True)

    def push_league(self) -> None:
        self._each_env("set_league", self.draw_table())

    def collect_results(self) -> list[dict[str, Any]]:
        games = [game for per_runner in self._each_env("take_results") for per_env in per_runner for game in per_env]
        for game in games:
            for name, result in game["against"]:
                self.league.record(name, result)
        self.episodes += len(games)
        self.truncated += sum(g["truncated"] for g in games)
        return games

    # -- weights ------------------------------------------------------------------------------
    def module_state(self, module: str) -> dict[str, Any]:
        key = f"learner_group/learner/rl_module/{module}"
        return self.algo.get_state(components=[key])["learner_group"]["learner"]["rl_module"][module]

    def set_module(self, module: str, state: dict[str, Any]) -> None:
        self.algo.set_state({"learner_group": {"learner": {"rl_module": {module: state}}}})
        self.algo.env_runner_group.sync_weights(
            policies=[module],
            from_worker_or_learner_group=self.algo.learner_group,
            inference_only=True,
            timeout_seconds=SYNC_TIMEOUT_S,
        )

    def network(self) -> ActorCritic:
        return network_of(self.module_state(LEARNER), self.net_sizes)

    # -- checkpoints --------------------------------------------------------------------------
    def save(self) -> Path:
        """Evaluate, export the learner as a project checkpoint, save RLlib's checkpoint, make a snapshot."""
        c = self.config
        net = self.network()
        self.core.evaluate(net)
        path = self.core.checkpoint_path()
        self.algo.save_to_path(str((self.out / "rllib" / f"step_{self.steps}").resolve()))
        if c.pool_max > 0:
            generation = len(self.league.snapshots) + 1
            self.set_module(pool_slot(generation, c.pool_max), self.module_state(LEARNER))
            self.league.add_snapshot(path, self.steps, pool_slot(generation, c.pool_max))
            self.push_league()
        return save_checkpoint(path, net, self.meta())

    def meta(self) -> dict[str, Any]:
        meta = self.core.meta("PPO (Ray RLlib, new API stack)", ray=ray.__version__)
        return {
            **meta,
            "table_sizes": self.sizes,
            "trainer": "rllib",
            "policy": "ActorCritic",
            "league": self.league.to_dict(),
        }

    # -- the run --------------------------------------------------------------------------------
    def run(self) -> Path:
        """Train to ``total_steps`` (or the time limit); SIGINT or SIGTERM end the run after the current
        iteration with a checkpoint and ``final.zip``, then raise ``RunInterruptedError``."""
        from tqdm import tqdm

        c = self.config
        core = self.core
        core.start_clock()
        bar = tqdm(
            total=c.total_steps,
            initial=self.steps,
            disable=not self.progress_bar,
            unit="step",
            desc=c.env,
            dynamic_ncols=True,
        )
        last_saved = None
        try:
            with core.stop:
                while core.running():
                    result = self.algo.train()
                    games = self.collect_results()
                    learned = sum(g["learner_decisions"] for g in games)
                    self.steps += learned
                    self._log(result, games)
                    bar.update(learned)
                    if core.checkpoint_due():
                        last_saved = self.save()
                bar.close()
                if not core.saved_now(last_saved):
                    last_saved = self.save()
        finally:
            self.algo.stop()
        return core.finish(last_saved)

    def _log(self, result: dict[str, Any], games: list[dict[str, Any]]) -> None:
        learner = result.get("learners", {}).get(LEARNER, {})
        timers = result.get("timers", {})
        row = {
            **self.core.row(),
            "env_steps": result.get("env_runners", {}).get("num_env_steps_sampled_lifetime", ""),
            "episodes": self.episodes,
            "truncated": self.truncated,
            "ep_length_mean": float(np.mean([g["length"] for g in games])) if games else "",
            "learner_win_rate": float(np.mean([g["learner_won"] for g in games])) if games else "",
            "policy_loss": learner.get("policy_loss", ""),
            "value_loss": learner.get("vf_loss", ""),
            "entropy": learner.get("entropy", ""),
            "approx_kl": learner.get("mean_kl_loss", ""),
            "explained_variance": learner.get("vf_explained_var", ""),
            "env_runners": self.config.num_env_runners,
            "sample_s": timers.get("env_runner_sampling_timer", ""),
            "learn_s": timers.get("learner_update_timer", ""),
        }
        self.core.progress.write(row)
