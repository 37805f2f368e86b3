"""Crew dice: the bag, each captain's crew, and who holds the special dice.

The rules (rulebook "Crew and Special Crew Dice", video): at most ten dice per
captain, specials included, gaining beyond that returns normal crew dice to
the bag; a captain always keeps one normal crew die, losing a non-Cursed
special instead of the last one (or nothing); only one special of each kind
exists and gaining it takes it from whoever has it; an empty bag gives nothing.

Options bend three of these rules (all off in the base game): ``limits`` gives
a captain another dice limit (captain ability), ``cursed_spare`` lets a
captain give up the Cursed die in place of the last crew die (captain
ability), and ``mortal`` (the "Instant Death" variant card) lets the last
crew die go: the captain is then ``out``, its specials back on the board.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bidbluff.envs.lying_pirates.dice import CREW_LIMIT, SPECIALS, Die

BOARD = -1  # holder of a special die nobody has
TOTAL_CREW = 50


@dataclass
class Crews:
    crew: list[int]  # normal crew dice per seat
    holder: dict[int, int] = field(default_factory=lambda: {int(d): BOARD for d in SPECIALS})
    bag: int = 0
    limits: list[int] | None = None  # per seat dice limit, when a captain ability changes it
    cursed_spare: list[int] = field(default_factory=list)  # seats whose Cursed die may go instead of the last die
    mortal: bool = False  # "Instant Death": the last crew die can be lost
    out: list[int] = field(default_factory=list)  # seats that lost every die (mortal only), in order

    @classmethod
    def start(cls, seats: int, each: int = 5) -> Crews:
        return cls([each] * seats, bag=TOTAL_CREW - each * seats)

    def specials(self, seat: int) -> list[Die]:
        return [Die(d) for d, s in self.holder.items() if s == seat]

    def dice(self, seat: int) -> int:
        return self.crew[seat] + len(self.specials(seat))

    def gain(self, seat: int, n: int = 1) -> int:
        """Take up to ``n`` crew dice from the bag; return how many stayed with ``seat``."""
        if seat in self.out:
            return 0  # a sunk captain takes nothing
        took = min(n, self.bag)
        self.bag -= took
        self.crew[seat] += took
        return took - self._enforce_limit(seat)

    def lose(self, seat: int, n: int = 1, instead: tuple[Die, ...] = ()) -> list[str]:
        """Return ``n`` crew dice to the bag, one at a time, never the last one.

        For the last crew die a non-Cursed special goes back to the board
        instead (the first of ``instead`` that ``seat`` holds, else any), or
        nothing.  Returns what was lost: "crew" or a special's name.
        """
        lost: list[str] = []
        for _ in range(n):
            if self.crew[seat] > 1:
                self.crew[seat] -= 1
                self.bag += 1
                lost.append("crew")
                continue
            spare = [d for d in self.specials(seat) if d != Die.CURSED or seat in self.cursed_spare]
            if not spare:
                if self.mortal and self.crew[seat] == 1:
                    self._sink(seat)
                    lost.append("crew")
                break
            chosen = next((d for d in instead if d in spare), spare[0])
            self.holder[int(chosen)] = BOARD
            lost.append(chosen.name.lower())
        return lost

    def _sink(self, seat: int) -> None:
        """The last die is gone: the captain is out and its specials go back to the board."""
        self.crew[seat] = 0
        self.bag += 1
        for d in self.specials(seat):
            self.holder[int(d)] = BOARD
        self.out.append(seat)

    def take_special(self, seat: int, die: Die) -> None:
        """``seat`` takes ``die`` from the board or from whoever holds it."""
        if seat in self.out:
            return
        self.holder[int(die)] = seat
        self._enforce_limit(seat)

    def steal(self, thief: int, victim: int) -> bool:
        """One crew die goes from ``victim`` to ``thief`` (if the victim can spare one)."""
        if self.crew[victim] <= 1:
            return False  # a captain keeps their last crew die
        self.crew[victim] -= 1
        self.crew[thief] += 1
        self._enforce_limit(thief)
        return True

    def can_pass_curse(self, seat: int) -> bool:
        """Passing the Cursed die costs two crew dice and must leave one."""
        return self.holder[int(Die.CURSED)] == seat and self.crew[seat] >= 3

    def pass_curse(self, seat: int, target: int) -> None:
        if not self.can_pass_curse(seat):
            raise ValueError(f"seat {seat} cannot pass the Cursed die (must hold it and have 3+ crew dice)")
        self.crew[seat] -= 2
        self.bag += 2
        self.take_special(target, Die.CURSED)

    def final_battle_crew(self, seat: int) -> int:
        """Each special (the Cursed die too) counts as two crew dice; no limit of ten."""
        return self.crew[seat] + 2 * len(self.specials(seat))

    def limit(self, seat: int) -> int:
        return CREW_LIMIT if self.limits is None else self.limits[seat]

    def _enforce_limit(self, seat: int) -> int:
        excess = max(0, self.dice(seat) - (CREW_LIMIT if self.limits is None else self.limits[seat]))
        excess = min(excess, self.crew[seat] - 1)
        self.crew[seat] -= excess
        self.bag += excess
        return excess

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "crew": list(self.crew),
            "holder": {str(d): s for d, s in self.holder.items()},
            "bag": self.bag,
        }
        if self.limits is not None or self.cursed_spare or self.mortal:
            # only games with options carry these: a base game's dict stays as it always was
            data.update(
                limits=self.limits, cursed_spare=list(self.cursed_spare), mortal=self.mortal, out=list(self.out)
            )
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Crews:
        limits = data.get("limits")
        return cls(
            list(data["crew"]),
            {int(d): int(s) for d, s in data["holder"].items()},
            int(data["bag"]),
            None if limits is None else [int(x) for x in limits],
            [int(s) for s in data.get("cursed_spare", [])],
            bool(data.get("mortal", False)),
            [int(s) for s in data.get("out", [])],
        )
