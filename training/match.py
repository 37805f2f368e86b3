"""Play games between agents on one env and tally the results."""

from __future__ import annotations

from dataclasses import dataclass, field

import envs
from agents.base import Agent


@dataclass
class MatchResult:
    env_name: str
    num_players: int
    games: int = 0
    wins: list[float] = field(default_factory=list)  # tied winners share the win
    total_score: list[float] = field(default_factory=list)
    total_reward: list[float] = field(default_factory=list)
    agent_steps: int = 0

    def mean_score(self, seat: int) -> float:
        return self.total_score[seat] / max(1, self.games)


def play_game(env_name: str, agents: list[Agent], seed: int, num_players: int) -> tuple[list[float], list[float], int]:
    """One game; returns final scores, rewards per seat and the number of agent decisions."""
    env = envs.make(env_name, num_players=num_players)
    env.reset(seed=seed)
    for agent in agents:
        if hasattr(agent, "reset"):
            agent.reset()
    rewards = [0.0] * num_players
    steps = 0
    scores: list[float] = []
    for name in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        seat = int(name.rsplit("_", 1)[1])
        rewards[seat] += reward
        if termination or truncation:
            scores = info["scores"]
            env.step(None)
            continue
        env.step(agents[seat].act(observation, name))
        steps += 1
    return scores, rewards, steps


def play_match(
    env_name: str, agents: list[Agent], games: int, seed: int = 0, num_players: int | None = None
) -> MatchResult:
    """``games`` seeded games; seats are rotated so each agent sits everywhere."""
    n = num_players or len(agents)
    result = MatchResult(env_name, n, wins=[0.0] * len(agents), total_score=[0.0] * len(agents),
                         total_reward=[0.0] * len(agents))  # fmt: skip
    for g in range(games):
        shift = g % n
        seated = [agents[(s + shift) % len(agents)] for s in range(n)]
        scores, rewards, steps = play_game(env_name, seated, seed + g, n)
        best = max(scores)
        winners = [s for s in range(n) if scores[s] == best]
        for s in range(n):
            who = (s + shift) % len(agents)
            result.total_score[who] += scores[s]
            result.total_reward[who] += rewards[s]
            if s in winners:
                result.wins[who] += 1 / len(winners)
        result.games += 1
        result.agent_steps += steps
    return result
