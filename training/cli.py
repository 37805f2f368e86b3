"""``bidbluff``: the project's command line."""

from __future__ import annotations

import argparse
import time

from rich.console import Console
from rich.table import Table

import agents
import envs
from training.match import play_match


def cmd_match(args: argparse.Namespace) -> int:
    console = Console()
    names = [args.env] if args.env else list(envs.ENVS)
    for name in names:
        module = envs.load(name)
        game = module.raw_env.game
        n = args.players or game.default_players
        seats = [agents.make(kind, seed=args.seed + i) for i, kind in enumerate(_lineup(args.agents, n))]
        start = time.perf_counter()
        result = play_match(name, seats, args.games, seed=args.seed, num_players=n)
        elapsed = time.perf_counter() - start
        table = Table(title=f"{name}: {args.games} games, {n} players, seed {args.seed}")
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
        console.print(table)
        console.print(
            f"{result.agent_steps} agent decisions in {elapsed:.2f}s "
            f"({result.agent_steps / elapsed:,.0f} steps/s, {result.games / elapsed:,.1f} games/s)\n"
        )
    return 0


def _lineup(spec: str, n: int) -> list[str]:
    kinds = spec.split(",")
    return [kinds[i % len(kinds)] for i in range(n)]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bidbluff", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    match = sub.add_parser("match", help="play a seeded match on each finished game and print the results")
    match.add_argument("--env", choices=envs.ENVS, help="only this env (default: every finished game)")
    match.add_argument("--games", type=int, default=20, help="games per env (seats rotate)")
    match.add_argument("--players", type=int, help="seats (default: the game's default)")
    match.add_argument("--agents", default="random", help=f"comma-separated agent kinds: {', '.join(agents.KINDS)}")
    match.add_argument("--seed", type=int, default=0)
    match.set_defaults(run=cmd_match)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    raise SystemExit(main())
