"""One betting phase as a whole game: the ``liars_dice_v0`` benchmark's engine.

Each captain rolls ``dice`` crew dice (plus any special dice dealt to them);
bets go round from seat 0; the phase ends at the first "Liar!" or "exactly".
Payoffs: winners +1, losers -1, survivors 0.  ``preset="classic"`` plays
OpenSpiel's ``liars_dice`` rules (highest face wild, bets on every face, no
"exactly", no first-bid cap).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from bidbluff.envs.core import speedups
from bidbluff.envs.core.codec import Action
from bidbluff.envs.core.game import TERMINAL, GameState
from bidbluff.envs.core.validate import Built, Const, Int, Record, ensure, read
from bidbluff.envs.lying_pirates.betting import CLASSIC, LYING_PIRATES, BettingRound, BettingRules
from bidbluff.envs.lying_pirates.dice import DIE_NAMES, FACES, SPECIALS, Die

PRESETS = {"lying_pirates": LYING_PIRATES, "classic": CLASSIC}
MAX_PLAYERS = 6
MAX_DICE = 5
MAX_QUANTITY = MAX_PLAYERS * MAX_DICE + len(SPECIALS)


def roll(kind: int, rng: np.random.Generator) -> int:
    return FACES[Die(kind)][int(rng.integers(6))]


@dataclass(eq=False)
class BettingGameState(GameState):
    validated: ClassVar[bool] = True
    num_players: int
    round: BettingRound

    def current_player(self) -> int:
        return TERMINAL if self.round.outcome else self.round.current

    def legal_actions(self) -> list[Action]:
        return self.round.legal_actions()

    def apply(self, action: Action, rng: np.random.Generator) -> None:
        self.round.apply(action)

    def scores(self) -> list[float]:
        out = [0.0] * self.num_players
        if self.round.outcome:
            for s in self.round.outcome.winners:
                out[s] = 1.0
            for s in self.round.outcome.losers:
                out[s] = -1.0
        return out

    def clone(self) -> BettingGameState:
        """A deep copy, without ``from_dict``'s validation: the position is already valid."""
        return BettingGameState(self.num_players, self.round.copy())

    def to_dict(self) -> dict[str, Any]:
        return {"game": "liars_dice", "num_players": self.num_players, "round": self.round.to_dict()}

    @classmethod
    def from_dict(cls, data: Any) -> BettingGameState:
        """Read ``to_dict``'s output; ``ValueError`` naming the offending field by its path otherwise."""
        fields = read(STATE, data)
        n, betting = fields["num_players"], fields["round"]
        ensure(sorted(betting.cups) == list(range(n)), "round.cups", f"one cup per seat 0..{n - 1}")
        ensure(betting.bettors == list(range(n)), "round.bettors", f"every seat bets, in seat order: {list(range(n))}")
        ensure(betting.captains == n, "round.captains", f"{betting.captains} for {n} seats")
        ensure(betting.rules in PRESETS.values(), "round.rules", f"not the rules of a preset ({', '.join(PRESETS)})")
        crew = {seat: sum(kind == Die.CREW for kind, _ in cup) for seat, cup in betting.cups.items()}
        ensure(
            len(set(crew.values())) == 1 and 1 <= crew[0] <= MAX_DICE,
            "round.cups",
            f"every cup holds the same 1..{MAX_DICE} crew dice, not {list(crew.values())}",
        )
        for seat, cup in betting.cups.items():
            for i, (kind, _) in enumerate(cup):
                ensure(
                    kind == Die.CREW or kind in SPECIALS,
                    f"round.cups.{seat}[{i}].kind",
                    f"the {DIE_NAMES[kind]} die is not one of this game's dice",
                )
        if betting.outcome is not None:
            judged = BettingRound(
                betting.cups, betting.bettors, betting.captains, betting.rules, list(betting.bids), betting.turn
            )
            call = betting.outcome
            ensure(
                call.call != "alone" and call.caller == judged.current and bool(betting.bids),
                "round.outcome",
                "only the seat to bet may call, after a bet",
            )
            judged.apply(("liar",) if call.call == "liar" else ("exact", *call.bet))
            ensure(judged.outcome == call, "round.outcome", "is not what the call gives with these cups")
        return cls(n, betting)

    def resample_hidden(self, seat: int, rng: np.random.Generator) -> BettingGameState:
        """Reroll every other cup: bets are talk, they constrain no face."""
        state = self.clone()
        if state.round.outcome is None:
            for other, cup in state.round.cups.items():
                if other != seat:
                    for die in cup:
                        die[1] = roll(die[0], rng)
        return state


STATE = Record(
    {
        "game": Const("liars_dice"),
        "num_players": Int(2, MAX_PLAYERS, "a table of"),
        "round": Built(lambda value, path: BettingRound.from_dict(value, path)),
    },
    into=("num_players",),
)

_SPECIAL_BY_NAME = {DIE_NAMES[k].lower(): k for k in SPECIALS}


def new_game(
    num_players: int,
    rng: np.random.Generator,
    dice: int = 5,
    specials: tuple[str, ...] = (),
    preset: str = "lying_pirates",
) -> BettingGameState:
    """Roll every cup; each named special die goes to a random seat (public)."""
    return Setup.of(num_players, dice, specials, preset).deal(rng)


@dataclass(frozen=True)
class Setup:
    """A table's setup, checked once: an env deals every game of its defaults from one ``Setup``, so a reset
    pays only for the deal (a betting game is three decisions long: its reset is a third of its cost)."""

    num_players: int
    dice: int
    specials: tuple[int, ...]  # the special dice's kinds, in the order they are dealt
    rules: BettingRules

    @classmethod
    def of(
        cls, num_players: int, dice: int = 5, specials: tuple[str, ...] = (), preset: str = "lying_pirates"
    ) -> Setup:
        """``new_game``'s options, checked (``ValueError`` naming the bad one)."""
        if preset not in PRESETS:
            raise ValueError(f"preset {preset!r} is not one of {sorted(PRESETS)}")
        if not 1 <= dice <= MAX_DICE:
            raise ValueError(f"dice must be 1..{MAX_DICE}, not {dice}")
        if specials:
            unknown = [name for name in specials if name.lower() not in _SPECIAL_BY_NAME]
            if unknown or len(set(specials)) != len(specials):
                raise ValueError(
                    f"specials must be distinct names from {sorted(_SPECIAL_BY_NAME)}, not {list(specials)}"
                )
        kinds = tuple(int(_SPECIAL_BY_NAME[name.lower()]) for name in specials)
        return cls(num_players, dice, kinds, PRESETS[preset])

    def deal(self, rng: np.random.Generator) -> BettingGameState:
        """Roll every cup; each special die goes to a random seat (public)."""
        n, dice = self.num_players, self.dice
        if not self.specials:  # crew dice only: the faces can be drawn before the cups are built
            sides = _sides(rng, n * dice)
            cups = {s: [[_CREW, _CREW_FACES[side]] for side in sides[s * dice : (s + 1) * dice]] for s in range(n)}
            return BettingGameState(n, BettingRound(cups, list(range(n)), n, self.rules))
        cups = {s: [[_CREW, 0] for _ in range(dice)] for s in range(n)}
        for kind in self.specials:
            cups[int(rng.integers(n))].append([kind, 0])
        in_play = [die for cup in cups.values() for die in cup]
        for die, side in zip(in_play, _sides(rng, len(in_play)), strict=True):
            die[1] = FACES[die[0]][side]
        return BettingGameState(n, BettingRound(cups, list(range(n)), n, self.rules))


def _sides(rng: np.random.Generator, count: int) -> list[int]:
    """``count`` sides 0-5, one per die in cup order: the same numbers as one ``roll`` per die (numpy's bounded
    draws take one 32-bit output each, batched or not).  ``Generator.integers``' argument handling costs more
    than the draw: the compiled ``bounded`` draws from the same outputs, else batched is cheaper from three on."""
    kernels = speedups.active
    if kernels is not None:
        return kernels.bounded(rng.bit_generator, 6, count)
    return [int(rng.integers(6)) for _ in range(count)] if count < 3 else rng.integers(6, size=count).tolist()


_CREW = int(Die.CREW)
_CREW_FACES = FACES[Die.CREW]
