"""Spytails' engine: the rules as a plain-Python state machine.

A ``SpytailsState`` carries the whole position, the open decision
(``pending = [decision, seat]``) and what the public knows about every
hidden card.  ``apply`` carries out one decision and then every automatic
step after it (dealing, resolving an operation, payouts, drawing), stopping
at the next decision.  No gymnasium or pettingzoo here; chance comes from the
``numpy.random.Generator`` handed to ``apply`` and ``new_game``.

Rulings are ``shared/rules/spytails.md``; ``docs/rules/spytails.md`` says how
each one is implemented and lists every stand-in.

Card piles are lists of card types (``content``); a deck's top is its last
element.  What the others know of a seat's hand and deck: ``known`` (cards
surely in hand, e.g. taken back by Echo) and ``pool`` (every other card in
hand or deck, ``pool_in_hand`` of them in hand; ``voids``: suits none of those
in hand can be, shown by not following suit).  The special deck's first
``special_known`` cards (its bottom) are display cards put back in public view.
"""

from __future__ import annotations

from bisect import insort
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from bidbluff.envs.core.codec import Action
from bidbluff.envs.core.game import TERMINAL, GameState, bounded
from bidbluff.envs.core.validate import (
    Bool,
    Const,
    EmptyOr,
    Fields,
    Int,
    ListOf,
    OneOf,
    PerSeat,
    Record,
    Seat,
    Str,
    read,
)
from bidbluff.envs.spytails.content import (
    ACES,
    ALKA,
    ALPHA_STRIKE,
    BASIC_DECK,
    CARD_NAMES,
    CARD_RANK,
    CARD_SUIT,
    CHARACTERS,
    ECHO,
    GHOST_MOVE,
    HAND_SIZE,
    INTIMIDATION,
    JACK,
    KING,
    LEVERAGE_PENALTY,
    LEVERAGE_TOKENS,
    LEVERAGE_VALUE,
    LOW_ACE,
    MAX_BID,
    MAX_EXTRA_ROUNDS,
    MAX_ROUNDS,
    MAX_STAKE,
    MIMIC,
    MIRAGE,
    MISSIONS,
    NO_SUIT,
    NUM_CARDS,
    NUM_ROW_CARDS,
    OPERATIONS,
    PLAIN_SUITS,
    QUEEN,
    ROW_CARDS,
    ROW_REWARDS,
    SHREW_RANKS,
    SKUNK_BOMB,
    SPECIAL_DECK,
    START_INFLUENCE,
    SUITS,
    RoundRules,
    SeatRound,
    is_mission,
    round_rules,
    rounds_for,
)

SETUP, FORECAST, OPERATIONS_PHASE, DEBRIEFING, OVER = "setup", "forecast", "operations", "debriefing", "over"
PHASES = (SETUP, FORECAST, OPERATIONS_PHASE, DEBRIEFING, OVER)
DECISIONS = (
    "character",
    "bid",
    "stake",
    "revise",
    "play",
    "regroup",
    "echo_take",
    "echo_give",
    "reinforce",
    "remove",
    "repay",
)
# Debriefing steps: payouts (automatic), leverage repayment, reinforcements.
PAYOUT, REPAY, REINFORCE = "payout", "repay", "reinforce"
DEBRIEF_STEPS = (PAYOUT, REPAY, REINFORCE)

MODES = ("individual", "partnership")
FORECAST_MODES = ("sequential", "simultaneous")
CHARACTER_MODES = ("dealt", "chosen")
ARMED = ("", "mimic", "mirage")  # a flipped Mimic or Mirage token waiting for its card
GHOST_TOKEN = -1  # the card entry of a seat that used its ghost token in an operation
LOG_LENGTH = 12
# A round's automatic steps (forecast passes, seven operations and their end, the debriefing's steps and
# reinforcement turns) are about twenty; no decision-free stretch spans more than every round's.
FLOW_STEPS = 30 * MAX_ROUNDS
_BASIC = frozenset(BASIC_DECK)


def is_shrew(play: list[int]) -> bool:
    """A play ``[seat, card, low, mimic]`` is a shrew: a 2, a 3 or an ace played low."""
    return CARD_RANK[play[1]] in SHREW_RANKS or bool(play[2])


def effective_suit(play: list[int]) -> int:
    return INTIMIDATION if play[3] else CARD_SUIT[play[1]]


def face_value(play: list[int]) -> int:
    return LOW_ACE if play[2] else CARD_RANK[play[1]]


@dataclass(eq=False)
class SpytailsState(GameState):
    validated: ClassVar[bool] = True
    num_players: int
    mode: str = "individual"
    forecast_mode: str = "sequential"
    character_mode: str = "dealt"
    phase: str = FORECAST
    round: int = 0
    last_round: int = 5  # index of the final round; a tie at the top pushes it back
    extra_rounds: int = 0
    start: int = 0  # holder of the start token
    characters: list[int] = field(default_factory=list)  # -1: not chosen yet
    teams: list[int] = field(default_factory=list)  # partnership: team 0 or 1 per seat; else empty
    influence: list[int] = field(default_factory=list)  # the supply in front of each seat
    leverage: list[int] = field(default_factory=list)
    leverage_supply: int = LEVERAGE_TOKENS
    hands: list[list[int]] = field(default_factory=list)  # sorted
    decks: list[list[int]] = field(default_factory=list)  # top = last
    discards: list[list[int]] = field(default_factory=list)
    removed: list[list[int]] = field(default_factory=list)  # set aside for good at reinforcements
    known: list[list[int]] = field(default_factory=list)  # sorted; surely in hand, public
    pool: list[list[int]] = field(default_factory=list)  # sorted; the rest of hand + deck, public as a whole
    pool_in_hand: list[int] = field(default_factory=list)
    voids: list[list[int]] = field(default_factory=list)  # suits the pool's cards in hand surely lack, public
    special_deck: list[int] = field(default_factory=list)  # top = last
    special_known: int = 0  # bottom cards whose identity and order are public
    display: list[int] = field(default_factory=list)
    row: list[int] = field(default_factory=list)  # mission/event cards over the reward tokens 2, 3, 4
    row_deck: list[int] = field(default_factory=list)  # top = last
    row_discard: list[int] = field(default_factory=list)
    ghost_used: list[bool] = field(default_factory=list)
    regroup_used: list[bool] = field(default_factory=list)
    power_used: list[bool] = field(default_factory=list)
    bids: list[int] = field(default_factory=list)  # -1: none yet
    stakes: list[int] = field(default_factory=list)  # -1: none yet; committed out of the supply
    forecast_done: list[bool] = field(default_factory=list)
    forecast_pass: int = 0  # 0: first forecasts, 1: the revision pass
    revealed: bool = True  # forecasts visible to all (simultaneous mode: only once locked)
    operation: int = 0  # operations finished this round
    leader: int = 0
    trick: list[list[int]] = field(default_factory=list)  # [seat, card or GHOST_TOKEN, low, mimic] in order
    round_ops: list[list[Any]] = field(default_factory=list)  # [winner or -1, trick] per finished operation
    won: list[int] = field(default_factory=list)
    armed: str = ""
    selection: list[int] = field(default_factory=list)  # regroup: cards chosen to discard (private)
    debrief_step: str = PAYOUT
    repay_done: list[bool] = field(default_factory=list)
    reinforce_first: int = 0
    reinforce_turn: int = 0
    pending: list[Any] = field(default_factory=list)
    log: list[str] = field(default_factory=list)  # public, the latest LOG_LENGTH lines

    # -- the GameState contract ----------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.phase == OVER else self.pending[1]

    def legal_actions(self) -> list[Action]:
        if not self.pending:
            return []
        kind, seat = self.pending
        if kind == "play":
            return self._play_actions(seat) + self._token_actions(seat)
        if kind == "bid":
            return [("bid", b) for b in range(MAX_BID + 1)] + self._token_actions(seat)
        if kind == "revise":
            return [("keep_forecast",), ("change_forecast",), *self._token_actions(seat)]
        if kind == "stake":
            return [("stake", k) for k in range(1, min(self.influence[seat], self.rules.stake_cap) + 1)]
        if kind == "regroup":
            hand, chosen = self.hands[seat], self.selection
            picks = [("discard", c) for c in dict.fromkeys(hand) if chosen.count(c) < hand.count(c)]
            return [*picks, ("confirm",)] if chosen else picks
        if kind == "echo_take":
            return [("echo_take", c) for c in sorted(set(self.discards[seat]))]
        if kind == "echo_give":
            return [("echo_give", c) for c in dict.fromkeys(self.hands[seat])]
        if kind == "reinforce":
            takes = [("take", c) for c in sorted(set(self.display))]
            return [*takes, ("take_top",)] if self.special_deck else takes
        if kind == "remove":
            return [("remove", c) for c in sorted(set(self.decks[seat]) | set(self.discards[seat]))] + [
                ("remove_none",)
            ]
        if kind == "repay":
            return [("repay",), ("keep_leverage",)]
        if kind == "character":
            taken = set(self.characters)
            return [("character", c) for c in range(len(CHARACTERS)) if c not in taken]
        raise AssertionError(f"unknown decision {kind}")

    def apply(self, action: Action, rng: np.random.Generator) -> None:
        seat = self.pending[1]
        self._ON[action[0]](self, seat, rng, *action[1:])
        self._advance(rng)

    def scores(self) -> list[float]:
        """Influence (with a committed stake) less 8 per leverage token held."""
        return [
            float(self.influence[s] + max(0, self.stakes[s]) - LEVERAGE_PENALTY * self.leverage[s])
            for s in range(self.num_players)
        ]

    # -- facts the rules, the codec and the renderer share -----------------------------------
    @property
    def rules(self) -> RoundRules:
        """The rules of this round, as the events in force leave them."""
        return round_rules(tuple(self.row))

    def order(self, first: int) -> list[int]:
        """Every seat clockwise from ``first``."""
        n = self.num_players
        return [(first + i) % n for i in range(n)]

    def led_suit(self) -> int:
        """Suit of the operation's first suited card (a Mimic card counts as intimidation); NO_SUIT if none."""
        for play in self.trick:
            if play[1] >= 0 and CARD_SUIT[play[1]] != NO_SUIT:
                return effective_suit(play)
        return NO_SUIT

    def forecast_visible(self, seat: int, viewer: int) -> bool:
        return self.revealed or seat == viewer

    def mimic_cards(self, seat: int) -> list[int]:
        """Cards ``seat`` could play through Mimic: suited, not already intimidation, where intimidation may go."""
        led = self.led_suit()
        hand = self.hands[seat]
        if led not in (NO_SUIT, INTIMIDATION) and any(CARD_SUIT[c] == led for c in hand):
            return []
        return [c for c in dict.fromkeys(hand) if CARD_SUIT[c] in PLAIN_SUITS]

    def follow_cards(self, seat: int) -> list[int]:
        """Cards ``seat`` may play without a power: the led suit if it holds one, no-suit specials always."""
        led = self.led_suit()
        hand = self.hands[seat]
        if led != NO_SUIT and any(CARD_SUIT[c] == led for c in hand):
            return [c for c in dict.fromkeys(hand) if CARD_SUIT[c] in (led, NO_SUIT)]
        return list(dict.fromkeys(hand))

    def power_usable(self, seat: int) -> bool:
        if self.power_used[seat] or not self.rules.power:
            return False
        character = self.characters[seat]
        if character == ECHO:
            return bool(self.discards[seat])
        if self.phase != OPERATIONS_PHASE:
            return False
        if character == MIMIC:
            return bool(self.mimic_cards(seat))
        if character == MIRAGE:
            return len(self.follow_cards(seat)) < len(set(self.hands[seat]))
        return False  # Alka's power is passive

    def seat_round(self, seat: int) -> SeatRound:
        """The public record of ``seat``'s round, for the missions."""
        ops = self.round_ops
        won_tricks = [trick for winner, trick in ops if winner == seat]
        return SeatRound(
            wins=self.won[seat],
            bid=self.bids[seat],
            met_forecast=self.bids[seat] == self.won[seat],
            won_first=bool(ops) and ops[0][0] == seat,
            won_last=len(ops) == OPERATIONS and ops[-1][0] == seat,
            winning_cards=tuple((p[1], bool(p[2]), bool(p[3])) for trick in won_tricks for p in trick if p[0] == seat),
            shrew_wins=sum(any(p[1] >= 0 and is_shrew(p) for p in trick) for trick in won_tricks),
            ghosted=any(p[0] == seat and p[1] in (GHOST_TOKEN, GHOST_MOVE) for _, trick in ops for p in trick),
        )

    def final_scores_tied(self) -> bool:
        """Whether the top of the table is shared (partnership: by seats of both teams)."""
        scores = self.scores()
        best = max(scores)
        top = [s for s in range(self.num_players) if scores[s] == best]
        if self.mode == "partnership":
            return len({self.teams[s] for s in top}) > 1
        return len(top) > 1

    # -- legal actions -----------------------------------------------------------------------
    def _play_actions(self, seat: int) -> list[Action]:
        if self.armed == "mimic":
            cards = self.mimic_cards(seat)
        elif self.armed == "mirage":
            cards = list(dict.fromkeys(self.hands[seat]))
        else:
            cards = self.follow_cards(seat)
        actions: list[Action] = [("play", c) for c in cards]
        actions += [("play_low", CARD_SUIT[c]) for c in cards if c in ACES]
        return actions

    def _token_actions(self, seat: int) -> list[Action]:
        if self.armed:
            return []
        rules = self.rules
        actions: list[Action] = []
        in_operation = self.phase == OPERATIONS_PHASE
        if in_operation and rules.ghost and not self.ghost_used[seat] and self.influence[seat] > 0:
            actions.append(("ghost",))
        if rules.regroup and not self.regroup_used[seat]:
            actions.append(("regroup",))
        if self.power_usable(seat):
            actions.append(("power",))
        return actions

    # -- decisions -------------------------------------------------------------------------------
    def _on_character(self, seat: int, rng: np.random.Generator, character: int) -> None:
        self.characters[seat] = character
        self._say(f"{self.who(seat)} chooses {CHARACTERS[character]}")
        self.pending = []

    def _on_bid(self, seat: int, rng: np.random.Generator, bid: int) -> None:
        self.bids[seat] = bid
        self.pending = []

    def _on_stake(self, seat: int, rng: np.random.Generator, stake: int) -> None:
        self.stakes[seat] = stake
        self.influence[seat] -= stake
        self.forecast_done[seat] = True
        if self.revealed:
            self._say(f"{self.who(seat)} forecasts {self.bids[seat]}, staking {stake}")
        self.pending = []

    def _on_keep_forecast(self, seat: int, rng: np.random.Generator) -> None:
        self.forecast_done[seat] = True
        self.pending = []

    def _on_change_forecast(self, seat: int, rng: np.random.Generator) -> None:
        self.influence[seat] += self.stakes[seat]
        self.bids[seat] = self.stakes[seat] = -1
        self.pending = []

    def _on_play(self, seat: int, rng: np.random.Generator, card: int) -> None:
        self._play(seat, card, low=False)

    def _on_play_low(self, seat: int, rng: np.random.Generator, suit: int) -> None:
        self._play(seat, ACES[suit], low=True)

    def _play(self, seat: int, card: int, low: bool) -> None:
        led, suit, mimic = self.led_suit(), CARD_SUIT[card], self.armed == "mimic"
        if (
            led not in (NO_SUIT, suit)
            and suit != NO_SUIT
            and self.armed != "mirage"
            and not (mimic and led == INTIMIDATION)
        ):
            self._note_void(seat, led)  # it did not follow, so it holds no card of the led suit
        self._leave_hand(seat, card)
        self.trick.append([seat, card, int(low), int(mimic)])
        self.armed = ""
        self.pending = []

    def _on_ghost(self, seat: int, rng: np.random.Generator) -> None:
        self.ghost_used[seat] = True
        self.influence[seat] -= 1
        self.trick.append([seat, GHOST_TOKEN, 0, 0])
        self._say(f"{self.who(seat)} pays 1 and ghosts this operation")
        self.pending = []

    def _on_regroup(self, seat: int, rng: np.random.Generator) -> None:
        self.regroup_used[seat] = True
        self.selection = []
        self.pending = ["regroup", seat]

    def _on_discard(self, seat: int, rng: np.random.Generator, card: int) -> None:
        """One more copy of ``card`` chosen to discard (choices only add up: a regroup always ends)."""
        insort(self.selection, card)

    def _on_confirm(self, seat: int, rng: np.random.Generator) -> None:
        for c in self.selection:
            self._leave_hand(seat, c)
            self.discards[seat].append(c)
        names = ", ".join(CARD_NAMES[c] for c in self.selection)
        self._say(f"{self.who(seat)} regroups, discarding {names}")
        count, self.selection = len(self.selection), []
        self._draw(seat, count, rng)
        self.pending = []

    def _on_power(self, seat: int, rng: np.random.Generator) -> None:
        self.power_used[seat] = True
        character = self.characters[seat]
        self._say(f"{self.who(seat)} flips the power token")
        if character == ECHO:
            self.pending = ["echo_take", seat]
        elif character == MIMIC:
            self.armed = "mimic"
            if self.led_suit() not in (NO_SUIT, INTIMIDATION):
                self._note_void(seat, self.led_suit())  # Mimic may play intimidation only when void
        else:
            self.armed = "mirage"

    def _on_echo_take(self, seat: int, rng: np.random.Generator, card: int) -> None:
        self.discards[seat].remove(card)
        insort(self.hands[seat], card)
        insort(self.known[seat], card)
        self._say(f"{self.who(seat)}'s Echo takes {CARD_NAMES[card]} back from the discard pile")
        self.pending = ["echo_give", seat]

    def _on_echo_give(self, seat: int, rng: np.random.Generator, card: int) -> None:
        self._leave_hand(seat, card)
        self.discards[seat].append(card)
        self._say(f"{self.who(seat)}'s Echo puts {CARD_NAMES[card]} on the discard pile")
        self.pending = []

    def _on_take(self, seat: int, rng: np.random.Generator, card: int) -> None:
        self.display.remove(card)
        self._reinforce(seat, card, "the display")

    def _on_take_top(self, seat: int, rng: np.random.Generator) -> None:
        card = self.special_deck.pop()
        self.special_known = min(self.special_known, len(self.special_deck))
        self._reinforce(seat, card, "the top of the special deck")

    def _reinforce(self, seat: int, card: int, source: str) -> None:
        self.decks[seat].append(card)
        insort(self.pool[seat], card)
        self._say(f"{self.who(seat)} adds {CARD_NAMES[card]} from {source}")
        self.pending = ["remove", seat]

    def _on_remove(self, seat: int, rng: np.random.Generator, card: int) -> None:
        if card in self.decks[seat]:
            self.decks[seat].remove(card)
            self.pool[seat].remove(card)
        else:
            self.discards[seat].remove(card)
        self.removed[seat].append(card)
        self._say(f"{self.who(seat)} removes {CARD_NAMES[card]} for good")
        self.reinforce_turn += 1
        self.pending = []

    def _on_remove_none(self, seat: int, rng: np.random.Generator) -> None:
        self.reinforce_turn += 1
        self.pending = []

    def _on_repay(self, seat: int, rng: np.random.Generator) -> None:
        self.influence[seat] -= LEVERAGE_VALUE
        self.leverage[seat] -= 1
        self.leverage_supply += 1
        self._say(f"{self.who(seat)} repays a leverage token")
        self.pending = []

    def _on_keep_leverage(self, seat: int, rng: np.random.Generator) -> None:
        self.repay_done[seat] = True
        self.pending = []

    # each action kind's handler, called as ``handler(state, seat, rng, *args)``
    _ON: ClassVar[dict[str, Any]] = {
        "character": _on_character,
        "bid": _on_bid,
        "stake": _on_stake,
        "keep_forecast": _on_keep_forecast,
        "change_forecast": _on_change_forecast,
        "play": _on_play,
        "play_low": _on_play_low,
        "ghost": _on_ghost,
        "regroup": _on_regroup,
        "discard": _on_discard,
        "confirm": _on_confirm,
        "power": _on_power,
        "echo_take": _on_echo_take,
        "echo_give": _on_echo_give,
        "take": _on_take,
        "take_top": _on_take_top,
        "remove": _on_remove,
        "remove_none": _on_remove_none,
        "repay": _on_repay,
        "keep_leverage": _on_keep_leverage,
    }

    # -- the automatic flow ------------------------------------------------------------------------
    def _advance(self, rng: np.random.Generator) -> None:
        """Run automatic steps until someone must decide or the game is over."""
        for _ in bounded(self, FLOW_STEPS, "Spytails' automatic flow"):
            if self.pending or self.phase == OVER:
                return
            if self.phase == OPERATIONS_PHASE:
                self._operations_flow(rng)
            elif self.phase == FORECAST:
                self._forecast_flow()
            elif self.phase == DEBRIEFING:
                self._debriefing_flow(rng)
            else:
                self._setup_flow(rng)

    def _setup_flow(self, rng: np.random.Generator) -> None:
        for seat in self.order(self.start):
            if self.characters[seat] < 0:
                self.pending = ["character", seat]
                return
        self._start_round(rng)

    def _start_round(self, rng: np.random.Generator) -> None:
        """Shuffle deck and discard together, draw, refresh tokens; the forecast opens."""
        n = self.num_players
        for seat in range(n):
            cards = self.decks[seat] + self.discards[seat]
            self.decks[seat] = [cards[i] for i in rng.permutation(len(cards))]
            self.discards[seat], self.hands[seat], self.known[seat] = [], [], []
            self.pool[seat], self.pool_in_hand[seat] = sorted(cards), 0
            self._draw(seat, HAND_SIZE, rng)
        self.ghost_used, self.regroup_used, self.power_used = [False] * n, [False] * n, [False] * n
        self.bids, self.stakes, self.forecast_done = [-1] * n, [-1] * n, [False] * n
        self.forecast_pass, self.revealed = 0, self.forecast_mode == "sequential"
        self.won, self.operation, self.trick, self.round_ops = [0] * n, 0, [], []
        self.leader, self.armed, self.selection = self.start, "", []
        self.phase = FORECAST
        self._say(f"round {self.round + 1}: {self.who(self.start)} holds the start token")

    def _forecast_flow(self) -> None:
        for seat in self.order(self.start):
            if self.forecast_done[seat]:
                continue
            if self.bids[seat] < 0:
                self.pending = ["bid", seat]
                return
            if self.stakes[seat] >= 0:
                self.pending = ["revise", seat]
                return
            if self.influence[seat] == 0:
                if not self.leverage_supply:
                    # Broke with no leverage left (stand-in): the forecast carries no stake.
                    self.stakes[seat], self.forecast_done[seat] = 0, True
                    continue
                self._take_leverage(seat)
            self.pending = ["stake", seat]
            return
        if self.forecast_pass == 0 and self.forecast_mode == "sequential":
            self.forecast_pass, self.forecast_done = 1, [False] * self.num_players
            return
        if not self.revealed:
            self.revealed = True
            self._say(
                "forecasts: " + ", ".join(f"{self.who(s)} {self.bids[s]}/{self.stakes[s]}" for s in self.order(0))
            )
        self.phase = OPERATIONS_PHASE

    def _operations_flow(self, rng: np.random.Generator) -> None:
        if self.operation == OPERATIONS:
            self._end_operations()
        elif len(self.trick) < self.num_players:
            self.pending = ["play", (self.leader + len(self.trick)) % self.num_players]
        else:
            self._resolve_operation(rng)

    def winning_play(self) -> list[int] | None:
        """The play that wins the operation in ``trick``; ``None``: no winner."""
        plays = [p for p in self.trick if p[1] >= 0]
        if any(p[1] == SKUNK_BOMB for p in plays):
            return None
        for p in plays:
            if p[1] == ALPHA_STRIKE:
                return p
        suited = [p for p in plays if CARD_SUIT[p[1]] != NO_SUIT]
        if not suited:
            return None
        rules = self.rules
        target = effective_suit(suited[0])
        if rules.trump and any(effective_suit(p) == INTIMIDATION for p in suited):
            target = INTIMIDATION
        best = None
        for p in suited:
            if effective_suit(p) != target:
                continue
            if best is None:
                best = p
            elif rules.lowest_wins:
                best = p if face_value(p) < face_value(best) else best
            elif face_value(p) > face_value(best):
                best = p
        return best

    def _resolve_operation(self, rng: np.random.Generator) -> None:
        best = self.winning_play()
        plays = [p for p in self.trick if p[1] >= 0]
        for seat, c, _, _ in plays:
            self.discards[seat].append(c)
        number = self.operation + 1
        if best is None:
            self._say(f"operation {number}: no winner; {self.who(self.leader)} leads again")
            winner = -1
        else:
            winner, rank = best[0], CARD_RANK[best[1]]
            self.won[winner] += 1
            self.leader = winner
            self._say(f"operation {number}: {self.who(winner)} wins with {CARD_NAMES[best[1]]}")
            if rank == KING:
                self.influence[winner] += 1
            elif rank == JACK:
                self.regroup_used[winner] = False
            elif rank == QUEEN:
                self._draw(winner, 1, rng)
            shrews = sum(is_shrew(p) for p in plays)
            self._pay(winner, shrews * self.rules.shrew_cost)
        self.round_ops.append([winner, self.trick])
        self.trick = []
        self.operation += 1

    def _end_operations(self) -> None:
        """Unplayed cards are discarded; the last operation's winner (or leader) reinforces first."""
        for seat in range(self.num_players):
            for c in list(self.hands[seat]):
                self._leave_hand(seat, c)
                self.discards[seat].append(c)
        self.reinforce_first = self.leader
        self.phase, self.debrief_step = DEBRIEFING, PAYOUT

    def _debriefing_flow(self, rng: np.random.Generator) -> None:
        n = self.num_players
        if self.debrief_step == PAYOUT:
            self._pay_forecasts()
            self._pay_missions()
            self.debrief_step, self.repay_done = REPAY, [False] * n
        elif self.debrief_step == REPAY:
            for seat in self.order(self.start):
                if not self.repay_done[seat] and self.leverage[seat] and self.influence[seat] >= LEVERAGE_VALUE:
                    self.pending = ["repay", seat]
                    return
            if self.round == self.last_round:
                if not self.final_scores_tied() or self.extra_rounds == MAX_EXTRA_ROUNDS:
                    self.phase = OVER
                    self._say("game over: " + ", ".join(f"{self.who(s)} {v:g}" for s, v in enumerate(self.scores())))
                    return
                self.extra_rounds += 1
                self.last_round += 1
                self._say("the top is tied: one more round")
            self._new_row(rng)
            self.debrief_step, self.reinforce_turn = REINFORCE, 0
        elif self.reinforce_turn < 2 * n:
            self.pending = ["reinforce", (self.reinforce_first + self.reinforce_turn) % n]
        else:
            self._refresh_display()
            self.start = (self.start + 1) % n
            self.round += 1
            self._start_round(rng)

    def _pay_forecasts(self) -> None:
        gain = self.rules.forecast_gain
        for seat in range(self.num_players):
            stake = self.stakes[seat]
            if self.bids[seat] == self.won[seat]:
                self.influence[seat] += stake * (1 + gain)
                self._say(f"{self.who(seat)} met the forecast {self.bids[seat]}: +{stake * gain}")
            else:
                self._say(f"{self.who(seat)} missed the forecast {self.bids[seat]} ({self.won[seat]}): -{stake}")
            self.stakes[seat] = 0

    def _pay_missions(self) -> None:
        table = tuple(self.seat_round(s) for s in range(self.num_players))
        for slot, c in enumerate(self.row):
            if not is_mission(c):
                continue
            met = [s for s in range(self.num_players) if MISSIONS[c].test(table[s], table)]
            if met:
                share = ROW_REWARDS[slot] // len(met)
                for seat in met:
                    self.influence[seat] += share
                self._say(f"{MISSIONS[c].name}: {', '.join(self.who(s) for s in met)} +{share} each")

    def _new_row(self, rng: np.random.Generator) -> None:
        self.row_discard += self.row
        self.row = []
        for _ in ROW_REWARDS:
            if not self.row_deck:
                self.row_deck = [self.row_discard[i] for i in rng.permutation(len(self.row_discard))]
                self.row_discard = []
            self.row.append(self.row_deck.pop())
        self._say("next row: " + ", ".join(ROW_CARDS[c].name for c in self.row))

    def _refresh_display(self) -> None:
        """Unchosen display cards go under the special deck, in public view; a new display is dealt."""
        self.special_deck[:0] = self.display
        self.special_known += len(self.display)
        self.display = []
        for _ in range(self.num_players + 1):
            self.display.append(self.special_deck.pop())
        self.special_known = min(self.special_known, len(self.special_deck))

    # -- small mechanics -----------------------------------------------------------------------------
    def _draw(self, seat: int, count: int, rng: np.random.Generator) -> None:
        """Draw ``count`` cards (Alka one more); an empty deck is remade from the discard pile."""
        if count <= 0:
            return
        if self.characters[seat] == ALKA:
            count += 1
        deck, hand = self.decks[seat], self.hands[seat]
        for _ in range(count):
            if not deck:
                pile = self.discards[seat]
                if not pile:
                    return
                # Every card still hidden is in hand now; the new deck is the public pile.
                self.known[seat] = sorted(self.known[seat] + self.pool[seat])
                self.pool[seat], self.pool_in_hand[seat] = sorted(pile), 0
                deck[:] = [pile[i] for i in rng.permutation(len(pile))]
                self.discards[seat] = []
            insort(hand, deck.pop())
            self.pool_in_hand[seat] += 1
            self.voids[seat] = []  # a drawn card may be of any suit

    def _leave_hand(self, seat: int, card: int) -> None:
        """``card`` leaves the hand face up: a known card if one is, else one of the pool's."""
        self.hands[seat].remove(card)
        if card in self.known[seat]:
            self.known[seat].remove(card)
        else:
            self.pool[seat].remove(card)
            self.pool_in_hand[seat] -= 1

    def _note_void(self, seat: int, suit: int) -> None:
        if suit not in self.voids[seat]:
            insort(self.voids[seat], suit)

    def _take_leverage(self, seat: int) -> None:
        self.leverage[seat] += 1
        self.leverage_supply -= 1
        self.influence[seat] += LEVERAGE_VALUE
        self._say(f"{self.who(seat)} is broke and takes a leverage token")

    def _pay(self, seat: int, amount: int) -> None:
        """Pay ``amount`` one at a time, taking leverage when broke; waived once no leverage is left."""
        for _ in range(amount):
            if self.influence[seat] == 0:
                if not self.leverage_supply:
                    return
                self._take_leverage(seat)
            self.influence[seat] -= 1

    def who(self, seat: int) -> str:
        character = self.characters[seat]
        return f"P{seat} ({CHARACTERS[character]})" if character >= 0 else f"P{seat}"

    def _say(self, text: str) -> None:
        self.log.append(text)
        if len(self.log) > LOG_LENGTH:
            del self.log[0]

    # -- saving, copying, hidden information ---------------------------------------------------------
    _SCALARS = (
        ("mode", str),
        ("forecast_mode", str),
        ("character_mode", str),
        ("phase", str),
        ("round", int),
        ("last_round", int),
        ("extra_rounds", int),
        ("start", int),
        ("leverage_supply", int),
        ("special_known", int),
        ("forecast_pass", int),
        ("revealed", bool),
        ("operation", int),
        ("leader", int),
        ("armed", str),
        ("debrief_step", str),
        ("reinforce_first", int),
        ("reinforce_turn", int),
    )
    _FLAT = (
        "characters",
        "teams",
        "influence",
        "leverage",
        "pool_in_hand",
        "special_deck",
        "display",
        "row",
        "row_deck",
        "row_discard",
        "ghost_used",
        "regroup_used",
        "power_used",
        "bids",
        "stakes",
        "forecast_done",
        "won",
        "selection",
        "repay_done",
        "pending",
        "log",
    )
    _NESTED = ("hands", "decks", "discards", "removed", "known", "pool", "voids", "trick")

    @classmethod
    def _copy_lists(cls, source: Any) -> dict[str, Any]:
        """Fresh copies of every list field of ``source`` (a state, or a dict from ``to_dict``)."""
        get = source.__getitem__ if isinstance(source, dict) else source.__getattribute__
        out: dict[str, Any] = {name: list(get(name)) for name in cls._FLAT}
        for name in cls._NESTED:
            out[name] = [list(v) for v in get(name)]
        out["round_ops"] = [[int(w), [list(p) for p in trick]] for w, trick in get("round_ops")]
        return out

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"game": "spytails", "num_players": self.num_players}
        for name, _ in self._SCALARS:
            data[name] = getattr(self, name)
        data.update(self._copy_lists(self))
        return data

    @classmethod
    def from_dict(cls, data: Any) -> SpytailsState:
        """Read ``to_dict``'s output against ``STATE`` and the game's invariants (``validate``); ``ValueError``
        naming the offending field by its path otherwise."""
        fields = read(STATE, data)
        del fields["game"]
        state = cls(**fields)
        state.validate()
        return state

    def clone(self) -> SpytailsState:
        """A deep copy (without ``from_dict``'s validation: the position is already valid)."""
        return SpytailsState(
            num_players=self.num_players,
            **{name: getattr(self, name) for name, _ in self._SCALARS},
            **self._copy_lists(self),
        )

    def validate(self) -> None:
        """Raise ``ValueError`` if the position breaks the game's invariants."""
        problems = self._structure_problems()
        if not problems:
            problems = self._card_problems()
        if not problems and self.pending:
            problems = self._pending_problems()
        if not problems and self.pending and not self.legal_actions():
            problems.append(f"the open decision {self.pending!r} has no legal action")
        if problems:
            raise ValueError("invalid Spytails state: " + "; ".join(problems))

    def _pending_problems(self) -> list[str]:
        """The open decision is one the flow of this phase opens, for the seat whose turn it is."""
        kind, seat = self.pending
        if self.phase not in _DECISION_PHASES[kind]:
            return [f"pending: {kind!r} is not a decision of the {self.phase} phase"]
        if kind in ("reinforce", "remove"):
            ok = self.debrief_step == REINFORCE and self.reinforce_turn < 2 * self.num_players
            expected = (self.reinforce_first + self.reinforce_turn) % self.num_players if ok else None
        elif kind == "repay":
            waiting = [
                s
                for s in self.order(self.start)
                if not self.repay_done[s] and self.leverage[s] and self.influence[s] >= LEVERAGE_VALUE
            ]
            expected = waiting[0] if self.debrief_step == REPAY and waiting else None
        elif kind == "character":
            waiting = [s for s in self.order(self.start) if self.characters[s] < 0]
            expected = waiting[0] if waiting else None
        elif self.phase == FORECAST:
            waiting = [s for s in self.order(self.start) if not self.forecast_done[s]]
            expected = waiting[0] if waiting else None
            step = "bid" if self.bids[seat] < 0 else ("revise" if self.stakes[seat] >= 0 else "stake")
            if kind in ("bid", "stake", "revise") and kind != step:
                return [f"pending: seat {seat} with bid {self.bids[seat]} and stake {self.stakes[seat]} is to {step}"]
        else:  # a play, or a token's decision in the middle of one
            full = len(self.trick) >= self.num_players or self.operation >= OPERATIONS
            expected = None if full else (self.leader + len(self.trick)) % self.num_players
        if seat != expected:
            return [f"pending: seat {seat} is not the one to decide {kind!r} now (seat {expected})"]
        return []

    def _structure_problems(self) -> list[str]:
        n = self.num_players
        problems = []
        if not 2 <= n <= 4:
            return [f"num_players {n} not in 2..4"]
        for name, allowed in (
            ("mode", MODES),
            ("forecast_mode", FORECAST_MODES),
            ("character_mode", CHARACTER_MODES),
            ("phase", PHASES),
            ("debrief_step", DEBRIEF_STEPS),
            ("armed", ARMED),
        ):
            if getattr(self, name) not in allowed:
                problems.append(f"{name} {getattr(self, name)!r} not one of {allowed}")
        per_seat = (
            "characters",
            "influence",
            "leverage",
            "hands",
            "decks",
            "discards",
            "removed",
            "known",
            "pool",
            "pool_in_hand",
            "voids",
            "ghost_used",
            "regroup_used",
            "power_used",
            "bids",
            "stakes",
            "forecast_done",
            "won",
            "repay_done",
        )
        for name in per_seat:
            if len(getattr(self, name)) != n:
                problems.append(f"{name} has {len(getattr(self, name))} entries for {n} players")
        if problems:
            return problems
        want_teams = [0, 0, 1, 1] if self.mode == "partnership" else []
        if sorted(self.teams) != want_teams:
            problems.append(f"teams {self.teams} do not fit mode {self.mode!r} with {n} players")
        chosen = [c for c in self.characters if c >= 0]
        if len(set(chosen)) != len(chosen) or any(c >= len(CHARACTERS) for c in chosen):
            problems.append(f"characters {self.characters} must be distinct, 0..3")
        if self.phase != SETUP and len(chosen) != n:
            problems.append("every seat needs a character once the setup is over")
        if (self.phase == OVER) != (not self.pending):
            problems.append(f"pending {self.pending!r} must be empty exactly when the game is over")
        elif self.pending and (self.pending[0] not in DECISIONS or not 0 <= self.pending[1] < n):
            problems.append(f"pending {self.pending!r} is not a decision of a seat")
        if (
            min(self.influence) < 0
            or min(self.leverage) < 0
            or sum(self.leverage) + self.leverage_supply != LEVERAGE_TOKENS
        ):
            problems.append("influence and leverage must be >= 0 and the six leverage tokens accounted for")
        if not 0 <= self.operation <= OPERATIONS or len(self.trick) > n or not 0 <= self.start < n:
            problems.append(f"operation {self.operation}, trick or start token out of range")
        if self.phase == DEBRIEFING and self.debrief_step == REINFORCE and self.round >= self.last_round:
            problems.append(f"round {self.round} of {self.last_round + 1}: no reinforcements after the last round")
        if not self.round <= self.last_round <= max(map(rounds_for, (2, 3, 4))) - 1 + self.extra_rounds:
            problems.append(f"round {self.round} of {self.last_round + 1} with {self.extra_rounds} extra")
        for seat in range(n):
            forecast, staked = self.bids[seat] >= 0, self.stakes[seat] >= 0
            done = self.phase in (OPERATIONS_PHASE, DEBRIEFING) or (self.phase == FORECAST and self.forecast_done[seat])
            if (done and not (forecast and staked)) or (staked and not forecast):
                problems.append(
                    f"seat {seat}: bid {self.bids[seat]} and stake {self.stakes[seat]} do not fit the "
                    f"{self.phase} phase"
                )
        if len(self.round_ops) > self.operation or sum(self.won) > self.operation:
            problems.append(f"round_ops and won count more operations than the {self.operation} finished")
        for trick, leader in [(self.trick, self.leader)] + [(t, None) for _, t in self.round_ops]:
            first = trick[0][0] if leader is None and trick else leader
            if [p[0] for p in trick] != [(first + i) % n for i in range(len(trick))]:
                problems.append(f"the plays {trick} are not in turn from seat {first}")
        if not 0 <= self.special_known <= len(self.special_deck):
            problems.append(f"special_known {self.special_known} exceeds the special deck")
        if len(self.row) != len(ROW_REWARDS) or sorted(self.row + self.row_deck + self.row_discard) != list(
            range(NUM_ROW_CARDS)
        ):
            problems.append("the row, its deck and its discard must hold each mission/event card once")
        return problems

    def _card_problems(self) -> list[str]:
        problems = []
        specials: list[int] = self.special_deck + self.display
        for seat in range(self.num_players):
            played = [c for s, c, _, _ in self.trick if s == seat and c >= 0]
            hidden = self.hands[seat] + self.decks[seat]
            cards = hidden + self.discards[seat] + self.removed[seat] + played
            if cards and (min(cards) < 0 or max(cards) >= NUM_CARDS):
                problems.append(f"seat {seat} holds a card outside 0..{NUM_CARDS - 1}")
                continue
            basic = [c for c in cards if c in _BASIC]
            if len(set(basic)) != len(basic):
                problems.append(f"seat {seat} holds a basic card twice")
            specials += [c for c in cards if c not in _BASIC]
            known = self.known[seat]
            if sorted(known + self.pool[seat]) != sorted(hidden) or (
                known and Counter(known) - Counter(self.hands[seat])
            ):
                problems.append(f"seat {seat}: known + pool must be hand + deck, known cards in hand")
            if self.pool_in_hand[seat] != len(self.hands[seat]) - len(self.known[seat]):
                problems.append(f"seat {seat}: pool_in_hand must count the hand's cards that are not known")
            unknown = Counter(self.hands[seat]) - Counter(known)
            if self.voids[seat] and any(CARD_SUIT[c] in self.voids[seat] for c in unknown):
                problems.append(f"seat {seat} holds a card of a suit it showed void in")
        if sorted(specials) != list(SPECIAL_DECK):
            problems.append("the special cards in decks, display and piles must be the special deck")
        regrouping = self.pending[:1] == ["regroup"]
        if self.selection and Counter(self.selection) - Counter(self.hands[self.pending[1]] if regrouping else []):
            problems.append("the regroup selection must be cards of the regrouping hand")
        return problems

    def resample_hidden(self, seat: int, rng: np.random.Generator) -> SpytailsState:
        """Redraw what ``seat`` cannot see: the order of every deck (its own too), the others' hands
        within what the table knows of them, a regrouping seat's selection, and forecasts not yet revealed.

        The draw is a function of ``seat``'s information and ``rng`` only: two positions that differ
        in hidden information resample alike (hidden piles are sorted before shuffling).
        """
        state = self.clone()
        rules = self.rules
        for other in range(self.num_players):
            if other == seat:
                state.decks[seat] = _shuffled(state.decks[seat], rng)
                continue
            state._redeal(other, rng)
            if state.pending == ["regroup", other]:
                hand = state.hands[other]
                picks = rng.choice(len(hand), int(rng.integers(len(hand) + 1)), replace=False)
                state.selection = sorted(hand[i] for i in picks)
            if not state.revealed and state.bids[other] >= 0:
                state.bids[other] = int(rng.integers(MAX_BID + 1))
                if state.stakes[other] > 0:
                    total = state.influence[other] + state.stakes[other]
                    stake = int(rng.integers(1, min(total, rules.stake_cap) + 1))
                    state.influence[other], state.stakes[other] = total - stake, stake
        state.special_deck[state.special_known :] = _shuffled(state.special_deck[state.special_known :], rng)
        state.row_deck = _shuffled(state.row_deck, rng)
        return state

    def _redeal(self, seat: int, rng: np.random.Generator) -> None:
        """A random hand and deck for ``seat`` from its pool: no card of a suit it showed void in, and
        (a flipped Mimic or Mirage token waiting for its card) the cards that made the flip possible."""
        pool, void = self.pool[seat], self.voids[seat]
        fits = [c for c in pool if CARD_SUIT[c] not in void]
        drawn: list[int] = []
        for suits in self._flip_needs(seat):
            if not any(CARD_SUIT[c] in suits for c in self.known[seat] + drawn):
                options = [i for i, c in enumerate(fits) if CARD_SUIT[c] in suits]
                drawn.append(fits.pop(options[int(rng.integers(len(options)))]))
        drawn += _shuffled(fits, rng)[: self.pool_in_hand[seat] - len(drawn)]
        rest = list(pool)
        for c in drawn:
            rest.remove(c)
        self.hands[seat] = sorted(self.known[seat] + drawn)
        self.decks[seat] = _shuffled(rest, rng)

    def _flip_needs(self, seat: int) -> list[tuple[int, ...]]:
        """Suits of which ``seat``'s hand surely holds a card because its armed power was legal."""
        if self.pending != ["play", seat] or not self.armed:
            return []
        if self.armed == "mimic":
            return [PLAIN_SUITS]
        led = self.led_suit()
        return [(led,), tuple(s for s in range(len(SUITS)) if s != led)]


# The phases in which each decision opens.
_DECISION_PHASES = {
    "character": (SETUP,),
    "bid": (FORECAST,),
    "stake": (FORECAST,),
    "revise": (FORECAST,),
    "play": (OPERATIONS_PHASE,),
    "regroup": (FORECAST, OPERATIONS_PHASE),
    "echo_take": (FORECAST, OPERATIONS_PHASE),
    "echo_give": (FORECAST, OPERATIONS_PHASE),
    "reinforce": (DEBRIEFING,),
    "remove": (DEBRIEFING,),
    "repay": (DEBRIEFING,),
}

# -- what a saved state may hold --------------------------------------------------------------------------
MAX_PLAYERS = 4
MAX_PILE = len(BASIC_DECK) + len(SPECIAL_DECK)  # every card a seat could own
MAX_INFLUENCE = 999  # far above any game's (the observation clips at 40)
_CARD = Int(0, NUM_CARDS - 1, "a card")
_PILE = ListOf(_CARD, MAX_PILE)
_PLAY = Fields(
    (
        ("seat", Seat()),
        ("card", Int(GHOST_TOKEN, NUM_CARDS - 1, "a card (or the ghost token -1),")),
        ("low", Int(0, 1)),
        ("mimic", Int(0, 1)),
    )
)
_TRICK = ListOf(_PLAY, lambda context: context["num_players"])
_ROW_CARD = Int(0, NUM_ROW_CARDS - 1, "a mission/event card")
STATE = Record(
    {
        "game": Const("spytails"),
        "num_players": Int(2, MAX_PLAYERS, "a table of"),
        "mode": OneOf(MODES, "a mode:"),
        "forecast_mode": OneOf(FORECAST_MODES, "a forecast mode:"),
        "character_mode": OneOf(CHARACTER_MODES, "a character mode:"),
        "phase": OneOf(PHASES, "a phase:"),
        "round": Int(0, MAX_ROUNDS - 1, "a round"),
        "last_round": Int(0, MAX_ROUNDS - 1, "a round"),
        "extra_rounds": Int(0, MAX_EXTRA_ROUNDS, "a number of extra rounds"),
        "start": Seat(),
        "leverage_supply": Int(0, LEVERAGE_TOKENS, "a number of leverage tokens"),
        "special_known": Int(0, len(SPECIAL_DECK), "a number of cards"),
        "forecast_pass": Int(0, 1, "a forecast pass"),
        "revealed": Bool(),
        "operation": Int(0, OPERATIONS, "an operation"),
        "leader": Seat(),
        "armed": OneOf(ARMED, "an armed token:"),
        "debrief_step": OneOf(DEBRIEF_STEPS, "a debriefing step:"),
        "reinforce_first": Seat(),
        "reinforce_turn": Int(0, lambda context: 2 * context["num_players"], "a reinforcement turn"),
        "characters": PerSeat(Int(-1, len(CHARACTERS) - 1, "a character (or -1)")),
        "teams": ListOf(Int(0, 1, "a team"), MAX_PLAYERS),
        "influence": PerSeat(Int(0, MAX_INFLUENCE, "an influence")),
        "leverage": PerSeat(Int(0, LEVERAGE_TOKENS, "a number of leverage tokens")),
        "pool_in_hand": PerSeat(Int(0, MAX_PILE, "a number of cards")),
        "special_deck": ListOf(_CARD, len(SPECIAL_DECK)),
        "display": ListOf(_CARD, MAX_PLAYERS + 1),
        "row": ListOf(_ROW_CARD, len(ROW_REWARDS)),
        "row_deck": ListOf(_ROW_CARD, NUM_ROW_CARDS),
        "row_discard": ListOf(_ROW_CARD, NUM_ROW_CARDS),
        "ghost_used": PerSeat(Bool()),
        "regroup_used": PerSeat(Bool()),
        "power_used": PerSeat(Bool()),
        "bids": PerSeat(Int(-1, MAX_BID, "a bid (or -1)")),
        "stakes": PerSeat(Int(-1, MAX_STAKE, "a stake (or -1)")),
        "forecast_done": PerSeat(Bool()),
        "won": PerSeat(Int(0, OPERATIONS, "a number of operations")),
        "selection": _PILE,
        "repay_done": PerSeat(Bool()),
        "pending": EmptyOr(Fields((("decision", OneOf(DECISIONS, "a decision:")), ("seat", Seat())))),
        "log": ListOf(Str(), LOG_LENGTH),
        "hands": PerSeat(_PILE),
        "decks": PerSeat(_PILE),
        "discards": PerSeat(_PILE),
        "removed": PerSeat(_PILE),
        "known": PerSeat(_PILE),
        "pool": PerSeat(_PILE),
        "voids": PerSeat(ListOf(Int(0, len(SUITS) - 1, "a suit"), len(SUITS))),
        "trick": _TRICK,
        "round_ops": ListOf(Fields((("winner", Seat(-1)), ("trick", _TRICK))), OPERATIONS),
    },
    into=("num_players",),
)


def _shuffled(cards: list[int], rng: np.random.Generator) -> list[int]:
    """``cards`` in a random order that does not depend on their order now."""
    ordered = sorted(cards)
    return [ordered[i] for i in rng.permutation(len(ordered))]


def check_options(num_players: int, mode: str, forecast_mode: str, characters: str) -> None:
    """Raise ``ValueError`` for a table the game cannot seat."""
    if not 2 <= num_players <= 4:
        raise ValueError(f"Spytails is for 2-4 players, not {num_players}")
    for name, value, allowed in (
        ("mode", mode, MODES),
        ("forecast_mode", forecast_mode, FORECAST_MODES),
        ("characters", characters, CHARACTER_MODES),
    ):
        if value not in allowed:
            raise ValueError(f"{name} {value!r} is not one of {allowed}")
    if mode == "partnership" and num_players != 4:
        raise ValueError(f"partnership mode is for 4 players, not {num_players}")


def new_game(
    num_players: int,
    rng: np.random.Generator,
    mode: str = "individual",
    forecast_mode: str = "sequential",
    characters: str = "dealt",
) -> SpytailsState:
    """Set the table up: start token, teams, characters (dealt, or chosen seat by seat), decks,
    display, mission/event row; then the first hands are drawn and the forecast opens."""
    n = num_players
    check_options(n, mode, forecast_mode, characters)
    start = int(rng.integers(n))
    teams = [int(t) for t in rng.permutation([0, 0, 1, 1])] if mode == "partnership" else []
    dealt = [int(c) for c in rng.permutation(len(CHARACTERS))[:n]] if characters == "dealt" else [-1] * n
    special = [SPECIAL_DECK[i] for i in rng.permutation(len(SPECIAL_DECK))]
    display = [special.pop() for _ in range(n + 1)]
    row_deck = [int(c) for c in rng.permutation(NUM_ROW_CARDS)]
    row = [row_deck.pop() for _ in ROW_REWARDS]
    state = SpytailsState(
        num_players=n,
        mode=mode,
        forecast_mode=forecast_mode,
        character_mode=characters,
        phase=SETUP,
        last_round=rounds_for(n) - 1,
        start=start,
        characters=dealt,
        teams=teams,
        influence=[START_INFLUENCE] * n,
        leverage=[0] * n,
        hands=[[] for _ in range(n)],
        decks=[list(BASIC_DECK) for _ in range(n)],
        discards=[[] for _ in range(n)],
        removed=[[] for _ in range(n)],
        known=[[] for _ in range(n)],
        pool=[sorted(BASIC_DECK) for _ in range(n)],
        voids=[[] for _ in range(n)],
        pool_in_hand=[0] * n,
        special_deck=special,
        display=display,
        row=row,
        row_deck=row_deck,
        ghost_used=[False] * n,
        regroup_used=[False] * n,
        power_used=[False] * n,
        bids=[-1] * n,
        stakes=[-1] * n,
        forecast_done=[False] * n,
        won=[0] * n,
        repay_done=[False] * n,
        leader=start,
    )
    state._advance(rng)
    return state
