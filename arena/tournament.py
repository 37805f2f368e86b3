"""Tournaments: n-player games between agent specs, fairly seated over duplicate deals.

Every *deal* is one env seed.  Each deal is replayed once per seating of a
balanced design (``bidbluff.arena.seating``: every permutation of the seats up to four
players), so every entry meets the same dice, cards and bag draws from every
seat and after every neighbour: luck of the deal and of the seating order
cancel out.  With more entries than seats, each deal seats a seeded random
subset; with fewer, the lineup is repeated to fill the table (``heuristic,random``
at four seats is heuristic, random, heuristic#2, random#2).

Results per entry: win share (tied winners share a win) with its 95% Wilson
interval, mean score and reward, win share per seat, and an OpenSkill
(Plackett-Luce) rating updated game by game from the final ranks.  In a game
of forecasts (Spytails) also each entry's forecast hit rate and mean forecast,
over every round it played (``FORECASTS``: the game is replayed from its
seed and actions to read them).

A forfeit (a program agent that crashed, hung, answered garbage or an illegal
move) ends that game; the tournament goes on.  The game counts as a loss for
the entry that forfeited and a shared win for the others (``bidbluff.arena.match``),
the entry's ``forfeits`` count it, and ``TournamentResult.forfeits`` lists each
one with its reason.  The agents a tournament builds from specs are closed at
its end (a program's process is ended), however it ends.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from bidbluff import agents as agent_lib
from bidbluff import envs
from bidbluff.arena import seating
from bidbluff.arena.match import MAX_STEPS, GameRecord, play_game

Z95 = 1.959963984540054


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (``successes`` may be fractional: shared wins)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def ranks_from_scores(scores: list[float]) -> list[int]:
    """Competition ranks, 1 = best, equal scores share a rank (``[5, 9, 5] -> [2, 1, 2]``)."""
    return [1 + sum(other > s for other in scores) for s in scores]


class Ratings:
    """OpenSkill Plackett-Luce ratings of named entries, one update per game."""

    def __init__(self, names: list[str]) -> None:
        from openskill.models import PlackettLuce

        self.model = PlackettLuce()
        self.ratings = {name: self.model.rating(name=name) for name in names}

    def update(self, seated: list[str], scores: list[float]) -> None:
        """One game: ``seated[s]`` scored ``scores[s]``."""
        teams = [[self.ratings[name]] for name in seated]
        new = self.model.rate(teams, ranks=ranks_from_scores(scores))
        for name, team in zip(seated, new, strict=True):
            self.ratings[name] = team[0]

    def table(self) -> dict[str, dict[str, float]]:
        return {n: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()} for n, r in self.ratings.items()}


@dataclass
class EntryStats:
    label: str
    spec: str
    games: int = 0
    wins: float = 0.0
    total_score: float = 0.0
    total_reward: float = 0.0
    seat_games: list[int] = field(default_factory=list)
    seat_wins: list[float] = field(default_factory=list)
    forfeits: int = 0  # games this entry forfeited (each a loss)
    forecasts: int = 0  # rounds played to their end with a forecast (games of forecasts only)
    forecast_hits: int = 0  # of those, the rounds where it won exactly the operations it forecast
    forecast_sum: int = 0  # the forecasts added up

    def row(self) -> dict[str, Any]:
        lo, hi = wilson_interval(self.wins, self.games)
        g = max(1, self.games)
        return {
            "entry": self.label,
            "spec": self.spec,
            "games": self.games,
            "wins": round(self.wins, 4),
            "win_share": self.wins / g,
            "ci_low": lo,
            "ci_high": hi,
            "mean_score": self.total_score / g,
            "mean_reward": self.total_reward / g,
            "seat_win_share": [w / n if n else None for w, n in zip(self.seat_wins, self.seat_games, strict=True)],
            "forfeits": self.forfeits,
            "forecasts": self.forecasts,
            "forecast_hit_rate": self.forecast_hits / self.forecasts if self.forecasts else None,
            "mean_forecast": self.forecast_sum / self.forecasts if self.forecasts else None,
        }


@dataclass
class TournamentResult:
    env_name: str
    num_players: int
    seed: int
    deals: int
    entries: list[EntryStats]
    ratings: dict[str, dict[str, float]]
    games: int = 0
    agent_steps: int = 0
    seconds: float = 0.0
    truncated: int = 0  # games stopped at the step cap (looping play), scored as they stood
    seating: dict[str, Any] = field(default_factory=dict)  # the design (``SeatingDesign.describe``)
    forfeits: list[dict[str, Any]] = field(default_factory=list)  # {"game", "seed", "entry", "seat", "reason"}

    def rows(self) -> list[dict[str, Any]]:
        out = []
        for entry in self.entries:
            row = entry.row()
            row.update({f"rating_{k}": v for k, v in self.ratings[entry.label].items()})
            out.append(row)
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "env": self.env_name,
            "num_players": self.num_players,
            "seed": self.seed,
            "deals": self.deals,
            "games": self.games,
            "truncated": self.truncated,
            "agent_steps": self.agent_steps,
            "seconds": self.seconds,
            "seating": self.seating,
            "forfeits": self.forfeits,
            "entries": self.rows(),
        }


def lineup(specs: list[Any], num_players: int) -> list[tuple[str, Any]]:
    """``(label, spec)`` per entry: specs repeated to fill the table, repeats labelled ``#2``, ``#3``...

    A spec is an agent spec string or an agent object (labelled by its ``name``).
    """
    if not specs:
        raise ValueError("a tournament needs at least one agent")
    specs = [specs[i % len(specs)] for i in range(max(len(specs), num_players))]
    seen: dict[str, int] = {}
    out = []
    for spec in specs:
        name = spec if isinstance(spec, str) else str(getattr(spec, "name", type(spec).__name__))
        seen[name] = seen.get(name, 0) + 1
        out.append((name if seen[name] == 1 else f"{name}#{seen[name]}", spec))
    return out


def run_tournament(
    env_name: str,
    specs: list[Any],
    games: int,
    num_players: int | None = None,
    seed: int = 0,
    env_options: dict[str, Any] | None = None,
    agent_options: dict[str, dict[str, Any]] | None = None,
    on_game: Callable[[int], None] | None = None,
    max_steps: int = MAX_STEPS,
    save_games: str | None = None,
    design: seating.SeatingDesign | None = None,
) -> TournamentResult:
    """Play about ``games`` games, rounded up to whole deals (``games_per_deal``: 24 at four seats).

    ``specs``: agent spec strings (``bidbluff.agents.make``) or agent objects; ``agent_options``: extra
    constructor options per spec string (``{"ismcts": {"simulations": 50}}``); ``save_games``: a
    directory that gets each game's record (``bidbluff.arena.records``) as ``game_NNNNN.json``; ``design``: the
    seating design (default ``seating.design(num_players, seed)``, the balanced one).
    """
    import time

    game = envs.game(env_name, **(env_options or {}))
    n = num_players or game.default_players
    if not game.min_players <= n <= game.max_players:
        raise ValueError(f"{env_name} is for {game.min_players}-{game.max_players} players, not {n}")
    if games < 1:
        raise ValueError("games must be at least 1")
    entries = lineup(specs, n)
    options = agent_options or {}
    players = [
        agent_lib.make(spec, env_name=env_name, seed=seed * 1000 + i, **options.get(spec, {}))
        if isinstance(spec, str)
        else spec
        for i, (_, spec) in enumerate(entries)
    ]
    stats = [
        EntryStats(label, spec if isinstance(spec, str) else label, seat_games=[0] * n, seat_wins=[0.0] * n)
        for label, spec in entries
    ]
    ratings = Ratings([label for label, _ in entries])
    plan = design or seating.design(n, seed)
    deals = math.ceil(games / plan.games_per_deal)
    pick = np.random.default_rng(seed)
    result = TournamentResult(env_name, n, seed, deals, stats, {}, seating=plan.describe())
    start = time.perf_counter()
    built = [player for player, (_, spec) in zip(players, entries, strict=True) if isinstance(spec, str)]
    try:
        for deal in range(deals):
            table = list(range(len(entries)))
            if len(entries) > n:
                table = sorted(int(i) for i in pick.choice(len(entries), n, replace=False))
            for slots in plan.deal(deal):
                seated = [table[slot] for slot in slots]
                record = play_game(env_name, [players[i] for i in seated], seed + deal, n, env_options, max_steps)
                _tally(record, seated, stats)
                if env_name in FORECASTS:
                    _tally_forecasts(FORECASTS[env_name](n, seed + deal, env_options, record.actions), seated, stats)
                if record.forfeit is not None:
                    result.forfeits.append(
                        {
                            "game": result.games,
                            "seed": seed + deal,
                            "entry": entries[seated[record.forfeit["seat"]]][0],
                            "seat": record.forfeit["seat"],
                            "reason": record.forfeit["reason"],
                        }
                    )
                if save_games is not None:
                    from pathlib import Path

                    from bidbluff.arena import records

                    saved = records.record_game(
                        env_name,
                        n,
                        seed + deal,
                        record.actions,
                        record.scores,
                        env_options,
                        [entries[i][0] for i in seated],
                        record.truncated,
                    )
                    records.save(saved, Path(save_games) / f"game_{result.games:05d}.json")
                ratings.update([entries[i][0] for i in seated], record.standings())
                result.games += 1
                result.truncated += record.truncated and record.forfeit is None
                result.agent_steps += record.steps
                if on_game is not None:
                    on_game(result.games)
    finally:
        for player in built:  # a program's process ends with the tournament, however it ends
            close = getattr(player, "close", None)
            if close is not None:
                close()
    result.seconds = time.perf_counter() - start
    result.ratings = ratings.table()
    return result


def spytails_forecasts(
    num_players: int, seed: int, env_options: dict[str, Any] | None, actions: list[list[int]]
) -> list[list[tuple[int, int]]]:
    """``(forecast, operations won)`` of every round played to its end, per seat: the game replayed from its
    seed and actions (the env's infos carry only the final scores)."""
    from bidbluff.envs.spytails.content import OPERATIONS
    from bidbluff.envs.spytails.rules import FORECAST, OPERATIONS_PHASE

    env = envs.make("spytails_v0", raw=True, num_players=num_players, **(env_options or {}))
    env.reset(seed=seed)
    rounds: list[list[tuple[int, int]]] = [[] for _ in range(num_players)]
    counted = -1
    for _, action in actions:
        env.step(action)
        state = env.game_state
        # a round's forecasts and wins stand from its seventh operation until the next round's deal
        over = state.phase not in (FORECAST, OPERATIONS_PHASE) and len(state.round_ops) == OPERATIONS
        if over and state.round != counted:
            counted = state.round
            for seat in range(num_players):
                rounds[seat].append((state.bids[seat], state.won[seat]))
    return rounds


# games whose entries are also judged by their forecasts: env name -> the rounds' (forecast, won) per seat
FORECASTS: dict[str, Callable[[int, int, dict[str, Any] | None, list[list[int]]], list[list[tuple[int, int]]]]] = {
    "spytails_v0": spytails_forecasts,
}


def _tally_forecasts(rounds: list[list[tuple[int, int]]], seated: list[int], stats: list[EntryStats]) -> None:
    for seat, who in enumerate(seated):
        entry = stats[who]
        for bid, won in rounds[seat]:
            entry.forecasts += 1
            entry.forecast_hits += bid == won
            entry.forecast_sum += bid


def _tally(record: GameRecord, seated: list[int], stats: list[EntryStats]) -> None:
    winners = record.winners()
    for seat, who in enumerate(seated):
        entry = stats[who]
        won = 1 / len(winners) if seat in winners else 0.0
        entry.games += 1
        entry.wins += won
        entry.total_score += record.scores[seat]
        entry.total_reward += record.rewards[seat]
        entry.seat_games[seat] += 1
        entry.seat_wins[seat] += won
        if record.forfeit is not None and record.forfeit["seat"] == seat:
            entry.forfeits += 1
