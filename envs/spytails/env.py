"""
# Spytails

| Import             | `from envs import spytails_v0`                   |
|--------------------|--------------------------------------------------|
| Actions            | Discrete                                         |
| Parallel API       | No                                               |
| Agents             | `agents= ['player_0', ..., 'player_{n-1}']`      |
| Agents             | 2-4 (`num_players`, default 4)                   |
| Action Shape       | Discrete(364)                                    |
| Action Values      | Discrete(364)                                    |
| Observation Shape  | (1605,)                                          |
| Observation Values | [0, 1]                                           |

Spytails for 2-4 secret agents: a trick-taking game of exact forecasts.
Each round every agent forecasts how many of the seven operations (tricks)
it will win and stakes influence on it, plays the operations from a personal
deck (follow suit, intimidation trumps, special cards and three once-a-round
tokens: ghost, regroup, the character's power), then is paid for its
forecast and the missions in force and adds special cards to its deck.  Most
influence after 5 rounds (4 players) or 6 (2-3) wins, -8 per leverage token
still held; a tie at the top plays up to 3 more rounds.

Options (constructor or `reset(options=...)`): `mode` `"individual"` or
`"partnership"` (4 players, random teams of two; a team wins with the single
highest-scoring agent), `forecast_mode` `"sequential"` (forecasts open, one
revision pass) or `"simultaneous"` (hidden until all are made),
`characters` `"dealt"` (at random) or `"chosen"` (a setup decision per seat).

### Observation Space
`{"observation": float32[1605], "action_mask": int8[364]}`.  The observation
is the acting seat's information set: its own hand, deck and discard
composition (not the deck's order); for each other seat what the table knows:
the cards it surely holds, the cards that are in its hand or deck, the
suits it showed void in, its discard pile, its cards played this round, forecast (as visible under the
forecast mode), influence, leverage, operations won, tokens and character;
the operation in progress in order, the led suit, the mission/event row,
display and special deck, round, operation and the open decision.  Seats are
relative to the observer and padded to four.  The layout is in
`envs.spytails.codec`.

### Legal Actions Mask
`action_mask[i] == 1` exactly for the engine's legal actions of the acting
seat; all zeros for every other seat.  `env.action_masks()` returns the acting
seat's mask (for sb3-contrib's MaskablePPO).

### Action Space
One range per decision: character, bid, stake, keep/change forecast, play a
card (aces high or low as two ids), ghost/regroup/power tokens, regroup
discard choices and confirm, Echo's take and give, reinforcement take and removal,
leverage repayment; see `envs.spytails.codec` for the id table.
`env.unwrapped.action_to_str(i)` and `str_to_action("play 7 Stalk")`
translate for humans.

### Rewards
At the end: `reward_mode="win"` (default) +1 to the winner and -1/(n-1) to
each other seat, tied winners sharing; `"rank"` spreads +1..-1 by place;
`"score"` is score minus the others' mean, over 20.  In partnership mode the
two teams are ranked by their best agent's score and both seats of a team
get the team's reward (+1/-1 for `"win"`, 0 each on a shared win).
`infos[agent]["scores"]` carries each seat's final score.

### Version History
* v0: first release (the how-to-play video's rules with the rulings and
  stand-ins in docs/rules/spytails.md)
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from envs.core.aec import BoardGameEnv, wrap
from envs.core.codec import Action, ActionCodec
from envs.core.game import Game, GameState
from envs.core.rewards import final_rewards
from envs.spytails import codec as spy_codec
from envs.spytails.render import render_state
from envs.spytails.rules import SpytailsState, new_game


class SpytailsGame(Game):
    name: ClassVar[str] = "spytails_v0"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    default_players: ClassVar[int] = 4
    codec: ClassVar[ActionCodec] = spy_codec.CODEC
    observation_size: ClassVar[int] = spy_codec.OBSERVATION_SIZE
    score_scale: ClassVar[float] = 20.0
    test_configs: ClassVar[tuple[dict[str, Any], ...]] = (
        {"num_players": 4, "mode": "partnership", "forecast_mode": "simultaneous", "characters": "chosen"},
    )
    state_class: ClassVar[type[GameState]] = SpytailsState

    def new_state(self, num_players: int, rng: np.random.Generator, **options: Any) -> SpytailsState:
        return new_game(num_players, rng, **options)

    def render(self, state: SpytailsState, seat: int | None = None) -> str:
        return render_state(state, seat)

    def encode(self, state: SpytailsState, seat: int) -> np.ndarray:
        return spy_codec.encode(state, seat)

    def action_to_id(self, state: GameState, action: Action, seat: int) -> int:
        return spy_codec.action_to_id(action)

    def id_to_action(self, state: GameState, action_id: int, seat: int) -> Action:
        return spy_codec.id_to_action(action_id)

    def action_to_str(self, action: Action) -> str:
        return spy_codec.action_to_str(action)

    def final_rewards(self, state: SpytailsState, mode: str) -> list[float]:
        """Partnership: the teams ranked by their best seat's score; each seat gets its team's reward."""
        if state.mode != "partnership":
            return super().final_rewards(state, mode)
        scores = state.scores()
        best = [max(scores[s] for s in range(state.num_players) if state.teams[s] == team) for team in (0, 1)]
        team_rewards = final_rewards(best, mode, self.score_scale)
        return [team_rewards[state.teams[s]] for s in range(state.num_players)]

    def setup_options(self) -> tuple[str, ...]:
        return ("mode", "forecast_mode", "characters")


class raw_env(BoardGameEnv):  # noqa: N801 - PettingZoo's name for the unwrapped env
    """Setup options ``mode`` ("individual" or "partnership"), ``forecast_mode`` ("sequential" or
    "simultaneous") and ``characters`` ("dealt" or "chosen"), here or in ``reset(options=...)``."""

    game = SpytailsGame()
    metadata: ClassVar[dict[str, Any]] = {**BoardGameEnv.metadata, "name": "spytails_v0"}


def env(**kwargs: Any) -> raw_env:
    """Spytails with PettingZoo's order check; ``raw_env`` skips it."""
    return wrap(raw_env(**kwargs))
