"""A Libertalia player with a simple value model, for ``libertalia_v0``.

It decodes its observation (layout in ``bidbluff.envs.libertalia.codec``) and values
everything in doubloons:

* **Booty tokens** for its own den: chest 5, jewels 3, goods 1 (+1 each with a
  Treasurer), a map by how close it brings a set of three, relic -3 (-6 with a
  Captain), sabre 1 plus what its cut would destroy, Spanish officer: the card
  that takes it goes to the discard pile instead of the den.
* **A character on a given day**: the booty it should get at dusk (each
  opponent plays a card from those it may still hold; the chance that it
  outranks ours, tie-break numbers included, gives the distribution of our
  place in the dusk order, and place k gets the k-th best token), plus its day
  ability now, plus what it brings from the den (anchor and night income for
  the nights left in the campaign).
* **Timing**: at sunrise it values every card in hand on every day left in the
  campaign (every day's booty is public), assigns cards to days greedily, and
  plays today's card from the assignment that is best overall, so it saves
  strong cards for rich days.  The Parrot replaces itself with the card whose
  exact place on the revealed ship is worth most.
* **Targets**: the Gunner and the sabre hit the card worth most to its owner,
  weighted towards the leader (score, doubloons and booty); an own card is hit
  only when it is worth less than nothing (a Quartermaster's -8).
* **Merchant / Preacher / Recruiter / Surgeon**: the choice of most value.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from bidbluff.agents.base import SeededAgent, legal_ids
from bidbluff.envs.libertalia.codec import CODEC, LAYOUT, TOKENS
from bidbluff.envs.libertalia.content import DAYS, Rank, tie_break
from bidbluff.envs.libertalia.rules import DECISIONS, booty_total

CHEST, JEWELS, GOODS, MAP, RELIC, SABRE, OFFICER = range(TOKENS)


@dataclass
class Seat:
    """One seat as the observer sees it (absolute seat ``colour``)."""

    colour: int
    hand: list[int]  # own hand, or every card an opponent may hold
    discard: list[int]
    den: list[int]
    booty: list[int]
    ship: list[int]
    doubloons: int
    score: int
    targets: list[int] = field(default_factory=list)

    def total(self) -> int:
        """Rough standing: score so far plus what this campaign would pay now."""
        return self.score + self.doubloons + booty_total(self.booty)


@dataclass
class View:
    seats: list[Seat]  # relative to the observer: seats[0] is us
    campaign: int
    day: int
    decision: str
    booty_days: list[list[int]]

    @property
    def me(self) -> Seat:
        return self.seats[0]

    @property
    def n(self) -> int:
        return len(self.seats)

    @cached_property
    def opponents_den(self) -> frozenset[int]:
        """The ranks in any opponent's den (for the cards that care whether another den holds them)."""
        return frozenset(r for s in self.seats[1:] for r in s.den)


def _ranks(rows: np.ndarray) -> list[list[int]]:
    """Per seat row of a per-rank field: the ranks whose bit is set."""
    seats, columns = np.nonzero(rows > 0.5)
    out: list[list[int]] = [[] for _ in range(len(rows))]
    for seat, rank in zip(seats.tolist(), (columns + 1).tolist(), strict=True):
        out[seat].append(rank)
    return out


def read(obs: np.ndarray) -> View:
    """Decode a ``libertalia_v0`` observation through ``bidbluff.envs.libertalia.codec.LAYOUT``'s named views; one
    view per field for all seats at once."""
    view = LAYOUT.view(obs)
    present = view.present >= 0.5
    n = int(np.argmin(present)) if not present.all() else len(present)  # seats are packed from us onwards
    columns = zip(
        view.index("colour")[:n].tolist(),
        _ranks(view.hand[:n]),
        _ranks(view.discard[:n]),
        _ranks(view.den[:n]),
        view.counts("den_booty")[:n].tolist(),
        _ranks(view.ship[:n]),
        view.counts("doubloons")[:n].tolist(),
        view.counts("score")[:n].tolist(),
        _ranks(view.targets[:n]),
        strict=True,
    )
    seats = [Seat(*column) for column in columns]
    decision = view.index("decision")
    decision_name = DECISIONS[decision] if decision >= 0 else ""
    return View(seats, view.index("campaign"), view.index("day"), decision_name, view.counts("booty_days").tolist())


class LibertaliaHeuristic(SeededAgent):
    """Values booty, timing and targets in doubloons; see the module docstring."""

    name = "heuristic"

    # -- values ---------------------------------------------------------------
    @staticmethod
    def token_value(t: int, seat: Seat, nights: int, card: int = 0) -> float:
        """What one more token of type ``t`` is worth to ``seat`` (``card``: the one taking it)."""
        den, booty = seat.den, seat.booty
        treasurer = Rank.TREASURER in den or card == Rank.TREASURER
        if t == CHEST:
            return 5 + treasurer
        if t == JEWELS:
            return 3 + treasurer
        if t == GOODS:
            return 1 + treasurer
        if t == MAP:
            value = (3.0, 4.0, 7.0)[booty[MAP] % 3]
            return max(value, 3.0) if Rank.WAITRESS in den else value
        if t == RELIC:
            return -6.0 if Rank.CAPTAIN in den or card == Rank.CAPTAIN else -3.0
        if t == SABRE:
            return 1.0 + (nights if Rank.ARMORER in den or card == Rank.ARMORER else 0)
        if t == OFFICER:  # the card goes to the discard pile instead of the den
            return -1.0 - (LibertaliaHeuristic.den_value(card, seat, nights) if card else 3.0)
        return 0.0

    @staticmethod
    def den_value(rank: int, seat: Seat, nights: int, others_have: frozenset[int] = frozenset()) -> float:
        """What ``rank`` sitting in ``seat``'s den brings until the campaign's end."""
        den, booty = seat.den, seat.booty
        value = 1.0  # a den card also counts for the First Mate, Freed Slave, Bosun and Topman
        if rank == Rank.PREACHER:
            value += 5
        elif rank == Rank.CARPENTER:
            value += 10
        elif rank == Rank.TOPMAN:
            value += 2.5
        elif rank == Rank.TREASURER:
            value += booty[CHEST] + booty[JEWELS] + booty[GOODS] + 0.5 * nights
        elif rank == Rank.GAMBLER:
            value += 8
        elif rank == Rank.GOVERNORS_DAUGHTER:
            value += -3 if Rank.GOVERNORS_DAUGHTER in others_have else 4
        elif rank == Rank.QUARTERMASTER:
            value -= 8
        elif rank == Rank.FIRST_MATE:
            value += len(den) + 0.5 * nights
        elif rank == Rank.CAPTAIN:
            value -= 3 * booty[RELIC]
        elif rank == Rank.BARKEEP:
            value += nights
        elif rank == Rank.WAITRESS:
            value += 1.5 * min(booty[MAP], nights)
        elif rank == Rank.FREED_SLAVE:
            value += 2 * sum(r > Rank.FREED_SLAVE for r in den) * nights + nights
        elif rank == Rank.BOSUN:
            value += 2 * sum(r < Rank.BOSUN for r in den) * nights + nights
        elif rank == Rank.ARMORER:
            value += booty[SABRE] * nights
        elif rank == Rank.MUTINEER:
            value += (2 * nights - 2) if den else 0
        elif rank == Rank.GRANNY_WATA:
            value += -1 if Rank.GRANNY_WATA in others_have else 2 * nights
        return value

    def ability_value(self, rank: int, view: View, nights: int) -> float:
        """The day ability's immediate worth for us."""
        me = view.me
        booty = me.booty
        if rank == Rank.MONKEY:
            return 3.0 * booty[RELIC]
        if rank == Rank.BEGGAR:
            return 3.0
        if rank in (Rank.RECRUITER, Rank.SURGEON):
            return 2.0 if (me.den if rank == Rank.RECRUITER else me.discard) else 0.0
        if rank == Rank.PREACHER:
            values = [self.token_value(t, me, nights) for t in range(TOKENS) for _ in range(booty[t])]
            return -(sum(v for v in values if v > 0) - max(values, default=0.0)) + sum(v for v in values if v < 0)
        if rank == Rank.CARPENTER:
            return -(me.doubloons // 2)
        if rank == Rank.FRENCH_OFFICER:
            return 5.0 if me.doubloons < 9 else 0.0
        if rank == Rank.VOODOO_WITCH:
            return 2.0 * len(me.discard)
        if rank == Rank.BRUTE:
            return 1.5
        if rank == Rank.GUNNER:
            return -min(3, me.doubloons) + 0.8 * max(self.kill_values(view, None, nights).values(), default=0.0)
        if rank == Rank.SPANISH_SPY:
            return 1.5 * booty[OFFICER]
        if rank == Rank.MERCHANT:
            gains = [
                g - k * self.token_value(t, me, nights)
                for t in range(TOKENS)
                for k, g in ((2, 3), (3, 5))
                if booty[t] >= k
            ]
            return max(0.0, *gains) if gains else 0.0
        if rank == Rank.GAMBLER:
            return -float(min(sum(booty), me.doubloons))
        if rank == Rank.QUARTERMASTER:
            return float(sum(booty))
        if rank == Rank.CAPTAIN:
            return 3.0
        if rank == Rank.SPANISH_GOVERNOR:
            return -sum(self.den_value(r, me, nights) for r in me.den)
        return 0.0

    def kill_values(self, view: View, owners: list[int] | None, nights: int) -> dict[tuple[int, int], float]:
        """Worth to us of discarding each den card of the seats ``owners`` (relative; None: all)."""
        totals = [s.total() for s in view.seats]
        lead = max(totals[1:], default=0)
        out = {}
        for rel in owners if owners is not None else range(view.n):
            seat = view.seats[rel]
            others = frozenset(r for s in view.seats if s is not seat for r in s.den)
            for rank in seat.den:
                v = self.den_value(rank, seat, nights, others)
                if rel == 0:
                    out[(rel, rank)] = -v
                else:
                    out[(rel, rank)] = v * (1.5 if totals[rel] == lead else 1.0) + 0.5
        return out

    # -- a character's worth on a day ----------------------------------------------
    @staticmethod
    def _key(colour: int, rank: int) -> tuple[int, int]:
        return (rank, tie_break(colour, rank))

    def _place_odds(self, view: View, rank: int) -> list[float]:
        """P(k opponents outrank our ``rank`` today), each playing a card it may hold at random."""
        mine = tie_break(view.me.colour, rank)
        pmf = [1.0] + [0.0] * (view.n - 1)
        for i, seat in enumerate(view.seats[1:]):
            hand = seat.hand or [rank]
            above = sum(r > rank for r in hand) + (rank in hand and tie_break(seat.colour, rank) > mine)
            p = above / len(hand)
            for k in range(i + 1, 0, -1):  # downwards, so pmf[k - 1] is still the previous seat's
                pmf[k] = pmf[k] * (1 - p) + pmf[k - 1] * p
            pmf[0] *= 1 - p
        return pmf

    def _tokens(self, view: View, day: int, rank: int, nights: int) -> list[float]:
        """Today's booty as values for ``rank``, best first."""
        counts = view.booty_days[day]
        out: list[float] = []
        for t in range(TOKENS):
            if counts[t]:
                out += [self.token_value(t, view.me, nights, rank)] * counts[t]
        out.sort(reverse=True)
        return out

    def card_value(
        self, view: View, day: int, rank: int, place: int | None = None, odds: list[float] | None = None
    ) -> float:
        """``rank``'s worth if played on ``day``: booty at dusk + day ability + den value.

        ``place``: its known place in the dusk order (0 = first to choose); else drawn from ``odds``
        (``_place_odds``, computed here when not given).
        """
        nights = DAYS - day
        if rank == Rank.PARROT:
            return 1.0
        booty = 0.0
        if rank != Rank.CABIN_BOY:
            tokens = self._tokens(view, day, rank, nights)
            take = 2 if rank == Rank.COOK else 1
            if place is not None:
                booty = sum(tokens[place : place + take])
            else:
                odds = self._place_odds(view, rank) if odds is None else odds
                booty = sum(p * sum(tokens[k : k + take]) for k, p in enumerate(odds) if p > 1e-9)
        den = self.den_value(rank, view.me, nights, view.opponents_den)
        return booty + self.ability_value(rank, view, nights) + den

    @staticmethod
    def _greedy(values: dict[tuple[int, int], float], cards: set[int], days: set[int]) -> float:
        """Greedy card-to-day assignment value over ``cards`` and ``days``."""
        total = 0.0
        for (card, day), v in sorted(values.items(), key=lambda kv: -kv[1]):
            if card in cards and day in days:
                total += v
                cards = cards - {card}
                days = days - {day}
                if not days:
                    break
        return total

    def choose_card(self, view: View, candidates: list[int], exact_place: dict[int, int] | None = None) -> int:
        """Today's card: best value today plus the best greedy use of the rest on the days left."""
        hand = set(view.me.hand)
        later = set(range(view.day + 1, DAYS))
        odds = {c: self._place_odds(view, c) for c in hand}
        values = {(c, d): self.card_value(view, d, c, odds=odds[c]) for c in hand for d in later}
        best, best_value = candidates[0], -np.inf
        for c in candidates:
            place = exact_place.get(c) if exact_place else None
            now = self.card_value(view, view.day, c, place, odds.get(c))
            total = now + self._greedy(values, hand - {c}, later)
            if total > best_value:
                best, best_value = c, total
        return best

    # -- deciding ----------------------------------------------------------------------
    def act(self, observation: dict[str, np.ndarray], agent: str) -> int:
        legal = [int(i) for i in legal_ids(observation, agent)]
        view = read(observation["observation"])
        actions = {i: CODEC.decode(i) for i in legal}
        kind = actions[legal[0]][0]
        nights = DAYS - view.day
        me = view.me
        if kind == "play":
            card = self.choose_card(view, [a[1] + 1 for a in actions.values()])
            return CODEC.encode(("play", card - 1))
        if kind == "parrot":
            return self._parrot(view, actions)
        if kind == "recruit" or kind == "surgeon":
            later = range(view.day + 1, DAYS)

            def worth(rank: int) -> float:
                back = max((self.card_value(view, d, rank) for d in later), default=rank / 3)
                return back - (self.den_value(rank, me, nights) if kind == "recruit" else 0.0)

            return max(legal, key=lambda i: worth(actions[i][1] + 1))
        if kind == "keep":
            return max(legal, key=lambda i: self.token_value(actions[i][1], me, nights))
        if kind == "trade":

            def gain(i: int) -> float:
                _, t, k = actions[i]
                k += 2
                return (3 if k == 2 else 5) - k * self.token_value(t, me, nights)

            return max(legal, key=gain)
        if kind == "booty":
            card = me.ship[-1] if me.ship else 0
            kills = self.kill_values(view, sorted({1, view.n - 1}), nights)
            best_kill = max([v for (rel, _), v in kills.items() if rel != 0], default=0.0)

            def value(i: int) -> float:
                t = actions[i][1]
                v = self.token_value(t, me, nights, card)
                return v + (best_kill if t == SABRE else 0.0)

            return max(legal, key=value)
        if kind in ("gunner", "sabre"):
            kills = self.kill_values(view, None, nights)
            return max(legal, key=lambda i: kills.get((actions[i][1], actions[i][2] + 1), 0.0))
        return int(self.rng.choice(legal))  # a decision this agent does not know: play any legal one

    def _parrot(self, view: View, actions: dict[int, tuple]) -> int:
        """Replace the Parrot: the revealed ship gives each candidate's exact place at dusk."""
        on_ship = [(s.colour, r) for s in view.seats[1:] for r in s.ship]
        candidates = [a[1] + 1 for a in actions.values()]
        places = {}
        for c in candidates:
            mine = self._key(view.me.colour, c)
            places[c] = sum(self._key(colour, r) > mine for colour, r in on_ship)
        card = self.choose_card(view, candidates, places)
        return CODEC.encode(("parrot", card - 1))
