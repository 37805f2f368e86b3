"""What every game's board module shares: the setup form's rows and words for counts."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class Option:
    """One setup option of the form: ``kind`` is "choice", "multi" (several of ``choices``), "bool" or "int"."""

    name: str
    kind: str
    default: Any
    choices: tuple[Any, ...] = ()
    help: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def plural(n: int, word: str) -> str:
    """``plural(1, "crew die")`` -> "1 crew die"; ``plural(2, "coin")`` -> "2 coins" (die -> dice)."""
    if abs(n) == 1:
        return f"{n} {word}"
    return f"{n} {word[:-3] + 'dice' if word.endswith('die') else word + 's'}"
