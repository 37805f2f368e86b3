"""Libertalia's engine: the complete 2012 rules as a plain-Python state machine.

A ``LibertaliaState`` carries the whole position, the open decision
(``pending``) and everything the public knows about hidden cards.  ``apply``
carries out one decision and then every automatic step after it, stopping at
the next decision.  No gymnasium or pettingzoo here; chance comes from the
``numpy.random.Generator`` handed to ``apply`` and ``new_game``.

Rulings are ``../shared/rules/libertalia.md``; ``docs/rules/libertalia.md``
says how each one is implemented.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from bidbluff.envs.core.codec import Action
from bidbluff.envs.core.game import TERMINAL, GameState, bounded, plain
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
    Tally,
    ensure,
    read,
)
from bidbluff.envs.libertalia.content import (
    BAG,
    BOOTY_NAMES,
    BOOTY_VALUE,
    CAMPAIGNS,
    CHARACTERS,
    COLOURS,
    DAYS,
    DEAL_SIZES,
    MAP_SET_VALUE,
    NUM_RANKS,
    START_DOUBLOONS,
    Booty,
    Rank,
    tie_break,
)

REVEAL = "sunrise: "  # the public log line that turns the day's cards over
_REVEALED = re.compile(r"P(\d+) \(\w+\) [^,()]+ \((\d+)\)")  # one seat's card in it: _who, the name, (rank)

# Phases with decisions.  Night and the campaign's end are automatic.
SUNRISE, PARROT, DAY, DUSK, OVER = "sunrise", "parrot", "day", "dusk", "over"
PHASES = (SUNRISE, PARROT, DAY, DUSK, OVER)

# Each step of the automatic flow ends a phase, so between two decisions it takes at most every phase
# of the game once (four a day); twice that is its bound.
FLOW_STEPS = 2 * CAMPAIGNS * DAYS * 4

# Decisions (``pending[0]``) and the action kind each one takes.
DECISIONS = ("play", "parrot", "recruit", "surgeon", "keep", "trade", "gunner", "booty", "sabre")
_DECISION_PHASE = {
    "play": SUNRISE,
    "parrot": PARROT,
    "recruit": DAY,
    "surgeon": DAY,
    "keep": DAY,
    "trade": DAY,
    "gunner": DAY,
    "booty": DUSK,
    "sabre": DUSK,
}
# The day decisions: the ship card at the cursor that opens each one.
_DECISION_RANK = {
    "parrot": Rank.PARROT,
    "recruit": Rank.RECRUITER,
    "surgeon": Rank.SURGEON,
    "keep": Rank.PREACHER,
    "trade": Rank.MERCHANT,
    "gunner": Rank.GUNNER,
}


def booty_total(counts: list[int]) -> int:
    """Campaign-end value of a den's booty: chests, jewels, goods, map sets, relics."""
    value = sum(c * v for c, v in zip(counts, BOOTY_VALUE, strict=True))
    return value + (counts[Booty.MAP] // 3) * MAP_SET_VALUE


@dataclass
class HiddenGroup:
    """Cards that the public knows only as a group: ``in_hand`` of ``members``
    went back to the owner's hand through the Surgeon, the others are in the
    discard pile (or out of the game once ``campaign`` is over)."""

    members: list[int]
    in_hand: int
    campaign: int

    def to_list(self) -> list:
        return [sorted(self.members), self.in_hand, self.campaign]


@dataclass(eq=False)
class LibertaliaState(GameState):
    validated: ClassVar[bool] = True
    num_players: int
    campaign: int = 0
    day: int = 0
    phase: str = SUNRISE
    undealt: list[int] = field(default_factory=list)
    hands: list[list[int]] = field(default_factory=list)
    chosen: list[int] = field(default_factory=list)  # sunrise picks, 0 = not yet; hidden
    ship: list[list[int]] = field(default_factory=list)  # [seat, rank], left to right
    cursor: int = 0  # next ship index to resolve at sunrise and day
    dusk_picks: int = -1  # tokens still to take by ship[-1] at dusk; -1: not started
    dusk_officer: bool = False  # ship[-1] took a Spanish officer: discard, not den
    dens: list[list[int]] = field(default_factory=list)
    den_booty: list[list[int]] = field(default_factory=list)
    discards: list[list[int]] = field(default_factory=list)
    doubloons: list[int] = field(default_factory=list)
    score: list[int] = field(default_factory=list)
    campaign_totals: list[list[int]] = field(default_factory=list)
    booty_days: list[list[int]] = field(default_factory=list)  # [day][token type] count
    bag: list[int] = field(default_factory=list)
    hidden: list[list[HiddenGroup]] = field(default_factory=list)
    pending: list[Any] = field(default_factory=list)  # [decision, seat] or [] when over
    log: list[list[Any]] = field(default_factory=list)  # [seat who may read it or -1, text]

    # -- the GameState contract ----------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.phase == OVER else self.pending[1]

    def legal_actions(self) -> list[Action]:
        if not self.pending:
            return []
        kind, seat = self.pending
        if kind == "play" or kind == "parrot":
            return [(kind, r) for r in self.hands[seat]]
        if kind == "recruit":
            return [(kind, r) for r in self.dens[seat]]
        if kind == "surgeon":
            return [(kind, r) for r in self.discards[seat]]
        if kind == "keep":
            return [(kind, t) for t, c in enumerate(self.den_booty[seat]) if c]
        if kind == "trade":
            counts = self.den_booty[seat]
            return [(kind, t, k) for t, c in enumerate(counts) for k in (2, 3) if c >= k]
        if kind == "booty":
            return [(kind, t) for t, c in enumerate(self.booty_days[self.day]) if c]
        if kind == "sabre" or kind == "gunner":
            owners = self.neighbours(seat) if kind == "sabre" else range(self.num_players)
            return [(kind, o, r) for o in owners for r in self.dens[o]]
        raise AssertionError(f"unknown decision {kind}")

    def apply(self, action: Action, rng: np.random.Generator) -> None:
        kind, seat = self.pending
        if action[0] != kind:
            raise ValueError(f"{action!r} does not answer the open decision {kind!r}")
        getattr(self, f"_on_{kind}")(seat, *action[1:])
        self._advance(rng)

    def scores(self) -> list[float]:
        return [float(s) for s in self.score]

    # -- helpers that the rules and the codec share --------------------------
    def neighbours(self, seat: int) -> list[int]:
        """Left and right neighbours; with two players the one opponent is both."""
        n = self.num_players
        return sorted({(seat + 1) % n, (seat - 1) % n})

    def ship_key(self, seat: int, rank: int) -> tuple[int, int]:
        return (rank, tie_break(seat, rank))

    def known_hand(self, seat: int) -> list[int]:
        """The part of ``seat``'s hand that everyone knows."""
        grouped = {r for g in self.hidden[seat] for r in g.members}
        return [r for r in self.hands[seat] if r not in grouped]

    def known_discard(self, seat: int) -> list[int]:
        grouped = {r for g in self.hidden[seat] for r in g.members}
        return [r for r in self.discards[seat] if r not in grouped]

    def possible_hand(self, seat: int) -> list[int]:
        """Every card that ``seat`` may hold, as the other players see it."""
        grouped = {r for g in self.hidden[seat] for r in g.members}
        return sorted(set(self.known_hand(seat)) | grouped)

    def hidden_count(self, seat: int) -> int:
        return sum(g.in_hand for g in self.hidden[seat])

    # -- decisions -------------------------------------------------------------
    def _on_play(self, seat: int, rank: int) -> None:
        self.chosen[seat] = rank
        self.pending = []

    def _on_parrot(self, seat: int, rank: int) -> None:
        parrot = self.ship.pop(self.cursor)
        self.discards[seat].append(parrot[1])
        self._say(-1, f"{self._who(seat)}'s Parrot flies off; {CHARACTERS[rank]} ({rank}) takes its place")
        self._play_from_hand(seat, rank)
        self._board(seat, rank)
        self.pending = []

    def _on_recruit(self, seat: int, rank: int) -> None:
        self.dens[seat].remove(rank)
        self._insert_sorted(self.hands[seat], rank)
        self._say(-1, f"{self._who(seat)}'s Recruiter takes {CHARACTERS[rank]} ({rank}) back to hand")
        self._finish_day_card()

    def _on_surgeon(self, seat: int, rank: int) -> None:
        # Others see the pile as it was and that one card left it, not which:
        # the pile and this campaign's earlier groups become one group.
        current = [g for g in self.hidden[seat] if g.campaign == self.campaign]
        members = set(self.known_discard(seat)) | {r for g in current for r in g.members}
        in_hand = sum(g.in_hand for g in current) + 1
        self.discards[seat].remove(rank)
        self._insert_sorted(self.hands[seat], rank)
        self.hidden[seat] = [g for g in self.hidden[seat] if g.campaign != self.campaign]
        self.hidden[seat].append(HiddenGroup(sorted(members), in_hand, self.campaign))
        self._settle_groups(seat)
        self._say(seat, f"your Surgeon brings back {CHARACTERS[rank]} ({rank})")
        self._say(-1, f"{self._who(seat)}'s Surgeon brings a discarded character back to hand, unseen")
        self._finish_day_card()

    def _on_keep(self, seat: int, token: int) -> None:
        counts = self.den_booty[seat]
        for t in range(len(counts)):
            self.bag[t] += counts[t] - (t == token)
            counts[t] = int(t == token)
        self._say(-1, f"{self._who(seat)}'s Preacher keeps only a {BOOTY_NAMES[token]}")
        self._finish_day_card()

    def _on_trade(self, seat: int, token: int, count: int) -> None:
        self.den_booty[seat][token] -= count
        self.bag[token] += count
        gain = 3 if count == 2 else 5
        self.doubloons[seat] += gain
        self._say(-1, f"{self._who(seat)}'s Merchant trades {count} {BOOTY_NAMES[token]} for {gain}")
        self._finish_day_card()

    def _on_gunner(self, seat: int, owner: int, rank: int) -> None:
        self._kill_in_den(owner, rank, f"{self._who(seat)}'s Gunner")
        self._finish_day_card()

    def _on_booty(self, seat: int, token: int) -> None:
        self.booty_days[self.day][token] -= 1
        self.den_booty[seat][token] += 1
        self.dusk_picks -= 1
        card = CHARACTERS[self.ship[-1][1]]
        self._say(-1, f"{self._who(seat)}'s {card} takes a {BOOTY_NAMES[token]}")
        self.pending = []
        if token == Booty.OFFICER:
            self.dusk_officer = True
        elif token == Booty.SABRE and any(self.dens[o] for o in self.neighbours(seat)):
            self.pending = ["sabre", seat]

    def _on_sabre(self, seat: int, owner: int, rank: int) -> None:
        self._kill_in_den(owner, rank, f"{self._who(seat)}'s sabre")
        self.pending = []

    # -- the automatic flow ------------------------------------------------------
    def _advance(self, rng: np.random.Generator) -> None:
        """Run automatic steps until someone must decide or the game is over."""
        for _ in bounded(self, FLOW_STEPS, "Libertalia's automatic flow"):
            if self.pending or self.phase == OVER:
                return
            if self.phase == SUNRISE:
                self._sunrise()
            elif self.phase == PARROT:
                self._parrots()
            elif self.phase == DAY:
                self._day(rng)
            else:
                self._dusk(rng)

    def _sunrise(self) -> None:
        for seat in range(self.num_players):
            # An empty hand plays nothing that day (stand-in: the rules never
            # run out of cards in practice, see docs/rules/libertalia.md).
            if not self.chosen[seat] and self.hands[seat]:
                self.pending = ["play", seat]
                return
        self.log = []
        for seat, rank in enumerate(self.chosen):
            if rank:
                self._play_from_hand(seat, rank)
                self._board(seat, rank)
        self._say(-1, REVEAL + ", ".join(f"{self._who(s)} {CHARACTERS[r]} ({r})" for s, r in self.ship))
        self.chosen = [0] * self.num_players
        self.phase, self.cursor = PARROT, 0

    def _parrots(self) -> None:
        # Parrots are rank 1, so they all sit at the left end of the row.
        while self.cursor < len(self.ship) and self.ship[self.cursor][1] == Rank.PARROT:
            seat = self.ship[self.cursor][0]
            if self.hands[seat]:
                self.pending = ["parrot", seat]
                return
            self.cursor += 1  # no card to replace it with: a plain rank-1 card
        self.phase, self.cursor = DAY, 0

    def _day(self, rng: np.random.Generator) -> None:
        while self.cursor < len(self.ship):
            seat, rank = self.ship[self.cursor]
            decision = self._day_ability(seat, rank, rng)
            if decision:
                self.pending = [decision, seat]
                return
            if self.cursor < len(self.ship) and self.ship[self.cursor] == [seat, rank]:
                self.cursor += 1  # else the Brute discarded itself: the next card is here
        self.phase, self.dusk_picks, self.dusk_officer = DUSK, -1, False

    def _finish_day_card(self) -> None:
        self.cursor += 1
        self.pending = []

    def _day_ability(self, seat: int, rank: int, rng: np.random.Generator) -> str | None:
        """Resolve ``rank``'s day ability; return the decision it opens, if any."""
        d = self.doubloons
        booty = self.den_booty[seat]
        who = self._who(seat)
        if rank == Rank.MONKEY:
            left = (seat + 1) % self.num_players
            moved, booty[Booty.RELIC] = booty[Booty.RELIC], 0
            self.den_booty[left][Booty.RELIC] += moved
            if moved:
                self._say(-1, f"{who}'s Monkey passes {moved} cursed relic(s) to {self._who(left)}")
        elif rank == Rank.BEGGAR:
            giver = self.ship[-1][0]
            if giver != seat:
                paid = min(3, d[giver])
                d[giver] -= paid
                d[seat] += paid
                self._say(-1, f"{self._who(giver)} gives {who}'s Beggar {paid}")
        elif rank == Rank.RECRUITER:
            return "recruit" if self.dens[seat] else None
        elif rank == Rank.PREACHER:
            return "keep" if sum(booty) > 1 else None
        elif rank == Rank.CARPENTER:
            d[seat] -= d[seat] // 2
        elif rank == Rank.FRENCH_OFFICER:
            if d[seat] < 9:
                d[seat] += 5
        elif rank == Rank.VOODOO_WITCH:
            d[seat] += 2 * len(self.discards[seat])
        elif rank == Rank.BRUTE:
            victim_seat, victim = self.ship.pop()
            self.discards[victim_seat].append(victim)
            self._say(-1, f"{who}'s Brute throws {self._who(victim_seat)}'s {CHARACTERS[victim]} overboard")
        elif rank == Rank.GUNNER:
            d[seat] -= min(3, d[seat])
            return "gunner" if any(self.dens) else None
        elif rank == Rank.SPANISH_SPY:
            officers, booty[Booty.OFFICER] = booty[Booty.OFFICER], 0
            self.bag[Booty.OFFICER] += officers
            drawn = self._draw(officers, rng)
            for t in drawn:
                booty[t] += 1
            if officers:
                names = ", ".join(BOOTY_NAMES[t] for t in drawn)
                self._say(-1, f"{who}'s Spanish Spy trades {officers} officer(s) for {names}")
        elif rank == Rank.MERCHANT:
            return "trade" if max(booty) >= 2 else None
        elif rank == Rank.SURGEON:
            return "surgeon" if self.discards[seat] else None
        elif rank == Rank.GAMBLER:
            d[seat] -= min(sum(booty), d[seat])
        elif rank == Rank.QUARTERMASTER:
            d[seat] += sum(booty)
        elif rank == Rank.CAPTAIN:
            d[seat] += 3
        elif rank == Rank.SPANISH_GOVERNOR:
            self.discards[seat].extend(self.dens[seat])
            self.dens[seat] = []
        return None

    def _dusk(self, rng: np.random.Generator) -> None:
        row = self.booty_days[self.day]
        while self.ship:
            seat, rank = self.ship[-1]
            if self.dusk_picks < 0:
                self.dusk_picks = {Rank.CABIN_BOY: 0, Rank.COOK: 2}.get(rank, 1)
                self.dusk_officer = False
            if self.dusk_picks > 0 and any(row):
                self.pending = ["booty", seat]
                return
            self.ship.pop()
            if self.dusk_officer:
                self.discards[seat].append(rank)
                self._say(-1, f"a Spanish officer arrests {self._who(seat)}'s {CHARACTERS[rank]}")
            else:
                self._insert_sorted(self.dens[seat], rank)
            self.dusk_picks, self.dusk_officer = -1, False
        self._night()
        self.day += 1
        self.phase = SUNRISE
        if self.day == DAYS:
            self._end_campaign(rng)

    def _night(self) -> None:
        wata = [s for s in range(self.num_players) if Rank.GRANNY_WATA in self.dens[s]]
        if len(wata) == 1:
            self.doubloons[wata[0]] += 2
        for s in wata if len(wata) > 1 else ():
            self.dens[s].remove(Rank.GRANNY_WATA)
            self.discards[s].append(Rank.GRANNY_WATA)
        if len(wata) > 1:
            self._say(-1, "night: the Granny Watas fall out; all are discarded")
        for seat in range(self.num_players):
            den, booty = self.dens[seat], self.den_booty[seat]
            gain = 0
            if Rank.BARKEEP in den:
                gain += 1
            if Rank.WAITRESS in den and booty[Booty.MAP]:
                booty[Booty.MAP] -= 1
                self.bag[Booty.MAP] += 1
                gain += 3
            if Rank.FREED_SLAVE in den:
                gain += 2 * sum(1 for r in den if r > Rank.FREED_SLAVE)
            if Rank.BOSUN in den:
                gain += 2 * sum(1 for r in den if r < Rank.BOSUN)
            if Rank.ARMORER in den:
                gain += booty[Booty.SABRE]
            if Rank.MUTINEER in den and len(den) > 1:
                victim = den[0] if den[0] != Rank.MUTINEER else den[1]
                den.remove(victim)
                self.discards[seat].append(victim)
                gain += 2
                self._say(-1, f"night: {self._who(seat)}'s Mutineer throws out {CHARACTERS[victim]} ({victim})")
            self.doubloons[seat] += gain

    def _end_campaign(self, rng: np.random.Generator) -> None:
        n = self.num_players
        fewest = min(len(d) for d in self.dens)
        daughters = sum(Rank.GOVERNORS_DAUGHTER in d for d in self.dens)
        totals = []
        for seat in range(n):
            den, booty = self.dens[seat], self.den_booty[seat]
            total = self.doubloons[seat] + booty_total(booty)
            total += sum(self._anchor(r, den, booty, fewest, daughters) for r in den)
            totals.append(max(0, total))
        for seat in range(n):
            self.score[seat] += totals[seat]
        self.campaign_totals.append(totals)
        self._say(-1, f"campaign {self.campaign + 1} scores: {', '.join(map(str, totals))}")
        for seat in range(n):
            # Den and discard characters leave the game, booty goes back to the bag;
            # unplayed cards stay in hand.
            self.dens[seat] = []
            self.discards[seat] = []
            self.den_booty[seat] = [0] * len(BAG)
        if self.campaign + 1 == CAMPAIGNS:
            self.phase = OVER
            self.pending = []
            return
        self.campaign += 1
        self._start_campaign(rng)

    @staticmethod
    def _anchor(rank: int, den: list[int], booty: list[int], fewest: int, daughters: int) -> int:
        if rank == Rank.PREACHER:
            return 5
        if rank == Rank.CARPENTER:
            return 10
        if rank == Rank.TOPMAN:
            return 5 if len(den) == fewest else 0
        if rank == Rank.TREASURER:
            return booty[Booty.CHEST] + booty[Booty.JEWELS] + booty[Booty.GOODS]
        if rank == Rank.GAMBLER:
            return 8
        if rank == Rank.GOVERNORS_DAUGHTER:
            return 6 if daughters == 1 else -3
        if rank == Rank.QUARTERMASTER:
            return -8
        if rank == Rank.FIRST_MATE:
            return len(den)
        if rank == Rank.CAPTAIN:
            return -3 * booty[Booty.RELIC]
        return 0

    def _start_campaign(self, rng: np.random.Generator) -> None:
        n = self.num_players
        deal = sorted(int(r) for r in rng.choice(self.undealt, DEAL_SIZES[self.campaign], replace=False))
        self.undealt = [r for r in self.undealt if r not in deal]
        for seat in range(n):
            self.hands[seat] = sorted(self.hands[seat] + deal)
        self.doubloons = [START_DOUBLOONS] * n
        self.bag = list(BAG)
        self.booty_days = [self._count(self._draw(n, rng)) for _ in range(DAYS)]
        self.day, self.phase, self.cursor = 0, SUNRISE, 0
        self.chosen = [0] * n
        self._say(-1, f"campaign {self.campaign + 1}: everyone receives " + ", ".join(map(str, deal)))

    # -- small mechanics ----------------------------------------------------------
    def _draw(self, k: int, rng: np.random.Generator) -> list[int]:
        """Draw ``k`` tokens blind from the bag (fewer if it runs out)."""
        drawn = []
        for _ in range(min(k, sum(self.bag))):
            pick = int(rng.integers(sum(self.bag)))  # each token in the bag equally likely
            t = 0
            while pick >= self.bag[t]:
                pick -= self.bag[t]
                t += 1
            self.bag[t] -= 1
            drawn.append(t)
        return drawn

    @staticmethod
    def _count(tokens: list[int]) -> list[int]:
        counts = [0] * len(BAG)
        for t in tokens:
            counts[t] += 1
        return counts

    @staticmethod
    def _insert_sorted(cards: list[int], rank: int) -> None:
        cards.append(rank)
        cards.sort()

    def _board(self, seat: int, rank: int) -> None:
        """Place ``seat``'s card on the ship where rank and tie-break number put it."""
        key = self.ship_key(seat, rank)
        i = 0
        while i < len(self.ship) and self.ship_key(*self.ship[i]) < key:
            i += 1
        self.ship.insert(i, [seat, rank])

    def _play_from_hand(self, seat: int, rank: int) -> None:
        """``rank`` leaves the hand face up; if it was a hidden card, the public learns it."""
        self.hands[seat].remove(rank)
        for group in self.hidden[seat]:
            if rank in group.members:
                group.members.remove(rank)
                group.in_hand -= 1
        self._settle_groups(seat)

    def _settle_groups(self, seat: int) -> None:
        """Drop groups the public can now resolve: none or all of them in hand."""
        self.hidden[seat] = [g for g in self.hidden[seat] if 0 < g.in_hand < len(g.members)]

    def _kill_in_den(self, owner: int, rank: int, by: str) -> None:
        self.dens[owner].remove(rank)
        self.discards[owner].append(rank)
        self._say(-1, f"{by} discards {self._who(owner)}'s {CHARACTERS[rank]} ({rank})")

    def last_reveal(self) -> tuple[tuple[int, int] | None, dict[int, int]]:
        """The last sunrise turned over, as every player saw it: ``((campaign, day), {seat: card})``, read from
        the public log (which holds it until the next reveal); ``(None, {})`` before the first."""
        for reader, text in self.log:
            if reader == -1 and text.startswith(REVEAL):
                picks = {int(s): int(r) for s, r in _REVEALED.findall(text)}
                if self.phase != SUNRISE:
                    return (self.campaign, self.day), picks
                # at sunrise the log still holds the day before's reveal (the campaign before's last day)
                return ((self.campaign, self.day - 1) if self.day else (self.campaign - 1, DAYS - 1)), picks
        return None, {}

    def _who(self, seat: int) -> str:
        return f"P{seat} ({COLOURS[seat]})"

    def _say(self, reader: int, text: str) -> None:
        self.log.append([reader, text])

    # -- saving, copying, hidden information --------------------------------------
    _LISTS = (
        "undealt",
        "hands",
        "chosen",
        "ship",
        "dens",
        "den_booty",
        "discards",
        "doubloons",
        "score",
        "campaign_totals",
        "booty_days",
        "bag",
        "pending",
        "log",
    )

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "game": "libertalia",
            "num_players": self.num_players,
            "campaign": self.campaign,
            "day": self.day,
            "phase": self.phase,
            "cursor": self.cursor,
            "dusk_picks": self.dusk_picks,
            "dusk_officer": self.dusk_officer,
            "hidden": [[g.to_list() for g in groups] for groups in self.hidden],
        }
        for name in self._LISTS:
            data[name] = plain(getattr(self, name))
        return data

    def clone(self) -> LibertaliaState:
        """A deep copy, without ``from_dict``'s validation: the position is already valid (searches clone at
        every simulation).  Every list field holds numbers, strings or lists of them."""
        return LibertaliaState(
            num_players=self.num_players,
            campaign=self.campaign,
            day=self.day,
            phase=self.phase,
            cursor=self.cursor,
            dusk_picks=self.dusk_picks,
            dusk_officer=self.dusk_officer,
            hidden=[[HiddenGroup(list(g.members), g.in_hand, g.campaign) for g in groups] for groups in self.hidden],
            **{name: [x[:] if type(x) is list else x for x in getattr(self, name)] for name in self._LISTS},
        )

    @classmethod
    def from_dict(cls, data: Any) -> LibertaliaState:
        """Read ``to_dict``'s output against ``STATE`` and the game's invariants (``validate``); ``ValueError``
        naming the offending field by its path otherwise."""
        fields = read(STATE, data)
        del fields["game"]
        fields["hidden"] = [[HiddenGroup(*g) for g in groups] for groups in fields["hidden"]]
        state = cls(**fields)
        state.validate()
        return state

    def validate(self) -> None:
        """Raise ``ValueError`` naming the field if the position breaks the game's invariants: where each
        card is, the booty counted, the open decision one that this phase and ship would ask."""
        n, phase, pending = self.num_players, self.phase, self.pending
        ensure((phase == OVER) == (not pending), "pending", f"{pending!r} must be empty exactly when the game is over")
        ensure(self.day < DAYS or phase == OVER, "day", f"{self.day} is past the last day of a live campaign")
        dealt = set(range(1, NUM_RANKS + 1)) - set(self.undealt)
        ensure(len(dealt) + len(self.undealt) == NUM_RANKS, "undealt", "names a rank twice")
        ensure(
            len(self.undealt) >= sum(DEAL_SIZES[self.campaign + 1 :]),
            "undealt",
            f"{len(self.undealt)} ranks cannot deal the campaigns after campaign {self.campaign + 1}",
        )
        for seat in range(n):
            cards = Tally()
            for name in ("hands", "dens", "discards"):
                cards.add(f"{name}[{seat}]", getattr(self, name)[seat])
            cards.add("ship", (r for s, r in self.ship if s == seat))
            cards.conserved(Counter(dealt), f"seat {seat}'s cards", lambda r: f"rank {r}", at_most=True)
            for name in ("hands", "dens"):
                cards = getattr(self, name)[seat]
                ensure(cards == sorted(cards), f"{name}[{seat}]", f"{cards} is not in rank order")
            chosen = self.chosen[seat]
            ensure(
                not chosen or (phase == SUNRISE and chosen in self.hands[seat]),
                f"chosen[{seat}]",
                f"{chosen} is not a card of its hand chosen at sunrise",
            )
            for i, group in enumerate(self.hidden[seat]):
                at = f"hidden[{seat}][{i}]"
                members, hand = set(group.members), set(self.hands[seat])
                ensure(group.members == sorted(members), at, f"{group.members} are not distinct ranks in order")
                ensure(
                    group.in_hand == len(members & hand) and 0 < group.in_hand < len(members),
                    at,
                    f"{group.in_hand} of {sorted(members)} in hand: not a group the table cannot tell",
                )
                ensure(
                    group.campaign <= self.campaign and members <= dealt,
                    at,
                    f"campaign {group.campaign} or ranks {sorted(members - dealt)} not dealt yet",
                )
                gone = members - hand  # the rest: in the discard pile this campaign, out of the game after it
                pile = set(self.discards[seat])
                if group.campaign == self.campaign and phase != OVER:
                    ensure(gone <= pile, at, f"{sorted(gone - pile)} are neither in hand nor in the discard pile")
                else:
                    seen = pile | set(self.dens[seat]) | {r for s, r in self.ship if s == seat}
                    ensure(not gone & seen, at, f"{sorted(gone & seen)} left the game with an earlier campaign")
        ship_seats = [s for s, _ in self.ship]
        ensure(len(set(ship_seats)) == len(ship_seats), "ship", "holds two cards of one seat")
        ensure(self.ship == sorted(self.ship, key=lambda c: self.ship_key(*c)), "ship", "is not in boarding order")
        ensure(phase not in (SUNRISE, OVER) or not self.ship, "ship", f"holds cards at {phase}")
        ensure(
            phase not in (PARROT, DAY) or self.cursor <= len(self.ship),
            "cursor",
            f"{self.cursor} is past the {len(self.ship)} ship cards",
        )
        tokens = Tally()
        for name in ("bag", "den_booty", "booty_days"):
            rows = [getattr(self, name)] if name == "bag" else getattr(self, name)
            for i, row in enumerate(rows):
                tokens.add(name if name == "bag" else f"{name}[{i}]", (t for t, k in enumerate(row) for _ in range(k)))
        # at most the 50 tokens (hand-set positions may leave some out of play)
        tokens.conserved(Counter({t: k for t, k in enumerate(BAG)}), "booty", lambda t: BOOTY_NAMES[t], at_most=True)
        if pending:
            self._check_pending()

    def _check_pending(self) -> None:
        """The open decision is one the flow would open here, for the seat it names, with a legal answer."""
        kind, seat = self.pending
        phase, ship = self.phase, self.ship
        ensure(phase == _DECISION_PHASE[kind], "pending", f"{kind!r} is not a decision of the {phase} phase")
        if kind == "play":
            waiting = [s for s in range(self.num_players) if not self.chosen[s] and self.hands[s]]
            ensure(waiting[:1] == [seat], "pending", f"seat {seat} is not the next to choose at sunrise")
        elif kind in ("booty", "sabre"):
            ensure(bool(ship) and ship[-1][0] == seat, "pending", f"seat {seat} has not the last card on the ship")
            ensure(self.dusk_picks >= (kind == "booty"), "dusk_picks", f"{self.dusk_picks} picks left for {kind!r}")
        else:
            ensure(
                self.cursor < len(ship) and ship[self.cursor][0] == seat,
                "pending",
                f"seat {seat} has not the ship card at the cursor",
            )
            rank = ship[self.cursor][1]
            ensure(_DECISION_RANK[kind] == rank, "pending", f"{CHARACTERS[rank]} does not ask for {kind!r}")
        ensure(bool(self.legal_actions()), "pending", f"the open decision {self.pending!r} has no legal action")

    def resample_hidden(self, seat: int, rng: np.random.Generator) -> LibertaliaState:
        """Redraw what ``seat`` cannot see: others' unrevealed sunrise picks and
        which cards their Surgeons took back."""
        state = self.clone()
        for other in range(self.num_players):
            if other == seat:
                continue
            groups = state.hidden[other]
            grouped = {r for g in groups for r in g.members}
            hand = [r for r in state.hands[other] if r not in grouped]
            pile = [r for r in state.discards[other] if r not in grouped]
            for g in groups:
                back = set(int(r) for r in rng.choice(g.members, g.in_hand, replace=False))
                hand += sorted(back)
                if g.campaign == state.campaign:
                    pile += [r for r in g.members if r not in back]
            state.hands[other] = sorted(hand)
            state.discards[other] = sorted(pile)
            if state.chosen[other]:
                state.chosen[other] = int(rng.choice(state.hands[other]))
        state.log = [entry for entry in state.log if entry[0] in (-1, seat)]
        return state


# -- what a saved state may hold ---------------------------------------------------------------------------
MAX_PLAYERS = len(COLOURS)
MAX_DOUBLOONS = 999  # far above any game's (the observation clips at 80)
MAX_SCORE = 9999
MAX_LOG = 200  # lines in one day's log
_RANK = Int(1, NUM_RANKS, "a rank")
_CARDS = ListOf(_RANK, NUM_RANKS)
_BOOTY = Fields(tuple((name, Int(0, k, f"a count of {name}")) for name, k in zip(BOOTY_NAMES, BAG, strict=True)))
STATE = Record(
    {
        "game": Const("libertalia"),
        "num_players": Int(2, MAX_PLAYERS, "a table of"),
        "campaign": Int(0, CAMPAIGNS - 1, "a campaign"),
        "day": Int(0, DAYS, "a day"),
        "phase": OneOf(PHASES, "a phase:"),
        "cursor": Int(0, MAX_PLAYERS, "a ship position"),
        "dusk_picks": Int(-1, 2, "a number of picks (or -1)"),
        "dusk_officer": Bool(),
        "hidden": PerSeat(
            ListOf(
                Fields(
                    (
                        ("members", _CARDS),
                        ("in_hand", Int(0, NUM_RANKS, "a number of cards")),
                        ("campaign", Int(0, CAMPAIGNS - 1, "a campaign")),
                    )
                ),
                CAMPAIGNS,
            )
        ),
        "undealt": _CARDS,
        "hands": PerSeat(_CARDS),
        "chosen": PerSeat(Int(0, NUM_RANKS, "a rank (or 0)")),
        "ship": ListOf(Fields((("seat", Seat()), ("rank", _RANK))), MAX_PLAYERS),
        "dens": PerSeat(_CARDS),
        "den_booty": PerSeat(_BOOTY),
        "discards": PerSeat(_CARDS),
        "doubloons": PerSeat(Int(0, MAX_DOUBLOONS, "a number of doubloons")),
        "score": PerSeat(Int(0, MAX_SCORE, "a score")),
        "campaign_totals": ListOf(PerSeat(Int(0, MAX_SCORE, "a score")), CAMPAIGNS),
        "booty_days": ListOf(_BOOTY, DAYS, min_len=DAYS),
        "bag": _BOOTY,
        "pending": EmptyOr(Fields((("decision", OneOf(DECISIONS, "a decision:")), ("seat", Seat())))),
        "log": ListOf(Fields((("reader", Seat(-1)), ("text", Str()))), MAX_LOG),
    },
    into=("num_players",),
)


def new_game(num_players: int, rng: np.random.Generator) -> LibertaliaState:
    """Seat the players, deal campaign 1 and lay out its booty; sunrise of day 1 is open."""
    n = num_players
    state = LibertaliaState(
        num_players=n,
        undealt=list(range(1, NUM_RANKS + 1)),
        hands=[[] for _ in range(n)],
        dens=[[] for _ in range(n)],
        den_booty=[[0] * len(BAG) for _ in range(n)],
        discards=[[] for _ in range(n)],
        score=[0] * n,
        hidden=[[] for _ in range(n)],
        booty_days=[[0] * len(BAG) for _ in range(DAYS)],
    )
    state._start_campaign(rng)
    state._advance(rng)
    return state


def resample_hidden(state: LibertaliaState, seat: int, rng: np.random.Generator) -> LibertaliaState:
    return state.resample_hidden(seat, rng)
