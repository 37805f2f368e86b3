"""The Agent protocol, the engine bind, and the uniform random agent.

Every agent answers ``act(observation, agent) -> int``: ``observation`` is what
``env.last()`` / ``env.observe(agent)`` returns (``{"observation",
"action_mask"}``) and ``agent`` the PettingZoo name (``"player_2"``).  The id it
returns has a 1 in the mask.  ``reset()`` (optional) is called at the start of
each game.  So any agent plays from a plain PettingZoo loop::

    env = envs.make("libertalia_v0", num_players=4)
    env.reset(seed=0)
    agent = agents.make("heuristic", env_name="libertalia_v0", seed=0)
    for name in env.agent_iter():
        obs, reward, done, truncated, info = env.last()
        env.step(None if done or truncated else agent.act(obs, name))

Engine bind.  Search agents (IS-MCTS) need the engine to simulate.  They say so
with ``needs_env = True`` and get the env through ``bind(env)``, called by the
code that runs the game (``bidbluff.arena.match``, the tournament, the training view)
after ``env.reset`` and before the first ``act`` of each game; a plain loop
calls it by hand (``agent.bind(env)``).  ``bind`` keeps a reference to
``env.unwrapped``; ``act`` then reads ``env.unwrapped.game_state`` *only* to
determinise it with ``state.resample_hidden(seat, rng)``, which keeps exactly
what the acting seat knows and redraws everything else.  An agent that needs
the env and was not bound raises ``RuntimeError`` rather than guessing.

Mask-only agents.  An agent that picks from the legal actions alone (random)
says ``needs_observation = False``; the loops that step opponents (the training
view, the batched trainer) then hand it ``observation_for(...)``: the mask, with
``"observation": None``, and skip building a vector nobody reads.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Agent(Protocol):
    """Plays from PettingZoo observations: ``{"observation", "action_mask"}``.

    ``act`` must return an id whose mask entry is 1.  ``reset`` (optional)
    is called at the start of each game; ``bind(env)`` (only for agents with
    ``needs_env = True``) after the env's reset, before the first ``act``.
    """

    def act(self, observation: dict[str, np.ndarray], agent: str) -> int: ...


class ForfeitError(RuntimeError):
    """An agent that cannot go on with this game (a program that crashed, hung, answered garbage or an illegal
    move).  The code that runs the game ends it there and scores it as a loss for ``seat``
    (``bidbluff.arena.match.play_game``); ``reason`` says what happened, in one line."""

    def __init__(self, agent: str, reason: str) -> None:
        super().__init__(f"{agent} forfeits: {reason}")
        self.agent = agent
        self.reason = reason


def seat_of(agent: str) -> int:
    """Seat index of a PettingZoo agent name (``"player_3"`` -> 3)."""
    try:
        return int(agent.rsplit("_", 1)[1])
    except (IndexError, ValueError):
        raise ValueError(f"agent name {agent!r} is not of the form 'player_<seat>'") from None


def legal_ids(observation: dict[str, np.ndarray], agent: str) -> np.ndarray:
    """The legal action ids of an observation; an empty mask is an error (the agent is not to act)."""
    legal = np.flatnonzero(observation["action_mask"])
    if legal.size == 0:
        raise ValueError(f"{agent} was asked to act with no legal action")
    return legal


def observation_for(agent: Any, env: Any, name: str) -> dict[str, np.ndarray | None]:
    """What ``agent`` needs to act as ``name`` in the AEC env ``env`` (``name`` is acting).

    An agent that picks from the legal actions alone says ``needs_observation = False`` and gets the
    mask with ``"observation": None``: the loops that step opponents (the training view, the batched
    trainer) then skip building an observation nobody reads, most of an env step on the board games.
    """
    if getattr(agent, "needs_observation", True):
        return env.observe(name)
    return {"observation": None, "action_mask": env.unwrapped.action_masks()}


def bind_all(agents: list[Any], env: Any) -> None:
    """Start of a game: ``reset()`` every agent and ``bind(env)`` the ones that need the engine."""
    for agent in agents:
        if getattr(agent, "needs_env", False):
            agent.bind(env)
        reset = getattr(agent, "reset", None)
        if reset is not None:
            reset()


class SeededAgent:
    """Base of the agents that read only their observation: a seeded Generator, nothing to reset."""

    name = "agent"
    needs_env = False

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def reset(self) -> None:
        pass


class RandomAgent(SeededAgent):
    """Uniform over the legal actions; seeded for reproducible matches."""

    name = "random"
    needs_observation = False  # the mask is enough

    def act(self, observation: dict[str, np.ndarray], agent: str) -> int:
        return int(self.rng.choice(legal_ids(observation, agent)))

    def probabilities(self, observation: dict[str, np.ndarray]) -> np.ndarray:
        """What ``act`` draws from: uniform over the mask."""
        mask = np.asarray(observation["action_mask"], dtype=np.float64)
        return mask / mask.sum()


def act_on_policy(agent: Any, observation: dict[str, np.ndarray], name: str) -> int:
    """A policy agent's move: a forced move as it is, else the most likely legal action (``agent.deterministic``)
    or a draw from ``agent.probabilities(observation)`` with ``agent.rng`` (the checkpoint and ONNX agents)."""
    legal = legal_ids(observation, name)
    if legal.size == 1:
        return int(legal[0])
    probs = agent.probabilities(observation)
    if agent.deterministic:
        return int(legal[np.argmax(probs[legal])])
    return int(agent.rng.choice(len(probs), p=probs))
