"""``liars_dice_v0`` as an OpenSpiel game: ``pyspiel.load_game("python_bidbluff_liars_dice(players=2,dice=1)")``.

Importing this module registers the game (it needs the ``openspiel`` extra).
Every move goes through the env's own engine (``bidbluff.envs.liars_dice.game`` over
``bidbluff.envs.lying_pirates.betting``), so OpenSpiel's algorithms (exploitability and
NashConv, best response, CFR/CFR+, MCCFR, the sequence-form LP) run on our
rules as they are.  It is a Python game: every setting plays (simulation,
sampling algorithms such as MCCFR), but whole-tree algorithms fit only
2 players x 1 die (``bidbluff.training.exploitability`` walks that tree once and hands
it to OpenSpiel's C++ as an EFG game).

Parameters: ``players`` (2-6, default 2), ``dice`` (crew dice each, 1-5,
default 1), ``preset`` ("lying_pirates" or "classic") and ``specials`` (special
dice joined by "+", spaces as "_": ``"pirate_king+mermaid"``).  With
``preset=classic``, 2 players and 1 die the tree is OpenSpiel's own
``liars_dice`` (numdice=1): the same histories, legal actions and returns.

Chance nodes, in this order: the seat of each special die (uniform), each
seat's crew dice as one roll (outcome = index into ``game.setting.cups``, the sorted
multisets of faces, with multinomial odds: the order of a cup tells nothing),
then the face of each special die (outcome = the face, 0 for blank).

Actions (``game.num_distinct_actions()``, ``top`` = dice in play)::

    0 .. 6*top-1         bid q f      id = (q-1)*6 + f-1, as OpenSpiel's liars_dice
    6*top .. 12*top-1    exact q f    only where the rules have "exactly"
    last                 liar

``game.setting.env_action(id)`` / ``game.setting.bridge_action(env_id)`` translate to and from
the env's ``Discrete(409)`` ids.

Information states are named by ``bidbluff.envs.liars_dice.infoset.describe``; the
information-state tensor is the env observation itself
(``bidbluff.envs.liars_dice.codec.encode``), the observation tensor the same without the
bet history (the last bet stays).  The observer takes every
``IIGObservationType``: no, one or all players' private dice, with or without
the public table.

Utility: winners +1, losers -1, survivors 0.  Zero-sum at 2 players and under
the classic preset; a right "exactly" with 3 or more captains is not, and the
game then says general-sum.

The short name of a game's type (``game.get_type().short_name``) names its
setting: ``python_bidbluff_liars_dice`` for the defaults, otherwise
``setting_name(...)``, e.g. ``python_bidbluff_liars_dice_3p2d`` or
``python_bidbluff_liars_dice_4p1d_classic_mermaid``, registered with OpenSpiel
(with the setting as its defaults) the first time it is asked for.  A tool that
rebuilds the game from that name alone, ``pyspiel.load_game(short_name)``, so
gets the same setting back, not 2 players x 1 die: Shimmy's
``OpenSpielCompatibilityV0.reset`` does exactly that.  The game's string
(``str(game)``, serialisation) keeps the one name and the parameters; a game
pickles as that string.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from itertools import combinations_with_replacement
from math import factorial, prod
from typing import Any

import numpy as np
import pyspiel

from bidbluff.envs.liars_dice import codec
from bidbluff.envs.liars_dice.game import MAX_DICE, MAX_PLAYERS, PRESETS, BettingGameState
from bidbluff.envs.liars_dice.infoset import describe
from bidbluff.envs.lying_pirates.betting import BettingRound, BettingRules
from bidbluff.envs.lying_pirates.dice import DIE_NAMES, FACES, SPECIALS, Die

GAME_NAME = "python_bidbluff_liars_dice"
DEFAULTS: dict[str, Any] = {"players": 2, "dice": 1, "preset": "lying_pirates", "specials": ""}
SPECIAL_BY_NAME = {DIE_NAMES[k].lower().replace(" ", "_"): int(k) for k in SPECIALS}
_CREW = int(Die.CREW)

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="bidbluff Liar's dice (liars_dice_v0)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)


def parse_specials(text: str) -> tuple[int, ...]:
    """``"pirate_king+mermaid"`` -> the die kinds, in that order; a clear error for anything else."""
    names = [name.strip().lower().replace(" ", "_") for name in text.split("+") if name.strip()]
    unknown = [name for name in names if name not in SPECIAL_BY_NAME]
    if unknown or len(set(names)) != len(names):
        raise ValueError(f"specials must be distinct names from {sorted(SPECIAL_BY_NAME)} joined by '+', not {text!r}")
    return tuple(SPECIAL_BY_NAME[name] for name in names)


def game_string(
    num_players: int = 2, dice: int = 1, preset: str = "lying_pirates", specials: tuple[str, ...] | list[str] = ()
) -> str:
    """The ``pyspiel.load_game`` string of the bridge for the env's options (``specials`` as the env names them)."""
    joined = "+".join(name.strip().lower().replace(" ", "_") for name in specials)
    return f"{GAME_NAME}(players={num_players},dice={dice},preset={preset},specials={joined})"


def load(
    num_players: int = 2, dice: int = 1, preset: str = "lying_pirates", specials: tuple[str, ...] | list[str] = ()
) -> LiarsDiceGame:
    """The bridge game for the env's options (``bidbluff.envs.make("liars_dice_v0", num_players=..., dice=...,
    ...)``)."""
    return pyspiel.load_game(game_string(num_players, dice, preset, specials))


def setting_name(
    num_players: int = 2, dice: int = 1, preset: str = "lying_pirates", specials: tuple[str, ...] | list[str] = ()
) -> str:
    """The short name of the type of the bridge game for these options: ``GAME_NAME`` for the defaults, else
    ``GAME_NAME`` with ``_{players}p{dice}d``, then ``_{preset}`` unless the default one and ``_{specials}``
    (joined by "+") if any.  ``pyspiel.load_game`` of it, without parameters, builds that setting."""
    joined = "+".join(name.strip().lower().replace(" ", "_") for name in specials if name.strip())
    if (num_players, dice, preset, joined) == (DEFAULTS["players"], DEFAULTS["dice"], DEFAULTS["preset"], ""):
        return GAME_NAME
    name = f"{GAME_NAME}_{num_players}p{dice}d"
    if preset != DEFAULTS["preset"]:
        name += f"_{preset}"
    return f"{name}_{joined}" if joined else name


def _load_game(text: str) -> LiarsDiceGame:
    """``pyspiel.load_game(text)``, once this module (which registers the game) is imported: unpickles a game."""
    return pyspiel.load_game(text)


def cup_rolls(dice: int) -> list[tuple[tuple[int, ...], float]]:
    """Every cup of ``dice`` crew dice as sorted faces, with its chance (multinomial over 6 faces)."""
    out = []
    for faces in combinations_with_replacement(range(1, 7), dice):
        ways = factorial(dice) // prod(factorial(c) for c in Counter(faces).values())
        out.append((faces, ways / 6**dice))
    return out


@dataclass(frozen=True)
class Setting:
    """The facts of one setting: rules, dice, special dice and the action layout (states keep this, not the
    game, so that they pickle alone: OpenSpiel serialises a Python state by pickling its ``__dict__``)."""

    num_players: int
    dice: int
    rules: BettingRules
    specials: tuple[int, ...]

    @property
    def top(self) -> int:
        """Dice in play: every special die is dealt."""
        return self.num_players * self.dice + len(self.specials)

    @property
    def bids(self) -> int:
        """Bid ids (also where the exact calls start)."""
        return 6 * self.top

    @property
    def liar(self) -> int:
        """The liar call's id, the last one."""
        return self.bids * (2 if self.rules.exact else 1)

    @cached_property
    def cups(self) -> list[tuple[tuple[int, ...], float]]:
        return cup_rolls(self.dice)

    def __deepcopy__(self, memo: dict) -> Setting:
        return self  # immutable, and shared by every state of a game

    def env_action(self, action: int) -> int:
        """The env id of bridge action ``action``."""
        if action == self.liar:
            return codec.LIAR_ID
        if action >= self.bids:
            return codec.EXACT_AT + action - self.bids
        return action

    def bridge_action(self, env_id: int) -> int:
        """The bridge id of env action ``env_id`` (one the rules allow in this setting)."""
        if env_id == codec.LIAR_ID:
            return self.liar
        if env_id >= codec.EXACT_AT:
            return self.bids + env_id - codec.EXACT_AT
        return env_id


class LiarsDiceGame(pyspiel.Game):
    """The game of one ``Setting``; ``game.setting`` holds its facts and the action translation."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = {**DEFAULTS, **(params or {})}
        n, dice, preset = int(given["players"]), int(given["dice"]), str(given["preset"])
        if not 2 <= n <= MAX_PLAYERS:
            raise ValueError(f"players must be 2..{MAX_PLAYERS}, not {n}")
        if not 1 <= dice <= MAX_DICE:
            raise ValueError(f"dice must be 1..{MAX_DICE}, not {dice}")
        if preset not in PRESETS:
            raise ValueError(f"preset {preset!r} is not one of {sorted(PRESETS)}")
        setting = Setting(n, dice, PRESETS[preset], parse_specials(str(given["specials"])))
        zero_sum = n == 2 or not setting.rules.exact
        special_outcomes = max(n, 7) if setting.specials else 0  # seats, then faces 0-6
        info = pyspiel.GameInfo(
            num_distinct_actions=setting.liar + 1,
            max_chance_outcomes=max(len(setting.cups), special_outcomes),
            num_players=n,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=setting.top * len(setting.rules.faces) + 1,  # every bet once, then a call
        )
        super().__init__(
            _GAME_TYPE if zero_sum else _general_sum_type(),
            info,
            {**given, "players": n, "dice": dice, "preset": preset},
        )
        self.setting = setting

    def __reduce__(self) -> tuple:
        """Pickled as its string, loaded again through OpenSpiel (the Python attributes, ``setting``, come back)."""
        return _load_game, (str(self),)

    def get_type(self) -> pyspiel.GameType:
        """The game's type, its short name naming the setting (``setting_name``), so that
        ``pyspiel.load_game(game.get_type().short_name)`` builds this setting again, as Shimmy's
        ``OpenSpielCompatibilityV0.reset`` does.  Such a name is registered with OpenSpiel the first time it is
        asked for, with the setting as its parameters' defaults.  OpenSpiel's C++ keeps the type the game was
        built with (``GAME_NAME``): the game's string and its serialisation keep that name."""
        base = super().get_type()
        given = self.get_parameters()
        specials = parse_specials(str(given["specials"]))
        params = {
            "players": int(given["players"]),
            "dice": int(given["dice"]),
            "preset": str(given["preset"]),
            "specials": "+".join(DIE_NAMES[k].lower().replace(" ", "_") for k in specials),
        }
        name = setting_name(params["players"], params["dice"], params["preset"], params["specials"].split("+"))
        if name == GAME_NAME:
            return base
        if name not in _SETTING_TYPES:
            named = _type_like(base, short_name=name, parameter_specification=params)
            pyspiel.register_game(named, LiarsDiceGame)
            _SETTING_TYPES[name] = named
        return _SETTING_TYPES[name]

    def new_initial_state(self) -> LiarsDiceState:
        return LiarsDiceState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> LiarsDiceObserver:
        return LiarsDiceObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), self, params)


_FIELDS = (
    "short_name",
    "long_name",
    "dynamics",
    "chance_mode",
    "information",
    "utility",
    "reward_model",
    "max_num_players",
    "min_num_players",
    "provides_information_state_string",
    "provides_information_state_tensor",
    "provides_observation_string",
    "provides_observation_tensor",
    "parameter_specification",
)
# The types registered under a setting's name (``LiarsDiceGame.get_type``), by that name.
_SETTING_TYPES: dict[str, pyspiel.GameType] = {}


def _type_like(game_type: pyspiel.GameType, **changes: Any) -> pyspiel.GameType:
    """A copy of ``game_type`` with ``changes``."""
    return pyspiel.GameType(**{name: getattr(game_type, name) for name in _FIELDS} | changes)


def _general_sum_type() -> pyspiel.GameType:
    return _type_like(_GAME_TYPE, utility=pyspiel.GameType.Utility.GENERAL_SUM)


class Position:
    """A position of the bridge: the engine's ``BettingGameState``, whose cups fill as the chance nodes roll
    them, and the deal so far.  The whole game lives here; ``LiarsDiceState`` is its OpenSpiel shell (and
    ``bidbluff.training.exploitability`` walks positions directly, without a call through OpenSpiel per node).

    OpenSpiel clones a Python state by deep-copying its ``__dict__``: ``copy`` copies only what a move can
    change (the cup lists while dealing, the list of bids), since dice and bids are never changed in place.
    """

    def __init__(
        self, setting: Setting, engine: BettingGameState | None = None, holders: list[int] | None = None, dealt: int = 0
    ) -> None:
        self.setting = setting
        if engine is None:
            n = setting.num_players
            engine = BettingGameState(n, BettingRound({s: [] for s in range(n)}, list(range(n)), n, setting.rules))
        self.engine = engine
        self.holders = holders or []  # seat of each special die dealt so far, in ``Setting.specials`` order
        self.dealt = dealt  # chance nodes done

    def copy(self) -> Position:
        r = self.engine.round
        betting = BettingRound(
            {s: list(cup) for s, cup in r.cups.items()}, r.bettors, r.captains, r.rules, list(r.bids), r.turn, r.outcome
        )
        return Position(
            self.setting, BettingGameState(self.engine.num_players, betting), list(self.holders), self.dealt
        )

    def __deepcopy__(self, memo: dict) -> Position:
        return self.copy()

    # -- the deal ------------------------------------------------------------------------------------------
    def chance_step(self) -> tuple[str, int]:
        """What the next chance node draws: ``("holder", i)``, ``("cup", seat)`` or ``("face", i)``."""
        k, n = len(self.setting.specials), self.setting.num_players
        if self.dealt < k:
            return "holder", self.dealt
        if self.dealt < k + n:
            return "cup", self.dealt - k
        return "face", self.dealt - k - n

    def dealing(self) -> bool:
        return self.dealt < 2 * len(self.setting.specials) + self.setting.num_players

    def current_player(self) -> int:
        if self.engine.round.outcome:
            return pyspiel.PlayerId.TERMINAL
        if self.dealing():
            return pyspiel.PlayerId.CHANCE
        return self.engine.round.current

    def chance_outcomes(self) -> list[tuple[int, float]]:
        step, index = self.chance_step()
        if step == "holder":
            n = self.setting.num_players
            return [(s, 1.0 / n) for s in range(n)]
        if step == "cup":
            return [(i, p) for i, (_, p) in enumerate(self.setting.cups)]
        counts = Counter(FACES[Die(self.setting.specials[index])])
        return [(face, c / 6) for face, c in sorted(counts.items())]

    def legal_actions(self) -> list[int]:
        to_bridge = self.setting.bridge_action
        return [to_bridge(i) for i in codec.legal_action_ids(self.engine.round)]

    def apply(self, action: int) -> None:
        if not self.dealing():
            self.engine.round.apply(codec.id_to_action(self.setting.env_action(action)))
            return
        cups = self.engine.round.cups
        step, index = self.chance_step()
        if step == "holder":
            self.holders.append(action)
        elif step == "cup":
            cups[index].extend([_CREW, f] for f in self.setting.cups[action][0])
        else:
            cups[self.holders[index]].append([self.setting.specials[index], action])
        self.dealt += 1

    def action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            step, index = self.chance_step()
            if step == "holder":
                return f"{DIE_NAMES[self.setting.specials[index]]} to P{action}"
            if step == "cup":
                return f"P{index} rolls {' '.join(map(str, self.setting.cups[action][0]))}"
            return f"{DIE_NAMES[self.setting.specials[index]]} shows {action}"
        return codec.action_to_str(codec.id_to_action(self.setting.env_action(action)))

    def known_holders(self) -> list[tuple[int, int]]:
        """``(kind, seat)`` of each special die dealt so far (public)."""
        return list(zip(self.setting.specials, self.holders, strict=False))

    def information_state(self, player: int) -> str:
        """``player``'s information state (``describe``): own dice, the holders of the special dice, the bets."""
        cup = self.engine.round.cups[player]
        return describe(
            player,
            [f for k, f in cup if k == _CREW],
            [(k, f) for k, f in cup if k != _CREW],
            self.known_holders(),
            self.engine.round.bids,
        )

    def __str__(self) -> str:
        r = self.engine.round
        cups = " ".join(
            f"P{s}:" + ",".join(f"{DIE_NAMES[k] + '=' if k != _CREW else ''}{f}" for k, f in cup)
            for s, cup in r.cups.items()
        )
        bets = " ".join(f"P{s}:{q}x{f}" for s, q, f in r.bids) or "-"
        end = f" | {r.outcome.call} by P{r.outcome.caller}" if r.outcome else ""
        return f"cups {cups} | bets {bets}{end}"


class LiarsDiceState(pyspiel.State):
    """OpenSpiel's view of a ``Position``."""

    def __init__(self, game: LiarsDiceGame) -> None:
        super().__init__(game)
        self.position = Position(game.setting)

    @property
    def engine(self) -> BettingGameState:
        return self.position.engine

    def current_player(self) -> int:
        return self.position.current_player()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.position.chance_outcomes()

    def _legal_actions(self, player: int) -> list[int]:
        return self.position.legal_actions()

    def _apply_action(self, action: int) -> None:
        self.position.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.position.action_to_string(player, action)

    def is_terminal(self) -> bool:
        return self.engine.round.outcome is not None

    def returns(self) -> list[float]:
        return self.engine.scores()

    def __str__(self) -> str:
        return str(self.position)


class LiarsDiceObserver:
    """Tensors and strings of a state from one player's view, for any ``pyspiel.IIGObservationType``.

    Pieces (named views in ``dict``): ``dice`` (the player's own dice as the env encodes them, or every
    seat's, from the player round the table), ``table`` (seats, dice in play, the last bet) and, with
    perfect recall, ``bets`` (quantity x face x seat who made it).  The default information state
    (own dice, public table, perfect recall) is exactly the env observation.
    """

    def __init__(self, iig_obs_type: Any, game: LiarsDiceGame, params: Any) -> None:
        if params:
            raise ValueError(f"the liars_dice observer takes no parameters, not {params}")
        self.num_players = game.num_players()
        private = iig_obs_type.private_info
        self.private = {
            pyspiel.PrivateInfoType.NONE: "none",
            pyspiel.PrivateInfoType.SINGLE_PLAYER: "own",
            pyspiel.PrivateInfoType.ALL_PLAYERS: "all",
        }[private]
        self.public = iig_obs_type.public_info
        self.recall = iig_obs_type.perfect_recall
        # The env observation is the own block, then the seats and the table, the bet history last.
        self.history_at = codec.LAYOUT.offset("history")
        table = self.history_at - codec.OWN
        pieces = []
        if self.private == "own":
            pieces.append(("dice", (codec.OWN,)))
        elif self.private == "all":
            pieces.append(("dice", (self.num_players, codec.OWN)))
        if self.public:
            pieces.append(("table", (table,)))
            if self.recall:
                pieces.append(("bets", codec.LAYOUT.field("history").shape))
        sizes = [prod(shape) for _, shape in pieces]
        self.tensor = np.zeros(sum(sizes), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for (name, shape), size in zip(pieces, sizes, strict=True):
            self.dict[name] = self.tensor[at : at + size].reshape(shape)
            at += size

    def set_from(self, state: LiarsDiceState, player: int) -> None:
        encoded = codec.encode(state.engine, player)
        if self.private == "own":
            self.dict["dice"][:] = encoded[: codec.OWN]
        elif self.private == "all":
            for rel in range(self.num_players):
                seat = (player + rel) % self.num_players
                self.dict["dice"][rel] = (
                    encoded[: codec.OWN] if rel == 0 else codec.encode(state.engine, seat)[: codec.OWN]
                )
        if self.public:
            self.dict["table"][:] = encoded[codec.OWN : self.history_at]
            if self.recall:
                self.dict["bets"].reshape(-1)[:] = encoded[self.history_at :]

    def string_from(self, state: LiarsDiceState, player: int) -> str:
        position = state.position
        cups = position.engine.round.cups
        if self.private == "own" and self.public and self.recall:
            return position.information_state(player)
        if self.private == "own":
            shown = [player]
        elif self.private == "all":
            shown = [(player + rel) % self.num_players for rel in range(self.num_players)]
        else:
            shown = []
        crew = [[f for k, f in cups[s] if k == _CREW] for s in shown]
        specials = [[(k, f) for k, f in cups[s] if k != _CREW] for s in shown]
        if not self.public:
            holders, bids = [], None
        else:
            holders = position.known_holders()
            bids = position.engine.round.bids if self.recall else position.engine.round.bids[-1:]
        if self.private == "all":
            return " || ".join(
                describe(s, c, sp, holders, bids) for s, c, sp in zip(shown, crew, specials, strict=True)
            )
        return describe(player, crew[0] if crew else None, specials[0] if specials else [], holders, bids)


pyspiel.register_game(_GAME_TYPE, LiarsDiceGame)
