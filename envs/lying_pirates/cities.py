"""Cities of Greed (``expansion="cities_of_greed"``): towns, influence cards, cargo and the Mayor die.

A mixin of ``LyingPiratesState``: its ``_stage_*``, ``_legal_*`` and ``_on_*``
methods join the engine's state machine by name, and everything it keeps
lives in ``state.ext`` (absent in a base game, so a base game's state and
flow are untouched).  The expansion's keys in ``ext``:

    towns            town under each map slot (-1: the Base, or not placed yet)
    town_cards       each captain's town cards not placed yet (the Phantom's set too)
    town_turn        placement / choice turn; town_order: players from the one who starts
    designated       each captain's designated town (-1: none; the Phantom has none)
    influence        each captain's influence cards (kinds of ``INFLUENCE``), sorted
    influence_deck   face down, top at the end;  influence_discard: face up
    influence_setup  players still to give back one of their three first cards
    influence_used   played an influence card this round (one per Action phase)
    playing          the influence card being played: seat, card, town
    cargo            captains still to lose cargo, in order: [seat, how many], and the stage after
    drawn            "draw two, keep one": the drawn cards waiting for the keep decision

Sources: the video's Cities of Greed segment; rulings in shared/rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from envs.core.codec import Action
from envs.lying_pirates.content import (
    INFLUENCE,
    INFLUENCE_COST,
    INFLUENCE_DRAW,
    INFLUENCE_KEEP,
    MAYOR_BONUS,
    TOWNS,
)
from envs.lying_pirates.dice import BOMB, COIN, Die

if TYPE_CHECKING:
    from envs.lying_pirates.rules import LyingPiratesState

EXPANSION = "cities_of_greed"


def new_cities(state: LyingPiratesState, rng: np.random.Generator) -> dict[str, Any]:
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
        "playing": None,
        "cargo": None,
        "drawn": None,
    }


class CitiesMixin:
    """Cities of Greed rules for ``LyingPiratesState`` (``self`` is the state)."""

    # -- where captains are ------------------------------------------------------------------------------
    def town_of(self: LyingPiratesState, c: int) -> int:
        """The town under the tile ``c``'s ship is on (-1 on the Base or before towns are placed)."""
        return self.ext["towns"][self.position(c)]

    def in_town(self: LyingPiratesState, town: int) -> list[int]:
        """Captains in ``town`` (on a tile whose town card is ``town``), in turn order from the token."""
        return [c for c in self.turn_order(self.token, self.alive_captains()) if self.town_of(c) == town]

    # -- setup: town cards under the tiles, designated towns, the first influence cards -------------------------
    def _city_setup_stage(self: LyingPiratesState) -> str:
        x = self.ext
        if any(t < 0 for s, t in enumerate(x["towns"]) if s > 0):
            return "town_place"
        if any(x["designated"][p] < 0 for p in range(self.num_players)):
            return "town_choose"
        if x["influence_setup"]:
            return "influence_setup"
        return ""

    def _town_cards_for(self: LyingPiratesState, seat: int) -> tuple[int, list[int]]:
        """Whose set ``seat`` places from: its own, or (two players, own set used up) the Phantom's."""
        cards = self.ext["town_cards"]
        if cards[seat]:
            return seat, cards[seat]
        if self.phantom >= 0 and cards[self.phantom]:
            return self.phantom, cards[self.phantom]
        return seat, []

    def _stage_town_place(self: LyingPiratesState, rng: np.random.Generator) -> None:
        x = self.ext
        if self._city_setup_stage() != "town_place":
            self.stage = self._setup_stage()
            return
        order = x["town_order"]
        for _ in range(len(order)):
            seat = order[x["town_turn"] % len(order)]
            if self._town_cards_for(seat)[1]:
                self.pending = ["town_place", seat]
                return
            x["town_turn"] += 1
        raise AssertionError("empty slots and no town card left")

    def _legal_town_place(self: LyingPiratesState, seat: int) -> list[Action]:
        towns = self.ext["towns"]
        cards = self._town_cards_for(seat)[1]
        return [("town_place", t, s) for t in cards for s in range(1, len(towns)) if towns[s] < 0]

    def _on_town_place(self: LyingPiratesState, seat: int, action: Action, rng: np.random.Generator) -> None:
        _, town, slot = action
        owner = self._town_cards_for(seat)[0]
        self.ext["town_cards"][owner].remove(town)
        self.ext["towns"][slot] = town
        self.ext["town_turn"] += 1
        self._say(f"C{seat} slots {TOWNS[town]} under slot {slot}")
        self.pending = []
        if self._city_setup_stage() != "town_place":
            self.ext["town_turn"] = 0  # choosing towns starts again from the first placer (video)

    def _stage_town_choose(self: LyingPiratesState, rng: np.random.Generator) -> None:
        x = self.ext
        if self._city_setup_stage() != "town_choose":
            self.stage = self._setup_stage()
            return
        seat = next(p for p in x["town_order"] if x["designated"][p] < 0)
        self.pending = ["town_choose", seat]

    def _legal_town_choose(self: LyingPiratesState, seat: int) -> list[Action]:
        taken = set(self.ext["designated"])  # one shield per town: a town has at most one captain
        return [("town_choose", t) for t in range(len(TOWNS)) if t not in taken]

    def _on_town_choose(self: LyingPiratesState, seat: int, action: Action, rng: np.random.Generator) -> None:
        self.ext["designated"][seat] = action[1]
        self._say(f"C{seat} takes {TOWNS[action[1]]} as their town")
        self.pending = []

    def _stage_influence_setup(self: LyingPiratesState, rng: np.random.Generator) -> None:
        queue = self.ext["influence_setup"]
        if not queue:
            self.stage = self._setup_stage()
            return
        self.pending = ["influence_return", queue[0]]

    def _legal_influence_return(self: LyingPiratesState, seat: int) -> list[Action]:
        drawn = self.ext["drawn"]
        cards = drawn["cards"] if drawn else self.ext["influence"][seat]
        return [("return_influence", k) for k in sorted(set(cards))]

    def _on_influence_return(self: LyingPiratesState, seat: int, action: Action, rng: np.random.Generator) -> None:
        x = self.ext
        self.pending = []
        kind = action[1]
        x["influence_discard"].append(kind)  # face up: what was given back is public
        if x["drawn"]:
            self._keep_drawn(kind)
            return
        x["influence"][seat].remove(kind)
        x["influence_setup"].pop(0)
        assert len(x["influence"][seat]) == INFLUENCE_KEEP

    # -- influence cards in the Action phase's priority window ------------------------------------------------
    def _city_window_actions(self: LyingPiratesState, seat: int) -> list[Action]:
        if self.phase != "action":
            return []
        x = self.ext
        actions: list[Action] = []
        if not x["influence_used"][seat]:
            actions += [("influence", k) for k in sorted(set(x["influence"][seat]))]
        if self.coins[seat] >= INFLUENCE_COST and (x["influence_deck"] or x["influence_discard"]):
            actions.append(("buy_influence",))
        return actions

    def _city_window_act(self: LyingPiratesState, seat: int, action: Action, rng: np.random.Generator) -> None:
        x = self.ext
        if action[0] == "buy_influence":
            self.coins[seat] -= INFLUENCE_COST
            self._buy(seat, "influence", 1, rng, "window")
            return
        kind = action[1]
        x["influence"][seat].remove(kind)
        x["influence_discard"].append(kind)
        x["influence_used"][seat] = True
        x["playing"] = {"seat": seat, "card": kind, "town": -1}
        self._say(f"C{seat} plays the influence card {INFLUENCE[kind].name}")
        self.stage = "influence"

    def _stage_influence(self: LyingPiratesState, rng: np.random.Generator) -> None:
        p = self.ext["playing"]
        self.pending = ["influence_town" if p["town"] < 0 else "influence_mode", p["seat"]]

    def _legal_influence_town(self: LyingPiratesState, seat: int) -> list[Action]:
        return [("town", t) for t in INFLUENCE[self.ext["playing"]["card"]].towns]

    def _on_influence_town(self: LyingPiratesState, seat: int, action: Action, rng: np.random.Generator) -> None:
        self.ext["playing"]["town"] = action[1]
        self.pending = []

    def _legal_influence_mode(self: LyingPiratesState, seat: int) -> list[Action]:
        return [("attack",), ("bonus",)]

    def _on_influence_mode(self: LyingPiratesState, seat: int, action: Action, rng: np.random.Generator) -> None:
        x = self.ext
        town = x["playing"]["town"]
        x["playing"] = None
        self.pending = []
        present = self.in_town(town)
        if action[0] == "attack":
            # every captain in the town loses one cargo, the player too if there (video: "all players")
            self._say(f"C{seat} attacks {TOWNS[town]}: {present} lose a cargo")
            self._lose_cargo([[c, 1] for c in present], "window")
            return
        for c in present:
            self.coins[c] += 1
        if x["designated"][seat] == town and seat in present:
            # own town while there: 2 coins in all (not 1) and the Mayor die
            self.coins[seat] += MAYOR_BONUS - 1
            self.crews.take_special(seat, Die.MAYOR)
        self._say(f"C{seat} plays for {TOWNS[town]}'s bonus: {present} gain coins")
        self.stage = "window"

    # -- drawing: influence cards, and "draw two, keep one" for every purchase ---------------------------------------
    def _draw_influence(self: LyingPiratesState, c: int, rng: np.random.Generator) -> int:
        """Top influence card (the discard reshuffled when the deck is empty), or -1."""
        x = self.ext
        if c == self.phantom:
            return -1
        if not x["influence_deck"]:
            deck = list(x["influence_discard"])
            rng.shuffle(deck)
            x["influence_deck"], x["influence_discard"] = [int(k) for k in deck], []
        return x["influence_deck"].pop() if x["influence_deck"] else -1

    def _buy(self: LyingPiratesState, c: int, what: str, n: int, rng: np.random.Generator, then: str) -> None:
        """``c`` gets ``n`` bought cards (``what``: "card" or "influence"); with "Draw Two, Keep One" each
        purchase draws two and the buyer keeps one (a decision), the other going to the discard."""
        if self.variant("Draw Two, Keep One") and c != self.phantom:
            cards = [k for k in (self._draw_one(c, what, rng) for _ in range(2)) if k >= 0]
            if len(cards) == 2:
                self.ext["drawn"] = {"seat": c, "what": what, "cards": cards, "then": then}
                self.stage = "keep_one"
                return
            for k in cards:
                self._take_drawn(c, what, k)
            self.stage = then
            return
        for _ in range(n):
            k = self._draw_one(c, what, rng)
            if k >= 0:
                self._take_drawn(c, what, k)
        self.stage = then

    def _draw_one(self: LyingPiratesState, c: int, what: str, rng: np.random.Generator) -> int:
        if what == "influence":
            return self._draw_influence(c, rng)
        if c == self.phantom:
            return -1
        if not self.deck:
            self.deck, self.discard = self.discard, []
            rng.shuffle(self.deck)
            self.deck = [int(k) for k in self.deck]
        return self.deck.pop() if self.deck else -1

    def _take_drawn(self: LyingPiratesState, c: int, what: str, k: int) -> None:
        hand = self.ext["influence"][c] if what == "influence" else self.hands[c]
        hand.append(k)
        hand.sort()

    def _stage_keep_one(self: LyingPiratesState, rng: np.random.Generator) -> None:
        d = self.ext["drawn"]
        self.pending = ["influence_return" if d["what"] == "influence" else "card_return", d["seat"]]

    def _legal_card_return(self: LyingPiratesState, seat: int) -> list[Action]:
        return [("return_card", k) for k in sorted(set(self.ext["drawn"]["cards"]))]

    def _on_card_return(self: LyingPiratesState, seat: int, action: Action, rng: np.random.Generator) -> None:
        self.pending = []
        self.discard.append(action[1])
        self._keep_drawn(action[1])

    def _keep_drawn(self: LyingPiratesState, returned: int) -> None:
        d = self.ext["drawn"]
        self.ext["drawn"] = None
        cards = list(d["cards"])
        cards.remove(returned)
        self._take_drawn(d["seat"], d["what"], cards[0])
        self.stage = d["then"]

    # -- cargo: a coin, an action card or a crew die, the victim's choice ---------------------------------------
    def _lose_cargo(self: LyingPiratesState, victims: list[list[int]], then: str) -> None:
        self.ext["cargo"] = {"queue": [list(v) for v in victims if v[1] > 0], "then": then}
        self.stage = "cargo"

    def _cargo_choices(self: LyingPiratesState, c: int) -> list[Action]:
        actions: list[Action] = []
        if self.coins[c] > 0:
            actions.append(("drop_coin",))
        actions += [("drop_card", k) for k in sorted(set(self.hands[c]))]
        if self._can_lose_die(c):
            actions.append(("drop_crew",))
        return actions

    def _stage_cargo(self: LyingPiratesState, rng: np.random.Generator) -> None:
        cargo = self.ext["cargo"]
        queue = cargo["queue"]
        while queue:
            c = queue[0][0]
            choices = [] if self.is_out(c) else self._cargo_choices(c)
            if not choices:
                queue.pop(0)  # nothing left to lose
                continue
            if c == self.phantom:
                # The Phantom is no player: it gives a coin if it has one, else a crew die (ruling).
                self._drop(c, choices[0] if choices[0][0] == "drop_coin" else ("drop_crew",))
                continue
            self.pending = ["cargo", c]
            return
        self.ext["cargo"] = None
        self.stage = cargo["then"]

    def _legal_cargo(self: LyingPiratesState, seat: int) -> list[Action]:
        return self._cargo_choices(seat)

    def _on_cargo(self: LyingPiratesState, seat: int, action: Action, rng: np.random.Generator) -> None:
        self.pending = []
        self._drop(seat, action)

    def _drop(self: LyingPiratesState, c: int, action: Action) -> None:
        queue = self.ext["cargo"]["queue"]
        queue[0][1] -= 1
        if queue[0][1] <= 0:
            queue.pop(0)
        if action[0] == "drop_coin":
            self.coins[c] -= 1
        elif action[0] == "drop_card":
            self._lose_card(c, action[1])
        else:
            self.crews.lose(c, 1)
        self._say(f"C{c} loses a cargo ({action[0][5:]})")

    # -- the Mayor die at the reveal ------------------------------------------------------------------------------
    def _stage_mayor_reveal(self: LyingPiratesState, rng: np.random.Generator) -> None:
        self.stage = "sail"
        holder = self.crews.holder[int(Die.MAYOR)]
        cup = self.reveal["cups"].get(str(holder)) if holder >= 0 else None
        face = next((f for kind, f in cup if kind == Die.MAYOR), -1) if cup else -1
        if face == COIN:
            self.coins[holder] += 1
            self._say(f"C{holder}'s Mayor die shows a coin")
        elif face == BOMB and self._bomb_targets(holder):
            self._say(f"C{holder}'s Mayor die shows a bomb")
            if holder == self.phantom:
                # The Phantom's single-target effects are aimed by a battle of the players (rulebook).
                players = [p for p in self.players() if p != holder]
                if len(players) == 1:
                    self._lose_cargo([[players[0], 1]], "sail")
                else:
                    self._start_battle(players, "loser", "bomb_battle")
                return
            self.stage = "bomb"

    def _bomb_targets(self: LyingPiratesState, holder: int) -> list[int]:
        return [c for c in self.alive_captains() if c != holder]

    def _stage_bomb(self: LyingPiratesState, rng: np.random.Generator) -> None:
        self.pending = ["bomb", self.crews.holder[int(Die.MAYOR)]]

    def _legal_bomb(self: LyingPiratesState, seat: int) -> list[Action]:
        return [("target", t) for t in self._bomb_targets(seat)]

    def _on_bomb(self: LyingPiratesState, seat: int, action: Action, rng: np.random.Generator) -> None:
        self.pending = []
        self._lose_cargo([[action[1], 1]], "sail")

    def _stage_bomb_battle(self: LyingPiratesState, rng: np.random.Generator) -> None:
        loser = self.battle["result"]
        self.battle = None
        self._lose_cargo([[loser, 1]], "sail")
