"""The turn loop every single-learner table shares: the seats that hold an agent play until a seat without
one (a learner, a network the caller drives) must decide, or the game ends.

The Gymnasium env (``bidbluff.arena.gym_env``), the batched trainer and the RLlib env differ in who decides
for the open seats; what happens between those decisions is here, once (``bidbluff.training.tables``
re-exports it for the trainers).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bidbluff.agents.base import observation_for, seat_of


def play_baselines(env: Any, players: Sequence[Any], steps: int, max_steps: int) -> int:
    """The seats ``players`` holds an agent for (``None``: a network's seat) play until a network seat must
    decide, the game ends, or its ``steps`` (decisions so far) reach ``max_steps``; returns the steps now."""
    while steps < max_steps:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            break
        player = players[seat_of(agent)]
        if player is None:
            break
        if getattr(player, "needs_env", False):
            player.bind(env)  # a baseline shared by several tables may have been bound to another
        env.step(player.act(observation_for(player, env, agent), agent))
        steps += 1
    return steps


def game_over(env: Any) -> bool:
    agent = env.agent_selection
    return bool(env.terminations[agent] or env.truncations[agent])
