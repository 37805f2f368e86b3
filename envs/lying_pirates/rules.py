"""Lying Pirates' engine: the full base game for 2-6 captains.

A round is a Betting phase (``betting.BettingRound``), a Sail phase (coin,
token, sail die, reroll window, priority window, movement, the movers' battle,
one tile resolved) and an Action phase (priority window, then the catch-up
sacrifice).  The game ends in a Sail phase when a ship is back on the Base
after a full lap; two or more such ships fight the final battle.  With two
players a third captain, the Phantom, sails along under the rulebook's
Phantom-mode rules.

The state is plain data; ``apply`` answers the open decision (``pending``) and
runs every automatic step until the next one.  ``stage`` names the step the
engine is in; the ``battle``, ``effect``, ``window``, ``catchup`` and ``final``
records hold the work in progress of the step that needs several decisions.
Chance (dice, shuffles) comes from the Generator handed to ``apply``.

Options (all off by default) live in ``ext``: the Cities of Greed expansion
(``cities.CitiesMixin``), captain abilities, variant cards and Merchant Ships
(``variants.VariantsMixin``).  A base game has ``ext = None`` and never
enters their steps; the hooks below ask ``self.ext is not None`` first.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from envs.core.codec import Action
from envs.core.game import TERMINAL, GameState, plain
from envs.lying_pirates.battle import BATTLE_DIE, FinalBattle, Icon
from envs.lying_pirates.betting import LYING_PIRATES, BettingRound, BettingRules, Outcome
from envs.lying_pirates.cities import EXPANSION, CitiesMixin, new_cities
from envs.lying_pirates.content import (
    ALL_TILE_INDEX,
    ALL_TILES,
    CARDS,
    CITY_SWAPS,
    FIRST_GAME,
    GOLD,
    HAND_SIZE,
    INFLUENCE_DECK,
    MAP_WATERS,
    RICH_START_COINS,
    SAFE,
    SILVER,
    TARGETED,
    TILE_INDEX,
    TILES,
    TREACHEROUS,
    UNCHARTED,
    VARIANT_INDEX,
    VARIANTS,
    is_attack,
)
from envs.lying_pirates.crew import BOARD, Crews
from envs.lying_pirates.dice import FACES, Die
from envs.lying_pirates.variants import ABILITY_MODES, VariantsMixin, new_options

SAIL_DIE = (1, 1, 1, 2, 2, 2)
PIRATE_DIE = "XXOOOO"
TREASURE_DIE = "XXXOOO"
START_COINS = 2
CARD_COST = 2
CREW_COST = 2  # final battle: one crew die for two coins
REROLL_COST = 1
GOLD_USED, SILVER_USED, REROLL_USED = 0, 1, 2
DECISIONS = ("place", "draft", "bet", "reroll", "window", "target", "react", "catchup", "buy_crew", "final")
# Decisions only the options bring (the base observation's one-hot stays on DECISIONS).
EXT_DECISIONS = ("captain", "town_place", "town_choose", "influence_return", "influence_town", "influence_mode",
                 "cargo", "bomb", "card_return", "merchant", "loot")  # fmt: skip
ALL_DECISIONS = frozenset(DECISIONS + EXT_DECISIONS)
NO_EXACT = BettingRules(exact=False)  # the "Pirate Code" variant card
SUNK_PENALTY = 100  # a sunk captain's score: tiles sailed less this, below every ship still sailing


@dataclass(eq=False)
class LyingPiratesState(CitiesMixin, VariantsMixin, GameState):
    num_players: int
    captains: int = 0  # players, plus the Phantom in a two-player game
    phantom: int = -1
    map_name: str = "base"
    slots: list[int] = field(default_factory=list)  # tile index per slot; -1 while the map is built
    progress: list[int] = field(default_factory=list)  # tiles sailed; a full lap is len(slots)
    coins: list[int] = field(default_factory=list)
    crews: Crews = field(default_factory=lambda: Crews([]))
    hands: list[list[int]] = field(default_factory=list)  # card kinds, sorted
    deck: list[int] = field(default_factory=list)  # top is the end of the list
    discard: list[int] = field(default_factory=list)
    phantom_pile: list[int] = field(default_factory=list)
    known: list[list[list[int]]] = field(default_factory=list)  # [observer][holder][card kind] count
    token: int = 0
    direction: int = 1  # +1 clockwise, -1 counterclockwise
    round_no: int = 0
    excluded: list[int] = field(default_factory=list)  # out of this round's Betting phase
    next_excluded: list[int] = field(default_factory=list)
    betting: BettingRound | None = None
    reveal: dict[str, Any] | None = None  # the last Betting phase's cups and outcome, as the table saw them
    result: dict[str, Any] = field(default_factory=dict)  # this round's winner, losers, survivors
    used: list[list[bool]] = field(default_factory=list)  # per captain: gold, silver, reroll this round
    phase: str = "betting"  # betting, sail, action, final or over: what the rulebook calls the phase
    stage: str = "betting"  # the engine's step within it
    sail_die: int = 0
    finished: list[int] = field(default_factory=list)
    battle: dict[str, Any] | None = None
    reroll: dict[str, Any] | None = None
    resolver: int = -1
    pt: dict[str, Any] | None = None
    effect: dict[str, Any] | None = None
    window: dict[str, Any] | None = None
    catchup: dict[str, Any] | None = None
    final: dict[str, Any] | None = None
    draft: dict[str, Any] | None = None
    placing: dict[str, Any] | None = None
    played: list[list[int]] = field(default_factory=list)  # [captain, card kind] played this round
    pending: list[Any] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    ext: dict[str, Any] | None = None  # the options' state (cities.py, variants.py); None in a base game

    # -- the GameState contract -------------------------------------------------
    def current_player(self) -> int:
        return self.pending[1] if self.pending else TERMINAL

    def legal_actions(self) -> list[Action]:
        if not self.pending:
            return []
        kind, seat = self.pending[0], self.pending[1]
        return getattr(self, f"_legal_{kind}")(seat)

    def apply(self, action: Action, rng: np.random.Generator) -> None:
        kind = self.pending[0]
        getattr(self, f"_on_{kind}")(self.pending[1], action, rng)
        self._advance(rng)

    def scores(self) -> list[float]:
        """Tiles sailed, plus 100 for the winner (the Phantom's win gives no player the bonus)."""
        out = self.crews.out
        return [float(self.progress[s] + (100 if s in self.winners else 0) - (SUNK_PENALTY if s in out else 0))
                for s in range(self.num_players)]  # fmt: skip

    # -- geometry -----------------------------------------------------------------
    @property
    def lap(self) -> int:
        return len(self.slots)

    def position(self, c: int) -> int:
        return self.progress[c] % self.lap

    def on_base(self, c: int) -> bool:
        return self.position(c) == 0

    def players(self) -> list[int]:
        if self.crews.out:
            return [p for p in range(self.num_players) if p not in self.crews.out]
        return list(range(self.num_players))

    def turn_order(self, start: int, who: list[int]) -> list[int]:
        """``who`` in the token's direction, starting from ``start`` (or the next one after it)."""
        order = [(start + self.direction * i) % self.captains for i in range(self.captains)]
        return [c for c in order if c in who]

    def water(self, c: int) -> str:
        return MAP_WATERS[self.map_name][self.position(c)]

    # -- the automatic flow -----------------------------------------------------------
    def _advance(self, rng: np.random.Generator) -> None:
        while not self.pending and self.stage != "over":
            getattr(self, f"_stage_{self.stage}")(rng)
            if self.crews.out and self.stage != "over":
                self._check_last_standing()

    def _say(self, text: str) -> None:
        self.log.append(text)
        del self.log[:-30]

    # Betting ---------------------------------------------------------------------------
    def _stage_betting(self, rng: np.random.Generator) -> None:
        self.round_no += 1
        self.phase = "betting"
        self.used = [[False, False, False] for _ in range(self.captains)]
        self.played = []
        self.log = []
        in_play = [c for c in range(self.captains) if c not in self.excluded and c not in self.crews.out]
        cups = {c: [[int(d), _roll(d, rng)] for d in self._cup_dice(c)] for c in in_play}
        players_in = [p for p in self.players() if p not in self.excluded]
        phantom_in = self.phantom >= 0 and self.phantom in in_play
        bettors = players_in + ([self.phantom] if phantom_in and len(players_in) == 1 else [])
        start = self.token if self.token in bettors else self.turn_order(self.token, bettors)[0]
        rules = LYING_PIRATES
        if self.ext is not None:
            if self.ext.get("influence_used"):
                self.ext["influence_used"] = [False] * self.captains
            if self.variant("Pirate Code"):
                rules = NO_EXACT
        self.betting = BettingRound(cups, self.turn_order(start, bettors), self.captains, rules)
        self.stage = "bet"

    def _cup_dice(self, c: int) -> list[int]:
        return [int(Die.CREW)] * self.crews.crew[c] + [int(d) for d in self.crews.specials(c)]

    def _stage_bet(self, rng: np.random.Generator) -> None:
        if self.betting.outcome is None:
            bettor = self.betting.current
            # The Phantom's turns are taken by the player who is out of the phase.
            controller = self.excluded[0] if bettor == self.phantom else bettor
            self.pending = ["bet", controller]
            return
        self._finish_betting()

    def _legal_bet(self, seat: int) -> list[Action]:
        return self.betting.legal_actions()

    def _on_bet(self, seat: int, action: Action, rng: np.random.Generator) -> None:
        self.betting.apply(action)
        self.pending = []

    def _finish_betting(self) -> None:
        o: Outcome = self.betting.outcome
        winner = o.winners[0]
        everyone = self.alive_captains()
        losers = set(o.losers) | set(self.excluded)
        if o.call == "exact" and o.correct:
            losers = set(everyone) - {winner}
            self.crews.gain(winner, 1)
        survivors = [c for c in everyone if c != winner and c not in losers]
        self.result = {"winner": winner, "losers": sorted(losers), "survivors": survivors}
        self.reveal = {"cups": {str(c): cup for c, cup in self.betting.cups.items()}, "outcome": o.to_dict(),
                       "bids": [list(b) for b in self.betting.bids]}  # fmt: skip
        self.next_excluded = [o.wrong_exact] if o.wrong_exact >= 0 else []
        self._say(f"betting: {o.call} by C{o.caller} on {o.bet[0]}x{o.bet[1]} ({o.count} counted): "
                  f"winner C{winner}, losers {sorted(losers)}")  # fmt: skip
        self.betting = None
        self.stage = "mayor_reveal" if self.crews.holder.get(int(Die.MAYOR), -1) >= 0 else "sail"

    # Sail -------------------------------------------------------------------------------
    def _stage_sail(self, rng: np.random.Generator) -> None:
        self.phase = "sail"
        winner = self.result["winner"]
        self.coins[winner] += 1
        if self.ext is not None:
            if self.has(winner, "betting_bonus"):
                self.coins[winner] += 1
            if self.variant("Bounty"):
                self._bounty()
        self.token = winner
        self.sail_die = SAIL_DIE[int(rng.integers(6))]
        self.finished = []
        self._offer_reroll([winner], "sail", "sail_window")

    def _stage_sail_window(self, rng: np.random.Generator) -> None:
        self._open_window("sail", "move")

    def _stage_move(self, rng: np.random.Generator) -> None:
        movers = [self.result["winner"], *self.result["survivors"]]
        before = list(self.progress)
        for c in movers:
            self._move(c, self.sail_die, "sail")
        if self.variant("Strong Winds"):
            self._move(movers[0], 1, "sail")  # the Betting phase's winner sails one tile further
        if self.phantom in movers:
            self._phantom_catches(before)
            if self.stage == "over":
                return
        self._say(f"sail {self.sail_die}: {movers} move")
        if len(movers) == 1:
            self.resolver = movers[0]
            self.stage = "tile"
        else:
            self._start_battle(movers, "winner", "battle_won")

    def _stage_battle_won(self, rng: np.random.Generator) -> None:
        self.resolver = self.battle["result"]
        self.battle = None
        self.stage = "tile"

    def _stage_tile(self, rng: np.random.Generator) -> None:
        tile = ALL_TILES[self.slots[self.position(self.resolver)]]
        if tile.roll:
            faces = PIRATE_DIE if tile.roll == "P" else TREASURE_DIE
            self.pt = {"die": tile.roll, "face": faces[int(rng.integers(6))], "roller": self.resolver}
            self._offer_reroll([self.resolver], "pt", "tile_effect")
        else:
            self.pt = None
            self.stage = "tile_effect"

    def _stage_tile_effect(self, rng: np.random.Generator) -> None:
        tile = ALL_TILES[self.slots[self.position(self.resolver)]]
        effects = tile.bad if self.pt and self.pt["face"] == "X" else tile.good
        self._say(f"C{self.resolver} resolves {tile.name}" + (f" ({self.pt['face']})" if self.pt else ""))
        # Merchant Ships: a ship on the tile is met after the tile event (rulebook)
        then = "encounter" if self.ext is not None and self.ext["merchant"] >= 0 else "end_of_sail"
        self._start_effect(self.resolver, effects, "tile", -1, then)

    def _stage_end_of_sail(self, rng: np.random.Generator) -> None:
        self.pt = None
        if self.crews.out:
            self.finished = [c for c in self.finished if c not in self.crews.out]  # sunk after reaching the Base
        if len(self.finished) == 1:
            self._end([self.finished[0]])
        elif len(self.finished) > 1:
            self.stage = "final_start"
        else:
            self.stage = "action"

    # Action ------------------------------------------------------------------------------
    def _stage_action(self, rng: np.random.Generator) -> None:
        self.phase = "action"
        if self.variant("Supply Drop"):
            self._supply_drop(rng)
        if self.phantom >= 0 and self.phantom_pile and not self.is_out(self.phantom):
            card = self.phantom_pile.pop()
            self.discard.append(card)
            self.played.append([self.phantom, card])
            self._say(f"the Phantom plays {CARDS[card].name}")
            self._start_effect(self.phantom, CARDS[card].effect, "card", card, "action_window")
        else:
            self.stage = "action_window"

    def _stage_action_window(self, rng: np.random.Generator) -> None:
        self._open_window("action", "catchup")

    def _stage_catchup(self, rng: np.random.Generator) -> None:
        if self.catchup is None:
            self.catchup = {"group": self._last_players(), "asked": [], "accepted": []}
        group = self.catchup["group"]
        if not all(self._can_step(c) for c in group):
            self._end_round()
            return
        waiting = [c for c in self.turn_order(self.token, group) if c not in self.catchup["asked"]]
        if waiting:
            self.pending = ["catchup", waiting[0]]
            return
        if len(self.catchup["accepted"]) < len(group):
            self._end_round()
            return
        for c in group:
            self.crews.lose(c, 1)
            self.progress[c] += 1
        self._say(f"catch-up: {group} sacrifice a crew die each and sail one tile")
        ships = {self.position(c) for c in self.alive_captains() if c not in group}
        if self.position(group[0]) in ships:
            # Reached another ship: the captains now tied last may go on together.
            joined = self._last_players()
            if joined == group:
                self._end_round()  # the ship reached was not a last-place one: the step is over
                return
            group = joined
        self.catchup = {"group": group, "asked": [], "accepted": []}

    def _last_players(self) -> list[int]:
        last = min(self.progress[p] for p in self.players())
        return [p for p in self.players() if self.progress[p] == last]

    def _can_step(self, c: int) -> bool:
        """A last captain may step if it can spare a crew die, the Base is not next, and a ship is ahead."""
        if self.crews.crew[c] < 2 or self.progress[c] + 1 >= self.lap:
            return False
        return any(self.position(o) > self.position(c) for o in range(self.captains) if o != c and not self.is_out(o))

    def _legal_catchup(self, seat: int) -> list[Action]:
        return [("advance",), ("stop",)]

    def _on_catchup(self, seat: int, action: Action, rng: np.random.Generator) -> None:
        self.catchup["asked"].append(seat)
        if action[0] == "advance":
            self.catchup["accepted"].append(seat)
        else:
            self.catchup["asked"] = list(self.catchup["group"])  # one refusal stops them all
        self.pending = []

    def _end_round(self) -> None:
        if self.variant("Kraken Wakes"):
            self._kraken_wakes()
        self.catchup = None
        self.excluded, self.next_excluded = self.next_excluded, []
        self.stage = "betting"

    # Movement -------------------------------------------------------------------------
    def _move(self, c: int, n: int, phase: str) -> None:
        before = self.progress[c]
        if n < 0:
            self.progress[c] = max(0, before + n)
            return
        after = before + n
        if c != self.phantom:
            if phase == "sail" and after >= self.lap:
                after = self.lap  # back on the Base after a full lap
                if c not in self.finished:
                    self.finished.append(c)
            elif after >= self.lap:
                after = self.lap - 1  # the game cannot end outside the Sail phase
        self.progress[c] = after

    def _phantom_catches(self, before: list[int]) -> None:
        """The Phantom sinks a ship it caught up with: one that was ahead of it and that it reached or passed.

        Only what it sails after passing the Base counts (rulebook: it goes on around the map, and "if it
        later catches up with one of the players' ships"); overtaking on its first lap sinks nothing."""
        ph = self.phantom
        start = max(before[ph], self.lap)
        travelled = self.progress[ph] - start
        caught = [p for p in self.players() if self.progress[p] < self.lap  # a ship back home is safe
                  and 0 < (before[p] - start) % self.lap <= travelled - (self.progress[p] - before[p])]  # fmt: skip
        if len(caught) == 2:
            self._say("the Phantom catches both ships and sinks them: the Phantom wins")
            self._end([self.phantom])
        elif caught:
            other = 1 - caught[0]
            self._say(f"the Phantom sinks C{caught[0]}'s ship: C{other} wins")
            self._end([other])

    def _end(self, winners: list[int]) -> None:
        self.winners = winners
        self.pending = []
        self.phase = self.stage = "over"

    # Rerolls ----------------------------------------------------------------------------------
    def _can_reroll(self, c: int, die: str = "") -> bool:
        cost = REROLL_COST if self.ext is None else self.reroll_cost(c, die, REROLL_COST)
        return c != self.phantom and self.coins[c] >= cost and not self.used[c][REROLL_USED]

    def _offer_reroll(self, rollers: list[int], die: str, then: str) -> None:
        self.reroll = {"queue": [c for c in rollers if self._can_reroll(c, die)], "die": die, "then": then}
        self.stage = "reroll"

    def _stage_reroll(self, rng: np.random.Generator) -> None:
        if self.reroll["queue"]:
            self.pending = ["reroll", self.reroll["queue"][0]]
            return
        self.stage = self.reroll["then"]
        self.reroll = None

    def _legal_reroll(self, seat: int) -> list[Action]:
        return [("reroll",), ("keep",)]

    def _on_reroll(self, seat: int, action: Action, rng: np.random.Generator) -> None:
        self.reroll["queue"].pop(0)
        self.pending = []
        if action[0] == "keep":
            return
        die = self.reroll["die"]
        self.coins[seat] -= REROLL_COST if self.ext is None else self.reroll_cost(seat, die, REROLL_COST)
        self.used[seat][REROLL_USED] = True
        if die == "sail":
            self.sail_die = SAIL_DIE[int(rng.integers(6))]
        elif die == "pt":
            faces = PIRATE_DIE if self.pt["die"] == "P" else TREASURE_DIE
            self.pt["face"] = faces[int(rng.integers(6))]
        elif die == "encounter":
            self.ext["encounter"]["roll"] = int(BATTLE_DIE[int(rng.integers(8))])
        else:
            self.battle["rolls"][seat] = int(BATTLE_DIE[int(rng.integers(8))])
        self._say(f"C{seat} pays a coin to reroll")

    # Battles ----------------------------------------------------------------------------------
    def _start_battle(self, rolling: list[int], looking_for: str, then: str) -> None:
        self.battle = {"rolling": self.turn_order(self.token, rolling), "looking_for": looking_for,
                       "rolls": [-1] * self.captains, "then": then, "result": -1}  # fmt: skip
        self.stage = "battle_roll"

    def _stage_battle_roll(self, rng: np.random.Generator) -> None:
        for c in self.battle["rolling"]:
            self.battle["rolls"][c] = int(BATTLE_DIE[int(rng.integers(8))])
        self._offer_reroll(self.battle["rolling"], "battle", "battle_resolve")

    def _stage_battle_resolve(self, rng: np.random.Generator) -> None:
        b = self.battle
        pick = max if b["looking_for"] == "winner" else min
        best = pick(b["rolls"][c] for c in b["rolling"])
        b["rolling"] = [c for c in b["rolling"] if b["rolls"][c] == best]
        if self.ext is not None:
            b["rolling"] = self._brawler_tiebreak(b["rolling"], b["looking_for"])
        if len(b["rolling"]) == 1:
            b["result"] = b["rolling"][0]
            self._say(f"battle for a {b['looking_for']}: C{b['result']}")
            self.stage = b["then"]
        else:
            self.stage = "battle_roll"

    # Effects of tiles and cards ------------------------------------------------------------------
    def _start_effect(self, actor: int, effects: tuple, source: str, card: int, then: str) -> None:
        self.effect = {"actor": actor, "effects": [list(e) for e in effects], "index": 0, "source": source,
                       "card": card, "target": -1, "then": then}  # fmt: skip
        self.stage = "effect"

    def _targets(self) -> list[int]:
        e = self.effect
        if e["source"] == "final":
            return [c for c in self._alive() if c != e["actor"]]
        others = [c for c in range(self.captains) if c != e["actor"] and c not in self.crews.out]
        if e["source"] in ("card", "ability"):
            others = [c for c in others if not self.on_base(c)]  # the Base tile protects from cards
        return others

    def _stage_effect(self, rng: np.random.Generator) -> None:
        e = self.effect
        while e["index"] < len(e["effects"]):
            verb, n = e["effects"][e["index"]]
            if verb in TARGETED and e["target"] < 0:
                targets = self._targets()
                if not targets:
                    e["index"] += 1
                    continue
                if e["actor"] == self.phantom:
                    # A Phantom card aimed at one captain: the two players battle, the loser is hit.
                    choices = [t for t in targets if t != self.phantom]
                    if len(choices) == 1:
                        e["target"] = choices[0]
                    else:
                        self._start_battle(choices, "loser", "phantom_target")
                        return
                else:
                    self.pending = ["target", e["actor"]]
                    return
            if e["source"] == "card" and e["target"] >= 0 and not e.get("reacted") and self._can_react(e["target"]):
                e["reacted"] = True
                self.pending = ["react", e["target"]]
                return
            e["index"] += 1
            if self._do(verb, n, rng) or self.stage == "over":
                return  # a battle was started (it comes back to this stage), or the Phantom sank a ship
        self.effect = None
        self.stage = e["then"]

    def _stage_phantom_target(self, rng: np.random.Generator) -> None:
        self.effect["target"] = self.battle["result"]
        self.battle = None
        self.stage = "effect"

    def _legal_target(self, seat: int) -> list[Action]:
        return [("target", t) for t in self._targets()]

    def _on_target(self, seat: int, action: Action, rng: np.random.Generator) -> None:
        self.effect["target"] = action[1]
        self.pending = []

    def _can_react(self, c: int) -> bool:
        card = self.effect["card"]
        if c == self.phantom or card < 0 or not is_attack(CARDS[card]):
            return False
        return any(self._may_play(c, k) for k in set(self.hands[c]) if CARDS[k].reaction)

    def _legal_react(self, seat: int) -> list[Action]:
        playable = sorted({k for k in self.hands[seat] if CARDS[k].reaction and self._may_play(seat, k)})
        return [("play", k) for k in playable] + [("pass",)]

    def _on_react(self, seat: int, action: Action, rng: np.random.Generator) -> None:
        self.pending = []
        if action[0] == "pass":
            return
        self._spend_card(seat, action[1])
        self._say(f"C{seat} defends with {CARDS[action[1]].name}")
        self.effect["index"] = len(self.effect["effects"])  # the attack card is cancelled

    def _do(self, verb: str, n: Any, rng: np.random.Generator) -> bool:
        """Carry out one effect; True if it started a battle that will resume the effect."""
        e = self.effect
        actor, target = e["actor"], e["target"]
        if e["source"] == "final":
            self._do_in_final(verb, n, actor, target)
            return False
        if verb == "coins":
            self.coins[actor] = max(0, self.coins[actor] + n)
        elif verb == "crew":
            if n > 0:
                self.crews.gain(actor, n + (1 if self.has(actor, "extra_recruit") else 0))
            else:
                self.crews.lose(actor, -n)
        elif verb == "move":
            before = list(self.progress)
            self._move(actor, n, self.phase)
            if actor == self.phantom and n > 0:
                self._phantom_catches(before)
        elif verb == "draw":
            for _ in range(n):
                self._draw(actor, rng)
        elif verb == "special":
            self.crews.take_special(actor, Die(n))
        elif verb == "discard":
            for _ in range(min(n, len(self.hands[actor]))):
                self._lose_card(actor, self.hands[actor][int(rng.integers(len(self.hands[actor])))])
        elif verb == "token":
            self.token, self.direction = actor, -self.direction
        elif verb == "hit_crew":
            self.crews.lose(target, n)
        elif verb == "hit_coins":
            self.coins[target] = max(0, self.coins[target] - n)
        elif verb == "steal_crew":
            for _ in range(n):
                self.crews.steal(actor, target)
        elif verb == "steal_coins":
            taken = min(n, self.coins[target])
            self.coins[target] -= taken
            self.coins[actor] += taken
        elif verb == "steal_card":
            if self.hands[target]:
                card = self.hands[target][int(rng.integers(len(self.hands[target])))]
                self._lose_card(target, card, to=actor)
        elif verb == "push":
            self._move(target, -n, "action")
        elif verb == "duel":
            e["after_battle"] = ["duel", n]
            self._start_battle([actor, target], "winner", "effect_battle")
            return True
        elif verb == "broadside":
            for c in range(self.captains):
                if c != actor and not (e["source"] == "card" and self.on_base(c)):
                    self.crews.lose(c, n)
        elif verb == "brawl":
            fighters = [c for c in self.alive_captains() if not self.on_base(c)]
            if len(fighters) == 1:
                self.crews.lose(fighters[0], n)
            elif fighters:
                e["after_battle"] = ["brawl", n]
                self._start_battle(fighters, "loser", "effect_battle")
                return True
        elif verb == "kraken":
            for c in range(self.captains):
                if self.water(c) == TREACHEROUS:
                    self.crews.lose(c, n)
        elif verb == "influence":  # Cities of Greed tiles
            for _ in range(n):
                k = self._draw_influence(actor, rng)
                if k >= 0:
                    self._take_drawn(actor, "influence", k)
        elif verb == "cargo":
            if actor != self.phantom or self._cargo_choices(actor):
                self._lose_cargo([[actor, n]], "effect")
                return True
        else:
            raise AssertionError(f"unknown effect verb {verb}")
        return False

    def _do_in_final(self, verb: str, n: int, actor: int, target: int) -> None:
        """Final-battle cards change the crews counted in the final battle."""
        crew = self.final["crew"]
        if verb == "crew":
            crew[actor] += n
        elif verb == "hit_crew":
            crew[target] = max(0, crew[target] - n)
        elif verb == "broadside":
            for c in self._alive():
                if c != actor:
                    crew[c] = max(0, crew[c] - n)
        else:
            raise AssertionError(f"{verb} is not a final-battle effect")

    def _stage_effect_battle(self, rng: np.random.Generator) -> None:
        e = self.effect
        kind, n = e.pop("after_battle")
        result = self.battle["result"]
        loser = result if kind == "brawl" else (e["target"] if result == e["actor"] else e["actor"])
        self.crews.lose(loser, n)
        self._say(f"C{loser} loses the {kind} and {n} crew")
        self.battle = None
        self.stage = "effect"

    # Cards and the priority window ----------------------------------------------------------------
    def _may_play(self, c: int, card: int) -> bool:
        metal = CARDS[card].metal
        if metal == SILVER and self.phase != "action":
            return False
        return not self.used[c][GOLD_USED if metal == GOLD else SILVER_USED]

    def _spend_card(self, c: int, card: int) -> None:
        self.hands[c].remove(card)
        self._forget(c, card)
        self.discard.append(card)
        self.used[c][GOLD_USED if CARDS[card].metal == GOLD else SILVER_USED] = True
        self.played.append([c, card])

    def _open_window(self, kind: str, then: str) -> None:
        order = self.turn_order(self.token, self.players())
        self.window = {"kind": kind, "order": order, "turn": 0, "passes": 0, "then": then}
        self.stage = "window"

    def _stage_window(self, rng: np.random.Generator) -> None:
        w = self.window
        if self.crews.out:
            while w["passes"] < len(w["order"]) and self.is_out(w["order"][w["turn"] % len(w["order"])]):
                w["turn"] += 1  # a sunk captain's turn passes by itself
                w["passes"] += 1
        if w["passes"] >= len(w["order"]):
            self.window = None
            self.stage = w["then"]
            return
        self.pending = ["window", w["order"][w["turn"] % len(w["order"])]]

    def _legal_window(self, seat: int) -> list[Action]:
        actions: list[Action] = [("pass",)]
        for k in sorted(set(self.hands[seat])):
            card = CARDS[k]
            if not card.reaction and self._may_play(seat, k):
                actions.append(("play", k))
        cost = CARD_COST if self.ext is None else self.card_cost(seat, CARD_COST)
        if self.coins[seat] >= cost and (self.deck or self.discard):
            actions.append(("buy",))
        if not self.hands[seat] and (self.deck or self.discard):
            actions.append(("draw",))
        if self.crews.can_pass_curse(seat):
            actions += [("curse", t) for t in range(self.captains) if t != seat and not self.is_out(t)]
        if self.ext is not None:
            if self.ext.get("influence") is not None:
                actions += self._city_window_actions(seat)
            if self._can_sabotage(seat):
                actions.append(("ability",))
        return actions

    def _on_window(self, seat: int, action: Action, rng: np.random.Generator) -> None:
        w = self.window
        w["turn"] += 1
        self.pending = []
        if action[0] == "pass":
            w["passes"] += 1
            return
        w["passes"] = 0
        if action[0] == "play":
            self._spend_card(seat, action[1])
            self._say(f"C{seat} plays {CARDS[action[1]].name}")
            self._start_effect(seat, CARDS[action[1]].effect, "card", action[1], "window")
        elif action[0] == "buy":
            if self.ext is None:
                self.coins[seat] -= CARD_COST
                self._draw(seat, rng)
            else:
                self.coins[seat] -= self.card_cost(seat, CARD_COST)
                self._buy(seat, "card", 1, rng, "window")
        elif action[0] == "draw":
            self._draw(seat, rng)
        elif action[0] == "curse":
            self.crews.pass_curse(seat, action[1])
            self._say(f"C{seat} passes the Cursed die to C{action[1]}")
        elif action[0] == "ability":
            self._sabotage(seat)
        else:
            self._city_window_act(seat, action, rng)

    def _draw(self, c: int, rng: np.random.Generator) -> None:
        if c == self.phantom:
            return  # the Phantom only ever plays its own pile: it takes no cards
        if not self.deck:
            self.deck, self.discard = self.discard, []
            rng.shuffle(self.deck)
            self.deck = [int(k) for k in self.deck]
        if self.deck:
            self.hands[c].append(self.deck.pop())
            self.hands[c].sort()

    def _lose_card(self, c: int, card: int, to: int = -1) -> None:
        self.hands[c].remove(card)
        self._forget(c, card)
        if to >= 0 and to != self.phantom:
            self.hands[to].append(card)
            self.hands[to].sort()
            if c < self.num_players:
                self.known[c][to][card] += 1  # the victim saw which card was taken
        else:
            self.discard.append(card)

    def _forget(self, holder: int, card: int) -> None:
        left = self.hands[holder].count(card)
        for observer in range(self.num_players):
            row = self.known[observer][holder]
            row[card] = min(row[card], left)

    # The final battle -------------------------------------------------------------------------------
    def _stage_final_start(self, rng: np.random.Generator) -> None:
        self.phase = "final"
        finalists = self.turn_order(self.token, self.finished)
        crew = [0] * self.captains
        for c in finalists:
            crew[c] = self.crews.final_battle_crew(c)
            for d in self.crews.specials(c):
                self.crews.holder[int(d)] = BOARD
        self.final = {"crew": crew, "rolling": finalists, "battles": 0, "buying": list(finalists),
                      "rolls": [-1] * self.captains, "used": [[False, False] for _ in range(self.captains)],
                      "order": [], "turn": 0, "passes": 0}  # fmt: skip
        self._say(f"final battle between {finalists}")
        self.stage = "final_buy"

    def _alive(self) -> list[int]:
        return [c for c in self.turn_order(self.token, list(range(self.captains))) if self.final["crew"][c] > 0]

    def _stage_final_buy(self, rng: np.random.Generator) -> None:
        queue = self.final["buying"]
        while queue and self.coins[queue[0]] < CREW_COST:
            queue.pop(0)
        if queue:
            self.pending = ["buy_crew", queue[0]]
        else:
            self.stage = "final_roll"

    def _legal_buy_crew(self, seat: int) -> list[Action]:
        return [("buy",), ("pass",)]

    def _on_buy_crew(self, seat: int, action: Action, rng: np.random.Generator) -> None:
        self.pending = []
        if action[0] == "pass":
            self.final["buying"].pop(0)
        else:
            self.coins[seat] -= CREW_COST
            self.final["crew"][seat] += 1

    def _stage_final_roll(self, rng: np.random.Generator) -> None:
        f = self.final
        for c in f["rolling"]:
            f["rolls"][c] = int(BATTLE_DIE[int(rng.integers(8))])
        f["order"], f["turn"], f["passes"] = [c for c in self._alive() if c != self.phantom], 0, 0
        self.stage = "final_window"

    def _stage_final_window(self, rng: np.random.Generator) -> None:
        f = self.final
        if f["passes"] >= len(f["order"]):
            self.stage = "final_resolve"
            return
        self.pending = ["final", f["order"][f["turn"] % len(f["order"])]]

    def _legal_final(self, seat: int) -> list[Action]:
        f = self.final
        actions: list[Action] = [("pass",)]
        cost = REROLL_COST if self.ext is None else self.reroll_cost(seat, "final", REROLL_COST)
        if seat in f["rolling"] and self.coins[seat] >= cost and not f["used"][seat][0]:
            actions.append(("reroll",))
        if not f["used"][seat][1]:
            actions += [("play", k) for k in sorted(set(self.hands[seat])) if CARDS[k].final_battle]
        return actions

    def _on_final(self, seat: int, action: Action, rng: np.random.Generator) -> None:
        f = self.final
        f["turn"] += 1
        self.pending = []
        if action[0] == "pass":
            f["passes"] += 1
            return
        f["passes"] = 0
        if action[0] == "reroll":
            self.coins[seat] -= REROLL_COST if self.ext is None else self.reroll_cost(seat, "final", REROLL_COST)
            f["used"][seat][0] = True
            f["rolls"][seat] = int(BATTLE_DIE[int(rng.integers(8))])
            return
        card = action[1]
        self.hands[seat].remove(card)
        self._forget(seat, card)
        self.discard.append(card)
        f["used"][seat][1] = True
        self._say(f"C{seat} plays {CARDS[card].name} in the final battle")
        self.effect = {"actor": seat, "effects": [list(x) for x in CARDS[card].effect], "index": 0,
                       "source": "final", "card": card, "target": -1, "then": "final_after_card"}  # fmt: skip
        self.stage = "effect"

    def _stage_final_after_card(self, rng: np.random.Generator) -> None:
        f = self.final
        alive = self._alive()
        if len(alive) == 1:
            self._end(alive)
            return
        f["order"] = [c for c in f["order"] if c in alive]
        f["turn"] %= max(1, len(f["order"]))
        f["rolling"] = [c for c in f["rolling"] if c in alive]
        if len(f["rolling"]) < 2:
            # the card knocked out the last rival of this battle: it ends with that loss
            f["battles"] += 1
            f["used"] = [[False, False] for _ in range(self.captains)]
            f["rolling"] = alive
            self.stage = "final_roll"
        else:
            self.stage = "final_window"

    def _stage_final_resolve(self, rng: np.random.Generator) -> None:
        f = self.final
        alive = self._alive()
        battle = FinalBattle({c: f["crew"][c] for c in alive}, list(f["rolling"]), f["battles"])
        losers = battle.resolve({c: Icon(f["rolls"][c]) for c in f["rolling"]})
        for c, n in battle.crew.items():
            f["crew"][c] = n
        if losers:
            self._say(f"final battle {f['battles'] + 1}: {losers} lose a crew die")
            f["used"] = [[False, False] for _ in range(self.captains)]
        f["rolling"], f["battles"] = battle.rolling, battle.battles
        if battle.winner is not None:
            self._end([battle.winner])
        else:
            self.stage = "final_roll"

    # Setup: the collaborative map and the card draft ---------------------------------------------------
    def _stage_place(self, rng: np.random.Generator) -> None:
        p = self.placing
        if -1 not in self.slots:
            self.placing = None
            self.stage = self._setup_stage()
            return
        for _ in range(self.num_players):
            seat = p["order"][p["turn"] % len(p["order"])]
            if self._legal_place(seat):
                self.pending = ["place", seat]
                return
            p["turn"] += 1
        raise AssertionError("empty slots that no tile can fill")

    def _legal_place(self, seat: int) -> list[Action]:
        waters = MAP_WATERS[self.map_name]
        return [("place", t, s) for t in self.placing["tiles"][seat] for s, slot in enumerate(self.slots)
                if slot < 0 and waters[s] == ALL_TILES[t].water]  # fmt: skip

    def _on_place(self, seat: int, action: Action, rng: np.random.Generator) -> None:
        _, tile, slot = action
        self.placing["tiles"][seat].remove(tile)
        self.slots[slot] = tile
        self.placing["turn"] += 1
        self._say(f"C{seat} places {ALL_TILES[tile].name} on slot {slot}")
        self.pending = []

    def _setup_stage(self) -> str:
        """The next setup step still to take, in setup order, or the first Betting phase."""
        if self.ext is not None and self.ext["captain_order"]:
            return "captain"
        if -1 in self.slots:
            return "place"
        if self.ext is not None and self.ext.get("towns") is not None:
            stage = self._city_setup_stage()
            if stage:
                return stage
        return "draft" if self.draft else "betting"

    def _stage_draft(self, rng: np.random.Generator) -> None:
        d = self.draft
        size = (3, 2, 1)[d["round"]]
        for seat in self.players():
            if len(d["picked"][seat]) < size:
                self.pending = ["draft", seat]
                return
        for seat in self.players():
            receiver = (seat + 1) % self.num_players
            for card in d["picked"][seat]:
                self.hands[seat].remove(card)
                self._forget(seat, card)
            for card in d["picked"][seat]:
                self.hands[receiver].append(card)
                self.known[seat][receiver][card] += 1
        for hand in self.hands:
            hand.sort()
        d["picked"] = [[] for _ in self.players()]
        d["round"] += 1
        if d["round"] == 3:
            self.draft = None
            self.stage = "betting"

    def _legal_draft(self, seat: int) -> list[Action]:
        left = list(self.hands[seat])
        for card in self.draft["picked"][seat]:
            left.remove(card)
        return [("pick", k) for k in sorted(set(left))]

    def _on_draft(self, seat: int, action: Action, rng: np.random.Generator) -> None:
        self.draft["picked"][seat].append(action[1])
        self.pending = []

    # -- saving, copying, hidden information -------------------------------------------------
    _FIELDS = ("num_players", "captains", "phantom", "map_name", "slots", "progress", "coins", "hands", "deck",
               "discard", "phantom_pile", "known", "token", "direction", "round_no", "excluded", "next_excluded",
               "reveal", "result", "used", "phase", "stage", "sail_die", "finished", "battle", "reroll", "resolver",
               "pt", "effect", "window", "catchup", "final", "draft", "placing", "played", "pending", "winners",
               "log")  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"game": "lying_pirates"}
        for name in self._FIELDS:
            data[name] = plain(getattr(self, name))
        data["crews"] = self.crews.to_dict()
        data["betting"] = self.betting.to_dict() if self.betting else None
        if self.ext is not None:
            data["ext"] = plain(self.ext)  # only games with options: a base game's dict is as it always was
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> LyingPiratesState:
        if data.get("game") != "lying_pirates":
            raise ValueError(f"not a Lying Pirates state (game={data.get('game')!r})")
        try:
            state = cls(**{name: plain(data[name]) for name in cls._FIELDS})
            state.crews = Crews.from_dict(data["crews"])
            state.betting = BettingRound.from_dict(data["betting"]) if data["betting"] else None
            state.ext = plain(data["ext"]) if data.get("ext") is not None else None
        except (KeyError, TypeError) as bad:
            raise ValueError(f"Lying Pirates state is malformed: {bad!r}") from None
        state.validate()
        return state

    def validate(self) -> None:
        problems = []
        c = self.captains
        if not 2 <= self.num_players <= 6 or c != self.num_players + (self.num_players == 2):
            problems.append(f"{self.num_players} players need {self.num_players + (self.num_players == 2)} captains")
        if self.map_name not in MAP_WATERS or len(self.slots) != len(MAP_WATERS[self.map_name]):
            problems.append(f"map {self.map_name!r} with {len(self.slots)} slots")
        for name in ("progress", "coins", "hands", "used"):
            if len(getattr(self, name)) != c:
                problems.append(f"{name} needs one entry per captain ({c})")
        if len(self.crews.crew) != c:
            problems.append("crews need one entry per captain")
        if (self.stage == "over") != (not self.pending):
            problems.append(f"pending {self.pending!r} must be empty exactly when the game is over")
        elif self.pending and self.pending[0] not in (DECISIONS if self.ext is None else ALL_DECISIONS):
            problems.append(f"pending {self.pending!r} is not a decision")
        cards = len(self.deck) + len(self.discard) + len(self.phantom_pile) + sum(map(len, self.hands))
        if self.ext is not None:
            problems += self._validate_ext()
            drawn = self.ext.get("drawn")
            if drawn and drawn["what"] == "card":
                cards += len(drawn["cards"])
        if not problems and cards != sum(card.count for card in CARDS):
            problems.append(f"{cards} action cards in play, not 83")
        if not problems and self.pending and not self.legal_actions():
            problems.append(f"the open decision {self.pending!r} has no legal action")
        if problems:
            raise ValueError("invalid Lying Pirates state: " + "; ".join(problems))

    def resample_hidden(self, seat: int, rng: np.random.Generator) -> LyingPiratesState:
        """Redraw what ``seat`` cannot see: other cups while betting, others' unknown
        cards, the Phantom's pile and the deck order, others' draft picks and unplaced tiles."""
        state = self.clone()
        if state.betting is not None:
            for c, cup in state.betting.cups.items():
                if c != seat:
                    for die in cup:
                        die[1] = _roll(die[0], rng)
        others = [c for c in range(state.captains) if c != seat]
        kept = {c: _counts_list(state.known[seat][c]) for c in others} if seat < state.num_players else {}
        pool = list(state.deck) + list(state.phantom_pile)
        drawn = state.ext.get("drawn") if state.ext is not None else None
        drawn_cards = 0  # "draw two, keep one": another captain's two drawn action cards are hidden too
        if drawn and drawn["what"] == "card" and drawn["seat"] != seat:
            drawn_cards = len(drawn["cards"])
            pool += drawn["cards"]
        sizes = {}
        for c in others:
            hand = list(state.hands[c])
            for card in kept.get(c, []):
                hand.remove(card)
            pool += hand
            sizes[c] = len(hand)
        pool.sort()  # what the seat knows fixes the pool, not the order it lies in
        order = [int(i) for i in rng.permutation(len(pool))]
        pool = [pool[i] for i in order]
        silver = [i for i, k in enumerate(pool) if CARDS[k].metal == SILVER]
        pile_at = set(silver[: len(state.phantom_pile)])
        state.phantom_pile = [pool[i] for i in sorted(pile_at)]
        rest = [k for i, k in enumerate(pool) if i not in pile_at]
        if drawn_cards:
            drawn["cards"], rest = rest[:drawn_cards], rest[drawn_cards:]
        for c in others:
            state.hands[c] = sorted(kept.get(c, []) + rest[: sizes[c]])
            rest = rest[sizes[c] :]
        state.deck = rest
        if state.ext is not None:
            state._resample_ext(seat, rng, drawn_cards)
        if state.draft is not None:
            for c in others:
                if c < state.num_players:
                    k = len(state.draft["picked"][c])
                    state.draft["picked"][c] = [int(x) for x in rng.choice(state.hands[c], k, replace=False)]
        if state.placing is not None:
            # A tile's water shows on its back (stand-in): only tiles of the same water trade places.
            hands = state.placing["tiles"]
            holders = [c for c in others if c < state.num_players]
            for water in (SAFE, UNCHARTED, TREACHEROUS):
                tiles = sorted(t for c in holders for t in hands[c] if ALL_TILES[t].water == water)
                rng.shuffle(tiles)
                for c in holders:
                    k = sum(ALL_TILES[t].water == water for t in hands[c])
                    hands[c] = [t for t in hands[c] if ALL_TILES[t].water != water] + [int(t) for t in tiles[:k]]
                    tiles = tiles[k:]
            for c in holders:
                hands[c].sort()
        return state

    def _resample_ext(self, seat: int, rng: np.random.Generator, drawn_cards: int) -> None:
        """Others' influence cards and the influence deck (with another's drawn pair) are redrawn together."""
        x = self.ext
        if x.get("influence") is None:
            return
        others = [c for c in range(self.captains) if c != seat]
        pool = list(x["influence_deck"])
        for c in others:
            pool += x["influence"][c]
        drawn = x["drawn"]
        hidden_pair = bool(drawn and drawn["what"] == "influence" and drawn["seat"] != seat)
        if hidden_pair:
            pool += drawn["cards"]
        pool.sort()
        pool = [pool[i] for i in rng.permutation(len(pool))]
        if hidden_pair:
            drawn["cards"], pool = [int(k) for k in pool[:2]], pool[2:]
        for c in others:
            k = len(x["influence"][c])
            x["influence"][c], pool = sorted(int(v) for v in pool[:k]), pool[k:]
        x["influence_deck"] = [int(v) for v in pool]

    def _validate_ext(self) -> list[str]:
        x = self.ext
        problems = []
        for key in ("options", "captain", "captain_order", "merchant", "navy", "encounter"):
            if key not in x:
                problems.append(f"ext needs {key!r}")
        if not problems and x.get("influence") is not None:
            total = len(x["influence_deck"]) + len(x["influence_discard"]) + sum(map(len, x["influence"]))
            if x["drawn"] and x["drawn"]["what"] == "influence":
                total += len(x["drawn"]["cards"])
            if total != INFLUENCE_DECK or len(x["towns"]) != len(self.slots):
                problems.append(f"{total} influence cards, {len(x['towns'])} town slots")
        return problems



def _roll(kind: int, rng: np.random.Generator) -> int:
    return FACES[Die(kind)][int(rng.integers(6))]


def _counts_list(counts: list[int]) -> list[int]:
    return [k for k, n in enumerate(counts) for _ in range(n)]


def check_options(expansion: str | None, abilities: str | None, variants: Any, merchant_ships: Any) -> list[str]:
    """The variant card names in table order; a clear ``ValueError`` for an unknown option value."""
    if expansion not in (None, EXPANSION):
        raise ValueError(f"expansion must be None or {EXPANSION!r}, not {expansion!r}")
    if abilities not in (None, *ABILITY_MODES):
        raise ValueError(f"abilities must be None, 'dealt' or 'chosen', not {abilities!r}")
    if not isinstance(merchant_ships, bool):
        raise ValueError(f"merchant_ships must be True or False, not {merchant_ships!r}")
    if isinstance(variants, str) or not all(isinstance(v, str) for v in variants):
        raise ValueError(f"variants must be a list of variant card names, not {variants!r}")
    unknown = [v for v in variants if v not in VARIANT_INDEX]
    if unknown:
        raise ValueError(f"no variant card {unknown}; the cards: {[v.name for v in VARIANTS]}")
    return sorted(set(variants), key=VARIANT_INDEX.__getitem__)


def has_options(options: dict[str, Any]) -> bool:
    """Whether setup ``options`` turn on anything beyond the base game (expansion, abilities, variants, ships)."""
    return bool(options.get("expansion") or options.get("abilities") or options.get("variants")
                or options.get("merchant_ships"))  # fmt: skip


def new_game(
    num_players: int, rng: np.random.Generator, map: str = "base", map_setup: str = "first_game",
    draft: bool = False, expansion: str | None = None, abilities: str | None = None, variants: Any = (),
    merchant_ships: bool = False,
) -> LyingPiratesState:  # fmt: skip
    """Seat the captains, build the map, deal crews, coins and cards; then the options' setup."""
    variants = check_options(expansion, abilities, variants, merchant_ships)
    if map not in MAP_WATERS:
        raise ValueError(f"map must be one of {sorted(MAP_WATERS)}, not {map!r}")
    if map_setup not in ("first_game", "collaborative"):
        raise ValueError(f"map_setup must be 'first_game' or 'collaborative', not {map_setup!r}")
    n = num_players
    captains = n + 1 if n == 2 else n
    state = LyingPiratesState(
        num_players=n, captains=captains, phantom=n if n == 2 else -1, map_name=map,
        progress=[0] * captains, crews=Crews.start(captains),
        coins=[RICH_START_COINS if "Rich Harbour" in variants else START_COINS] * captains,
        hands=[[] for _ in range(captains)], used=[[False, False, False] for _ in range(captains)],
        known=[[[0] * len(CARDS) for _ in range(captains)] for _ in range(n)],
    )  # fmt: skip
    size = HAND_SIZE[map]
    deck = [k for k, card in enumerate(CARDS) for _ in range(card.count)]
    if state.phantom >= 0:
        silver = [k for k in deck if CARDS[k].metal == SILVER]
        rng.shuffle(silver)
        state.phantom_pile = [int(k) for k in silver[:size]]
        for k in state.phantom_pile:
            deck.remove(k)
    rng.shuffle(deck)
    state.deck = [int(k) for k in deck]
    for seat in range(n):
        state.hands[seat] = sorted(state.deck.pop() for _ in range(size))
    if map_setup == "first_game":
        if expansion:
            state.slots = [ALL_TILE_INDEX[CITY_SWAPS.get(name, name)] for name in FIRST_GAME[map]]
        else:
            state.slots = [TILE_INDEX[name] for name in FIRST_GAME[map]]
        state.token = int(rng.integers(n))
    else:
        tiles = [int(t) for t in rng.permutation(len(ALL_TILES if expansion else TILES))]
        dealt = [tiles[i::n] for i in range(n)]
        base = TILE_INDEX["Start/End"]
        state.token = next(s for s in range(n) if base in dealt[s])
        dealt[state.token].remove(base)
        state.slots = [base] + [-1] * (len(MAP_WATERS[map]) - 1)
        order = [(state.token + i) % n for i in range(n)]
        # placing the Base was the holder's turn: the next tile is placed by the next player clockwise
        state.placing = {"tiles": dealt, "order": order, "turn": 1}
    if draft:
        state.draft = {"round": 0, "picked": [[] for _ in range(n)]}
    if expansion or abilities or variants or merchant_ships:
        options = {"expansion": expansion, "abilities": abilities, "variants": variants,
                   "merchant_ships": merchant_ships}  # fmt: skip
        state.ext = {"options": options, **new_options(state, rng, abilities, merchant_ships)}
        if expansion:
            state.ext.update(new_cities(state, rng))
        if abilities:
            state._apply_abilities()
        state.crews.mortal = "Instant Death" in variants
    state.stage = state._setup_stage()
    state._advance(rng)
    return state


def resample_hidden(state: LyingPiratesState, seat: int, rng: np.random.Generator) -> LyingPiratesState:
    return state.resample_hidden(seat, rng)
