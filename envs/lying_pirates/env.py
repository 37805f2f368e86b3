"""
# Lying Pirates

| Import             | `from bidbluff.envs import lying_pirates_v0`              |
|--------------------|--------------------------------------------------|
| Actions            | Discrete                                         |
| Parallel API       | No                                               |
| Agents             | `agents= ['player_0', ..., 'player_{n-1}']`      |
| Agents             | 2-6 (`num_players`, default 4)                   |
| Action Shape       | Discrete(1062); with any option below: 1326      |
| Observation Shape  | (2996,); with any option below: (3504,)          |
| Observation Values | [0, 1]                                           |

Lying Pirates: The Race for the Pirate Throne, the base game.  Each round
the captains bet on their hidden crew dice (Liar's dice with 1s wild,
"exactly" and "Liar!"); the winner and the survivors sail, battle for the
tile they reach, and everyone plays action cards; stragglers may sacrifice
crew to catch up.  The first ship back on the Base after a full lap wins, and
ships that arrive together fight the final battle.  With two players the
Phantom, a third captain, sails along (rulebook's Phantom mode).

### Observation Space
`{"observation": float32[2996], "action_mask": int8[1062]}`: the acting
captain's own cup and hand, and for every captain what the table knows:
position and laps, coins, crew and special dice, hand size (and the cards
this captain knows it holds), the current bets with who made them, the last
reveal of every cup, the round's winner/losers/survivors, battles and dice in
progress, the map, cards played, and the open decision with its card or tile.

The vector field by field (`bidbluff.envs.lying_pirates.observation.LAYOUT`, and with any option below on
`FULL_LAYOUT`: the same values first, then the option blocks from 2996 on; `at` is the first value's
position, a seat block's copy 0; a test keeps this table equal to `describe()` of both):

| at | field | size | encoding | meaning |
|--:|---|--:|---|---|
| 0 | **seat** x 6 | 99 | | seat k: k captains on from the observer (0: itself); copy k at 0 + k x 99 |
| 0 | present | 1 | 0 or 1 | the seat is at the table |
| 1 | phantom | 1 | 0 or 1 | it is the Phantom (two players) |
| 2 | position | 16 | 0 or 1 | one-hot: its slot on the map |
| 18 | laps | 1 | min(value / 2, 1) | laps sailed (tiles sailed / the map's slots) |
| 19 | home | 1 | 0 or 1 | back on the Base after a full lap |
| 20 | coins | 1 | min(value / 20, 1) | coins |
| 21 | crew | 1 | min(value / 10, 1) | crew dice |
| 22 | specials | 4 | 0 or 1 | per special die (pirate king, mermaid, cursed, ghost): it holds it |
| 26 | hand_size | 1 | min(value / 10, 1) | action cards in hand |
| 27 | known | 21 | min(value / 3, 1) | per card kind: the cards the observer knows it holds (its own: the hand) |
| 48 | tiles | 3 | min(value / 9, 1) | unplaced tiles per water (safe, uncharted, treacherous) |
| 51 | excluded | 1 | 0 or 1 | out of this Betting phase |
| 52 | next_excluded | 1 | 0 or 1 | out of the next Betting phase |
| 53 | used | 3 | 0 or 1 | gold card, silver card, reroll used this round |
| 56 | token | 1 | 0 or 1 | holds the Starting Captain token |
| 57 | result | 3 | 0 or 1 | one-hot: this round's winner, loser, survivor |
| 60 | battling | 1 | 0 or 1 | in the battle being fought |
| 61 | icon | 3 | 0 or 1 | one-hot: its battle die (skull, dagger, swords) |
| 64 | reveal | 6 | min(value / 10, 1) | its cup at the last reveal: crew dice per face 1-6 |
| 70 | reveal_specials | 4x7 | 0 or 1 | its cup at the last reveal: each special die's face, one-hot |
| 98 | final_crew | 1 | min(value / 20, 1) | its crew in the final battle |
| 594 | **shared** | 2402 | | the table, and the observer's own cup, picks and tiles |
| 594 | cup | 6 | min(value / 10, 1) | own cup while betting: crew dice per face 1-6 |
| 600 | cup_specials | 4x7 | 0 or 1 | own cup: each special die's face, one-hot |
| 628 | bets | 60x5x6 | 0 or 1 | every bet of this Betting phase, quantity x face 2-6: the seat that made it, one-hot |
| 2428 | last_quantity | 1 | min(value / 60, 1) | the last bet's quantity |
| 2429 | last_face | 5 | 0 or 1 | one-hot: the last bet's face 2-6 |
| 2434 | in_play | 1 | min(value / 60, 1) | dice in play |
| 2435 | phase | 5 | 0 or 1 | one-hot: Betting, Sail, Action, final battle, other (none: over) |
| 2440 | decision | 10 | 0 or 1 | one-hot: the open decision, ``rules.DECISIONS`` |
| 2450 | reroll_die | 3 | 0 or 1 | one-hot: the die a reroll is for (sail, Pirate / Treasure, battle) |
| 2453 | card | 21 | 0 or 1 | one-hot: the card whose effect is being decided |
| 2474 | tile | 25 | 0 or 1 | one-hot: the tile whose effect is being decided |
| 2499 | sail_die | 2 | 0 or 1 | one-hot: the sail die's face (1, 2) |
| 2501 | pt_die | 2 | 0 or 1 | one-hot: the tile's die rolled (Pirate, Treasure) |
| 2503 | pt_face | 2 | 0 or 1 | one-hot: its face (O, X) |
| 2505 | direction | 1 | 0 or 1 | the token turns clockwise |
| 2506 | map | 16x25 | 0 or 1 | per slot: its tile, one-hot |
| 2906 | played | 21 | min(value / 3, 1) | per card kind: played this round |
| 2927 | discard | 21 | min(value / 5, 1) | per card kind: in the discard pile |
| 2948 | deck | 1 | min(value / 83, 1) | cards in the deck |
| 2949 | picks | 21 | min(value / 3, 1) | per card kind: own draft picks |
| 2970 | own_tiles | 25 | 0 or 1 | own unplaced tiles |
| 2995 | round | 1 | min(value / 30, 1) | the round |
| 2996 | **option_seat** x 6 | 32 | | seat k: k captains on from the observer (0: itself); copy k at 2996 + k x 32 |
| 2996 | out | 1 | 0 or 1 | sunk (out of the game) |
| 2997 | designated | 7 | 0 or 1 | one-hot: its designated town |
| 3004 | in_town | 7 | 0 or 1 | one-hot: the town it is in |
| 3011 | influence_size | 1 | min(value / 10, 1) | influence cards in hand |
| 3012 | influence_used | 1 | 0 or 1 | played an influence card this round |
| 3013 | mayor | 1 | 0 or 1 | holds the Mayor die |
| 3014 | reveal_mayor | 4 | 0 or 1 | one-hot: the Mayor die's face at the last reveal (1, coin, bomb, blank) |
| 3018 | captain | 8 | 0 or 1 | one-hot: its captain coaster |
| 3026 | sabotaged | 1 | 0 or 1 | Saboteur Sly's ability used |
| 3027 | town_cards | 1 | min(value / 7, 1) | town cards left to slot |
| 3188 | **option_shared** | 316 | | the options |
| 3188 | options | 4 | 0 or 1 | on: the expansion, abilities, Merchant Ships, variant cards |
| 3192 | variants | 9 | 0 or 1 | per variant card: in play |
| 3201 | option_decision | 11 | 0 or 1 | one-hot: the open option decision, ``rules.EXT_DECISIONS`` |
| 3212 | towns | 16x7 | 0 or 1 | per slot: the town under it, one-hot |
| 3324 | own_influence | 7 | min(value / 3, 1) | per influence card kind: own hand |
| 3331 | influence_discard | 7 | min(value / 3, 1) | per influence card kind: discarded |
| 3338 | influence_deck | 1 | min(value / 21, 1) | influence cards in the deck |
| 3339 | playing_card | 7 | 0 or 1 | one-hot: the influence card being played |
| 3346 | playing_town | 7 | 0 or 1 | one-hot: its town |
| 3353 | map_new | 16x4 | 0 or 1 | per slot: its expansion tile, one-hot |
| 3417 | tile_new | 4 | 0 or 1 | one-hot: the expansion tile being resolved |
| 3421 | own_tiles_new | 4 | 0 or 1 | own unplaced expansion tiles |
| 3425 | cup_mayor | 4 | 0 or 1 | one-hot: the Mayor die's face in the own cup |
| 3429 | merchant | 16 | 0 or 1 | one-hot: the Merchant Ship's slot |
| 3445 | navy | 16 | 0 or 1 | one-hot: the Navy Ship's slot |
| 3461 | encounter | 2 | 0 or 1 | one-hot: the ship being met (Merchant, Navy) |
| 3463 | encounter_roll | 3 | 0 or 1 | one-hot: the battle die rolled for it |
| 3466 | reroll_encounter | 1 | 0 or 1 | the reroll open is for that die |
| 3467 | drawn_cards | 21 | min(value / 2, 1) | per card kind: own drawn cards waiting for "keep one" |
| 3488 | drawn_influence | 7 | min(value / 2, 1) | the same for influence cards |
| 3495 | captains_free | 8 | 0 or 1 | per captain coaster: still free |
| 3503 | cargo_left | 1 | min(value / 3, 1) | cargo the captain losing it has still to lose |

### Action Space
Bets, "exactly" and "Liar!"; reroll or keep; the priority window's pass /
play a card / buy / free draw / pass the curse; effect targets; catch-up
advance or stop; tile placement; draft picks.  Seats are relative to the
acting captain.  `action_to_str` / `str_to_action` speak in words.

### Rewards
`reward_mode="win"`: the winner +1, every other player -1/(n-1).  With two
players a Phantom win gives both players -1 (not zero-sum).  `"rank"` and
`"score"` rank by a score of tiles sailed (+100 for the winner).

### Options
`num_players` 2-6, `map` ("base" 12 slots, "extended" 16 slots and 7-card
hands), `map_setup` ("first_game" layout or "collaborative" placement),
`draft` (the 3-2-1 card draft), `reward_mode`.  Off by default, each of
these changes the spaces to the full layout (the base ids and observation
offsets stay as they are, the new ones are appended; `action_codec` and
`observation` in `bidbluff.envs.lying_pirates`):

* `expansion="cities_of_greed"`: seven towns, town cards slotted under every
  tile but the Base (a decision per card), a designated town per player,
  influence cards (draw three, keep two; play one per Action phase: a town of
  the card, then attack — the captains there lose a cargo each, their choice
  of coin, card or crew die — or bonus — a coin each, two and the Mayor die
  for a player in their own town); buy one for 1 coin; the Mayor die (1, 1,
  coin, bomb, blank, blank: a coin, or a cargo from a chosen captain, at the
  reveal); four new tiles.
* `abilities="dealt"` or `"chosen"`: a captain coaster with an ability each.
* `variants=[...]`: any of the nine variant cards by name ("Instant Death",
  "Rich Harbour", "Strong Winds", "Bounty", "Deep Pockets", "Supply Drop",
  "Pirate Code", "Kraken Wakes", "Draw Two, Keep One").
* `merchant_ships=True`: a Merchant Ship (barter or raid, optional) and a
  Navy Ship (mandatory) on random tiles, met after the tile event.

Coasters, variant cards but for the named ones, towns, influence cards and
the new tiles are stand-ins (docs/rules/lying_pirates.md).  A `reset` may
change options within one layout but not turn them all on or off.

### Version History
* v0: first release (base game; content tables are stand-ins, see docs/rules/lying_pirates.md);
  the options above added with the base layout unchanged
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from bidbluff.envs.core.aec import BoardGameEnv, wrap
from bidbluff.envs.core.codec import Action, ActionCodec
from bidbluff.envs.core.fields import Layout
from bidbluff.envs.core.game import Game, GameState
from bidbluff.envs.lying_pirates import action_codec, encoder, observation
from bidbluff.envs.lying_pirates.content import VARIANTS
from bidbluff.envs.lying_pirates.options import has_options
from bidbluff.envs.lying_pirates.render import render_state
from bidbluff.envs.lying_pirates.setup import new_game
from bidbluff.envs.lying_pirates.state import LyingPiratesState

_ALL_VARIANTS = [v.name for v in VARIANTS]


class LyingPiratesGame(Game):
    name: ClassVar[str] = "lying_pirates_v0"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    default_players: ClassVar[int] = 4
    codec: ClassVar[ActionCodec] = action_codec.CODEC
    layout: ClassVar[Layout] = observation.LAYOUT
    observation_size: ClassVar[int] = observation.LAYOUT.size
    score_scale: ClassVar[float] = 50.0
    state_class: ClassVar[type[GameState]] = LyingPiratesState
    test_configs: ClassVar[tuple[dict[str, Any], ...]] = (
        {"num_players": 3, "map": "extended", "map_setup": "collaborative", "draft": True},
        {"num_players": 2, "map_setup": "collaborative", "draft": True},
        # each option set on, at every player count (some tables also on the other maps and setups); the
        # default suite runs one or two tables of each, the slow suite all of them
        *({"num_players": n, "expansion": "cities_of_greed", "slow": n != 4} for n in (3, 4, 5, 6)),
        {"num_players": 2, "expansion": "cities_of_greed", "map": "extended", "map_setup": "collaborative"},
        *({"num_players": n, "abilities": "chosen", "slow": n != 4} for n in (2, 4, 6)),
        *({"num_players": n, "abilities": "dealt", "slow": n != 3} for n in (3, 5)),
        *({"num_players": n, "variants": _ALL_VARIANTS, "slow": n not in (2, 4)} for n in (2, 3, 4, 5, 6)),
        *({"num_players": n, "merchant_ships": True, "slow": n != 4} for n in (2, 3, 4, 5, 6)),
        {
            "num_players": 4,
            "expansion": "cities_of_greed",
            "abilities": "chosen",
            "variants": _ALL_VARIANTS,
            "merchant_ships": True,
            "draft": True,
        },
    )

    def __init__(self, **defaults: Any) -> None:
        super().__init__(**defaults)
        self.full = has_options(defaults)
        if self.full:
            # With an option on, this env's spaces are the full layout (chosen once, from its options).
            self.codec = action_codec.FULL_CODEC
            self.layout = observation.FULL_LAYOUT
            self.observation_size = self.layout.size

    def is_zero_sum(self, num_players: int) -> bool:
        return num_players != 2  # a Phantom win costs both players

    def new_state(self, num_players: int, rng: np.random.Generator, **options: Any) -> LyingPiratesState:
        options = self.options(**options)
        if has_options(options) != self.full:
            raise ValueError(self._layout_error(options))
        return new_game(num_players, rng, **options)

    def _layout_error(self, options: dict[str, Any]) -> str:
        return (
            f"{self.name} made with options {self.defaults or 'none'} has the spaces of "
            f"{'a game with options' if self.full else 'the base game'}; a game with options {options} for "
            f"any number of players needs an env made with them"
        )

    def state_from_dict(self, data: dict[str, Any]) -> LyingPiratesState:
        state = LyingPiratesState.from_dict(data)
        if (state.ext is not None) != self.full:
            raise ValueError(self._layout_error(state.ext["options"] if state.ext else {}))
        return state

    def render(self, state: LyingPiratesState, seat: int | None = None) -> str:
        return render_state(state, seat)

    def encode(self, state: LyingPiratesState, seat: int) -> np.ndarray:
        return encoder.encode(state, seat)

    def action_to_id(self, state: LyingPiratesState, action: Action, seat: int) -> int:
        return action_codec.action_to_id(action, seat, state.captains)

    def legal_action_ids(self, state: LyingPiratesState, seat: int) -> list[int]:
        if state.pending[0] == "bet":  # the Betting phase's decision: the round's bets, converted once per set
            return action_codec.bet_ids(state.betting)
        return action_codec.action_ids(state.legal_actions(), seat, state.captains)

    def id_to_action(self, state: LyingPiratesState, action_id: int, seat: int) -> Action:
        # the ids are decoded with the full layout; a table without the expansion stops at its own codec
        if not 0 <= action_id < self.codec.n:
            raise ValueError(f"action id {action_id} is outside this table's actions 0..{self.codec.n - 1}")
        return action_codec.id_to_action(action_id, seat, state.captains)

    def action_to_str(self, action: Action) -> str:
        return action_codec.action_to_str(action)

    def final_rewards(self, state: LyingPiratesState, mode: str) -> list[float]:
        if mode == "win" and state.phantom >= 0 and state.winners == [state.phantom]:
            return [-1.0] * state.num_players
        return super().final_rewards(state, mode)

    def setup_options(self) -> tuple[str, ...]:
        return ("map", "map_setup", "draft", "expansion", "abilities", "variants", "merchant_ships")


class raw_env(BoardGameEnv):  # noqa: N801 - PettingZoo's name for the unwrapped env
    """Setup options ``map`` ("base" or "extended"), ``map_setup`` ("first_game" or "collaborative"),
    ``draft`` (bool), ``expansion`` (None or "cities_of_greed"), ``abilities`` (None, "dealt" or "chosen"),
    ``variants`` (variant card names) and ``merchant_ships`` (bool), here or in ``reset(options=...)``;
    a reset may not turn the options on or off (the spaces depend on them)."""

    game = LyingPiratesGame()
    metadata: ClassVar[dict[str, Any]] = {**BoardGameEnv.metadata, "name": "lying_pirates_v0"}


def env(**kwargs: Any) -> raw_env:
    return wrap(raw_env(**kwargs))
