"""Saved Lying Pirates states and game records kept from earlier engines, and how they were made.

``data/states.json.gz`` holds states saved with ``to_dict()`` at random points of random games, sixteen per
option table (``TABLES``); ``data/finished.json.gz`` two finished games per table;
``data/rare.json.gz`` two states of each chain of work in progress met in 30 games per table (rare
chains: a reroll in a battle of an effect, a cargo after a bomb...); ``data/records.json.gz`` whole games
recorded with ``bidbluff.arena.records``.  Beside each one lies what that
engine did with it: the legal action ids and a digest of every seat's observation at the saved point,
then the same for the acting seat at each step of a seeded random continuation (``play_on``).  A later
engine must load them and play on identically.

Made with ``python -m tests.lying_pirates.savedkit`` on the engine of commit 805123d (format 0: the work
records as plain dicts resumed by ``"then"`` names), then each saved state read and written again by the
engine of commit 9d0b03a (format 1: typed frames on a stack), which replayed every one identically;
``data/format0.json.gz`` keeps one state of format 0 as it was saved, which the engine now refuses.  Run on
a later engine, this module saves that engine's format.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np

from bidbluff import envs
from bidbluff.arena.records import record_game
from bidbluff.envs.core.game import Game, GameState
from bidbluff.envs.lying_pirates.content import VARIANTS
from bidbluff.envs.lying_pirates.env import LyingPiratesGame

DATA = Path(__file__).parent / "data"
STATES, RECORDS, FINISHED = DATA / "states.json.gz", DATA / "records.json.gz", DATA / "finished.json.gz"
RARE = DATA / "rare.json.gz"
FORMAT_0 = DATA / "format0.json.gz"  # one state (at an effect) saved by the engine of format 0, refused
PLAY_ON = 60  # steps of the seeded continuation after a saved point
ENV = "lying_pirates_v0"
# every option table the generic tests use, then every option at once with dealt coasters (the slow fuzz's set)
EVERYTHING = {
    "expansion": "cities_of_greed",
    "abilities": "dealt",
    "variants": [v.name for v in VARIANTS],
    "merchant_ships": True,
    "map": "extended",
    "map_setup": "collaborative",
    "draft": True,
}
TABLES = (*LyingPiratesGame.test_configs, {"num_players": 2, **EVERYTHING}, {"num_players": 5, **EVERYTHING})
COMMON = ("bet", "window", "reroll", "effect", "catchup")  # the steps a game spends most of its decisions in


def table_options(config: dict[str, Any]) -> dict[str, Any]:
    """A test table's setup options (without its player count and suite mark)."""
    return {k: v for k, v in config.items() if k not in ("num_players", "slow")}


def digest(obs: np.ndarray) -> str:
    return hashlib.sha1(obs.tobytes()).hexdigest()[:16]


def seen(game: Game, state: GameState) -> list[Any]:
    """What the table sees now: the acting seat, its legal ids, every seat's observation digest."""
    seat = state.current_player()
    ids = game.legal_action_ids(state, seat) if not state.is_terminal() else []
    return [seat, ids, [digest(game.encode(state, s)) for s in range(state.num_players)]]


def play_on(game: Game, state: GameState, seed: int, steps: int = PLAY_ON) -> list[Any]:
    """Random legal play from ``state`` (chance and picks from ``seed``): the acting seat, its legal ids
    and its observation's digest at each step, and the scores where the game ends."""
    rng = np.random.default_rng(seed)
    trace: list[Any] = []
    for _ in range(steps):
        if state.is_terminal():
            return [*trace, ["over", state.scores()]]
        seat = state.current_player()
        ids = game.legal_action_ids(state, seat)
        trace.append([seat, digest(game.encode(state, seat)), hashlib.sha1(str(ids).encode()).hexdigest()[:12]])
        state.apply(game.id_to_action(state, ids[int(rng.integers(len(ids)))], seat), rng)
    return trace


def load_data(path: Path) -> list[dict[str, Any]]:
    return json.loads(gzip.decompress(path.read_bytes()))


def _save_data(path: Path, items: list[dict[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(gzip.compress(json.dumps(items, separators=(",", ":")).encode(), mtime=0))


def _saved_states(per_table: int = 16) -> list[dict[str, Any]]:
    items = []
    for t, config in enumerate(TABLES):
        options = table_options(config)
        game = envs.game(ENV, **options)
        rng = np.random.default_rng(1000 + t)
        kept = 0
        for g in range(40):
            if kept == per_table:
                break
            state = game.new_state(config["num_players"], rng)
            steps = 0
            while not state.is_terminal() and kept < per_table and steps < 3000:
                # about three saved points a game, spread over the game, and most of the rarer steps
                odds = 0.5 if state.phase == "final" else 3 / 250 if state.stage in COMMON else 0.08
                if rng.random() < odds or (steps == 0 and g == 0):
                    seed = int(rng.integers(2**31))
                    items.append(
                        {
                            "table": t,
                            "options": options,
                            "state": state.to_dict(),
                            "seen": seen(game, state),
                            "seed": seed,
                            "play_on": play_on(game, game.state_from_dict(state.to_dict()), seed),
                        }
                    )
                    kept += 1
                legal = state.legal_actions()
                state.apply(legal[int(rng.integers(len(legal)))], rng)
                steps += 1
    return items


def signature(data: dict[str, Any]) -> str:
    """The chain of work in progress a saved state is in: its stage and what each record resumes."""
    return " ".join(frame["stage"] for frame in data["stack"])


def _rare_states(games: int = 30, each: int = 2) -> list[dict[str, Any]]:
    items, kept = [], {}
    for t, config in enumerate(TABLES):
        options = table_options(config)
        game = envs.game(ENV, **options)
        rng = np.random.default_rng(3000 + t)
        for _ in range(games):
            state = game.new_state(config["num_players"], rng)
            while not state.is_terminal():
                data = state.to_dict()
                chain = signature(data)
                if kept.get(chain, 0) < each:
                    kept[chain] = kept.get(chain, 0) + 1
                    seed = int(rng.integers(2**31))
                    after = play_on(game, game.state_from_dict(data), seed)
                    items.append(
                        {
                            "table": t,
                            "options": options,
                            "state": data,
                            "seen": seen(game, state),
                            "seed": seed,
                            "play_on": after,
                        }
                    )
                legal = state.legal_actions()
                state.apply(legal[int(rng.integers(len(legal)))], rng)
    return items


def _finished_states(games: int = 2) -> list[dict[str, Any]]:
    """Games played to their end (the work in progress when they ended stays in the last observation)."""
    items = []
    for t, config in enumerate(TABLES):
        options = table_options(config)
        game = envs.game(ENV, **options)
        rng = np.random.default_rng(2000 + t)
        for _ in range(games):
            state = game.new_state(config["num_players"], rng)
            while not state.is_terminal():
                legal = state.legal_actions()
                state.apply(legal[int(rng.integers(len(legal)))], rng)
            items.append({"table": t, "options": options, "state": state.to_dict(), "seen": seen(game, state)})
    return items


def _records(games: int = 2) -> list[dict[str, Any]]:
    """Whole games through the raw env (random legal ids), every table, with the acting seat's
    observation digest at each step."""
    items = []
    for t, config in enumerate(TABLES):
        options = table_options(config)
        n = config["num_players"]
        for g in range(games):
            env = envs.make(ENV, raw=True, num_players=n, **options)
            seed = 100 * t + g
            env.reset(seed=seed)
            picks = np.random.default_rng(seed)
            actions, digests = [], []
            while not env.game_state.is_terminal():
                seat = int(env.agent_selection.rsplit("_", 1)[1])
                legal = env.legal_action_ids()
                digests.append(digest(env.observe(env.agent_selection)["observation"]))
                action = legal[int(picks.integers(len(legal)))]
                actions.append((seat, action))
                env.step(action)
            record = record_game(ENV, n, seed, actions, env.game_state.scores(), options)
            items.append({"table": t, "record": record, "digests": digests})
    return items


if __name__ == "__main__":
    _save_data(STATES, _saved_states())
    _save_data(RECORDS, _records())
    _save_data(FINISHED, _finished_states())
    _save_data(RARE, _rare_states())
