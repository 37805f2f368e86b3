"""Information-set Monte Carlo tree search, written once for every game on the engine API.

Single-observer IS-MCTS (Cowling, Powley & Whitehouse 2012) with one change
that suits simultaneous and hidden moves: a tree node is the *information set
of the seat to act*, keyed by that seat and its observation bytes
(``game.encode(state, seat)``).  So an opponent's node after our hidden
sunrise pick is the same whichever card we picked: the opponent cannot react
to what it cannot see, and our own later nodes merge the deals we cannot tell
apart.

Each simulation:

1. **Determinise**: ``state.resample_hidden(seat, rng)`` draws a full state
   consistent with everything the acting seat knows (and nothing more).
2. **Select**: from the root, at each node take the action among those legal
   in this determinisation that maximises UCB1 with availability counts
   (``W/N + c * sqrt(ln(A)/N)``, A: simulations where the action was legal),
   for the seat acting at that node.
3. **Expand** one untried action, then **roll out** uniformly at random to the
   end (chance drawn from the search's own generator).
4. **Back up** every seat's final reward (``game.final_rewards``) into the
   edges taken by that seat.

The budget is a number of simulations, a time in milliseconds, or both (the
first reached stops).  The agent needs the engine: ``bind(env)`` before play
(see ``agents.base``); it reads the env's state only to determinise it.
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np

from agents.base import legal_ids, seat_of


class _Node:
    __slots__ = ("avail", "visits", "wins")

    def __init__(self) -> None:
        self.visits: dict[int, int] = {}
        self.wins: dict[int, float] = {}
        self.avail: dict[int, int] = {}


class ISMCTSAgent:
    """IS-MCTS over the bound env's engine.

    Args:
        simulations: simulations per decision (``None``: only ``time_ms`` bounds it).
        time_ms: wall-clock budget per decision in milliseconds (``None``: none).
        exploration: UCB1 constant ``c``.
        reward_mode: the env reward mode backed up (``"win"``, ``"rank"`` or ``"score"``).
        max_rollout: a safety cap on rollout length (a game that does not end is a bug).
        seed: seeds determinisations, tie breaks and rollouts.
    """

    name = "ismcts"
    needs_env = True

    def __init__(self, simulations: int | None = 200, time_ms: float | None = None, exploration: float = 0.7,
                 reward_mode: str = "win", max_rollout: int = 100_000, seed: int | None = None) -> None:  # fmt: skip
        if simulations is None and time_ms is None:
            raise ValueError("IS-MCTS needs a budget: simulations, time_ms or both")
        if simulations is not None and simulations < 1:
            raise ValueError(f"simulations must be at least 1, not {simulations}")
        self.simulations = simulations
        self.time_ms = time_ms
        self.exploration = exploration
        self.reward_mode = reward_mode
        self.max_rollout = max_rollout
        self.rng = np.random.default_rng(seed)
        self.env: Any = None
        self.last_search: dict[str, Any] = {}

    def bind(self, env: Any) -> None:
        """Give the agent the env whose engine it simulates (call after each ``env.reset``)."""
        raw = getattr(env, "unwrapped", env)
        if not hasattr(raw, "game_state") or not hasattr(raw, "game"):
            raise TypeError(f"IS-MCTS binds to a bidbluff env (BoardGameEnv), not {type(env).__name__}")
        self.env = raw

    def reset(self) -> None:
        pass

    def act(self, observation: dict[str, np.ndarray], agent: str) -> int:
        legal = legal_ids(observation, agent)
        if self.env is None:
            raise RuntimeError("ISMCTSAgent needs the engine: call agent.bind(env) after env.reset() before play")
        if legal.size == 1:
            return int(legal[0])
        seat = seat_of(agent)
        game, state = self.env.game, self.env.game_state
        # The real state is touched only here: who acts, and determinisations for that seat.
        if state is None or state.current_player() != seat:
            raise RuntimeError(f"ISMCTSAgent is bound to an env where {agent} is not the one to act")
        first = state.resample_hidden(seat, self.rng)
        if not np.array_equal(game.encode(first, seat), observation["observation"]):
            raise RuntimeError("ISMCTSAgent: the observation does not match the bound env's state (wrong env?)")
        return self.search(game, state, seat, observation["observation"], legal, first)

    # -- the search --------------------------------------------------------------
    def search(self, game: Any, state: Any, seat: int, observation: np.ndarray, legal: np.ndarray,
               first: Any = None) -> int:  # fmt: skip
        """Run the budget of simulations from ``seat``'s information set; return the most visited action."""
        rng = self.rng
        nodes: dict[tuple[int, bytes], _Node] = {}
        root_key = (seat, np.asarray(observation, dtype=np.float32).tobytes())
        deadline = None if self.time_ms is None else time.perf_counter() + self.time_ms / 1000
        done = 0
        while True:
            if self.simulations is not None and done >= self.simulations:
                break
            if deadline is not None and done > 0 and time.perf_counter() >= deadline:
                break
            sample = first if done == 0 and first is not None else state.resample_hidden(seat, rng)
            self._simulate(game, sample, nodes, root_key)
            done += 1
        root = nodes.get(root_key)
        visits = root.visits if root else {}
        legal_set = {int(i) for i in legal}
        best = max(legal_set, key=lambda a: (visits.get(a, 0), rng.random()))
        self.last_search = {"simulations": done, "visits": {a: visits.get(a, 0) for a in sorted(legal_set)}}
        return int(best)

    def _simulate(self, game: Any, state: Any, nodes: dict, root_key: tuple[int, bytes]) -> None:
        rng = self.rng
        path: list[tuple[_Node, int, int]] = []  # (node, acting seat, action id)
        key: tuple[int, bytes] | None = root_key
        expanded = False
        while not state.is_terminal() and not expanded:
            actor = state.current_player()
            if key is None:
                key = (actor, game.encode(state, actor).tobytes())
            node = nodes.get(key)
            if node is None:
                node = nodes[key] = _Node()
            ids = {game.action_to_id(state, a, actor): a for a in state.legal_actions()}
            for i in ids:
                node.avail[i] = node.avail.get(i, 0) + 1
            untried = [i for i in ids if i not in node.visits]
            if untried:
                choice = untried[int(rng.integers(len(untried)))]
                expanded = True
            else:
                choice = self._ucb(node, ids)
            path.append((node, actor, choice))
            state.apply(ids[choice], rng)
            key = None
        for _ in range(self.max_rollout):
            if state.is_terminal():
                break
            actions = state.legal_actions()
            state.apply(actions[int(rng.integers(len(actions)))], rng)
        else:
            raise RuntimeError(f"IS-MCTS rollout did not end within {self.max_rollout} steps")
        rewards = game.final_rewards(state, self.reward_mode)
        for node, actor, choice in path:
            node.visits[choice] = node.visits.get(choice, 0) + 1
            node.wins[choice] = node.wins.get(choice, 0.0) + rewards[actor]

    def _ucb(self, node: _Node, ids: dict[int, Any]) -> int:
        c = self.exploration
        best, best_value = -1, -math.inf
        for i in ids:
            n = node.visits[i]
            value = node.wins[i] / n + c * math.sqrt(math.log(node.avail[i]) / n)
            if value > best_value:
                best, best_value = i, value
        return best
