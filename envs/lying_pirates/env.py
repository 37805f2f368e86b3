"""
# Lying Pirates

| Import             | `from envs import lying_pirates_v0`              |
|--------------------|--------------------------------------------------|
| Actions            | Discrete                                         |
| Parallel API       | No                                               |
| Agents             | `agents= ['player_0', ..., 'player_{n-1}']`      |
| Agents             | 2-6 (`num_players`, default 4)                   |
| Action Shape       | Discrete(1062)                                   |
| Observation Shape  | (2996,)                                          |
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
`draft` (the 3-2-1 card draft), `reward_mode`.

### Version History
* v0: first release (base game; content tables are stand-ins, see docs/rules/lying_pirates.md)
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from envs.core.aec import BoardGameEnv, wrap
from envs.core.codec import Action, ActionCodec
from envs.core.game import Game, GameState
from envs.lying_pirates import codec as lp_codec
from envs.lying_pirates.rules import LyingPiratesState, new_game


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
    )

    def is_zero_sum(self, num_players: int) -> bool:
        return num_players != 2  # a Phantom win costs both players

    def new_state(self, num_players: int, rng: np.random.Generator, **options: Any) -> LyingPiratesState:
        return new_game(num_players, rng, **options)

    def encode(self, state: LyingPiratesState, seat: int) -> np.ndarray:
        return lp_codec.encode(state, seat)

    def action_to_id(self, state: LyingPiratesState, action: Action, seat: int) -> int:
        return lp_codec.action_to_id(action, seat, state.captains)

    def id_to_action(self, state: LyingPiratesState, action_id: int, seat: int) -> Action:
        return lp_codec.id_to_action(action_id, seat, state.captains)

    def action_to_str(self, action: Action) -> str:
        return lp_codec.action_to_str(action)

    def final_rewards(self, state: LyingPiratesState, mode: str) -> list[float]:
        if mode == "win" and state.phantom >= 0 and state.winners == [state.phantom]:
            return [-1.0] * state.num_players
        return super().final_rewards(state, mode)

    def setup_options(self) -> tuple[str, ...]:
        return ("map", "map_setup", "draft")


class raw_env(BoardGameEnv):  # noqa: N801 - PettingZoo's name for the unwrapped env
    """Setup options ``map`` ("base" or "extended"), ``map_setup`` ("first_game" or "collaborative") and
    ``draft`` (bool), here or in ``reset(options=...)``."""

    game = LyingPiratesGame()
    metadata: ClassVar[dict[str, Any]] = {**BoardGameEnv.metadata, "name": "lying_pirates_v0"}


def env(**kwargs: Any) -> raw_env:
    return wrap(raw_env(**kwargs))
