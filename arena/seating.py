"""Seating designs: which table slot sits in which seat, game by game, so that seating is fair.

Rotating a lineup cyclically puts every entry in every seat, but each entry then
always sits right after the same neighbour.  In these games the neighbour order
decides a lot (a weak bettor hands the win to whoever calls after it), so a
fair tournament must balance the *relative* order too: over a design, every
ordered pair of table slots (i, j) finds j at each offset 1..n-1 seats after i
equally often, and every slot sits in every seat equally often.

* n <= 4: every permutation of the slots (n! seatings per duplicate deal).
* n = 5: four circular orders (a Latin square of the offsets, found by search and
  checked in the tests) times the five rotations: 20 seatings per deal.
* n = 6: no set of five circular orders balances the offsets (an exhaustive search;
  one for ten did not finish), so the design is all 120 circular orders (the slot
  order round the table, slot 0 first) in a seeded order, one per deal, each with
  its six rotations: exact over every 120 deals, and every deal is still balanced
  for absolute seat.

A seating is a tuple ``seated`` with ``seated[seat]`` = the table slot in that seat.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

# The four circular orders of five (slot 0 in seat 0, then these in seats 1..4): in them, every ordered pair of
# slots finds the second at each offset 1..4 after the first exactly once.
_FIVE = ((1, 2, 3, 4), (2, 4, 1, 3), (3, 1, 4, 2), (4, 3, 2, 1))


@dataclass(frozen=True)
class SeatingDesign:
    """The seatings of an ``n``-seat table, deal by deal."""

    num_players: int
    name: str
    orders: tuple[tuple[int, ...], ...]  # circular orders (or full permutations when ``rotate`` is False)
    rotate: bool  # each order is played at every rotation
    per_deal: int  # orders used by one deal (the rest cycle over the following deals)

    @property
    def games_per_deal(self) -> int:
        return self.per_deal * (self.num_players if self.rotate else 1)

    @property
    def balanced_after(self) -> int:
        """Deals after which the design is exactly balanced in relative order."""
        return len(self.orders) // self.per_deal

    def deal(self, index: int) -> list[tuple[int, ...]]:
        """The seatings of deal ``index``."""
        n = self.num_players
        first = (index * self.per_deal) % len(self.orders)
        chosen = [self.orders[(first + k) % len(self.orders)] for k in range(self.per_deal)]
        if not self.rotate:
            return chosen
        return [tuple(order[(seat + shift) % n] for seat in range(n)) for order in chosen for shift in range(n)]

    def describe(self) -> dict[str, object]:
        return {
            "design": self.name,
            "seats": self.num_players,
            "games_per_deal": self.games_per_deal,
            "balanced_after_deals": self.balanced_after,
            "orders": len(self.orders),
        }


def design(num_players: int, seed: int = 0) -> SeatingDesign:
    """The balanced design for ``num_players`` seats (``seed`` orders the 6-seat cycle)."""
    n = num_players
    if n <= 4:
        perms = tuple(itertools.permutations(range(n)))
        return SeatingDesign(n, f"all {len(perms)} permutations per deal", perms, False, len(perms))
    if n == 5:
        orders = tuple((0, *rest) for rest in _FIVE)
        return SeatingDesign(n, "4 offset-balanced circular orders x 5 rotations per deal", orders, True, len(orders))
    if n == 6:
        circular = [(0, *rest) for rest in itertools.permutations(range(1, n))]
        shuffled = tuple(circular[i] for i in np.random.default_rng(seed).permutation(len(circular)))
        return SeatingDesign(n, "120 circular orders, one per deal (seeded), x 6 rotations", shuffled, True, 1)
    raise ValueError(f"no seating design for {n} seats (the games seat 2-6)")


def offsets(seatings: list[tuple[int, ...]]) -> dict[tuple[int, int], list[int]]:
    """For every ordered pair of slots (i, j): how often j sat 1..n-1 seats after i."""
    n = len(seatings[0])
    counts = {(i, j): [0] * (n - 1) for i in range(n) for j in range(n) if i != j}
    for seated in seatings:
        seat_of = {slot: seat for seat, slot in enumerate(seated)}
        for (i, j), row in counts.items():
            row[(seat_of[j] - seat_of[i]) % n - 1] += 1
    return counts
