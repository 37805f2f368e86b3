"""Which half of a Spytails agent falls short against the heuristic: its forecasts or its play.

    python bench/spytails_halves.py shipped --games 240 --seed 0

Two composite agents each sit against three heuristics (4 players, fairly seated, ``--games`` rounded up to
whole deals): one forecasts (bid, stake, revision) as the heuristic does and makes every other decision as
SPEC does; the other the reverse.  Each line gives its win share (95% CI), forecast hit rate and mean forecast.
An agent whose play is sound hits the heuristic's forecasts about as often as the heuristic does; one whose
forecasts are sound wins with the heuristic's play.
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

from bidbluff import agents
from bidbluff.arena.tournament import run_tournament
from bidbluff.envs.spytails.codec import LAYOUT
from bidbluff.envs.spytails.rules import DECISIONS

FORECAST = ("bid", "stake", "revise")  # the decisions that make a round's forecast
ENV = "spytails_v0"


class Halves:
    """Forecasts with one agent, makes every other decision with the other."""

    name = "halves"

    def __init__(self, forecaster: Any, player: Any) -> None:
        self.forecaster, self.player = forecaster, player

    def reset(self) -> None:
        for agent in (self.forecaster, self.player):
            if hasattr(agent, "reset"):
                agent.reset()

    def act(self, observation: dict[str, np.ndarray], agent: str) -> int:
        decision = DECISIONS[LAYOUT.view(observation["observation"]).index("decision")]
        return (self.forecaster if decision in FORECAST else self.player).act(observation, agent)


def measure(spec: str, games: int, seed: int) -> list[tuple[str, dict[str, Any]]]:
    mine = agents.make(spec, env_name=ENV, seed=seed + 1)
    heuristic = agents.make("heuristic", env_name=ENV, seed=seed + 2)
    lines = []
    for label, hero in (
        (f"heuristic forecasts, {spec} plays", Halves(heuristic, mine)),
        (f"{spec} forecasts, heuristic plays", Halves(mine, heuristic)),
    ):
        result = run_tournament(ENV, [hero, "heuristic", "heuristic", "heuristic"], games, num_players=4, seed=seed)
        lines.append((label, result.rows()[0]))  # the first entry: the composite
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("spec", help="the agent whose halves are measured (an agent spec)")
    parser.add_argument("--games", type=int, default=240)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    for label, row in measure(args.spec, args.games, args.seed):
        print(
            f"{label}: win share {row['win_share']:.3f} ({row['ci_low']:.3f}-{row['ci_high']:.3f}), forecasts hit "
            f"{row['forecast_hit_rate']:.2f}, mean forecast {row['mean_forecast']:.2f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
