"""Self-play league: MaskablePPO against its own past snapshots and fixed baselines.

The training loop is ``training.train``'s; what changes is where the opponents
come from.  Each episode, every opponent seat draws from the league:

* with probability ``latest_prob``, the **latest** policy (the live model,
  sampling its actions);
* otherwise one of the **past snapshots** (the newest ``pool_max``) or the
  **fixed baselines** (``--opponents``, e.g. ``random,heuristic``), weighted by
  difficulty as in prioritised fictitious self-play: weight
  ``(1 - w) ** pfsp_power`` where ``w`` is the learner's win rate against that
  opponent so far (a Beta(1, 1) prior; unplayed opponents count as w = 1/2).

Every ``checkpoint_every`` steps the checkpoint becomes a new snapshot (a
*generation*) and is evaluated: against every baseline (``eval.csv``, as in
``bidbluff train``) and against the previous generation (``league.json``).
``league.json`` holds the snapshots and the win counts, so ``--resume``
continues the league where it stopped.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

import agents as agent_lib
import envs
from agents.policy import CheckpointError, PolicyAgent
from training.train import TrainConfig


@dataclass
class SelfPlayConfig(TrainConfig):
    """``TrainConfig`` plus the league's options; ``opponents`` are the fixed baselines."""

    latest_prob: float = field(default=0.5, metadata={"help": "chance an opponent seat gets the latest policy"})
    pool_max: int = field(default=20, metadata={"help": "newest snapshots kept in the opponent pool"})
    pfsp_power: float = field(default=2.0, metadata={"help": "PFSP weight exponent: (1 - learner win rate)^p"})
    baseline_eval_games: int = field(default=40, metadata={"help": "games of each new generation vs the previous"})


class League:
    """The opponent pool of a self-play run (see the module docstring); ``sample`` / ``record`` serve the views."""

    def __init__(self, config: SelfPlayConfig) -> None:
        if not 0.0 <= config.latest_prob <= 1.0:
            raise ValueError(f"latest_prob must be in [0, 1], not {config.latest_prob}")
        self.config = config
        self.baselines = [(f"baseline:{spec}", agent_lib.make(spec, env_name=config.env, seed=config.seed + i))
                          for i, spec in enumerate(config.opponents)]  # fmt: skip
        self.snapshots: list[dict[str, Any]] = []  # {"name", "path", "steps"}
        self.snapshot_agents: dict[str, Any] = {}
        self.results: dict[str, list[float]] = {}  # name -> [learner wins, games]
        self.generations: list[dict[str, Any]] = []
        self.latest: PolicyAgent | None = None
        self.out: Path | None = None
        self._names: dict[int, str] = {id(agent): name for name, agent in self.baselines}

    # -- the pool ------------------------------------------------------------------
    def candidates(self) -> list[tuple[str, Any]]:
        recent = self.snapshots[-self.config.pool_max :] if self.config.pool_max > 0 else []
        return self.baselines + [(s["name"], self.snapshot_agents[s["name"]]) for s in recent]

    def win_rate(self, name: str) -> float:
        wins, games = self.results.get(name, [0.0, 0.0])
        return (wins + 1) / (games + 2)

    def weights(self) -> list[float]:
        return [(1.0 - self.win_rate(name)) ** self.config.pfsp_power + 1e-6 for name, _ in self.candidates()]

    def sample(self, rng: np.random.Generator) -> Any:
        pool = self.candidates()
        if self.latest is not None and (not pool or rng.random() < self.config.latest_prob):
            return self.latest
        if not pool:
            raise ValueError("the league has no opponent: give baselines (--opponents) or a latest policy")
        w = np.asarray(self.weights())
        return pool[int(rng.choice(len(pool), p=w / w.sum()))][1]

    def record(self, opponents: list[Any], won: float) -> None:
        """One finished episode: the learner's result against each (distinct) opponent it met."""
        for name in {self._names.get(id(a)) for a in opponents} - {None, "latest"}:
            entry = self.results.setdefault(name, [0.0, 0.0])
            entry[0] += won
            entry[1] += 1

    # -- the run's hooks -----------------------------------------------------------------
    def attach(self, model: Any, out: Path) -> None:
        """The live model plays as "latest" (sampling its actions)."""
        self.latest = PolicyAgent(model, {"env": self.config.env}, deterministic=False,
                                  seed=self.config.seed, name="latest")  # fmt: skip
        self._names[id(self.latest)] = "latest"
        self.out = out

    def add_snapshot(self, path: Path, steps: int) -> None:
        """A checkpoint becomes a generation: evaluated against the previous one, then added to the pool."""
        name = f"gen{len(self.snapshots) + 1}@{steps}"
        agent = agent_lib.load(path, env_name=self.config.env, deterministic=False, seed=self.config.seed + steps)
        agent.name = name
        generation: dict[str, Any] = {"name": name, "steps": steps}
        if self.snapshots and self.config.baseline_eval_games > 0:
            previous = self.snapshots[-1]["name"]
            generation["vs_previous"] = self._evaluate(path, previous)
        self.snapshots.append({"name": name, "path": str(path), "steps": steps})
        self.snapshot_agents[name] = agent
        self._names[id(agent)] = name
        self.generations.append(generation)
        self.save()

    def _evaluate(self, path: Path, previous: str) -> dict[str, Any]:
        from arena.tournament import run_tournament

        n = self.config.players or default_players(self.config.env)
        new = agent_lib.load(path, env_name=self.config.env, deterministic=True)
        new.name = "new"
        old = agent_lib.load(self.snapshots[-1]["path"], env_name=self.config.env, deterministic=True)
        old.name = previous
        lineup = [new] + [old] * (n - 1)
        result = run_tournament(self.config.env, lineup, self.config.baseline_eval_games, n,
                                seed=self.config.seed + 20_000, env_options=self.config.env_options)  # fmt: skip
        row = result.rows()[0]
        return {"opponent": previous, "games": row["games"], "win_share": row["win_share"],
                "ci_low": row["ci_low"], "ci_high": row["ci_high"], "baseline": 1 / n}  # fmt: skip

    # -- saving ------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {"snapshots": self.snapshots, "results": self.results, "generations": self.generations,
                "pool": [{"name": name, "win_rate": self.win_rate(name), "weight": w}
                         for (name, _), w in zip(self.candidates(), self.weights(), strict=True)]}  # fmt: skip

    def save(self) -> None:
        if self.out is None:
            return
        path = self.out / "league.json"
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(self.to_dict(), indent=2) + "\n")
        tmp.replace(path)

    def load(self, out: Path, up_to_step: int | None = None) -> None:
        """Restore the league of a run (snapshots past ``up_to_step`` or no longer intact are dropped)."""
        path = out / "league.json"
        if not path.exists():
            return
        data = json.loads(path.read_text())
        self.results = {k: list(v) for k, v in data.get("results", {}).items()}
        self.generations = [g for g in data.get("generations", []) if up_to_step is None or g["steps"] <= up_to_step]
        for snap in data.get("snapshots", []):
            if up_to_step is not None and snap["steps"] > up_to_step:
                continue
            try:
                agent = agent_lib.load(snap["path"], env_name=self.config.env, deterministic=False,
                                       seed=self.config.seed + snap["steps"])  # fmt: skip
            except CheckpointError as bad:
                print(f"warning: league snapshot {snap['name']} dropped: {bad}")
                continue
            agent.name = snap["name"]
            self.snapshots.append(snap)
            self.snapshot_agents[snap["name"]] = agent
            self._names[id(agent)] = snap["name"]


def default_players(env_name: str) -> int:
    return envs.game(env_name).default_players


def selfplay(config: SelfPlayConfig, resume: bool = False, progress_bar: bool = True) -> Path:
    """Run (or resume) a self-play league; returns the final checkpoint's zip path."""
    from training.train import train

    return train(config, resume=resume, progress_bar=progress_bar, league=League(config))
