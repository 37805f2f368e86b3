"""
# Libertalia

| Import             | `from envs import libertalia_v0`                 |
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
policy plays every table size.  The layout is in `envs.libertalia.codec`.

### Legal Actions Mask
`action_mask[i] == 1` exactly for the engine's legal actions of the acting
seat; all zeros for every other seat.  `env.action_masks()` returns the acting
seat's mask (for sb3-contrib's MaskablePPO).

### Action Space
One range per decision (sunrise pick, Parrot's replacement, Recruiter,
Surgeon, Preacher's keep, Merchant's trade, Gunner's target, dusk booty,
sabre target); see `envs.libertalia.codec` for the id table.  Seat arguments
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

from envs.core.aec import BoardGameEnv, wrap
from envs.core.codec import Action, ActionCodec
from envs.core.game import Game, GameState
from envs.libertalia import codec as lib_codec
from envs.libertalia.render import render_state
from envs.libertalia.rules import LibertaliaState, new_game


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

    def action_to_str(self, action: Action) -> str:
        return lib_codec.action_to_str(action)


class raw_env(BoardGameEnv):  # noqa: N801 - PettingZoo's name for the unwrapped env
    game = LibertaliaGame()
    metadata: ClassVar[dict[str, Any]] = {**BoardGameEnv.metadata, "name": "libertalia_v0"}


def env(**kwargs: Any) -> raw_env:
    """Libertalia with PettingZoo's order check; ``raw_env`` skips it."""
    return wrap(raw_env(**kwargs))
