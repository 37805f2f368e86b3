"""Agents that play bidbluff envs: ``make("random")`` and the ``Agent`` protocol."""

from __future__ import annotations

from agents.base import Agent, RandomAgent

KINDS = ("random",)


def make(kind: str, seed: int | None = None) -> Agent:
    """An agent by name (``"random"``)."""
    if kind == "random":
        return RandomAgent(seed)
    raise ValueError(f"unknown agent {kind!r}; known: {', '.join(KINDS)}")


__all__ = ["KINDS", "Agent", "RandomAgent", "make"]
