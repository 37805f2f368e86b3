"""The opponent league every trainer draws from: fixed baselines and the learner's past snapshots.

A league holds

* **baselines**: agents from ``--opponents`` specs (``"baseline:heuristic"``, ...);
* **snapshots**: the learner's checkpoints, named ``gen<k>@<steps>`` in the order they were
  taken; only the newest ``pool_max`` of them can be drawn (older ones keep their record);
* **results**: per opponent, the learner's wins and games against it;
* optionally the **latest** policy (the live learner, as an agent), drawn with ``latest_prob``.

Drawing is prioritised fictitious self-play: an opponent weighs ``(1 - w) ** pfsp_power``
where ``w = (wins + 1) / (games + 2)`` is the learner's smoothed win rate against it
(a Beta(1, 1) prior: an unplayed opponent counts as w = 1/2).  ``pfsp_power = 0`` draws
uniformly.  ``baseline_share`` (optional) sets aside that share of the draws for the baselines, PFSP-weighted
among themselves, and the rest for the snapshots: without it a league that grows draws its baselines less
and less, and a learner can forget how to beat them.

The trainers use it thus: ``bidbluff train`` draws each opponent seat from a league of its
baselines alone; the stable-baselines3 self-play (``bidbluff.training.selfplay``) adds snapshots and
the latest policy; the batched trainer (``bidbluff.training.batched``) gives ``pool_fraction`` of its
seats to ``draw`` and plays snapshots as frozen networks.  What a snapshot *is* (an agent, a
network) is the trainer's: the league stores whatever ``add_snapshot`` or ``restore``'s
loader hands it.  ``to_dict`` / ``restore`` carry a league through a checkpoint's sidecar or
``league.json`` (the ``snapshots`` and ``results`` blocks; other keys are ignored).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from bidbluff import agents as agent_lib
from bidbluff.agents.policy import CheckpointError

LATEST = "latest"


def baseline_name(spec: str) -> str:
    return f"baseline:{spec}"


def snapshot_name(generation: int, steps: int) -> str:
    return f"gen{generation}@{steps}"


class League:
    """Baselines, snapshots and the learner's record against each (see the module docstring)."""

    def __init__(
        self,
        baselines: Mapping[str, Any],
        pool_max: int = 0,
        pfsp_power: float = 0.0,
        latest_prob: float = 0.0,
        baseline_share: float | None = None,
    ) -> None:
        if not 0.0 <= latest_prob <= 1.0:
            raise ValueError(f"latest_prob must be in [0, 1], not {latest_prob}")
        if baseline_share is not None and not 0.0 <= baseline_share <= 1.0:
            raise ValueError(f"baseline_share must be in [0, 1], not {baseline_share}")
        self.baseline_share = baseline_share
        self.baselines = dict(baselines)
        self.pool_max = pool_max
        self.pfsp_power = pfsp_power
        self.latest_prob = latest_prob
        self.latest: Any = None
        self.snapshots: list[dict[str, Any]] = []  # {"name", "path", "steps"}, oldest first
        self.snapshot_players: dict[str, Any] = {}  # of the recent snapshots only
        self.results: dict[str, list[float]] = {}  # name -> [learner wins, games]
        self._names: dict[int, str] = {}
        self._index()

    @classmethod
    def of_specs(cls, specs: Iterable[str], env_name: str, seed: int = 0, **options: Any) -> League:
        """A league whose baselines are the agents of ``specs`` (seeded ``seed``, ``seed + 1``, ...)."""
        baselines = {
            baseline_name(spec): agent_lib.make(spec, env_name=env_name, seed=seed + i) for i, spec in enumerate(specs)
        }
        return cls(baselines, **options)

    # -- drawing -------------------------------------------------------------------------
    def recent(self) -> list[str]:
        return [s["name"] for s in self.snapshots[-self.pool_max :]] if self.pool_max > 0 else []

    def names(self) -> list[str]:
        """Who can be drawn: the baselines and the recent snapshots."""
        return list(self.baselines) + [name for name in self.recent() if name in self.snapshot_players]

    def player(self, name: str) -> Any:
        return self.baselines[name] if name in self.baselines else self.snapshot_players[name]

    def win_rate(self, name: str) -> float:
        wins, games = self.results.get(name, [0.0, 0.0])
        return (wins + 1) / (games + 2)

    def weight(self, name: str) -> float:
        return (1.0 - self.win_rate(name)) ** self.pfsp_power + 1e-6

    def draw(self, rng: np.random.Generator) -> str:
        """An opponent's name, PFSP-weighted (within the baselines or the snapshots, with ``baseline_share``)."""
        names = self.names()
        if not names:
            raise ValueError("the league has no opponent: give baselines (--opponents) or snapshots")
        snapshots = [n for n in names if n not in self.baselines]
        if self.baseline_share is not None and self.baselines and snapshots:
            names = list(self.baselines) if rng.random() < self.baseline_share else snapshots
        w = np.array([self.weight(n) for n in names])
        return names[int(rng.choice(len(names), p=w / w.sum()))]

    def sample(self, rng: np.random.Generator) -> Any:
        """An opponent to seat: the latest policy with ``latest_prob`` (or when nothing else is there), else a
        drawn baseline or snapshot."""
        if self.latest is not None and (not self.names() or rng.random() < self.latest_prob):
            return self.latest
        return self.player(self.draw(rng))

    # -- results ---------------------------------------------------------------------------
    def record(self, name: str, learner_result: float) -> None:
        """The learner scored ``learner_result`` (1 win, 1/2 tie, 0 loss) against ``name`` once."""
        entry = self.results.setdefault(name, [0.0, 0.0])
        entry[0] += learner_result
        entry[1] += 1

    def record_game(self, opponents: Iterable[Any], learner_result: float) -> None:
        """One finished game against ``opponents`` (players from ``sample``): each distinct one is counted
        once; the latest policy is not."""
        for name in {self._names.get(id(player)) for player in opponents} - {None, LATEST}:
            self.record(name, learner_result)

    # -- snapshots ---------------------------------------------------------------------------
    def next_snapshot_name(self, steps: int) -> str:
        return snapshot_name(len(self.snapshots) + 1, steps)

    def add_snapshot(self, path: str | Path, steps: int, player: Any, name: str | None = None) -> str:
        """Checkpoint ``path`` joins the pool as its newest generation; ``player`` plays it.  ``name``: its
        name in the pool (default ``gen<k>@<steps>``; the league method names its members ``main-1``,
        ``exploiter-1``, ...)."""
        name = name or self.next_snapshot_name(steps)
        if any(s["name"] == name for s in self.snapshots):
            raise ValueError(f"the league holds a snapshot named {name} already")
        self.snapshots.append({"name": name, "path": str(path), "steps": int(steps)})
        self.snapshot_players[name] = player
        self._forget_old()
        return name

    def set_latest(self, player: Any) -> None:
        self.latest = player
        self._index()

    def _forget_old(self) -> None:
        """Snapshots that fell out of the pool keep their record but not their player."""
        keep = set(self.recent())
        self.snapshot_players = {n: p for n, p in self.snapshot_players.items() if n in keep}
        self._index()

    def _index(self) -> None:
        players = {**self.baselines, **self.snapshot_players, LATEST: self.latest}
        self._names = {id(p): name for name, p in players.items() if p is not None}

    # -- saving ---------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "snapshots": [dict(s) for s in self.snapshots],
            "results": {k: list(v) for k, v in self.results.items()},
            "pool": [
                {"name": n, "win_rate": round(self.win_rate(n), 4), "weight": round(self.weight(n), 6)}
                for n in self.names()
            ],
        }

    def restore(self, data: Mapping[str, Any], load: Callable[[Path, int], Any], up_to_step: int | None = None) -> None:
        """The league as ``to_dict`` saved it; ``load(path, steps)`` gives a snapshot's player.  Snapshots past
        ``up_to_step`` are dropped, and so is a recent one whose checkpoint is gone or no longer intact."""
        self.results = {k: list(v) for k, v in data.get("results", {}).items()}
        self.snapshots = [dict(s) for s in data.get("snapshots", []) if up_to_step is None or s["steps"] <= up_to_step]
        self.snapshot_players = {}
        for snap in [s for s in self.snapshots if s["name"] in self.recent()]:
            try:
                self.snapshot_players[snap["name"]] = load(Path(snap["path"]), snap["steps"])
            except (CheckpointError, FileNotFoundError) as bad:
                print(f"warning: league snapshot {snap['name']} dropped: {bad}")
                self.snapshots.remove(snap)
        self._forget_old()
