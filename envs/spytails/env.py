"""
# Spytails

| Import             | `from bidbluff.envs import spytails_v0`                   |
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
`bidbluff.envs.spytails.codec`.

The vector field by field (`bidbluff.envs.spytails.codec.LAYOUT`; `at` is the first value's position, a
seat block's copy 0; a test keeps this table equal to `LAYOUT.describe()`):

| at | field | size | encoding | meaning |
|--:|---|--:|---|---|
| 0 | **seat** x 4 | 318 | | seat k: k seats clockwise from the observer (0: itself); copy k at 0 + k x 318 |
| 0 | present | 1 | 0 or 1 | the seat is at the table |
| 1 | character | 4 | 0 or 1 | one-hot character |
| 5 | teammate | 1 | 0 or 1 | partnership: same team as the observer (self too) |
| 6 | start | 1 | 0 or 1 | holds the start token |
| 7 | leader | 1 | 0 or 1 | leads this operation |
| 8 | to_act | 1 | 0 or 1 | is to decide |
| 9 | influence | 1 | min(value / 40, 1) | influence (a hidden simultaneous forecast's stake counted back in) |
| 10 | stake | 1 | min(value / 10, 1) | committed stake |
| 11 | bid | 6 | 0 or 1 | one-hot bid, when visible |
| 17 | forecast_made | 1 | 0 or 1 | has a forecast |
| 18 | leverage | 1 | min(value / 6, 1) | leverage tokens |
| 19 | won | 8 | 0 or 1 | one-hot operations won |
| 27 | tokens_used | 3 | 0 or 1 | ghost, regroup, power token used |
| 30 | hand_size | 1 | min(value / 16, 1) | cards in hand |
| 31 | deck_size | 1 | min(value / 40, 1) | cards in deck |
| 32 | voids | 4 | 0 or 1 | per suit: showed void in it since it last drew |
| 36 | hand | 55 | min(value / 3, 1) | own hand; another seat's: the cards all know it holds |
| 91 | hidden | 55 | min(value / 3, 1) | own deck; another seat's: its other cards, hand or deck |
| 146 | discard | 55 | min(value / 3, 1) | its discard pile |
| 201 | played | 55 | min(value / 3, 1) | its cards played this round |
| 256 | operation_card | 55 | 0 or 1 | one-hot: its card in this operation |
| 311 | operation_order | 4 | 0 or 1 | one-hot: its place in the operation's order |
| 315 | operation_flags | 3 | 0 or 1 | ace played low, mimicked (intimidation), ghost token |
| 1272 | **shared** | 333 | |  |
| 1272 | round | 9 | 0 or 1 | one-hot |
| 1281 | final_round | 1 | 0 or 1 | this round is the last |
| 1282 | operation | 7 | 0 or 1 | one-hot, during operations |
| 1289 | phase | 4 | 0 or 1 | one-hot: setup, forecast, operations, debriefing |
| 1293 | forecast_pass | 2 | 0 or 1 | one-hot: first, revision |
| 1295 | decision | 11 | 0 or 1 | one-hot open decision, ``rules.DECISIONS`` |
| 1306 | led_suit | 4 | 0 or 1 | one-hot |
| 1310 | armed | 2 | 0 or 1 | armed power: Mimic, Mirage |
| 1312 | row | 3x20 | 0 or 1 | per slot: the mission/event card, one-hot |
| 1372 | display | 55 | min(value / 3, 1) | the reinforcement display |
| 1427 | special_unseen | 55 | min(value / 3, 1) | the special deck's unseen cards |
| 1482 | special_known | 55 | min(value / 3, 1) | the special deck's public bottom cards |
| 1537 | special_deck_size | 1 | min(value / 71, 1) | cards in the special deck |
| 1538 | leverage_supply | 1 | min(value / 6, 1) | leverage tokens in the supply |
| 1539 | selection | 55 | min(value / 3, 1) | the observer's own regroup selection |
| 1594 | reinforce_turn | 8 | 0 or 1 | one-hot reinforcement turn |
| 1602 | options | 2 | 0 or 1 | partnership, simultaneous forecasts |
| 1604 | revealed | 1 | 0 or 1 | forecasts revealed |

### Legal Actions Mask
`action_mask[i] == 1` exactly for the engine's legal actions of the acting
seat; all zeros for every other seat.  `env.action_masks()` returns the acting
seat's mask (for sb3-contrib's MaskablePPO).

### Action Space
One range per decision: character, bid, stake, keep/change forecast, play a
card (aces high or low as two ids), ghost/regroup/power tokens, regroup
discard choices and confirm, Echo's take and give, reinforcement take and removal,
leverage repayment; see `bidbluff.envs.spytails.codec` for the id table.
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

from bidbluff.envs.core.aec import BoardGameEnv, wrap
from bidbluff.envs.core.codec import Action, ActionCodec
from bidbluff.envs.core.game import Game, GameState
from bidbluff.envs.core.rewards import final_rewards
from bidbluff.envs.spytails import codec as spy_codec
from bidbluff.envs.spytails.render import render_state
from bidbluff.envs.spytails.rules import SpytailsState, new_game


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

    def legal_action_ids(self, state: SpytailsState, seat: int) -> list[int]:
        return spy_codec.legal_ids(state)

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
