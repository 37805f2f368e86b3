"""Action cards in hands: drawing, spending, losing, and what each captain knows of the others' hands."""

from __future__ import annotations

import numpy as np

from bidbluff.envs.lying_pirates.content import CARDS, GOLD, SILVER
from bidbluff.envs.lying_pirates.table import ACTION, GOLD_USED, SILVER_USED, Table


def may_play(state: Table, c: int, card: int) -> bool:
    """Silver cards only in the Action phase; one gold and one silver card a round."""
    metal = CARDS[card].metal
    if metal == SILVER and state.phase != ACTION:
        return False
    return not state.used[c][GOLD_USED if metal == GOLD else SILVER_USED]


def spend_card(state: Table, c: int, card: int) -> None:
    state.hands[c].remove(card)
    forget(state, c, card)
    state.discard.append(card)
    state.used[c][GOLD_USED if CARDS[card].metal == GOLD else SILVER_USED] = True
    state.played.append([c, card])


def draw_card(state: Table, c: int, rng: np.random.Generator) -> int:
    """The top card of the deck (the discard reshuffled when it is empty), or -1: none, or ``c`` is the
    Phantom, who only ever plays its own pile."""
    if c == state.phantom:
        return -1
    if not state.deck:
        state.deck, state.discard = state.discard, []
        rng.shuffle(state.deck)
        state.deck = [int(k) for k in state.deck]
    return state.deck.pop() if state.deck else -1


def take_card(state: Table, c: int, card: int) -> None:
    state.hands[c].append(card)
    state.hands[c].sort()


def draw(state: Table, c: int, rng: np.random.Generator) -> None:
    card = draw_card(state, c, rng)
    if card >= 0:
        take_card(state, c, card)


def lose_card(state: Table, c: int, card: int, to: int = -1) -> None:
    """``c`` loses ``card``: to captain ``to`` (who saw it taken), else to the discard."""
    state.hands[c].remove(card)
    forget(state, c, card)
    if to >= 0 and to != state.phantom:
        state.hands[to].append(card)
        state.hands[to].sort()
        if c < state.num_players:
            state.known[c][to][card] += 1  # the victim saw which card was taken
    else:
        state.discard.append(card)


def forget(state: Table, holder: int, card: int) -> None:
    """No observer can know ``holder`` has more of ``card`` than it has left."""
    left = state.hands[holder].count(card)
    for observer in range(state.num_players):
        row = state.known[observer][holder]
        row[card] = min(row[card], left)
