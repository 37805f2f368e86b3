"""Battles and the final battle of Lying Pirates, as pure bookkeeping.

Rolling is left to the caller (the engine rolls with its Generator and offers
reroll windows between a roll and its resolution); these classes say who must
roll next and what a set of results means.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any


class Icon(IntEnum):
    """Battle die icons, ordered by strength: swords beat dagger, dagger beats skull."""

    SKULL = 0
    DAGGER = 1
    SWORDS = 2


# d8: crossed swords x3, dagger x3, skull x2 (stand-in counts, rulings "Dice").
BATTLE_DIE = (Icon.SWORDS,) * 3 + (Icon.DAGGER,) * 3 + (Icon.SKULL,) * 2


@dataclass
class Battle:
    """A battle (or duel) looking for a ``"winner"`` or a ``"loser"``.

    Everyone still in rolls; only the best (for a winner) or the worst (for a
    loser) stay in; repeat until one captain remains.
    """

    rolling: list[int]
    looking_for: str = "winner"

    def __post_init__(self) -> None:
        if self.looking_for not in ("winner", "loser"):
            raise ValueError(f"a battle looks for a 'winner' or a 'loser', not {self.looking_for!r}")

    @property
    def result(self) -> int | None:
        """The captain the battle was looking for, once only one remains."""
        return self.rolling[0] if len(self.rolling) == 1 else None

    def resolve(self, rolls: dict[int, int]) -> None:
        """Apply one round of results (seat -> icon) of everyone in ``rolling``."""
        _check_rolls(self.rolling, rolls)
        pick = max if self.looking_for == "winner" else min
        target = pick(rolls[s] for s in self.rolling)
        self.rolling = [s for s in self.rolling if rolls[s] == target]

    def to_dict(self) -> dict[str, Any]:
        return {"rolling": list(self.rolling), "looking_for": self.looking_for}


@dataclass
class FinalBattle:
    """The series of battles at the game's end; the last captain with crew wins.

    ``crew`` is each captain's crew dice after specials became two crew each and
    any bought crew.  In each battle a skull loses a die (every skull does);
    otherwise the worst result loses, the tied worst rolling again; if every
    captain still in would lose their last die together, they roll again.
    """

    crew: dict[int, int]
    rolling: list[int] = field(default_factory=list)
    battles: int = 0  # battles completed (one die lost per loser each)

    def __post_init__(self) -> None:
        if not self.rolling:
            self.rolling = self.alive()

    def alive(self) -> list[int]:
        return [s for s, c in self.crew.items() if c > 0]

    @property
    def winner(self) -> int | None:
        alive = self.alive()
        return alive[0] if len(alive) == 1 else None

    def resolve(self, rolls: dict[int, int]) -> list[int]:
        """Apply one roll of everyone in ``rolling``; return who lost a die (empty: roll again)."""
        _check_rolls(self.rolling, rolls)
        skulls = [s for s in self.rolling if rolls[s] == Icon.SKULL]
        if skulls:
            losers = skulls
        else:
            worst = min(rolls[s] for s in self.rolling)
            losers = [s for s in self.rolling if rolls[s] == worst]
            if len(losers) > 1:
                self.rolling = losers  # no clear loser yet: the tied worst roll again
                return []
        if all(self.crew[s] == 1 for s in losers) and set(losers) == set(self.alive()):
            return []  # everyone left would be out together: reroll
        for s in losers:
            self.crew[s] -= 1
        self.battles += 1
        self.rolling = self.alive() if self.winner is None else []
        return losers

    def to_dict(self) -> dict[str, Any]:
        return {
            "crew": {str(s): c for s, c in self.crew.items()},
            "rolling": list(self.rolling),
            "battles": self.battles,
        }


def _check_rolls(rolling: list[int], rolls: dict[int, int]) -> None:
    if sorted(rolls) != sorted(rolling):
        raise ValueError(f"expected results for seats {sorted(rolling)}, got {sorted(rolls)}")
