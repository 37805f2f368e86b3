"""Cities of Greed (``expansion="cities_of_greed"``): towns, influence cards, cargo and the Mayor die.

Its data lives in ``state.ext`` (absent in a base game, so a base game's state and flow are untouched);
its work in progress in its frames; ``register`` hooks it into the base game's steps.  The keys in ``ext``:

    towns            town under each map slot (-1: the Base, or not placed yet)
    town_cards       each captain's town cards not placed yet (the Phantom's set too)
    town_turn        placement / choice turn; town_order: players from the one who starts
    designated       each captain's designated town (-1: none; the Phantom has none)
    influence        each captain's influence cards (kinds of ``INFLUENCE``), sorted
    influence_deck   face down, top at the end;  influence_discard: face up
    influence_setup  players still to give back one of their three first cards
    influence_used   played an influence card this round (one per Action phase)

Sources: the video's Cities of Greed segment; rulings in shared/rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from envs.core.codec import Action
from envs.lying_pirates.cards import lose_card
from envs.lying_pirates.content import (
    INFLUENCE,
    INFLUENCE_COST,
    INFLUENCE_DECK,
    INFLUENCE_DRAW,
    INFLUENCE_KEEP,
    MAYOR_BONUS,
    TOWNS,
)
from envs.lying_pirates.dice import BOMB, COIN, Die
from envs.lying_pirates.dice_rolls import start_battle
from envs.lying_pirates.frames import Effect, Frame
from envs.lying_pirates.hooks import Hooks

if TYPE_CHECKING:
    from envs.lying_pirates.state import LyingPiratesState as State

EXPANSION = "cities_of_greed"


def new_cities(state: State, rng: np.random.Generator) -> dict[str, Any]:
    """The expansion's setup: town cards, the influence deal (three each, to keep two), the Mayor die."""
    c, n = state.captains, state.num_players
    # Who "last set foot in a boat" starts placing towns (video): the engine cannot know, so chance picks.
    start = int(rng.integers(n))
    deck = [k for k, card in enumerate(INFLUENCE) for _ in range(card.count)]
    rng.shuffle(deck)
    deck = [int(k) for k in deck]
    hands: list[list[int]] = [[] for _ in range(c)]
    for p in range(n):  # the Phantom plays no influence cards
        hands[p] = sorted(deck.pop() for _ in range(INFLUENCE_DRAW))
    state.crews.holder[int(Die.MAYOR)] = -1
    return {
        "towns": [-1] * len(state.slots),
        "town_cards": [list(range(len(TOWNS))) for _ in range(c)],
        "town_order": [(start + i) % n for i in range(n)],
        "town_turn": 0,
        "designated": [-1] * c,
        "influence": hands,
        "influence_deck": deck,
        "influence_discard": [],
        "influence_setup": [(state.token + i) % n for i in range(n)],
        "influence_used": [False] * c,
    }


def setup_frames() -> list[Frame]:
    """The expansion's setup steps, in the order they are taken."""
    return [TownPlacing(), TownChoosing(), InfluenceSetup()]


# -- frames ------------------------------------------------------------------------------------------------------
@dataclass
class TownPlacing(Frame):
    """Town cards slotted under every tile but the Base, the players in turn."""

    first: ClassVar[str] = "town_place"


@dataclass
class TownChoosing(Frame):
    """Each player takes a designated town."""

    first: ClassVar[str] = "town_choose"


@dataclass
class InfluenceSetup(Frame):
    """Each player gives back one of its three first influence cards."""

    first: ClassVar[str] = "influence_setup"


@dataclass
class Influence(Frame):
    """An influence card being played: its town, then attack or bonus."""

    first: ClassVar[str] = "influence"
    seat: int
    card: int
    town: int = -1


@dataclass
class Cargo(Frame):
    """Captains still to lose cargo, in order: [seat, how many]; each chooses a coin, a card or a crew die."""

    first: ClassVar[str] = "cargo"
    queue: list[list[int]]


@dataclass
class MayorReveal(Frame):
    """The Mayor die at the reveal: a coin, or a bomb (a cargo from a captain its holder chooses)."""

    first: ClassVar[str] = "mayor_reveal"


# -- where captains are ------------------------------------------------------------------------------
def town_of(state: State, c: int) -> int:
    """The town under the tile ``c``'s ship is on (-1 on the Base or before towns are placed)."""
    return state.ext["towns"][state.position(c)]


def in_town(state: State, town: int) -> list[int]:
    """Captains in ``town`` (on a tile whose town card is ``town``), in turn order from the token."""
    return [c for c in state.turn_order(state.token, state.alive_captains()) if town_of(state, c) == town]


# -- setup: town cards under the tiles, designated towns, the first influence cards -------------------------
def _town_cards_for(state: State, seat: int) -> tuple[int, list[int]]:
    """Whose set ``seat`` places from: its own, or (two players, own set used up) the Phantom's."""
    cards = state.ext["town_cards"]
    if cards[seat]:
        return seat, cards[seat]
    if state.phantom >= 0 and cards[state.phantom]:
        return state.phantom, cards[state.phantom]
    return seat, []


def _towns_to_place(state: State) -> bool:
    return any(t < 0 for s, t in enumerate(state.ext["towns"]) if s > 0)


def next_town_placer(state: State, frame: TownPlacing, rng: np.random.Generator) -> None:
    x = state.ext
    if not _towns_to_place(state):
        state.pop()
        return
    order = x["town_order"]
    for _ in range(len(order)):
        seat = order[x["town_turn"] % len(order)]
        if _town_cards_for(state, seat)[1]:
            state.pending = ["town_place", seat]
            return
        x["town_turn"] += 1
    raise AssertionError("empty slots and no town card left")


def legal_town_place(state: State, frame: TownPlacing, seat: int) -> list[Action]:
    towns = state.ext["towns"]
    cards = _town_cards_for(state, seat)[1]
    return [("town_place", t, s) for t in cards for s in range(1, len(towns)) if towns[s] < 0]


def on_town_place(state: State, frame: TownPlacing, seat: int, action: Action, rng: np.random.Generator) -> None:
    _, town, slot = action
    owner = _town_cards_for(state, seat)[0]
    state.ext["town_cards"][owner].remove(town)
    state.ext["towns"][slot] = town
    state.ext["town_turn"] += 1
    state.say(f"C{seat} slots {TOWNS[town]} under slot {slot}")
    state.pending = []
    if not _towns_to_place(state):
        state.ext["town_turn"] = 0  # choosing towns starts again from the first placer (video)


def next_town_chooser(state: State, frame: TownChoosing, rng: np.random.Generator) -> None:
    x = state.ext
    waiting = [p for p in x["town_order"] if x["designated"][p] < 0]
    if not waiting:
        state.pop()
        return
    state.pending = ["town_choose", waiting[0]]


def legal_town_choose(state: State, frame: TownChoosing, seat: int) -> list[Action]:
    taken = set(state.ext["designated"])  # one shield per town: a town has at most one captain
    return [("town_choose", t) for t in range(len(TOWNS)) if t not in taken]


def on_town_choose(state: State, frame: TownChoosing, seat: int, action: Action, rng: np.random.Generator) -> None:
    state.ext["designated"][seat] = action[1]
    state.say(f"C{seat} takes {TOWNS[action[1]]} as their town")
    state.pending = []


def next_influence_return(state: State, frame: InfluenceSetup, rng: np.random.Generator) -> None:
    queue = state.ext["influence_setup"]
    if not queue:
        state.pop()
        return
    state.pending = ["influence_return", queue[0]]


def legal_first_return(state: State, frame: InfluenceSetup, seat: int) -> list[Action]:
    return [("return_influence", k) for k in sorted(set(state.ext["influence"][seat]))]


def on_first_return(state: State, frame: InfluenceSetup, seat: int, action: Action,
                    rng: np.random.Generator) -> None:  # fmt: skip
    x = state.ext
    state.pending = []
    kind = action[1]
    x["influence_discard"].append(kind)  # face up: what was given back is public
    x["influence"][seat].remove(kind)
    x["influence_setup"].pop(0)
    assert len(x["influence"][seat]) == INFLUENCE_KEEP


# -- influence cards in the Action phase's priority window ------------------------------------------------
def _window_actions(state: State, seat: int) -> list[Action]:
    if state.phase != "action":
        return []
    x = state.ext
    actions: list[Action] = []
    if not x["influence_used"][seat]:
        actions += [("influence", k) for k in sorted(set(x["influence"][seat]))]
    if state.coins[seat] >= INFLUENCE_COST and (x["influence_deck"] or x["influence_discard"]):
        actions.append(("buy_influence",))
    return actions


def _buy_influence(state: State, seat: int, action: Action, rng: np.random.Generator) -> None:
    state.coins[seat] -= INFLUENCE_COST
    state.hooks.buy(state, seat, "influence", rng)


def _play_influence(state: State, seat: int, action: Action, rng: np.random.Generator) -> None:
    x = state.ext
    kind = action[1]
    x["influence"][seat].remove(kind)
    x["influence_discard"].append(kind)
    x["influence_used"][seat] = True
    state.say(f"C{seat} plays the influence card {INFLUENCE[kind].name}")
    state.push(Influence(seat, kind))


def next_influence_choice(state: State, frame: Influence, rng: np.random.Generator) -> None:
    state.pending = ["influence_town" if frame.town < 0 else "influence_mode", frame.seat]


def legal_influence_town(state: State, frame: Influence, seat: int) -> list[Action]:
    return [("town", t) for t in INFLUENCE[frame.card].towns]


def on_influence_town(state: State, frame: Influence, seat: int, action: Action, rng: np.random.Generator) -> None:
    frame.town = action[1]
    state.pending = []


def legal_influence_mode(state: State, frame: Influence, seat: int) -> list[Action]:
    return [("attack",), ("bonus",)]


def on_influence_mode(state: State, frame: Influence, seat: int, action: Action, rng: np.random.Generator) -> None:
    town = frame.town
    state.pop()
    state.pending = []
    present = in_town(state, town)
    if action[0] == "attack":
        # every captain in the town loses one cargo, the player too if there (video: "all players")
        state.say(f"C{seat} attacks {TOWNS[town]}: {present} lose a cargo")
        lose_cargo(state, [[c, 1] for c in present])
        return
    for c in present:
        state.coins[c] += 1
    if state.ext["designated"][seat] == town and seat in present:
        # own town while there: 2 coins in all (not 1) and the Mayor die
        state.coins[seat] += MAYOR_BONUS - 1
        state.crews.take_special(seat, Die.MAYOR)
    state.say(f"C{seat} plays for {TOWNS[town]}'s bonus: {present} gain coins")


# -- drawing influence cards ---------------------------------------------------------------------------------
def draw_influence(state: State, c: int, rng: np.random.Generator) -> int:
    """Top influence card (the discard reshuffled when the deck is empty), or -1."""
    x = state.ext
    if c == state.phantom:
        return -1
    if not x["influence_deck"]:
        deck = list(x["influence_discard"])
        rng.shuffle(deck)
        x["influence_deck"], x["influence_discard"] = [int(k) for k in deck], []
    return x["influence_deck"].pop() if x["influence_deck"] else -1


def take_influence(state: State, c: int, k: int) -> None:
    hand = state.ext["influence"][c]
    hand.append(k)
    hand.sort()


def _influence_verb(state: State, e: Effect, n: int, rng: np.random.Generator) -> bool:
    """The expansion's tiles: draw ``n`` influence cards."""
    for _ in range(n):
        k = draw_influence(state, e.actor, rng)
        if k >= 0:
            take_influence(state, e.actor, k)
    return False


def _cargo_verb(state: State, e: Effect, n: int, rng: np.random.Generator) -> bool:
    """The expansion's tiles: the actor loses ``n`` cargo (its choice each time)."""
    if e.actor != state.phantom or _cargo_choices(state, e.actor):
        lose_cargo(state, [[e.actor, n]])
        return True
    return False


# -- cargo: a coin, an action card or a crew die, the victim's choice ---------------------------------------
def lose_cargo(state: State, victims: list[list[int]]) -> None:
    state.push(Cargo([list(v) for v in victims if v[1] > 0]))


def _can_lose_die(state: State, c: int) -> bool:
    crews = state.crews
    if crews.crew[c] > 1 or (crews.mortal and crews.crew[c] == 1):
        return True
    return any(d != Die.CURSED or c in crews.cursed_spare for d in crews.specials(c))


def _cargo_choices(state: State, c: int) -> list[Action]:
    actions: list[Action] = []
    if state.coins[c] > 0:
        actions.append(("drop_coin",))
    actions += [("drop_card", k) for k in sorted(set(state.hands[c]))]
    if _can_lose_die(state, c):
        actions.append(("drop_crew",))
    return actions


def next_cargo(state: State, frame: Cargo, rng: np.random.Generator) -> None:
    queue = frame.queue
    while queue:
        c = queue[0][0]
        choices = [] if state.is_out(c) else _cargo_choices(state, c)
        if not choices:
            queue.pop(0)  # nothing left to lose
            continue
        if c == state.phantom:
            # The Phantom is no player: it gives a coin if it has one, else a crew die (ruling).
            _drop(state, frame, c, choices[0] if choices[0][0] == "drop_coin" else ("drop_crew",))
            continue
        state.pending = ["cargo", c]
        return
    state.pop()


def legal_cargo(state: State, frame: Cargo, seat: int) -> list[Action]:
    return _cargo_choices(state, seat)


def on_cargo(state: State, frame: Cargo, seat: int, action: Action, rng: np.random.Generator) -> None:
    state.pending = []
    _drop(state, frame, seat, action)


def _drop(state: State, frame: Cargo, c: int, action: Action) -> None:
    queue = frame.queue
    queue[0][1] -= 1
    if queue[0][1] <= 0:
        queue.pop(0)
    if action[0] == "drop_coin":
        state.coins[c] -= 1
    elif action[0] == "drop_card":
        lose_card(state, c, action[1])
    else:
        state.crews.lose(c, 1)
    state.say(f"C{c} loses a cargo ({action[0][5:]})")


# -- the Mayor die at the reveal ------------------------------------------------------------------------------
def _after_betting(state: State) -> None:
    if state.crews.holder.get(int(Die.MAYOR), -1) >= 0:
        state.push(MayorReveal())


def mayor_reveal(state: State, frame: MayorReveal, rng: np.random.Generator) -> None:
    holder = state.crews.holder[int(Die.MAYOR)]
    cup = state.reveal["cups"].get(str(holder)) if holder >= 0 else None
    face = next((f for kind, f in cup if kind == Die.MAYOR), -1) if cup else -1
    if face == BOMB and _bomb_targets(state, holder):
        state.say(f"C{holder}'s Mayor die shows a bomb")
        if holder == state.phantom:
            # The Phantom's single-target effects are aimed by a battle of the players (rulebook).
            players = [p for p in state.players() if p != holder]
            if len(players) == 1:
                state.pop()
                lose_cargo(state, [[players[0], 1]])
            else:
                frame.stage = "bomb_battle"
                start_battle(state, players, "loser")
            return
        frame.stage = "bomb"
        return
    state.pop()
    if face == COIN:
        state.coins[holder] += 1
        state.say(f"C{holder}'s Mayor die shows a coin")


def _bomb_targets(state: State, holder: int) -> list[int]:
    return [c for c in state.alive_captains() if c != holder]


def ask_bomb_target(state: State, frame: MayorReveal, rng: np.random.Generator) -> None:
    state.pending = ["bomb", state.crews.holder[int(Die.MAYOR)]]


def legal_bomb(state: State, frame: MayorReveal, seat: int) -> list[Action]:
    return [("target", t) for t in _bomb_targets(state, seat)]


def on_bomb(state: State, frame: MayorReveal, seat: int, action: Action, rng: np.random.Generator) -> None:
    state.pending = []
    state.pop()
    lose_cargo(state, [[action[1], 1]])


def bomb_battle(state: State, frame: MayorReveal, rng: np.random.Generator) -> None:
    state.pop()
    lose_cargo(state, [[frame.outcome, 1]])


# -- hidden information and restored states --------------------------------------------------------------------
def _resample_hidden(state: State, seat: int, rng: np.random.Generator) -> None:
    """Others' influence cards and the influence deck (with another's drawn pair) are redrawn together."""
    x = state.ext
    others = [c for c in range(state.captains) if c != seat]
    pool = list(x["influence_deck"])
    for c in others:
        pool += x["influence"][c]
    drawn = state.drawn("influence")
    hidden_pair = drawn is not None and drawn.seat != seat
    if hidden_pair:
        pool += drawn.cards
    pool.sort()
    pool = [pool[i] for i in rng.permutation(len(pool))]
    if hidden_pair:
        drawn.cards, pool = [int(k) for k in pool[:2]], pool[2:]
    for c in others:
        k = len(x["influence"][c])
        x["influence"][c], pool = sorted(int(v) for v in pool[:k]), pool[k:]
    x["influence_deck"] = [int(v) for v in pool]


def _validate(state: State) -> list[str]:
    x = state.ext
    total = len(x["influence_deck"]) + len(x["influence_discard"]) + sum(map(len, x["influence"]))
    drawn = state.drawn("influence")
    if drawn is not None:
        total += len(drawn.cards)
    if total != INFLUENCE_DECK or len(x["towns"]) != len(state.slots):
        return [f"{total} influence cards, {len(x['towns'])} town slots"]
    return []


def register(hooks: Hooks) -> None:
    hooks.round_start.append(_reset_influence_used)
    hooks.after_betting.append(_after_betting)
    hooks.window_actions.append(_window_actions)
    hooks.window_acts.update(influence=_play_influence, buy_influence=_buy_influence)
    hooks.effect_verbs.update(influence=_influence_verb, cargo=_cargo_verb)
    hooks.draw["influence"] = draw_influence
    hooks.take["influence"] = take_influence
    hooks.validate.append(_validate)
    hooks.resample_hidden.append(_resample_hidden)


def _reset_influence_used(state: State) -> None:
    state.ext["influence_used"] = [False] * state.captains


STAGES = {
    "town_place": (TownPlacing, next_town_placer, {"town_place": (legal_town_place, on_town_place)}),
    "town_choose": (TownChoosing, next_town_chooser, {"town_choose": (legal_town_choose, on_town_choose)}),
    "influence_setup": (InfluenceSetup, next_influence_return,
                        {"influence_return": (legal_first_return, on_first_return)}),
    "influence": (Influence, next_influence_choice, {"influence_town": (legal_influence_town, on_influence_town),
                                                     "influence_mode": (legal_influence_mode, on_influence_mode)}),
    "cargo": (Cargo, next_cargo, {"cargo": (legal_cargo, on_cargo)}),
    "mayor_reveal": (MayorReveal, mayor_reveal, {}),
    "bomb": (MayorReveal, ask_bomb_target, {"bomb": (legal_bomb, on_bomb)}),
    "bomb_battle": (MayorReveal, bomb_battle, {}),
}  # fmt: skip
