"""``TableEnv``: our AEC envs as an RLlib ``MultiAgentEnv``, seated from the league (see ``bidbluff.training.rllib``).

Each ``reset`` draws a table size from ``sizes`` and who sits where: a seat goes to the league with
``pool_fraction`` (an opponent drawn by the PFSP weights the driver last sent, ``set_league``), else to the
learner; at least one seat is the learner's.  Baselines act here, between RLlib's steps; every other seat
is an RLlib agent ``player_<seat>/<module>`` (``LEARNER`` or a snapshot's slot ``pool_<k>``), so one step
is one decision of a network seat.  The game's end hands every network seat its final observation and
reward (the env's: zero-sum at the end) and files the learner's result against each league seat, for the
driver to collect (``take_results``).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from bidbluff import agents as agent_lib
from bidbluff import envs
from bidbluff.agents.base import bind_all, seat_of
from bidbluff.training.league import baseline_name
from bidbluff.training.tables import LEARNER, game_over, outcome, play_baselines, seat_table

_instances = itertools.count()  # tells apart the envs of one process (their deals' seeds)


def pool_slot(generation: int, pool_max: int) -> str:
    """The frozen module that plays snapshot generation ``generation`` (1, 2, ...): a ring of ``pool_max``."""
    return f"pool_{(generation - 1) % pool_max}"


def module_ids(pool_max: int) -> list[str]:
    return [LEARNER] + [f"pool_{k}" for k in range(pool_max)]


def agent_id(seat_agent: str, module: str) -> str:
    return f"{seat_agent}/{module}"


def module_of(agent: str, *args: Any, **kwargs: Any) -> str:
    """RLlib's policy mapping: the module an agent's name carries (``player_2/pool_3`` -> ``pool_3``)."""
    return agent.rsplit("/", 1)[1]


class TableEnv(MultiAgentEnv):
    """One game at a time of ``config["env"]``; ``config`` is RLlib's env_config (see
    ``bidbluff.training.rllib.trainer``)."""

    def __init__(self, config: Mapping[str, Any]) -> None:
        super().__init__()
        self.sizes: list[int] = list(config["sizes"])
        self.pool_fraction = float(config["pool_fraction"])
        self.max_game_steps = int(config["max_game_steps"])
        self.tables = {
            n: envs.make(
                config["env"], raw=True, num_players=n, reward_mode=config["reward_mode"], **config["env_options"]
            )
            for n in set(self.sizes)
        }
        seed = int(config["seed"])
        self.baselines = {
            baseline_name(spec): agent_lib.make(spec, env_name=config["env"], seed=seed + i)
            for i, spec in enumerate(config["opponents"])
        }
        worker = int(getattr(config, "worker_index", 0))
        self.rng = np.random.default_rng([seed, worker, next(_instances)])
        widest = self.tables[max(self.sizes)]
        seats = widest.possible_agents
        self.possible_agents = [agent_id(s, m) for s in seats for m in module_ids(int(config["pool_max"]))]
        self.agents = []
        space, actions = widest.observation_space(seats[0]), widest.action_space(seats[0])
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = dict.fromkeys(self.possible_agents, actions)
        self.set_league(config["league"])
        self.results: list[dict[str, Any]] = []
        self.env: Any = None
        self.seen = set()
        self.seats: list[str] = []
        self.steps = self.learner_decisions = 0
        self.acting = ""

    # -- the driver's side ------------------------------------------------------------------
    def set_league(self, draw: Sequence[Mapping[str, Any]]) -> None:
        """Who can be drawn: ``[{"name", "weight", "module"}]`` (``module``: a snapshot's slot, None for a
        baseline, which must be one of this env's)."""
        unknown = [d["name"] for d in draw if d["module"] is None and d["name"] not in self.baselines]
        if unknown:
            raise ValueError(f"league opponents {unknown} are neither baselines of this env nor snapshots")
        self.draw_names = [d["name"] for d in draw]
        self.draw_modules = {d["name"]: d["module"] for d in draw}
        weights = np.array([float(d["weight"]) for d in draw])
        self.draw_p = weights / weights.sum() if len(draw) else weights

    def take_results(self) -> list[dict[str, Any]]:
        """The games finished since the last call: length, learner_decisions, truncated, learner_won, and per
        league seat the learner's result (1 win, 1/2 tie, 0 loss)."""
        results, self.results = self.results, []
        return results

    # -- MultiAgentEnv --------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        n = self.sizes[int(self.rng.integers(len(self.sizes)))]
        self.env = self.tables[n]
        draw = self._draw if self.pool_fraction > 0 and self.draw_names else None
        seats = seat_table(self.rng, n, self.pool_fraction, draw)
        self.seats, self.steps, self.learner_decisions = seats, 0, 0
        self.players = [self.baselines.get(s) for s in seats]
        self.env.reset(seed=int(self.rng.integers(2**31 - 1)))
        bind_all([p for p in self.players if p is not None], self.env)
        self.agents = [self._agent(a) for a in self.env.possible_agents if seats[seat_of(a)] not in self.baselines]
        self.seen: set[str] = set()  # network seats that were asked to act (only they get a last observation)
        obs, _, _, _, infos = self._advance()
        return obs, infos

    def step(self, action_dict: Mapping[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        self.env.step(int(action_dict[self.acting]))
        self.steps += 1
        self.learner_decisions += module_of(self.acting) == LEARNER
        return self._advance()

    # -- inside ---------------------------------------------------------------------------------
    def _draw(self) -> str:
        return self.draw_names[int(self.rng.choice(len(self.draw_names), p=self.draw_p))]

    def _agent(self, seat_agent: str) -> str:
        who = self.seats[seat_of(seat_agent)]
        return agent_id(seat_agent, LEARNER if who == LEARNER else self.draw_modules[who])

    def _advance(self) -> tuple[dict, dict, dict, dict, dict]:
        """Baselines play until a network seat must act (its observation) or the game ends (every network
        seat's last observation and reward)."""
        env = self.env
        self.steps = play_baselines(env, self.players, self.steps, self.max_game_steps)
        if game_over(env) or self.steps >= self.max_game_steps:
            return self._finish(truncated=not game_over(env))
        seat_agent = env.agent_selection
        self.acting = self._agent(seat_agent)
        self.seen.add(seat_agent)
        return {self.acting: env.observe(seat_agent)}, {}, {"__all__": False}, {"__all__": False}, {}

    def _finish(self, truncated: bool) -> tuple[dict, dict, dict, dict, dict]:
        env = self.env
        result = outcome(list(env.game_state.scores()), self.seats)
        self.results.append(
            {
                "length": self.steps,
                "learner_decisions": self.learner_decisions,
                "truncated": truncated,
                "learner_won": result.learner_won,
                "against": result.against,
            }
        )
        network = [a for a in env.possible_agents if a in self.seen]
        obs = {self._agent(a): env.observe(a) for a in network}
        rewards = {self._agent(a): 0.0 if truncated else float(env.rewards[a]) for a in network}
        done = {name: not truncated for name in obs} | {"__all__": not truncated}
        cut = {name: truncated for name in obs} | {"__all__": truncated}
        return obs, rewards, done, cut, {}
