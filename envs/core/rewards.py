"""Turning final scores into rewards.  All modes are zero-sum across seats."""

from __future__ import annotations

REWARD_MODES = ("win", "winner", "rank", "score")


def final_rewards(scores: list[float], mode: str = "win", score_scale: float = 1.0) -> list[float]:
    """Rewards at game end.

    ``win``: winner +1, every other seat -1/(n-1); k tied winners share the
    losers' total equally.  ``winner``: the same, and it stays so in games
    whose own ``win`` payoffs differ (``liars_dice_v0`` gives survivors 0):
    its expectation is an affine function of the win share alone.  ``rank``: +1 for first down to -1 for last in
    equal steps, tied seats averaging their places.  ``score``: own score
    minus the mean of the others, divided by ``score_scale``.
    """
    n = len(scores)
    if mode in ("win", "winner"):
        best = max(scores)
        winners = [s == best for s in scores]
        k = sum(winners)
        if k == n:
            return [0.0] * n
        loss = -1.0 / (n - 1)
        gain = (n - k) / (k * (n - 1))
        return [gain if w else loss for w in winners]
    if mode == "rank":
        order = sorted(range(n), key=lambda s: -scores[s])
        value = [1.0 - 2.0 * place / (n - 1) for place in range(n)]
        out = [0.0] * n
        place = 0
        while place < n:
            tied = [s for s in order[place:] if scores[s] == scores[order[place]]]
            share = sum(value[place : place + len(tied)]) / len(tied)
            for s in tied:
                out[s] = share
            place += len(tied)
        return out
    if mode == "score":
        total = sum(scores)
        return [(s - (total - s) / (n - 1)) / score_scale for s in scores]
    raise ValueError(f"reward_mode {mode!r} is not one of {REWARD_MODES}")
