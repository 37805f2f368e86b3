"""
# Lying Pirates

| Import             | `from envs import lying_pirates_v0`              |
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
Layout in `envs.lying_pirates.codec`.

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
offsets stay as they are, the new ones are appended; `envs.lying_pirates.codec`):

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

from envs.core.aec import BoardGameEnv, wrap
from envs.core.codec import Action, ActionCodec
from envs.core.game import Game, GameState
from envs.lying_pirates import codec as lp_codec
from envs.lying_pirates.content import VARIANTS
from envs.lying_pirates.options import has_options
from envs.lying_pirates.render import render_state
from envs.lying_pirates.setup import new_game
from envs.lying_pirates.state import LyingPiratesState

_ALL_VARIANTS = [v.name for v in VARIANTS]


class LyingPiratesGame(Game):
    name: ClassVar[str] = "lying_pirates_v0"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    default_players: ClassVar[int] = 4
    codec: ClassVar[ActionCodec] = lp_codec.CODEC
    observation_size: ClassVar[int] = lp_codec.OBSERVATION_SIZE
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
        {"num_players": 4, "expansion": "cities_of_greed", "abilities": "chosen", "variants": _ALL_VARIANTS,
         "merchant_ships": True, "draft": True},
    )

    def __init__(self, **defaults: Any) -> None:
        super().__init__(**defaults)
        self.full = has_options(defaults)
        if self.full:
            # With an option on, this env's spaces are the full layout (built once, from its options).
            self.codec = lp_codec.FULL_CODEC
            self.observation_size = lp_codec.FULL_OBSERVATION_SIZE

    def is_zero_sum(self, num_players: int) -> bool:
        return num_players != 2  # a Phantom win costs both players

    def new_state(self, num_players: int, rng: np.random.Generator, **options: Any) -> LyingPiratesState:
        options = self.options(**options)
        if has_options(options) != self.full:
            raise ValueError(self._layout_error(options))
        return new_game(num_players, rng, **options)

    def _layout_error(self, options: dict[str, Any]) -> str:
        return (f"{self.name} made with options {self.defaults or 'none'} has the spaces of "
                f"{'a game with options' if self.full else 'the base game'}; a game with options {options} for "
                f"any number of players needs an env made with them")  # fmt: skip

    def state_from_dict(self, data: dict[str, Any]) -> LyingPiratesState:
        state = LyingPiratesState.from_dict(data)
        if (state.ext is not None) != self.full:
            raise ValueError(self._layout_error(state.ext["options"] if state.ext else {}))
        return state

    def render(self, state: LyingPiratesState, seat: int | None = None) -> str:
        return render_state(state, seat)

    def encode(self, state: LyingPiratesState, seat: int) -> np.ndarray:
        return lp_codec.encode(state, seat)

    def action_to_id(self, state: LyingPiratesState, action: Action, seat: int) -> int:
        return lp_codec.action_to_id(action, seat, state.captains)

    def id_to_action(self, state: LyingPiratesState, action_id: int, seat: int) -> Action:
        # the ids are decoded with the full layout; a table without the expansion stops at its own codec
        if not 0 <= action_id < self.codec.n:
            raise ValueError(f"action id {action_id} is outside this table's actions 0..{self.codec.n - 1}")
        return lp_codec.id_to_action(action_id, seat, state.captains)

    def action_to_str(self, action: Action) -> str:
        return lp_codec.action_to_str(action)

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
