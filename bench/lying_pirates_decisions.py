"""What a Lying Pirates agent decides against heuristics: its decisions of each kind a game, beside theirs.

    python bench/lying_pirates_decisions.py 2 checkpoints/lying_pirates/selfplay.zip

Each spec plays ``--games`` games (default 48) at the given table size with the rest of the table
heuristics, fairly seated (``bidbluff.arena.seating``), seed 21.  A kind is the action's first word
(``bid``, ``liar``, ``advance``, ...; ``action_codec.action_to_str``).  It shows where a network's play
departs from the heuristic's: the shipped network calls "Liar!" about once in three games at 2 players,
where the heuristic calls it eight times a game (docs/league.md).
"""

from __future__ import annotations

import argparse
from collections import Counter

from bidbluff import agents
from bidbluff.arena import seating
from bidbluff.arena.match import play_game
from bidbluff.envs.lying_pirates.action_codec import action_to_str, id_to_action


def decisions(spec: str, players: int, games: int = 48, seed: int = 21) -> tuple[Counter, Counter, int]:
    """The hero's and the heuristics' (all seats together) decisions by kind, and the games played."""
    plan = seating.design(players)
    table = [agents.make(spec, env_name="lying_pirates_v0", seed=1)]
    table += [agents.make("heuristic", env_name="lying_pirates_v0", seed=2 + i) for i in range(players - 1)]
    captains = players + (players == 2)  # the Phantom is the last captain of a two-player game
    hero_kinds, others = Counter(), Counter()
    for game in range(games):
        slots = plan.deal(game // plan.games_per_deal)[game % plan.games_per_deal]
        record = play_game(
            "lying_pirates_v0", [table[slot] for slot in slots], seed + game // plan.games_per_deal, players
        )
        for seat, action in record.actions:
            kind = action_to_str(id_to_action(action, seat, captains)).split()[0]
            (hero_kinds if slots[seat] == 0 else others)[kind] += 1
    return hero_kinds, others, games


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("players", type=int, help="table size (2-6)")
    parser.add_argument("specs", nargs="+", help="agent specs, each measured on its own")
    parser.add_argument("--games", type=int, default=48, help="games per spec (default 48)")
    args = parser.parse_args(argv)
    for spec in args.specs:
        hero, others, games = decisions(spec, args.players, args.games)
        heuristics = games * (args.players - 1)
        print(f"{spec} at {args.players} players, {games} games: decisions a game (the agent / each heuristic)")
        for kind in sorted(set(hero) | set(others), key=lambda k: -(hero[k] + others[k])):
            print(f"  {kind:<10} {hero[kind] / games:7.2f} {others[kind] / heuristics:7.2f}", flush=True)


if __name__ == "__main__":
    main()
