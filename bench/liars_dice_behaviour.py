"""How a Liar's-dice agent ends its games against heuristics: won / lost / survived, and what it calls.

    python bench/liars_dice_behaviour.py 4 heuristic checkpoints/liars_dice/selfplay.zip

Each spec plays 480 games at the given table size with the rest of the table
heuristics, fairly seated (``bidbluff.arena.seating``), seed 21.  A survivor is a seat
neither the winner nor a loser of the call: ``liars_dice_v0``'s own ``win``
payoffs give it 0, which is what taught the old network to stay out of calls.
"""

from __future__ import annotations

import sys
from collections import Counter

from bidbluff import agents, envs
from bidbluff.arena import seating
from bidbluff.envs.liars_dice.codec import EXACT_AT, LIAR_ID


def behaviour(spec: str, players: int = 4, games: int = 480, seed: int = 21) -> tuple[Counter, Counter]:
    plan = seating.design(players)
    ends, calls = Counter(), Counter()
    table = [agents.make(spec, env_name="liars_dice_v0", seed=1)]
    table += [agents.make("heuristic", env_name="liars_dice_v0", seed=2 + i) for i in range(players - 1)]
    env = envs.make("liars_dice_v0", num_players=players)
    for game in range(games):
        slots = plan.deal(game // plan.games_per_deal)[game % plan.games_per_deal]
        seated = [table[slot] for slot in slots]
        hero = slots.index(0)
        env.reset(seed=seed + game // plan.games_per_deal)
        agents.bind_all(seated, env)
        for name in env.agent_iter():
            obs, _, done, cut, _ = env.last()
            action = None if done or cut else seated[agents.seat_of(name)].act(obs, name)
            if action is not None and agents.seat_of(name) == hero:
                calls["liar" if action == LIAR_ID else "exact" if action >= EXACT_AT else "bid"] += 1
            env.step(action)
        outcome = env.unwrapped.game_state.round.outcome
        ends["won" if hero in outcome.winners else "lost" if hero in outcome.losers else "survived"] += 1
    return ends, calls


def main(argv: list[str]) -> None:
    players = int(argv[0])
    for spec in argv[1:]:
        ends, calls = behaviour(spec, players)
        decisions = sum(calls.values())
        print(
            spec,
            players,
            {k: round(v / sum(ends.values()), 3) for k, v in sorted(ends.items())},
            {k: round(v / decisions, 3) for k, v in sorted(calls.items())},
            flush=True,
        )


if __name__ == "__main__":
    main(sys.argv[1:])
