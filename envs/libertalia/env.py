"""
# Libertalia

| Import             | `from bidbluff.envs import libertalia_v0`                 |
|--------------------|--------------------------------------------------|
| Actions            | Discrete                                         |
| Parallel API       | No                                               |
| Agents             | `agents= ['player_0', ..., 'player_{n-1}']`      |
| Agents             | 2-6 (`num_players`, default 4)                   |
| Action Shape       | Discrete(508)                                    |
| Action Values      | Discrete(508)                                    |
| Observation Shape  | (1334,)                                          |
| Observation Values | [0, 1]                                           |

Libertalia (2012) for 2-6 pirates: three campaigns of six days.  Every
sunrise each player secretly picks a character from a hand that everyone
shares by deal; the characters act in rank order by day, claim booty in
reverse order at dusk, work from their dens at night, and pay out at the end
of each campaign.  The richest pirate after three campaigns wins.

### Observation Space
`{"observation": float32[1334], "action_mask": int8[508]}`.  The observation
is the acting seat's information set: its own hand, discard pile and hidden
sunrise pick; for each opponent only what the table knows (the cards it may
still hold from the shared deal and its plays, how many of them came back
unseen through the Surgeon); the ship row; all six days' booty; every den,
its booty and discards; doubloons; score track; campaign, day, phase and the
open decision with the characters or tokens it could pick.  Seats are relative to the observer and padded to six, so one
policy plays every table size.  The layout is in `bidbluff.envs.libertalia.codec`.

The vector field by field (`bidbluff.envs.libertalia.codec.LAYOUT`; `at` is the first value's position, a
seat block's copy 0; a test keeps this table equal to `LAYOUT.describe()`):

| at | field | size | encoding | meaning |
|--:|---|--:|---|---|
| 0 | **seat** x 6 | 199 | | seat k: k seats to the observer's left (0: itself); copy k at 0 + k x 199 |
| 0 | present | 1 | 0 or 1 | the seat is at the table |
| 1 | colour | 6 | 0 or 1 | one-hot colour (sets the tie-break numbers) |
| 7 | hand | 30 | 0 or 1 | per rank: own hand; another seat's: every card it may hold |
| 37 | unseen | 1 | min(value / 3, 1) | its cards the others cannot name (own seat too) |
| 38 | discard | 30 | 0 or 1 | per rank: its discard pile, the part everyone knows |
| 68 | den | 30 | 0 or 1 | per rank: the characters in its den |
| 98 | den_booty | 7 | min(value / 8, 1) | per token type: the booty in its den |
| 105 | ship | 30 | 0 or 1 | per rank: its card on the ship today |
| 135 | acted | 1 | 0 or 1 | its ship card has acted today |
| 136 | has_chosen | 1 | 0 or 1 | has chosen at sunrise |
| 137 | chosen | 30 | 0 or 1 | per rank: its sunrise card (own seat only) |
| 167 | doubloons | 1 | min(value / 80, 1) | doubloons |
| 168 | score | 1 | min(value / 300, 1) | score track |
| 169 | targets | 30 | 0 or 1 | per rank: what the observer's open Gunner or sabre could hit here |
| 1194 | **shared** | 140 | |  |
| 1194 | campaign | 3 | 0 or 1 | one-hot |
| 1197 | day | 6 | 0 or 1 | one-hot |
| 1203 | phase | 4 | 0 or 1 | one-hot: sunrise, parrot, day, dusk |
| 1207 | decision | 9 | 0 or 1 | one-hot open decision, ``rules.DECISIONS`` |
| 1216 | picks_left | 1 | min(value / 2, 1) | dusk: tokens left to take for this card |
| 1217 | officer | 1 | 0 or 1 | dusk: the card took a Spanish officer |
| 1218 | booty_days | 6x7 | min(value / 6, 1) | per day and token type: the day's booty |
| 1260 | bag | 7 | min(value / 10, 1) | per token type: tokens in the bag |
| 1267 | undealt | 30 | 0 or 1 | per rank: never dealt yet |
| 1297 | option_ranks | 30 | 0 or 1 | per rank: the observer's open decision could pick it |
| 1327 | option_tokens | 7 | 0 or 1 | per token type: the open decision could take, keep or sell it |

### Legal Actions Mask
`action_mask[i] == 1` exactly for the engine's legal actions of the acting
seat; all zeros for every other seat.  `env.action_masks()` returns the acting
seat's mask (for sb3-contrib's MaskablePPO).

### Action Space
One range per decision (sunrise pick, Parrot's replacement, Recruiter,
Surgeon, Preacher's keep, Merchant's trade, Gunner's target, dusk booty,
sabre target); see `bidbluff.envs.libertalia.codec` for the id table.  Seat arguments
are relative to the acting seat.  `env.unwrapped.action_to_str(i)` and
`str_to_action("play 14 Brute")` translate for humans.

### Rewards
At the end: `reward_mode="win"` (default) +1 to the winner and -1/(n-1) to
each other seat, tied winners sharing; `"rank"` spreads +1..-1 by place;
`"score"` is score minus the others' mean, over 50.  `infos[agent]["scores"]`
carries the final score track.

### Version History
* v0: first release (2012 rules with the rulings in docs/rules/libertalia.md)
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from bidbluff.envs.core.aec import BoardGameEnv, wrap
from bidbluff.envs.core.codec import Action, ActionCodec
from bidbluff.envs.core.game import Game, GameState
from bidbluff.envs.libertalia import codec as lib_codec
from bidbluff.envs.libertalia.render import render_state
from bidbluff.envs.libertalia.rules import LibertaliaState, new_game


class LibertaliaGame(Game):
    name: ClassVar[str] = "libertalia_v0"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    default_players: ClassVar[int] = 4
    codec: ClassVar[ActionCodec] = lib_codec.CODEC
    observation_size: ClassVar[int] = lib_codec.OBSERVATION_SIZE
    score_scale: ClassVar[float] = 50.0
    state_class: ClassVar[type[GameState]] = LibertaliaState

    def new_state(self, num_players: int, rng: np.random.Generator, **options: Any) -> LibertaliaState:
        return new_game(num_players, rng, **options)

    def render(self, state: LibertaliaState, seat: int | None = None) -> str:
        return render_state(state, seat)

    def encode(self, state: LibertaliaState, seat: int) -> np.ndarray:
        return lib_codec.encode(state, seat)

    def action_to_id(self, state: LibertaliaState, action: Action, seat: int) -> int:
        return lib_codec.action_to_id(action, seat, state.num_players)

    def id_to_action(self, state: LibertaliaState, action_id: int, seat: int) -> Action:
        return lib_codec.id_to_action(action_id, seat, state.num_players)

    def legal_action_ids(self, state: LibertaliaState, seat: int) -> list[int]:
        return lib_codec.legal_ids(state)

    def action_to_str(self, action: Action) -> str:
        return lib_codec.action_to_str(action)


class raw_env(BoardGameEnv):  # noqa: N801 - PettingZoo's name for the unwrapped env
    game = LibertaliaGame()
    metadata: ClassVar[dict[str, Any]] = {**BoardGameEnv.metadata, "name": "libertalia_v0"}


def env(**kwargs: Any) -> raw_env:
    """Libertalia with PettingZoo's order check; ``raw_env`` skips it."""
    return wrap(raw_env(**kwargs))
