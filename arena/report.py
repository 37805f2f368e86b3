"""Results as people read them: the terminal tables of a match and of a tournament, and a tournament's rows as
CSV (one row per entry, a column per seat)."""

from __future__ import annotations

import csv
import sys
from pathlib import Path
from typing import Any

from rich.table import Table

from bidbluff.arena.match import MatchResult
from bidbluff.arena.tournament import TournamentResult


def match_table(env_name: str, result: MatchResult, seats: list[Any], seed: int) -> Table:
    """One row per seat: wins, win share, mean score and reward."""
    n = len(seats)
    table = Table(title=f"{env_name}: {result.games} games, {n} players, seed {seed}")
    for column in ("agent", "wins", "win share", "mean score", "mean reward"):
        table.add_column(column, justify="right" if column != "agent" else "left")
    for i, agent in enumerate(seats):
        table.add_row(
            f"{i}: {getattr(agent, 'name', type(agent).__name__)}",
            f"{result.wins[i]:g}",
            f"{result.wins[i] / result.games:.3f}",
            f"{result.mean_score(i):.1f}",
            f"{result.total_reward[i] / result.games:+.3f}",
        )
    return table


def tournament_table(result: TournamentResult, rows: list[dict[str, Any]]) -> Table:
    """One row per entry, best first: win share with its CI, scores, win share by seat, rating."""
    n = result.num_players
    table = Table(title=f"{result.env_name}: {n} players, seed {result.seed}")
    columns = ["entry", "games", "win share", "95% CI", "mean score", "mean reward"]
    columns += [f"seat {s}" for s in range(n)] + ["rating mu", "sigma", "ordinal"]
    columns += ["forfeits"] if result.forfeits else []  # only where a program forfeited a game
    forecasts = any(row.get("forecasts") for row in rows)  # a game of forecasts (Spytails)
    columns += ["hit rate", "mean forecast"] if forecasts else []
    for column in columns:
        table.add_column(column, justify="left" if column == "entry" else "right")
    for row in sorted(rows, key=lambda r: -r["win_share"]):
        seats = [f"{w:.3f}" if w is not None else "-" for w in row["seat_win_share"]]
        table.add_row(
            row["entry"],
            str(row["games"]),
            f"{row['win_share']:.3f}",
            f"{row['ci_low']:.3f}-{row['ci_high']:.3f}",
            f"{row['mean_score']:.2f}",
            f"{row['mean_reward']:+.3f}",
            *seats,
            f"{row['rating_mu']:.2f}",
            f"{row['rating_sigma']:.2f}",
            f"{row['rating_ordinal']:.2f}",
            *([str(row["forfeits"])] if result.forfeits else []),
            *(_forecast_cells(row) if forecasts else []),
        )
    return table


def _forecast_cells(row: dict[str, Any]) -> list[str]:
    if not row.get("forecasts"):
        return ["-", "-"]
    return [f"{row['forecast_hit_rate']:.3f}", f"{row['mean_forecast']:.2f}"]


def tournament_footer(result: TournamentResult) -> str:
    """What the table rests on: games, deals and seatings, decisions, time, and how shares and ratings count."""
    truncated = ""
    if result.truncated:
        truncated = f"; {result.truncated} games stopped at the step cap (looping play) and scored as they stood"
    forfeits = "".join(
        f"\nforfeit: game {f['game'] + 1} (seed {f['seed']}), seat {f['seat']}: {f['entry']}: {f['reason']}"
        for f in result.forfeits
    )
    if result.forfeits:
        forfeits += "\n(a forfeited game is a loss for the entry that forfeited, a shared win for the others)"
    return (
        f"{result.games} games ({result.deals} deals x {result.seating['games_per_deal']} seatings: "
        f"{result.seating['design']}), {result.agent_steps:,} decisions in {result.seconds:.1f}s{truncated}; "
        f"win share: tied winners share a win; 95% Wilson interval; "
        f"rating: OpenSkill Plackett-Luce (mu, sigma, ordinal = mu - 3 sigma)"
        + ("; hit rate: rounds that won exactly the forecast operations" if _has_forecasts(result) else "")
    ) + forfeits


def _has_forecasts(result: TournamentResult) -> bool:
    return any(entry.forecasts for entry in result.entries)


def write_text(target: str, text: str) -> None:
    """``text`` to the file ``target``, or to stdout for ``-``."""
    if target == "-":
        sys.stdout.write(text)
    else:
        Path(target).write_text(text)


def write_csv(target: str, rows: list[dict[str, Any]]) -> None:
    """A tournament's rows to the file ``target`` (``-``: stdout), each seat's win share a column."""
    flat = []
    for row in rows:
        row = dict(row)
        for s, share in enumerate(row.pop("seat_win_share")):
            row[f"seat_{s}_win_share"] = share
        flat.append(row)
    handle = sys.stdout if target == "-" else open(target, "w", newline="")  # noqa: SIM115
    try:
        writer = csv.DictWriter(handle, fieldnames=list(flat[0]))
        writer.writeheader()
        writer.writerows(flat)
    finally:
        if handle is not sys.stdout:
            handle.close()
