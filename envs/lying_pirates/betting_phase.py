"""The Betting phase: the cups are rolled, the captains bet until a call, and the call decides the round.

The bets themselves are ``betting.BettingRound`` (shared with ``liars_dice_v0``); here is what the
round around them does: who bets (the Phantom's turns are taken by the player out of the phase), and
what the outcome means for the Sail phase (its winner, losers and survivors).
"""

from __future__ import annotations

import numpy as np

from bidbluff.envs.core.codec import Action
from bidbluff.envs.lying_pirates.betting import BettingRound, Outcome
from bidbluff.envs.lying_pirates.dice import Die, roll_die
from bidbluff.envs.lying_pirates.frames import (
    BettingPhase,
    CaptainChoice,
    Draft,
    InfluenceSetup,
    Placing,
    SailPhase,
    TownChoosing,
    TownPlacing,
)
from bidbluff.envs.lying_pirates.stages import ASK, goto, stage
from bidbluff.envs.lying_pirates.table import BETTING, Table

SETUP = (Draft, InfluenceSetup, TownChoosing, TownPlacing, Placing, CaptainChoice)  # new_game stacks these


def in_play(state: Table) -> list[int]:
    """The captains whose cups are in this Betting phase."""
    return [c for c in range(state.captains) if c not in state.excluded and c not in state.crews.out]


def bettors(state: Table) -> list[int]:
    """Who bets, in turn order from the token: the players in the phase, and the Phantom when one is out."""
    players_in = [p for p in state.players() if p not in state.excluded]
    phantom_in = state.phantom >= 0 and state.phantom in in_play(state)
    who = players_in + ([state.phantom] if phantom_in and len(players_in) == 1 else [])
    start = state.token if state.token in who else state.turn_order(state.token, who)[0]
    return state.turn_order(start, who)


# The first Betting phase waits under the setup's frames (``SETUP``, stacked by ``setup.new_game``); the one right
# over it is the draft, else the expansion's first influence cards, else the map, else the captain coasters.
@stage(BettingPhase, phase=BETTING, awaits=(Draft, InfluenceSetup, Placing, CaptainChoice))
def betting(state: Table, frame: BettingPhase, rng: np.random.Generator) -> None:
    state.round_no += 1
    state.used = [[False, False, False] for _ in range(state.captains)]
    state.played = []
    state.log = []
    cups = {c: [[int(d), roll_die(d, rng)] for d in _cup_dice(state, c)] for c in in_play(state)}
    order = bettors(state)
    for hook in state.hooks.round_start:
        hook(state)
    state.betting = BettingRound(cups, order, state.captains, state.hooks.betting_rules)
    goto(frame, bet)


def _cup_dice(state: Table, c: int) -> list[int]:
    return [int(Die.CREW)] * state.crews.crew[c] + [int(d) for d in state.crews.specials(c)]


def _asks_bet(state: Table, frame: BettingPhase) -> tuple[str, int] | None:
    if state.betting is None or state.betting.outcome is not None:
        return None
    bettor = state.betting.current
    # The Phantom's turns are taken by the player who is out of the phase.
    return ("bet", state.excluded[0] if bettor == state.phantom else bettor)


@stage(BettingPhase, phase=BETTING, asks=_asks_bet)
def bet(state: Table, frame: BettingPhase, rng: np.random.Generator) -> bool | None:
    if state.betting.outcome is None:
        return ASK
    _finish_betting(state)
    return None


@bet.legal("bet")
def legal_bet(state: Table, frame: BettingPhase, seat: int) -> list[Action]:
    return state.betting.legal_actions()


@bet.on("bet")
def on_bet(state: Table, frame: BettingPhase, seat: int, action: Action, rng: np.random.Generator) -> None:
    state.betting.apply(action)


def _finish_betting(state: Table) -> None:
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
