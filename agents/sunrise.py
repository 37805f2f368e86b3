"""Determinisations for IS-MCTS in Libertalia that read the sunrise cards as the policy that played them would have.

A determinisation (``LibertaliaState.resample_hidden``) draws the card that each other seat has already put face
down this sunrise uniformly from its hand.  ``belief=prior`` draws it from the prior's policy at that seat's own
pick instead.  The picks are simultaneous: a seat chose from the public position, its own hand and which seats
had chosen before it (``pick_position``), all of which the searching seat can rebuild, so the policy's answer
there is the chance of each card.

With ``others=prior+heuristic`` each other seat may play the prior or the game's heuristic, and its cards, once
turned over, tell which.  The agent keeps, a game long, each other seat's likelihood under each policy of every
card it saw turned over (``SunriseBelief.update``): a card is matched with what each policy would have played
from the position the agent saw at that sunrise (so only the sunrises at which it searched are read).  Each
determinisation draws which policy every seat plays from that posterior (``bidbluff.agents.beliefs.assignments``,
as Liar's dice reads bets), then that seat's face-down card from the policy drawn, and the seat plays that
policy in the tree and the rollout.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from bidbluff.agents.beliefs import TREMBLE, assignments
from bidbluff.agents.evaluators import Prior
from bidbluff.envs.libertalia.rules import SUNRISE, LibertaliaState

Picks = dict[int, tuple[list[int], np.ndarray]]  # seat -> (the ranks it may play, (models, ranks) chances)


def pick_position(state: LibertaliaState, seat: int) -> LibertaliaState:
    """``state`` (at a sunrise) as it stood when ``seat`` put its card down: the seats before it in the order
    of choosing have chosen (which card does not show), the seats after it have not."""
    then = state.clone()
    for other in range(state.num_players):
        if other >= seat or not then.hands[other]:
            then.chosen[other] = 0
        elif not then.chosen[other]:
            then.chosen[other] = then.hands[other][0]  # any card: only that it chose shows
    then.pending = ["play", seat]
    return then


class SunriseBelief:
    """What each of ``models`` would play at every other seat's sunrise, and how well each explains the cards a
    seat has turned over so far this game.  One per searching agent; ``reset`` at a new game."""

    def __init__(self, game: Any, models: Sequence[Prior]) -> None:
        self.game = game
        self.models = list(models)
        self.reset()

    def reset(self) -> None:
        self.evidence: dict[int, np.ndarray] = {}  # seat -> log P(its cards turned over | each model)
        self.waiting: tuple[tuple[int, int], Picks] | None = None  # the sunrise read last, until its reveal
        self.now: Picks = {}  # this sunrise's other seats
        self.seats: list[int] = []
        self.every: list[tuple[int, ...]] = [()]
        self.chances = np.ones(1)

    def update(self, state: LibertaliaState, seat: int) -> None:
        """Before a search by ``seat`` (``state``: a determinisation for it): score the sunrise that waited for
        its reveal, and at a sunrise, read what each model would play at every other seat."""
        key, picks = state.last_reveal()
        if self.waiting is not None and self.waiting[0] == key:
            for other, (ranks, chances) in self.waiting[1].items():
                if picks.get(other) in ranks:
                    likely = chances[:, ranks.index(picks[other])] * (1 - TREMBLE) + TREMBLE / len(ranks)
                    self.evidence[other] = self.evidence.get(other, 0.0) + np.log(likely)
            self.waiting = None
        self.now = {}
        if state.phase == SUNRISE:
            for other in range(state.num_players):
                if other != seat and state.hands[other]:
                    self.now[other] = self._chances(pick_position(state, other), other)
            self.waiting = ((state.campaign, state.day), self.now)
        m = len(self.models)
        self.seats = [other for other in range(state.num_players) if other != seat]
        self.every, self.chances = assignments([self.evidence.get(s, np.zeros(m)) for s in self.seats], m)

    def _chances(self, then: LibertaliaState, seat: int) -> tuple[list[int], np.ndarray]:
        observation = self.game.encode(then, seat)
        actions = then.legal_actions()
        legal = [self.game.action_to_id(then, action, seat) for action in actions]
        chances = np.array([model.policy(observation, legal, seat) for model in self.models], dtype=np.float64)
        return [rank for _, rank in actions], chances

    def posterior(self, seat: int) -> np.ndarray:
        """The chance that ``seat`` plays each model, as of the last ``update``."""
        at = self.seats.index(seat)
        plays = np.zeros(len(self.models))
        for assignment, chance in zip(self.every, self.chances, strict=True):
            plays[assignment[at]] += chance
        return plays

    def draw(self, state: LibertaliaState, seat: int, rng: np.random.Generator) -> tuple[Any, dict[int, int]]:
        """``state`` (a determinisation for ``seat``) with every other seat's face-down card drawn again in place
        from the model drawn for that seat: ``(state, {seat: index into models})``."""
        assignment = self.every[int(rng.choice(len(self.every), p=self.chances))]
        drawn = dict(zip(self.seats, assignment, strict=True))
        for other, model in drawn.items():
            if state.chosen[other] and other in self.now:
                ranks, chances = self.now[other]
                weights = chances[model] * (1 - TREMBLE) + TREMBLE / len(ranks)
                rank = ranks[int(rng.choice(len(ranks), p=weights / weights.sum()))]
                if rank in state.hands[other]:  # a hand drawn otherwise (a Surgeon's card) keeps its uniform draw
                    state.chosen[other] = rank
        return state, drawn
