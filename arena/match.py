"""Play games between agents on one env and tally the results.

A forfeit (an agent's ``act`` raising ``ForfeitError``: a program that crashed, hung, answered garbage or an
illegal move) ends the game there.  It counts as a loss for the agent that forfeited and a shared win for every
other seat: ``winners`` are the others, the forfeiting seat ranks last (``standings``), its reward is -1 and the
others share +1 (the envs' zero-sum default); ``scores`` are the position's when it stopped.  The record says
who forfeited and why (``forfeit``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bidbluff import envs
from bidbluff.agents.base import Agent, ForfeitError, bind_all, seat_of
from bidbluff.arena import seating


def winners(scores: list[float]) -> list[int]:
    """The seats with the best score (ties: all of them)."""
    best = max(scores)
    return [s for s, score in enumerate(scores) if score == best]


@dataclass
class GameRecord:
    """One finished game: final scores, summed rewards per seat, agent decisions taken."""

    scores: list[float]
    rewards: list[float]
    steps: int
    truncated: bool = False  # stopped at ``max_steps``: scores are the position's scores then
    actions: list[list[int]] = field(default_factory=list)  # [seat, action id] per decision, in order
    forfeit: dict[str, Any] | None = None  # {"seat", "agent", "reason"} when an agent forfeited the game

    def winners(self) -> list[int]:
        if self.forfeit is not None:
            return [s for s in range(len(self.scores)) if s != self.forfeit["seat"]]
        return winners(self.scores)

    def standings(self) -> list[float]:
        """What ranks the seats (ratings): the scores, or after a forfeit the forfeiting seat below the rest."""
        if self.forfeit is not None:
            return [0.0 if s == self.forfeit["seat"] else 1.0 for s in range(len(self.scores))]
        return list(self.scores)


@dataclass
class MatchResult:
    env_name: str
    num_players: int
    games: int = 0
    wins: list[float] = field(default_factory=list)  # tied winners share the win
    total_score: list[float] = field(default_factory=list)
    total_reward: list[float] = field(default_factory=list)
    agent_steps: int = 0
    forfeits: list[str] = field(default_factory=list)  # one line per forfeited game

    def mean_score(self, seat: int) -> float:
        return self.total_score[seat] / max(1, self.games)


MAX_STEPS = 5_000  # agent decisions; a game longer than this is looping (e.g. a policy undoing its own move)


def play_game(
    env_name: str,
    agents: list[Agent],
    seed: int,
    num_players: int,
    env_options: dict[str, Any] | None = None,
    max_steps: int = MAX_STEPS,
) -> GameRecord:
    """One seeded game, ``agents[s]`` in seat ``s``; agents are reset (and bound, if they need the env).

    A game still running after ``max_steps`` decisions is stopped (``truncated``) and scored as it stands.
    """
    env = envs.make(env_name, num_players=num_players, **(env_options or {}))
    env.reset(seed=seed)
    bind_all(agents, env)
    rewards = [0.0] * num_players
    steps = 0
    actions: list[list[int]] = []
    scores: list[float] = []
    for name in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        seat = seat_of(name)
        rewards[seat] += reward
        if termination or truncation:
            scores = info.get("scores", scores)
            env.step(None)
            continue
        if steps >= max_steps:
            return GameRecord(list(env.unwrapped.game_state.scores()), rewards, steps, truncated=True, actions=actions)
        try:
            action = agents[seat].act(observation, name)
        except ForfeitError as lost:
            return _forfeited(env, rewards, steps, actions, seat, lost)
        actions.append([seat, int(action)])
        env.step(action)
        steps += 1
    return GameRecord(list(scores), rewards, steps, actions=actions)


def _forfeited(
    env: Any, rewards: list[float], steps: int, actions: list[list[int]], seat: int, lost: ForfeitError
) -> GameRecord:
    """The record of a game that ``seat`` forfeited (see the module doc)."""
    n = len(rewards)
    share = 1.0 / (n - 1) if n > 1 else 0.0
    rewards = [-1.0 if s == seat else share for s in range(n)]
    forfeit = {"seat": seat, "agent": lost.agent, "reason": lost.reason}
    scores = list(env.unwrapped.game_state.scores())
    return GameRecord(scores, rewards, steps, truncated=True, actions=actions, forfeit=forfeit)


def play_match(
    env_name: str,
    agents: list[Agent],
    games: int,
    seed: int = 0,
    num_players: int | None = None,
    env_options: dict[str, Any] | None = None,
) -> MatchResult:
    """``games`` seeded games; the table (``agents`` repeated to fill ``num_players`` seats) is seated by the
    balanced design of ``bidbluff.arena.seating``, so each agent sits everywhere and after every neighbour."""
    n = num_players or len(agents)
    k = len(agents)
    result = MatchResult(env_name, n, wins=[0.0] * k, total_score=[0.0] * k, total_reward=[0.0] * k)
    plan = seating.design(n, seed)
    for g in range(games):
        slots = plan.deal(g // plan.games_per_deal)[g % plan.games_per_deal]
        seated = [agents[slot % k] for slot in slots]
        record = play_game(env_name, seated, seed + g, n, env_options)
        winners = record.winners()
        for s in range(n):
            who = slots[s] % k
            result.total_score[who] += record.scores[s]
            result.total_reward[who] += record.rewards[s]
            if s in winners:
                result.wins[who] += 1 / len(winners)
        result.games += 1
        result.agent_steps += record.steps
        if record.forfeit is not None:
            f = record.forfeit
            result.forfeits.append(f"game {g + 1} (seed {seed + g}), seat {f['seat']}: {f['agent']}: {f['reason']}")
    return result
