"""A sensible Lying Pirates captain for ``lying_pirates_v0``.

It reads its observation through the named views (``bidbluff.envs.lying_pirates.observation.view``:
the fields with their scales, the layout the encoder writes) and decides:

* **Betting**: the ``liars_dice_v0`` heuristic's odds and policy
  (``bidbluff.agents.heuristic.liars_dice``), fed with its own cup, the dice the other
  captains in play hold, and the last bet; the ids are translated both ways.
* **Rerolls** only when the roll is bad and a coin is there: a sail die of 1,
  an X on the Pirate / Treasure die, a skull in a battle (or a dagger when
  someone else shows swords).
* **Cards** in a priority window: free draws, move cards, attacks when a
  captain off the Base is in reach (the target is the leader), crew, coins,
  draws; it buys a card when rich (5 coins or more).  It always blocks an
  attack card with a reaction.
* **Targets**: the leader by progress, then by what the effect takes.
* **Catch-up**: advances while it has crew to spare (4 dice, or 3 when far
  behind).
* **Final battle**: buys crew with every spare coin, plays its final-battle
  cards, rerolls a bad roll.
* **Setup**: places tiles at random among the legal slots (a simple rule),
  and passes the least useful card in the draft.
"""

from __future__ import annotations

import numpy as np

from bidbluff.agents.base import SeededAgent, legal_ids
from bidbluff.agents.heuristic import liars_dice as ld
from bidbluff.envs.core.fields import hot
from bidbluff.envs.liars_dice.codec import CODEC as LD_CODEC
from bidbluff.envs.liars_dice.codec import FACE_SLOTS
from bidbluff.envs.liars_dice.game import MAX_QUANTITY as LD_MAX_QUANTITY
from bidbluff.envs.lying_pirates.action_codec import BET_FACES, CODEC, KINDS, LOWEST_FACE, MAX_CAPTAINS
from bidbluff.envs.lying_pirates.battle import Icon
from bidbluff.envs.lying_pirates.content import CARDS, MAP_WATERS, TARGETED, TILES
from bidbluff.envs.lying_pirates.dice import SPECIALS, Die
from bidbluff.envs.lying_pirates.observation import PHASES, PT_FACES, REROLL_DICE, view
from bidbluff.envs.lying_pirates.table import DECISIONS

_OFF = CODEC.offset
_BID, _EXACT, _LIAR = _OFF["bid"], _OFF["exact"], _OFF["liar"]
_REROLL, _KEEP, _PASS, _PLAY, _BUY, _DRAW = (_OFF[k] for k in ("reroll", "keep", "pass", "play", "buy", "draw"))
_TARGET, _ADVANCE, _STOP, _PICK = _OFF["target"], _OFF["advance"], _OFF["stop"], _OFF["pick"]
_BASE_LAP = len(MAP_WATERS["base"])  # the lap read before any tile is on the map
_X_FACE, _FINAL_PHASE = PT_FACES.index("X"), PHASES.index("final")
_SAIL_DIE, _PT_DIE = REROLL_DICE.index("sail"), REROLL_DICE.index("pt")
_LD_FACES = FACE_SLOTS  # the liars_dice_v0 codec lays out faces 1-6

# How much a card is worth holding on to (draft: the cheapest is passed on).
_VERB_VALUE = {"move": 3.0, "push": 2.0, "hit_crew": 2.0, "steal_crew": 2.5, "steal_coins": 2.0, "steal_card": 1.5,
               "duel": 1.5, "broadside": 2.5, "brawl": 0.5, "hit_coins": 1.5, "crew": 2.0, "coins": 1.5,
               "draw": 1.5, "special": 2.0}  # fmt: skip


def card_value(k: int) -> float:
    card = CARDS[k]
    if card.reaction:
        return 1.0
    return sum(_VERB_VALUE.get(verb, 1.0) for verb, _ in card.effect) + (0.5 if card.final_battle else 0.0)


class _Bettor(ld.LiarsDiceHeuristic):
    """The liars_dice_v0 policy, handed an already decoded view instead of its own observation."""

    @staticmethod
    def read(obs: dict) -> dict:  # type: ignore[override]
        return obs

    @staticmethod
    def classic(mask: np.ndarray, has_bid: bool) -> bool:
        return False  # Lying Pirates' rules: 1s wild, "exactly" allowed


class _Seen:
    """One observation read once through the codec's named views: what the decisions compare, per relative
    seat, in the game's units (``view`` for the rest)."""

    __slots__ = ("captains", "coins", "crew", "lap", "progress", "view")

    def __init__(self, obs: np.ndarray) -> None:
        v = self.view = view(obs)
        self.captains: list[int] = np.flatnonzero(v.present > 0.5).tolist()
        # the lap as the map shows it (tiles placed; the base map's before any is)
        self.lap: int = int(v.map.any(axis=1).sum()) or _BASE_LAP
        self.progress: list[int] = [round(laps * self.lap) for laps in v.decoded("laps").tolist()]
        self.crew: list[int] = v.counts("crew").tolist()
        self.coins: list[int] = v.counts("coins").tolist()


class LyingPiratesHeuristic(SeededAgent):
    """Bets by the odds, spends coins and cards sensibly; see the module docstring."""

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.bettor = _Bettor(seed=seed)

    # -- reading the observation (``obs``: the vector) ------------------------------------------
    @staticmethod
    def captains(obs: np.ndarray) -> list[int]:
        return _Seen(obs).captains

    @staticmethod
    def lap(obs: np.ndarray) -> int:
        return _Seen(obs).lap

    def progress(self, obs: np.ndarray, rel: int) -> int:
        return _Seen(obs).progress[rel]

    @staticmethod
    def crew(obs: np.ndarray, rel: int) -> int:
        return _Seen(obs).crew[rel]

    @staticmethod
    def coins(obs: np.ndarray, rel: int) -> int:
        return _Seen(obs).coins[rel]

    @staticmethod
    def hand(obs: np.ndarray) -> list[int]:
        counts = view(obs).counts("known")[0]
        return [k for k in range(KINDS) for _ in range(counts[k])]

    def betting_view(self, obs: np.ndarray) -> dict:
        return self._betting(_Seen(obs))

    @staticmethod
    def _betting(seen: _Seen) -> dict:
        v = seen.view
        own_specials = [(SPECIALS[i], int(np.argmax(row))) for i, row in enumerate(v.cup_specials) if row.any()]
        unseen: list[int] = []
        for rel in seen.captains[1:]:
            if v.excluded[rel] > 0.5:
                continue
            held = [SPECIALS[i] for i, x in enumerate(v.specials[rel]) if x > 0.5]
            unseen += [Die.CREW] * max(0, seen.crew[rel]) + held
        face = hot(v.last_face)
        last = None if face < 0 else (v.counts("last_quantity"), face + LOWEST_FACE)
        return {"crew": v.counts("cup"), "own_specials": own_specials, "unseen": unseen, "last": last}

    # -- deciding ---------------------------------------------------------------------------
    def act(self, observation: dict[str, np.ndarray], agent: str) -> int:
        legal = [int(i) for i in legal_ids(observation, agent)]
        seen = _Seen(observation["observation"])
        decision = DECISIONS[int(np.argmax(seen.view.decision))]
        choice = getattr(self, f"_{decision}")(seen, legal, agent)
        return choice if choice in legal else int(self.rng.choice(legal))

    def _bet(self, seen: _Seen, legal: list[int], agent: str) -> int:
        mask = np.zeros(LD_CODEC.n, dtype=np.int8)
        back: dict[int, int] = {}
        for i in legal:
            if i == _LIAR:
                back[ld._LIAR] = i
                continue
            kind, at = (_EXACT, ld._EXACT) if i >= _EXACT else (_BID, ld._BID)
            q, f = divmod(i - kind, BET_FACES)
            if q < LD_MAX_QUANTITY:
                back[at + q * _LD_FACES + f + 1] = i  # face f + 2 is slot f + 1 of faces 1-6
        if not back:
            return legal[0]
        mask[list(back)] = 1
        return back[self.bettor.act({"observation": self._betting(seen), "action_mask": mask}, agent)]

    def _reroll(self, seen: _Seen, legal: list[int], agent: str) -> int:
        v = seen.view
        die = int(np.argmax(v.reroll_die))
        if die == _SAIL_DIE:
            bad = v.sail_die[0] > 0.5  # a 1 (the one-hot of faces 1, 2)
        elif die == _PT_DIE:
            bad = v.pt_face[_X_FACE] > 0.5
        else:
            bad = self._bad_battle_roll(seen)
        return _REROLL if bad and seen.coins[0] >= 1 else _KEEP

    def _bad_battle_roll(self, seen: _Seen) -> bool:
        v = seen.view
        icons = {}
        for rel in seen.captains:
            icon = v.icon[rel]
            if v.battling[rel] > 0.5 and icon.any():
                icons[rel] = int(np.argmax(icon))
        if 0 not in icons:
            return False
        mine, others = icons[0], [icon for r, icon in icons.items() if r != 0]
        return mine == Icon.SKULL or (mine == Icon.DAGGER and Icon.SWORDS in others)

    def _window(self, seen: _Seen, legal: list[int], agent: str) -> int:
        if _DRAW in legal:
            return _DRAW
        me = seen.progress[0]
        targets = [r for r in seen.captains[1:] if seen.progress[r] % seen.lap != 0]
        best, best_value = None, 0.0
        for i in legal:
            if not _PLAY <= i < _PLAY + KINDS:
                continue
            value = self._play_value(seen, i - _PLAY, targets, me)
            if value > best_value:
                best, best_value = i, value
        if best is not None:
            return best
        if _BUY in legal and seen.coins[0] >= 5:
            return _BUY
        return _PASS

    def _play_value(self, seen: _Seen, k: int, targets: list[int], me: int) -> float:
        crew = seen.crew[0]
        value = 0.0
        for verb, _ in CARDS[k].effect:
            if verb == "move":
                value += 3.0
            elif verb in TARGETED:
                if not targets:
                    return 0.0
                ahead = max(seen.progress[r] for r in targets) >= me - 1
                value += 2.0 if ahead or verb != "push" else 0.5
            elif verb == "broadside":
                value += 2.5
            elif verb == "brawl":
                value += 1.0 if seen.progress[0] % seen.lap == 0 else 0.0
            elif verb == "crew":
                value += 1.5 if crew < 8 and not (CARDS[k].final_battle and crew > 3) else 0.0
            elif verb in ("coins", "draw", "special"):
                value += 1.0
        return value

    def _target(self, seen: _Seen, legal: list[int], agent: str) -> int:
        v = seen.view
        card, tile = v.card, v.tile
        effects = CARDS[int(np.argmax(card))].effect if card.any() else TILES[int(np.argmax(tile))].good
        verbs = {verb for verb, _ in effects} | (
            {verb for verb, _ in TILES[int(np.argmax(tile))].bad} if tile.any() else set()
        )

        def score(i: int) -> float:
            rel = i - _TARGET
            s = 10.0 * seen.progress[rel] - (50.0 if v.phantom[rel] > 0.5 else 0.0)
            if verbs & {"steal_coins", "hit_coins"}:
                s += seen.coins[rel]
            elif "steal_card" in verbs:
                s += v.decoded("hand_size")[rel]
            else:
                s += seen.crew[rel]
            if v.phase[_FINAL_PHASE] > 0.5:  # the final battle: its crew matters most
                s += 20 * v.decoded("final_crew")[rel]
            return s

        targets = [i for i in legal if _TARGET <= i < _TARGET + MAX_CAPTAINS]
        return max(targets, key=score) if targets else legal[0]

    def _react(self, seen: _Seen, legal: list[int], agent: str) -> int:
        plays = [i for i in legal if _PLAY <= i < _PLAY + KINDS]
        return plays[0] if plays else _PASS

    def _catchup(self, seen: _Seen, legal: list[int], agent: str) -> int:
        crew = seen.crew[0]
        behind = max((seen.progress[r] for r in seen.captains[1:]), default=0) - seen.progress[0]
        return _ADVANCE if crew >= 4 or (crew >= 3 and behind >= 3) else _STOP

    def _buy_crew(self, seen: _Seen, legal: list[int], agent: str) -> int:
        return _BUY

    def _final(self, seen: _Seen, legal: list[int], agent: str) -> int:
        plays = [i for i in legal if _PLAY <= i < _PLAY + KINDS]
        if plays:
            return max(plays, key=lambda i: card_value(i - _PLAY))
        if _REROLL in legal and self._bad_battle_roll(seen):
            return _REROLL
        return _PASS

    def _place(self, seen: _Seen, legal: list[int], agent: str) -> int:
        return int(self.rng.choice(legal))

    def _draft(self, seen: _Seen, legal: list[int], agent: str) -> int:
        return min(legal, key=lambda i: (card_value(i - _PICK), i))
