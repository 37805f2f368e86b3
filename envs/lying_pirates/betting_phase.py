"""The Betting phase: the cups are rolled, the captains bet until a call, and the call decides the round.

The bets themselves are ``betting.BettingRound`` (shared with ``liars_dice_v0``); here is what the
round around them does: who bets (the Phantom's turns are taken by the player out of the phase), and
what the outcome means for the Sail phase (its winner, losers and survivors).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from bidbluff.envs.core.codec import Action
from bidbluff.envs.lying_pirates.betting import BettingRound, Outcome
from bidbluff.envs.lying_pirates.dice import Die
from bidbluff.envs.lying_pirates.frames import BettingPhase, SailPhase
from bidbluff.envs.lying_pirates.rules import roll_die

if TYPE_CHECKING:
    from bidbluff.envs.lying_pirates.state import LyingPiratesState as State


def start_round(state: State, frame: BettingPhase, rng: np.random.Generator) -> None:
    state.round_no += 1
    state.phase = "betting"
    state.used = [[False, False, False] for _ in range(state.captains)]
    state.played = []
    state.log = []
    in_play = [c for c in range(state.captains) if c not in state.excluded and c not in state.crews.out]
    cups = {c: [[int(d), roll_die(d, rng)] for d in _cup_dice(state, c)] for c in in_play}
    players_in = [p for p in state.players() if p not in state.excluded]
    phantom_in = state.phantom >= 0 and state.phantom in in_play
    bettors = players_in + ([state.phantom] if phantom_in and len(players_in) == 1 else [])
    start = state.token if state.token in bettors else state.turn_order(state.token, bettors)[0]
    for hook in state.hooks.round_start:
        hook(state)
    state.betting = BettingRound(cups, state.turn_order(start, bettors), state.captains, state.hooks.betting_rules)
    frame.stage = "bet"


def _cup_dice(state: State, c: int) -> list[int]:
    return [int(Die.CREW)] * state.crews.crew[c] + [int(d) for d in state.crews.specials(c)]


def next_bet(state: State, frame: BettingPhase, rng: np.random.Generator) -> None:
    if state.betting.outcome is None:
        bettor = state.betting.current
        # The Phantom's turns are taken by the player who is out of the phase.
        controller = state.excluded[0] if bettor == state.phantom else bettor
        state.pending = ["bet", controller]
        return
    _finish_betting(state)


def legal_bet(state: State, frame: BettingPhase, seat: int) -> list[Action]:
    return state.betting.legal_actions()


def on_bet(state: State, frame: BettingPhase, seat: int, action: Action, rng: np.random.Generator) -> None:
    state.betting.apply(action)
    state.pending = []


def _finish_betting(state: State) -> None:
    """The call's winner takes the Sail phase; its losers stay behind; an exact call right wins a die."""
    o: Outcome = state.betting.outcome
    winner = o.winners[0]
    everyone = state.alive_captains()
    losers = set(o.losers) | set(state.excluded)
    if o.call == "exact" and o.correct:
        losers = set(everyone) - {winner}
        state.crews.gain(winner, 1)
    survivors = [c for c in everyone if c != winner and c not in losers]
    state.result = {"winner": winner, "losers": sorted(losers), "survivors": survivors}
    state.reveal = {
        "cups": {str(c): cup for c, cup in state.betting.cups.items()},
        "outcome": o.to_dict(),
        "bids": [list(b) for b in state.betting.bids],
    }
    state.next_excluded = [o.wrong_exact] if o.wrong_exact >= 0 else []
    state.say(
        f"betting: {o.call} by C{o.caller} on {o.bet[0]}x{o.bet[1]} ({o.count} counted): "
        f"winner C{winner}, losers {sorted(losers)}"
    )
    state.betting = None
    state.replace(SailPhase())
    for hook in state.hooks.after_betting:
        hook(state)


STAGES = {
    "betting": (BettingPhase, start_round, {}),
    "bet": (BettingPhase, next_bet, {"bet": (legal_bet, on_bet)}),
}
