"""
# Liar's dice (Lying Pirates' Betting phase)

| Import             | `from bidbluff.envs import liars_dice_v0`                   |
|--------------------|----------------------------------------------------|
| Actions            | Discrete                                           |
| Parallel API       | No                                                 |
| Agents             | `agents= ['player_0', ..., 'player_{n-1}']`        |
| Agents             | 2-6 (`num_players`, default 2)                     |
| Action Shape       | Discrete(409)                                      |
| Observation Shape  | (1308,)                                            |
| Observation Values | [0, 1]                                             |

One Betting phase of Lying Pirates as a game: every captain rolls `dice`
crew dice (1-5, default 5) in a hidden cup, plus any `specials` ("pirate
king", "mermaid", "cursed", "ghost"), each dealt to a random seat.  Seat 0
opens; captains bet on how many dice show a face 2-6 (1s are wild), raise,
call "exactly" or "Liar!".  The first bet may not exceed the number of
captains.  A right "exactly" wins alone and everyone else loses; a wrong one
loses and the previous bettor wins.  `preset="classic"` plays OpenSpiel's
`liars_dice` instead: 6s wild, bets on any face, no "exactly", no cap.

### Observation Space
`{"observation": float32[1308], "action_mask": int8[409]}`: own dice,
each seat's dice count and special dice, the last bet and the whole bet
history with who made each bet (seats relative to the observer).  See
`bidbluff.envs.liars_dice.codec`.

`observation="compact"` (opt-in; the default is `"full"`): the same vector cut
to the values a table of `dice` crew dice per captain (with or without special
dice) can set (`codec.compact_columns`): bets above the dice in play and the
special dice's fields in a game without them are dropped, in layout order,
scales unchanged (248 values at 1 die without special dice, for either preset;
`codec.full` puts one back in the full layout).  The spaces are
chosen when the env is made; a reset may not change `dice` or `specials`.  A
network trained on it plays only that table; the shipped networks use `"full"`,
one network for every table size.

The vector field by field (`bidbluff.envs.liars_dice.codec.LAYOUT`; `at` is the first value's position, a
seat block's copy 0; a test keeps this table equal to `LAYOUT.describe()`):

| at | field | size | encoding | meaning |
|--:|---|--:|---|---|
| 0 | **own** | 34 | | the observer's cup |
| 0 | crew | 6 | min(value / 5, 1) | per face 1-6: own crew dice |
| 6 | pirate_king | 7 | 0 or 1 | one-hot face (blank, 1-6) when the observer holds it |
| 13 | mermaid | 7 | 0 or 1 | one-hot face (blank, 1-6) when the observer holds it |
| 20 | cursed | 7 | 0 or 1 | one-hot face (blank, 1-6) when the observer holds it |
| 27 | ghost | 7 | 0 or 1 | one-hot face (blank, 1-6) when the observer holds it |
| 34 | **seat** x 6 | 7 | | seat k: k seats after the observer in turn order (0: itself); copy k at 34 + k x 7 |
| 34 | present | 1 | 0 or 1 | the seat is at the table |
| 35 | bettor | 1 | 0 or 1 | still to bet this phase |
| 36 | dice | 1 | min(value / 10, 1) | dice in its cup |
| 37 | special_dice | 4 | 0 or 1 | per special die kind: it holds it |
| 76 | **table** | 1232 | | the bets |
| 76 | dice_in_play | 1 | min(value / 34, 1) | dice in every cup |
| 77 | last_quantity | 1 | min(value / 34, 1) | the last bet's quantity |
| 78 | last_face | 6 | 0 or 1 | one-hot: the last bet's face |
| 84 | history | 34x6x6 | 0 or 1 | per bet q x f: the seat that made it, one-hot |

### Rewards
`reward_mode="win"` (default): winners +1, losers -1, survivors 0 (so a right
"exactly" with three or more captains is not zero-sum).  `"rank"` and
`"score"` turn those payoffs into zero-sum rewards.

### Version History
* v0: first release
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from bidbluff.envs.core.aec import BoardGameEnv, wrap
from bidbluff.envs.core.codec import Action, ActionCodec
from bidbluff.envs.core.game import Game, GameState
from bidbluff.envs.liars_dice import codec as ld_codec
from bidbluff.envs.liars_dice.game import MAX_DICE, BettingGameState, Setup
from bidbluff.envs.liars_dice.render import render_state


class LiarsDiceGame(Game):
    name: ClassVar[str] = "liars_dice_v0"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    default_players: ClassVar[int] = 2
    codec: ClassVar[ActionCodec] = ld_codec.CODEC
    observation_size: ClassVar[int] = ld_codec.OBSERVATION_SIZE
    score_scale: ClassVar[float] = 1.0
    zero_sum: ClassVar[bool] = False
    test_configs: ClassVar[tuple[dict[str, Any], ...]] = (
        {"num_players": 2, "dice": 1, "preset": "classic"},
        {"num_players": 4, "dice": 3, "specials": ("pirate king", "mermaid", "cursed", "ghost")},
        {"num_players": 2, "dice": 1, "preset": "classic", "observation": "compact"},
    )
    state_class: ClassVar[type[GameState]] = BettingGameState

    def __init__(self, **defaults: Any) -> None:
        super().__init__(**defaults)
        self.observation = defaults.get("observation", "full")
        if self.observation not in ld_codec.OBSERVATIONS:
            raise ValueError(f"observation must be one of {', '.join(ld_codec.OBSERVATIONS)}, not {self.observation!r}")
        self.columns = None
        self._setups: dict[int, Setup] = {}  # the defaults' setup per table size, checked once
        if self.observation == "compact":
            # The spaces are chosen once, from the table's dice and special dice (a reset cannot change them).
            self.columns = ld_codec.compact_columns(self._dice(defaults), bool(self._specials(defaults)))
            self.observation_size = len(self.columns)

    @staticmethod
    def _dice(options: dict[str, Any]) -> int:
        dice = options.get("dice", 5)
        if not isinstance(dice, int) or isinstance(dice, bool) or not 1 <= dice <= MAX_DICE:
            raise ValueError(f"dice must be 1..{MAX_DICE}, not {dice!r}")
        return dice

    @staticmethod
    def _specials(options: dict[str, Any]) -> tuple[str, ...]:
        specials = options.get("specials", ())
        if isinstance(specials, str) or not all(isinstance(name, str) for name in specials):
            raise ValueError(f"specials must be a list of special dice's names, not {specials!r}")
        return tuple(sorted(name.lower() for name in specials))

    def new_state(self, num_players: int, rng: np.random.Generator, **options: Any) -> BettingGameState:
        if options == self.defaults:  # every reset without options: the setup was checked at the first
            setup = self._setups.get(num_players)
            if setup is not None:
                return setup.deal(rng)
        options = self.options(**options)
        defaults = options == self.defaults
        if options.pop("observation", "full") != self.observation:
            raise ValueError(f"{self.name}: the observation is chosen when the env is made, not at reset")
        if self.columns is not None and (
            self._dice(options) != self._dice(self.defaults) or self._specials(options) != self._specials(self.defaults)
        ):
            raise ValueError(
                f"{self.name} with observation='compact' is made for {self._dice(self.defaults)} dice and its "
                f"special dice; a reset cannot change them (make a new env)"
            )
        setup = Setup.of(num_players, **options)
        if defaults:
            self._setups[num_players] = setup
        return setup.deal(rng)

    def narrow(self, observation: np.ndarray) -> np.ndarray:
        """A full observation cut to the compact columns, when this game is compact; it must come from a table
        the compact layout covers (no value outside the columns set), else the cut would lose what it says."""
        if self.columns is None or len(observation) == len(self.columns):
            return observation
        if len(observation) != ld_codec.OBSERVATION_SIZE:
            raise ValueError(f"an observation of {len(observation)} values is not {self.name}'s")
        outside = np.ones(len(observation), dtype=bool)
        outside[self.columns] = False
        if np.any(observation[outside]):
            raise ValueError(
                f"a policy trained on {self.name}'s compact observation of {self._dice(self.defaults)} dice "
                "cannot read this table: its observation sets values that layout leaves out (more dice, or "
                "special dice it was not made for)"
            )
        return observation[self.columns]

    def render(self, state: BettingGameState, seat: int | None = None) -> str:
        return render_state(state, seat)

    def encode(self, state: BettingGameState, seat: int) -> np.ndarray:
        if self.columns is None:
            return ld_codec.encode(state, seat)
        return ld_codec.encode_compact(state, seat, self.columns)

    def action_to_id(self, state: GameState, action: Action, seat: int) -> int:
        return ld_codec.action_to_id(action)

    def legal_action_ids(self, state: BettingGameState, seat: int) -> list[int]:
        return ld_codec.legal_action_ids(state.round)

    def legal_mask(self, state: BettingGameState, seat: int) -> tuple[tuple[int, ...], np.ndarray]:
        return ld_codec.legal_mask(state.round)

    def id_to_action(self, state: GameState, action_id: int, seat: int) -> Action:
        return ld_codec.id_to_action(action_id)

    def action_to_str(self, action: Action) -> str:
        return ld_codec.action_to_str(action)

    def final_rewards(self, state: GameState, mode: str) -> list[float]:
        if mode == "win":
            return state.scores()
        return super().final_rewards(state, mode)

    def setup_options(self) -> tuple[str, ...]:
        return ("dice", "specials", "preset", "observation")


class raw_env(BoardGameEnv):  # noqa: N801 - PettingZoo's name for the unwrapped env
    """Setup options ``dice`` (1-5, default 5), ``specials`` (names of special dice, default none) and
    ``preset`` ("lying_pirates" or "classic"), here or in ``reset(options=...)``."""

    game = LiarsDiceGame()
    metadata: ClassVar[dict[str, Any]] = {**BoardGameEnv.metadata, "name": "liars_dice_v0"}


def env(**kwargs: Any) -> raw_env:
    return wrap(raw_env(**kwargs))
