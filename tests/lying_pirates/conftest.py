"""Exact Lying Pirates positions and a scripted random generator for engine tests.

Positions are built the way a saved game is: ``new_game(...).to_dict()``, edit
fields, ``LyingPiratesState.from_dict`` (which validates).  Chance comes from
``Script``: every ``integers(n)`` answers the next scripted value, so a test
names each die it rolls (see the face constants below and ``dice.py``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bidbluff.envs.lying_pirates.betting import LYING_PIRATES
from bidbluff.envs.lying_pirates.content import CARD_INDEX, TILE_INDEX
from bidbluff.envs.lying_pirates.dice import Die
from bidbluff.envs.lying_pirates.setup import new_game
from bidbluff.envs.lying_pirates.state import LyingPiratesState

# values of ``rng.integers(...)`` that roll a given face
SAIL1, SAIL2 = 0, 3  # SAIL_DIE[rng.integers(6)]: 1,1,1,2,2,2
SWORDS, DAGGER, SKULL = 0, 3, 6  # BATTLE_DIE[rng.integers(8)]: swords 0-2, dagger 3-5, skull 6-7
P_X, P_O = 0, 2  # Pirate die XXOOOO
T_X, T_O = 0, 3  # Treasure die XXXOOO
CREW, KING, MERMAID, CURSED, GHOST, MAYOR = (int(d) for d in Die)


class Script:
    """A stand-in for ``np.random.Generator`` whose draws the test writes down.

    ``integers(n)`` answers the scripted values in order (each must be < n);
    once they run out it refuses, unless ``then`` names a seed for a real
    Generator to go on with.  ``shuffle`` reverses (deterministic and visible),
    ``permutation`` is the identity, ``choice`` takes the first items.
    """

    def __init__(self, *values: int, then: int | None = None) -> None:
        self.values = list(values)
        self.then = np.random.default_rng(then) if then is not None else None
        self.drawn: list[tuple[int, int]] = []  # (n, value) of every draw

    def integers(self, n: int) -> int:
        if self.values:
            value = self.values.pop(0)
            assert 0 <= value < n, f"scripted {value} for integers({n})"
        elif self.then is not None:
            value = int(self.then.integers(n))
        else:
            raise AssertionError(f"unscripted integers({n}) after {self.drawn}")
        self.drawn.append((n, value))
        return value

    def shuffle(self, items: list) -> None:
        items.reverse()

    def permutation(self, n: int) -> np.ndarray:
        return np.arange(n)

    def choice(self, items, k: int, replace: bool = False):
        return list(items)[:k]

    @property
    def left(self) -> list[int]:
        return list(self.values)


def card(name: str) -> int:
    return CARD_INDEX[name]


def tile(name: str) -> int:
    return TILE_INDEX[name]


def fresh(num_players: int = 3, seed: int = 0, **options: Any) -> dict[str, Any]:
    """A new game's dict, seeded, with Anne (0) holding the token clockwise."""
    d = new_game(num_players, np.random.default_rng(seed), **options).to_dict()
    return d


def load(d: dict[str, Any]) -> LyingPiratesState:
    return LyingPiratesState.from_dict(d)


def set_hand(d: dict[str, Any], seat: int, *names: str) -> None:
    """Give ``seat`` exactly these cards: its old hand goes back under the deck, the cards come
    from the deck (or the discard, the Phantom's pile, other hands if the deck has none left)."""
    d["deck"] = d["hands"][seat] + d["deck"]
    d["hands"][seat] = []
    for name in names:
        k = card(name)
        for pile in [d["deck"], d["discard"], d["phantom_pile"], *(h for s, h in enumerate(d["hands"]) if s != seat)]:
            if k in pile:
                pile.remove(k)
                break
        else:
            raise AssertionError(f"no {name} left to give")
        d["hands"][seat].append(k)
    d["hands"][seat].sort()


def set_crew(d: dict[str, Any], seat: int, n: int) -> None:
    crews = d["crews"]
    crews["bag"] += crews["crew"][seat] - n
    crews["crew"][seat] = n


def give_special(d: dict[str, Any], seat: int, die: int) -> None:
    d["crews"]["holder"][str(die)] = seat


def betting(
    d: dict[str, Any],
    cups: dict[int, list],
    bids: list | tuple = (),
    token: int | None = None,
    direction: int | None = None,
    bettors: list[int] | None = None,
) -> dict[str, Any]:
    """Put the Betting phase at the given cups and bids; the next bettor is pending.

    A cup is a list of faces (crew dice) or ``[kind, face]`` pairs (special dice)."""
    if token is not None:
        d["token"] = token
    if direction is not None:
        d["direction"] = direction
    c = d["captains"]
    if bettors is None:
        bettors = [
            (d["token"] + d["direction"] * i) % c
            for i in range(c)
            if (d["token"] + d["direction"] * i) % c not in d["excluded"]
            and (d["token"] + d["direction"] * i) % c != d["phantom"]
        ]
    dice = {str(s): [list(f) if isinstance(f, (list, tuple)) else [CREW, f] for f in cup] for s, cup in cups.items()}
    bids = [list(b) for b in bids]
    turn = (bettors.index(bids[-1][0]) + 1) % len(bettors) if bids else 0
    d["betting"] = {
        "cups": dice,
        "bettors": bettors,
        "captains": c,
        "rules": LYING_PIRATES.to_dict(),
        "bids": bids,
        "turn": turn,
        "outcome": None,
    }
    d.update(phase="betting", round_no=1, stack=[{"stage": "bet", "outcome": -1}])
    seat = bettors[turn]
    d["pending"] = ["bet", d["excluded"][0] if seat == d["phantom"] else seat]
    return d


def window(
    d: dict[str, Any], kind: str, token: int = 0, winner: int = 0, survivors: tuple = (), sail_die: int = 1
) -> dict[str, Any]:
    """A priority window of the Sail phase (before the ships move) or of the Action phase."""
    d["token"] = token
    order = [(token + d["direction"] * i) % d["captains"] for i in range(d["captains"])]
    order = [s for s in order if s < d["num_players"]]
    losers = [c for c in range(d["captains"]) if c != winner and c not in survivors]
    d.update(
        betting=None,
        phase=kind,
        sail_die=sail_die,
        finished=[],
        result={"winner": winner, "losers": losers, "survivors": list(survivors)},
        # the window, over what comes after it: the ships move, or the catch-up
        stack=[
            {"stage": "move", "outcome": -1}
            if kind == "sail"
            else {"stage": "catchup", "outcome": -1, "group": None, "asked": [], "accepted": []},
            {"stage": "window", "outcome": -1, "kind": kind, "order": order, "turn": 0, "passes": 0},
        ],
        pending=["window", order[0]],
    )
    return d


def play(state: LyingPiratesState, rng: Script, *actions: tuple) -> LyingPiratesState:
    """Answer the open decisions with ``actions``, each of which must be legal."""
    for action in actions:
        legal = state.legal_actions()
        assert action in legal, f"{action} is not legal at {state.pending} ({state.stage}): {legal}"
        state.apply(action, rng)
    return state


def skip(state: LyingPiratesState, rng: Script, *kinds: str, phase: str | None = None) -> LyingPiratesState:
    """Keep every roll and pass every window (or reaction) while the open decision is of ``kinds``
    (and, if given, the game is still in ``phase``)."""
    answer = {
        "reroll": ("keep",),
        "window": ("pass",),
        "react": ("pass",),
        "catchup": ("stop",),
        "final": ("pass",),
        "buy_crew": ("pass",),
    }
    while state.pending and state.pending[0] in kinds and phase in (None, state.phase):
        play(state, rng, answer[state.pending[0]])
    return state
