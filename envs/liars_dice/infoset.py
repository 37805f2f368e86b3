"""What one captain knows in ``liars_dice_v0``, as text: the name of an information set.

A captain knows its own dice (as a multiset: the order they were rolled in
tells nothing), which seat holds each special die (public), and every bet so
far with who made it.  ``describe`` writes that as one line::

    P1 | own 2 5 Mermaid=6 | specials Pirate King@P0 Mermaid@P1 | bets P0:1x3 P1:2x4

The OpenSpiel bridge (``bidbluff.envs.liars_dice.openspiel``) names its information
states this way from the engine's state; ``from_observation`` finds the same
name from the env observation alone (which has seats relative to the observer),
so an agent that sees only observations can look its information set up in a
table.  The two agree on every information state of the small games (tested),
which also shows that the observation carries the whole information set.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from bidbluff.envs.liars_dice.codec import LAYOUT, full
from bidbluff.envs.lying_pirates.dice import DIE_NAMES, SPECIALS


def describe(
    seat: int,
    crew: Iterable[int] | None,
    specials: Iterable[tuple[int, int]],
    holders: Iterable[tuple[int, int]],
    bids: Iterable[Sequence[int]] | None,
) -> str:
    """``seat``'s information set: its crew faces (None: its dice are not shown), its special dice
    ``(kind, face)``, the holders of the special dice ``(kind, seat)`` and the bets ``(seat, quantity,
    face)`` in the order they were made (None: the table is not shown)."""
    parts = [f"P{seat}"]
    if crew is not None:
        own = [str(f) for f in sorted(crew)] + [f"{DIE_NAMES[k]}={f}" for k, f in sorted(specials)]
        parts.append("own " + (" ".join(own) or "-"))
    holders = sorted(holders)
    if holders:
        parts.append("specials " + " ".join(f"{DIE_NAMES[k]}@P{s}" for k, s in holders))
    if bids is not None:
        parts.append("bets " + (" ".join(f"P{s}:{q}x{f}" for s, q, f in bids) or "-"))
    return " | ".join(parts)


def from_observation(observation: np.ndarray, seat: int | None = None) -> str:
    """``describe`` of the information set behind ``seat``'s observation (read through ``codec.LAYOUT``).

    The observation has seats relative to the observer; ``seat`` places it at the table.  Left out, it is
    the seat to bet: seat 0 opens and every seat bets in turn, so that is the number of bets so far modulo
    the seats.
    """
    view = LAYOUT.view(full(np.asarray(observation)))
    n = int((view.present > 0.5).sum())
    # Bets only ever rise in (quantity, face) order, so the order of the bet grid is the order they were made.
    made = list(zip(*np.nonzero(view.history), strict=True))
    if seat is None:
        seat = len(made) % n
    bids = [((seat + rel) % n, q + 1, f + 1) for q, f, rel in made]
    crew = [face + 1 for face, count in enumerate(view.counts("crew").tolist()) for _ in range(count)]
    specials = [(int(kind), view.index(kind.name.lower())) for kind in SPECIALS if view.index(kind.name.lower()) >= 0]
    held = view.special_dice.tolist()
    holders = [
        (int(kind), (seat + rel) % n)
        for rel in range(n)
        for kind, has in zip(SPECIALS, held[rel], strict=True)
        if has > 0.5
    ]
    return describe(seat, crew, specials, holders, bids)
