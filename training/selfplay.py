"""Self-play league: MaskablePPO against its own past snapshots and fixed baselines.

The training loop is ``bidbluff.training.train``'s; what changes is where the opponents
come from.  Each episode, every opponent seat draws from the league
(``bidbluff.training.league``):

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
``league.json`` holds the snapshots, the win counts and the generations, so
``--resume`` continues the league where it stopped.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bidbluff import agents as agent_lib
from bidbluff import envs
from bidbluff.agents.policy import PolicyAgent
from bidbluff.training.league import LATEST, League
from bidbluff.training.train import LiveActor, TrainConfig


@dataclass
class SelfPlayConfig(TrainConfig):
    """``TrainConfig`` plus the league's options; ``opponents`` are the fixed baselines."""

    latest_prob: float = field(default=0.5, metadata={"help": "chance an opponent seat gets the latest policy"})
    pool_max: int = field(default=20, metadata={"help": "newest snapshots kept in the opponent pool"})
    pfsp_power: float = field(default=2.0, metadata={"help": "PFSP weight exponent: (1 - learner win rate)^p"})
    baseline_eval_games: int = field(default=40, metadata={"help": "games of each new generation vs the previous"})


class SelfPlay:
    """What ``bidbluff.training.train.train`` does differently in self-play: opponents from the ``league``, the live
    model in it as "latest", each checkpoint made a generation (evaluated against the previous one), and
    ``league.json`` saved with the run."""

    def __init__(self, config: SelfPlayConfig) -> None:
        self.config = config
        self.league = League.of_specs(
            config.opponents,
            config.env,
            config.seed,
            pool_max=config.pool_max,
            pfsp_power=config.pfsp_power,
            latest_prob=config.latest_prob,
        )
        self.generations: list[dict[str, Any]] = []
        self.out: Path | None = None

    def attach(self, model: Any, out: Path) -> None:
        """The live model plays as "latest" (sampling its actions)."""
        self.league.set_latest(
            PolicyAgent(
                LiveActor(model.policy),
                {"env": self.config.env},
                deterministic=False,
                seed=self.config.seed,
                name=LATEST,
            )
        )
        self.out = out

    def add_snapshot(self, path: Path, steps: int) -> None:
        """A checkpoint becomes a generation: evaluated against the previous one, then added to the pool."""
        generation: dict[str, Any] = {"name": self.league.next_snapshot_name(steps), "steps": steps}
        if self.league.snapshots and self.config.baseline_eval_games > 0:
            generation["vs_previous"] = self._evaluate(path, self.league.snapshots[-1])
        self.league.add_snapshot(path, steps, self._player(path, steps))
        self.generations.append(generation)
        self.save()

    def _player(self, path: Path, steps: int) -> Any:
        return agent_lib.load(path, env_name=self.config.env, deterministic=False, seed=self.config.seed + steps)

    def _evaluate(self, path: Path, previous: dict[str, Any]) -> dict[str, Any]:
        from bidbluff.arena.tournament import run_tournament

        n = self.config.players or default_players(self.config.env)
        new = agent_lib.load(path, env_name=self.config.env, deterministic=True)
        new.name = "new"
        old = agent_lib.load(previous["path"], env_name=self.config.env, deterministic=True)
        old.name = previous["name"]
        lineup = [new] + [old] * (n - 1)
        result = run_tournament(
            self.config.env,
            lineup,
            self.config.baseline_eval_games,
            n,
            seed=self.config.seed + 20_000,
            env_options=self.config.env_options,
        )
        row = result.rows()[0]
        return {
            "opponent": previous["name"],
            "games": row["games"],
            "win_share": row["win_share"],
            "ci_low": row["ci_low"],
            "ci_high": row["ci_high"],
            "baseline": 1 / n,
        }

    def to_dict(self) -> dict[str, Any]:
        return {**self.league.to_dict(), "generations": self.generations}

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
        self.league.restore(data, self._player, up_to_step)
        self.generations = [g for g in data.get("generations", []) if up_to_step is None or g["steps"] <= up_to_step]


def default_players(env_name: str) -> int:
    return envs.game(env_name).default_players


def selfplay(config: SelfPlayConfig, resume: bool = False, progress_bar: bool = True) -> Path:
    """Run (or resume) a self-play league; returns the final checkpoint's zip path."""
    from bidbluff.training.train import train

    return train(config, resume=resume, progress_bar=progress_bar, selfplay=SelfPlay(config))
