"""The Betting phase of Lying Pirates: bids on hidden dice, "exactly" and "Liar!".

Used by the full game and, alone, by the ``liars_dice_v0`` benchmark.  Pure
Python: a ``BettingRound`` holds the cups, the bettors in turn order and the
bids so far; ``legal_actions`` / ``apply`` move it on; ``outcome`` says who
won, lost and survived once someone called.

Actions: ``("bid", quantity, face)``, ``("exact", quantity, face)``, ``("liar",)``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

from bidbluff.envs.core.validate import (
    Bool,
    Built,
    Fields,
    Int,
    IntKeys,
    ListOf,
    Maybe,
    OneOf,
    Record,
    Tally,
    ensure,
    join,
    read,
)
from bidbluff.envs.lying_pirates.dice import BET_FACES, BLANK, BOMB, COIN, CREW_LIMIT, DIE_NAMES, FACES, WILD, Die

# Bounds of a saved phase, from the rules: at most six captains (five players and the Phantom, or six),
# each with a full crew and every special die.
MAX_CAPTAINS = 6
MAX_CUP = CREW_LIMIT + len(Die) - 1
MAX_DICE_IN_PLAY = MAX_CAPTAINS * MAX_CUP


@dataclass(frozen=True)
class BettingRules:
    """What varies between Lying Pirates' betting and the classic Liar's dice."""

    wild: int = WILD  # face that counts as any bet face (never as itself when it is bet on)
    faces: tuple[int, ...] = BET_FACES  # faces one may bet on
    exact: bool = True  # "exactly" calls exist
    first_bid_cap: bool = True  # the first quantity may not exceed the captains in the game

    def __post_init__(self) -> None:
        # the legal-action caches look the rules up at every decision: hash the fields once, not at each lookup
        object.__setattr__(self, "_hash", hash((self.wild, self.faces, self.exact, self.first_bid_cap)))

    def __hash__(self) -> int:
        return self._hash

    def to_dict(self) -> dict[str, Any]:
        return {"wild": self.wild, "faces": list(self.faces), "exact": self.exact, "first_bid_cap": self.first_bid_cap}

    @classmethod
    def from_dict(cls, data: Any, path: str = "rules") -> BettingRules:
        """Read and check ``to_dict``'s output; ``ValueError`` naming the field by its ``path`` otherwise."""
        fields = read(RULES, data, path)
        _rising_faces(fields["faces"], join(path, "faces"))
        return cls(fields["wild"], tuple(fields["faces"]), fields["exact"], fields["first_bid_cap"])


def _rising_faces(faces: list[int], path: str) -> None:
    ensure(faces == sorted(set(faces)), path, f"{faces} must be distinct faces in rising order")


RULES = Record(
    {
        "wild": Int(1, 6, "a face"),
        "faces": ListOf(Int(1, 6, "a face"), max_len=6, min_len=1),
        "exact": Bool(),
        "first_bid_cap": Bool(),
    }
)


LYING_PIRATES = BettingRules()
CLASSIC = BettingRules(wild=6, faces=(1, 2, 3, 4, 5, 6), exact=False, first_bid_cap=False)


@dataclass
class Outcome:
    """Who won, lost and survived a betting phase, and why."""

    winners: list[int]
    losers: list[int]
    survivors: list[int]
    call: str  # "liar", "exact" or "alone"
    caller: int = -1
    bettor: int = -1  # whose bet was judged (the caller's own for "exact")
    bet: tuple[int, int] = (0, 0)
    count: int = 0  # dice that counted toward the bet, as judged for ``bettor``
    correct: bool = False  # the judged bet held (liar: count >= q; exact: count == q)
    wrong_exact: int = -1  # seat that called a wrong "exactly" (out of the next phase)

    def to_dict(self) -> dict[str, Any]:
        return {**self.__dict__, "bet": list(self.bet)}

    @classmethod
    def from_dict(cls, data: Any, path: str = "outcome") -> Outcome:
        """Read and check the shape of ``to_dict``'s output (``BettingRound.from_dict`` checks the seats)."""
        fields = read(OUTCOME, data, path)
        return cls(**{**fields, "bet": tuple(fields["bet"])})


_SEATS = ListOf(Int(0, MAX_CAPTAINS - 1, "a captain"), max_len=MAX_CAPTAINS)
_SEAT_OR_NONE = Int(-1, MAX_CAPTAINS - 1, "a captain (or -1)")
OUTCOME = Record(
    {
        "winners": _SEATS,
        "losers": _SEATS,
        "survivors": _SEATS,
        "call": OneOf(("liar", "exact", "alone"), "a call:"),
        "caller": _SEAT_OR_NONE,
        "bettor": _SEAT_OR_NONE,
        "bet": Fields((("quantity", Int(0, MAX_DICE_IN_PLAY, "a quantity")), ("face", Int(0, 6, "a face")))),
        "count": Int(0, MAX_DICE_IN_PLAY, "a count of dice"),
        "correct": Bool(),
        "wrong_exact": _SEAT_OR_NONE,
    }
)


def count_for(cups: dict[int, list[list[int]]], face: int, judged: int, rules: BettingRules) -> int:
    """Dice showing ``face`` (or the wild face) over every cup, judged for ``judged``'s bet.

    The Cursed die negates its face in its holder's own cup, for the holder's
    own bets only: that cup then counts zero toward that face, wild dice too.
    """
    total = 0
    counted = (face, rules.wild if face != rules.wild else face)  # the wild face counts for every other face
    for seat, cup in cups.items():
        if seat == judged:
            cursed = [f for kind, f in cup if kind == _CURSED]
            if cursed and cursed[0] == face:
                continue
        for _, f in cup:
            if f in counted:
                total += 1
    return total


_CURSED = int(Die.CURSED)


def raises_after(rules: BettingRules, last: tuple[int, int] | None, top: int, captains: int) -> list[tuple[int, int]]:
    """The bets (quantity, face) that may follow ``last`` (None: the opening bet) with ``top`` dice in play."""
    if last:
        q0, f0 = last
        return [(q, f) for q in range(q0, top + 1) for f in rules.faces if q > q0 or f > f0]
    cap = min(top, captains) if rules.first_bid_cap else top
    return [(q, f) for q in range(1, cap + 1) for f in rules.faces]


@dataclass
class BettingRound:
    """One betting phase.

    ``cups`` maps every seat whose dice are in play (the Phantom's included) to
    its dice as ``[kind, face]``; ``bettors`` are the seats that bet, in turn
    order from the Starting Captain.  ``captains`` caps the first bid.
    """

    cups: dict[int, list[list[int]]]
    bettors: list[int]
    captains: int
    rules: BettingRules = LYING_PIRATES
    bids: list[list[int]] = field(default_factory=list)  # [seat, quantity, face]
    turn: int = 0  # index into ``bettors``
    outcome: Outcome | None = None

    def __post_init__(self) -> None:
        if len(self.bettors) == 1 and self.outcome is None:
            self.outcome = Outcome([self.bettors[0]], [], [], "alone")

    @property
    def dice_in_play(self) -> int:
        return sum(map(len, self.cups.values()))

    @property
    def current(self) -> int:
        """Seat whose turn it is to bet (-1 once the phase is over)."""
        return -1 if self.outcome else self.bettors[self.turn]

    def raises(self) -> list[tuple[int, int]]:
        """Every bet that may follow the last one (or open the phase)."""
        last = (self.bids[-1][1], self.bids[-1][2]) if self.bids else None
        return raises_after(self.rules, last, self.dice_in_play, self.captains)

    def legal_actions(self) -> list[tuple]:
        if self.outcome:
            return []
        raises = self.raises()
        actions: list[tuple] = [("bid", q, f) for q, f in raises]
        if self.bids:
            if self.rules.exact:
                _, q0, f0 = self.bids[-1]
                actions += [("exact", q0, f0)] + [("exact", q, f) for q, f in raises]
            actions.append(("liar",))
        return actions

    def apply(self, action: tuple) -> None:
        seat = self.current
        if action[0] == "bid":
            self.bids.append([seat, action[1], action[2]])
            self.turn = (self.turn + 1) % len(self.bettors)
        elif action[0] == "liar":
            self._judge_liar(seat)
        else:
            self._judge_exact(seat, action[1], action[2])

    def _judge_liar(self, caller: int) -> None:
        bettor, q, f = self.bids[-1]
        count = count_for(self.cups, f, bettor, self.rules)
        correct = count >= q
        winner, loser = (bettor, caller) if correct else (caller, bettor)
        others = [s for s in self.bettors if s not in (winner, loser)]
        self.outcome = Outcome([winner], [loser], others, "liar", caller, bettor, (q, f), count, correct)

    def _judge_exact(self, caller: int, q: int, f: int) -> None:
        count = count_for(self.cups, f, caller, self.rules)
        if count == q:
            others = [s for s in self.bettors if s != caller]
            self.outcome = Outcome([caller], others, [], "exact", caller, caller, (q, f), count, True)
            return
        previous = self.bids[-1][0]
        others = [s for s in self.bettors if s not in (caller, previous)]
        self.outcome = Outcome(
            [previous], [caller], others, "exact", caller, caller, (q, f), count, False, wrong_exact=caller
        )

    def copy(self) -> BettingRound:
        """A deep copy, without ``from_dict``'s checks (searches copy a phase at every simulation)."""
        done = self.outcome
        outcome = done and replace(
            done, winners=list(done.winners), losers=list(done.losers), survivors=list(done.survivors)
        )
        return BettingRound(
            {s: [list(d) for d in cup] for s, cup in self.cups.items()},
            list(self.bettors),
            self.captains,
            self.rules,
            [list(b) for b in self.bids],
            self.turn,
            outcome,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "cups": {str(s): [list(d) for d in cup] for s, cup in self.cups.items()},
            "bettors": list(self.bettors),
            "captains": self.captains,
            "rules": self.rules.to_dict(),
            "bids": [list(b) for b in self.bids],
            "turn": self.turn,
            "outcome": self.outcome.to_dict() if self.outcome else None,
        }

    @classmethod
    def from_dict(cls, data: Any, path: str = "betting") -> BettingRound:
        """Read ``to_dict``'s output and check it as a betting phase: every die a face of its kind, each
        special die at most once, bettors with cups, bids by the bettors in turn and each one a raise.
        ``ValueError`` naming the field by its path (under ``path``) otherwise."""
        fields = read(ROUND, data, path)
        betting = cls(
            cups=fields["cups"],
            bettors=fields["bettors"],
            captains=fields["captains"],
            rules=fields["rules"],
            bids=fields["bids"],
            turn=fields["turn"],
            outcome=fields["outcome"],
        )
        betting.check(path)
        return betting

    def check(self, path: str = "betting") -> None:
        """Refuse a phase that betting could not have reached (see ``from_dict``)."""
        for seat in self.cups:
            ensure(seat < self.captains, join(join(path, "cups"), str(seat)), f"no captain {seat} of {self.captains}")
        specials = Tally()
        for seat, cup in self.cups.items():
            specials.add(join(join(path, "cups"), str(seat)), (kind for kind, _ in cup if kind != Die.CREW))
        specials.conserved(Counter(Die), "special dice", lambda kind: f"the {DIE_NAMES[kind]} die", at_most=True)
        bettors = self.bettors
        where = join(path, "bettors")
        ensure(len(set(bettors)) == len(bettors), where, f"{bettors} names a captain twice")
        for i, seat in enumerate(bettors):
            ensure(seat in self.cups, join(where, i), f"captain {seat} bets without a cup")
        ensure(
            self.turn == len(self.bids) % len(bettors),
            join(path, "turn"),
            f"{self.turn} is not the turn after {len(self.bids)} bids among {len(bettors)} bettors",
        )
        last = None
        top = self.dice_in_play
        for i, (seat, q, f) in enumerate(self.bids):
            at = join(join(path, "bids"), i)
            ensure(seat == bettors[i % len(bettors)], join(at, "seat"), f"captain {seat} did not bet {i + 1}th")
            ensure(
                (q, f) in raises_after(self.rules, last, top, self.captains),
                at,
                f"{q}x{f} is not a bet that may follow {'the opening' if last is None else last}",
            )
            last = (q, f)
        if self.outcome is not None:
            self._check_outcome(join(path, "outcome"))

    def _check_outcome(self, path: str) -> None:
        o = self.outcome
        seats = o.winners + o.losers + o.survivors
        ensure(
            sorted(seats) == sorted(self.bettors),
            path,
            f"winners, losers and survivors {seats} must be the bettors {self.bettors}, each once",
        )
        for name in ("caller", "bettor", "wrong_exact"):
            seat = getattr(o, name)
            ensure(seat == -1 or seat in self.bettors, join(path, name), f"{seat} is not a bettor")
        ensure(
            (o.call == "alone") == (len(self.bettors) == 1),
            join(path, "call"),
            f"{o.call!r} with {len(self.bettors)} bettor(s)",
        )


def _die_face(die: list[int], path: str) -> None:
    kind, face = die
    ensure(face in FACES[Die(kind)], join(path, "face"), f"{face} is not a face of a {DIE_NAMES[kind]} die")


_DIE = Fields((("kind", Int(0, len(Die) - 1, "a die kind")), ("face", Int(0, 8, "a face"))), check=_die_face)
ROUND = Record(
    {
        "cups": IntKeys(Int(0, MAX_CAPTAINS - 1, "a captain"), ListOf(_DIE, MAX_CUP), max_len=MAX_CAPTAINS),
        "bettors": ListOf(Int(0, MAX_CAPTAINS - 1, "a captain"), max_len=MAX_CAPTAINS, min_len=1),
        "captains": Int(1, MAX_CAPTAINS, "a number of captains"),
        "rules": Built(BettingRules.from_dict),
        "bids": ListOf(
            Fields(
                (
                    ("seat", Int(0, MAX_CAPTAINS - 1, "a captain")),
                    ("quantity", Int(1, MAX_DICE_IN_PLAY, "a quantity")),
                    ("face", Int(1, 6, "a face")),
                )
            ),
            max_len=MAX_DICE_IN_PLAY * 6,
        ),
        "turn": Int(0, MAX_CAPTAINS - 1, "a turn"),
        "outcome": Maybe(Built(Outcome.from_dict)),
    }
)


_ICON_FACES = {BLANK: "-", COIN: "$", BOMB: "*"}  # the Mayor die's coin and bomb (Cities of Greed)


def faces_shown(cup: list[list[int]]) -> str:
    return " ".join(_ICON_FACES.get(f, str(f)) for _, f in cup)
