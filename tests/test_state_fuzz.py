"""Mutation fuzz of restored states: every mutant of a real saved state is refused with a ``ValueError``
or plays to the end with observations inside the declared box.

Saved states come from random games; each case changes one or two random places of one of them (a key
deleted or added, a wrong type, an out-of-range, negative or huge number, a die face or card that does
not exist, an item duplicated or dropped, an unknown phase name) and hands it to ``reset(options=
{"state": ...})``.  A case runs under a time guard and a memory cap, so a hang or a runaway allocation is
a finding, not a stuck suite.  Games opt in by declaring ``validated = True`` on their state class (their
``from_dict`` refuses every invalid position); the others join once they do.

The issue's table (every validated env and option table, 3,000 mutants each)::

    .venv/bin/python tests/test_state_fuzz.py --cases 3000
"""

from __future__ import annotations

import argparse
import copy
import json
import re
import resource
import signal
import sys
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pytest

if __name__ == "__main__":  # run as a script from the repository root
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bidbluff import envs
from bidbluff.envs.core.game import TERMINAL

OUTCOMES = (
    "refused",
    "played",
    "accepted but invalid",
    "crash at reset",
    "crash later",
    "hang",
    "out of memory",
    "stuck",
)
FINDINGS = OUTCOMES[2:]
CASE_SECONDS = 10.0  # one mutant, restored and played out; a real game takes well under a second
MEMORY_HEADROOM = 2 << 30  # bytes a case may add to the process's address space
MAX_DECISIONS = 20_000  # past this a restored game counts as hanging (no real game comes near)
WRONG_TYPES = (None, "bogus", 1.5, True, [], {}, 7)
NUMBERS = (-1, -(10**9), 10**9, 10**18, 9, 2**31)


def validated_envs() -> list[str]:
    """Envs whose state class declares full validation of restored states."""
    return [name for name in envs.ENVS if getattr(envs.game(name).state_class, "validated", False)]


def tables(name: str, slow: bool = True) -> list[tuple[str, list[int], dict[str, Any]]]:
    """``(label, player counts, options)``: the default table at every player count, then each test config
    (``slow=False``: without the configs that the game leaves to the slow suite)."""
    game = envs.game(name)
    counts = list(range(game.min_players, game.max_players + 1))
    out = [(f"{name} ({counts[0]}-{counts[-1]}p)", counts, {})]
    for config in game.test_configs:
        if config.get("slow") and not slow:
            continue
        options = {k: v for k, v in config.items() if k not in ("num_players", "slow")}
        label = f"{name} ({config['num_players']}p, {', '.join(f'{k}={v}' for k, v in options.items())})"
        out.append((label, [config["num_players"]], options))
    return out


class Hang(BaseException):
    """The case ran past its time guard (a BaseException, so that no ``except Exception`` in an engine eats it)."""


@contextmanager
def guarded(seconds: float) -> Iterator[None]:
    """Raise ``Hang`` in the code inside after ``seconds``, and cap its memory: a case that allocates without
    bound gets a ``MemoryError`` instead of taking the machine's memory."""

    def alarm(signum: int, frame: Any) -> None:
        raise Hang

    previous = signal.signal(signal.SIGALRM, alarm)
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = _address_space() + MEMORY_HEADROOM
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _address_space() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmSize:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("no VmSize in /proc/self/status")


# -- saved states and their mutants ------------------------------------------------------------------
def saved_states(env: Any, rng: np.random.Generator, games: int) -> list[dict[str, Any]]:
    """Positions of ``games`` random games (each taken with probability 1/4 per decision, the first always)."""
    states = []
    for _ in range(games):
        env.reset(seed=int(rng.integers(2**31)))
        first = True
        while not env.game_state.is_terminal():
            if first or rng.random() < 0.25:
                states.append(json.loads(json.dumps(env.game_state.to_dict())))
                first = False
            env.step(int(rng.choice(env.legal_action_ids())))
    return states


def _places(value: Any, path: tuple = ()) -> Iterator[tuple]:
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _places(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _places(v, (*path, i))


def _replace(root: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    parent = root
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = new
    return root


def _at(root: Any, path: tuple) -> Any:
    for key in path:
        root = root[key]
    return root


def mutate(data: dict[str, Any], rng: np.random.Generator) -> tuple[dict[str, Any], str]:
    """A copy of ``data`` with one random place changed, and what was done."""
    out = copy.deepcopy(data)
    places = [p for p in _places(out) if p]
    path = places[rng.integers(len(places))]
    value = _at(out, path)
    where = ".".join(map(str, path))
    choice = rng.random()
    if choice < 0.2:
        new = WRONG_TYPES[rng.integers(len(WRONG_TYPES))]
        _replace(out, path, copy.deepcopy(new))
        return out, f"{where} = {new!r} (wrong type)"
    if isinstance(value, bool):
        return _replace(out, path, not value), f"{where} flipped"
    if isinstance(value, int):
        step = int(rng.choice((-2, -1, 1, 2)))
        new = int(NUMBERS[rng.integers(len(NUMBERS))]) if rng.random() < 0.6 else value + step
        return _replace(out, path, new), f"{where} = {new}"
    if isinstance(value, str):
        return _replace(out, path, "bogus"), f"{where} = 'bogus'"
    if isinstance(value, dict) and value:
        key = list(value)[rng.integers(len(value))]
        if rng.random() < 0.8:
            del value[key]
            return out, f"{where}.{key} deleted"
        value["bogus"] = copy.deepcopy(value[key])
        return out, f"{where}.bogus added"
    if isinstance(value, list) and value:
        i = int(rng.integers(len(value)))
        kind = rng.random()
        if kind < 0.4:
            value.insert(i, copy.deepcopy(value[i]))
            return out, f"{where}[{i}] duplicated"
        if kind < 0.8:
            del value[i]
            return out, f"{where}[{i}] deleted"
        value.clear()
        return out, f"{where} emptied"
    # a top-level key, an empty list or object: delete it from its parent
    parent = _at(out, path[:-1])
    del parent[path[-1]]
    return out, f"{where} deleted"


# -- one case ------------------------------------------------------------------------------------------
def in_box(obs: np.ndarray, size: int) -> bool:
    return obs.dtype == np.float32 and obs.shape == (size,) and bool(np.all((obs >= 0.0) & (obs <= 1.0)))


def run_case(env: Any, mutant: dict[str, Any], rng: np.random.Generator) -> str:
    """Restore ``mutant`` and play it out at random; the outcome (one of ``OUTCOMES``)."""
    try:
        with guarded(CASE_SECONDS):
            try:
                env.reset(options={"state": mutant})
            except ValueError:
                return "refused"
            except (MemoryError, Hang):
                raise
            except Exception:  # the finding: not a ValueError
                return "crash at reset"
            return _play_out(env, mutant, rng)
    except MemoryError:
        return "out of memory"
    except Hang:
        return "hang"


def _play_out(env: Any, mutant: dict[str, Any], rng: np.random.Generator) -> str:
    game = env.game
    state_class = type(env.game_state)
    size = game.observation_size
    sound = env.game_state.to_dict() == mutant  # read as given, nothing coerced or dropped
    try:
        for agent in env.possible_agents:
            sound &= in_box(env.observe(agent)["observation"], size)
        for step in range(MAX_DECISIONS):
            state = env.game_state
            if state.current_player() == TERMINAL:
                return "played" if sound else "accepted but invalid"
            ids = env.legal_action_ids()
            if not ids or not env.action_masks().any():
                return "stuck"
            sound &= in_box(env.observe(env.agent_selection)["observation"], size)
            if step % 10 == 0:
                try:
                    state_class.from_dict(state.to_dict())  # every position reached is a valid one
                except ValueError:
                    sound = False
            env.step(int(ids[rng.integers(len(ids))]))
    except (MemoryError, Hang):
        raise
    except Exception:  # the finding: any error while playing an accepted state
        return "crash later"
    return "hang"


def fuzz(
    name: str,
    counts: list[int],
    options: dict[str, Any],
    cases: int,
    seed: int,
    examples: dict[str, list[str]] | None = None,
    games: int = 2,
) -> Counter:
    """``cases`` mutants over the player counts ``counts``, of positions from ``games`` random games at each;
    a tally of ``OUTCOMES`` (``examples`` collects what each finding was)."""
    rng = np.random.default_rng(seed)
    tally: Counter = Counter()
    per_count = [cases // len(counts) + (i < cases % len(counts)) for i in range(len(counts))]
    for n, share in zip(counts, per_count, strict=True):
        if not share:
            continue
        env = envs.make(name, raw=True, num_players=n, **options)
        states = saved_states(env, rng, games)
        for _ in range(share):
            mutant, what = mutate(states[rng.integers(len(states))], rng)
            if rng.random() < 0.2:
                mutant, more = mutate(mutant, rng)
                what += "; " + more
            outcome = run_case(env, mutant, rng)
            tally[outcome] += 1
            if examples is not None and outcome in FINDINGS:
                examples.setdefault(outcome, []).append(f"{n}p: {what}")
    return tally


# -- the tests -----------------------------------------------------------------------------------------
def fuzz_cases(slow: bool) -> list[Any]:
    marks = [pytest.mark.slow] if slow else []
    return [
        pytest.param(name, counts, options, marks=marks, id=label)
        for name in validated_envs()
        for label, counts, options in tables(name, slow)
    ]


def check_fuzz(name: str, counts: list[int], options: dict[str, Any], cases: int, seed: int) -> None:
    examples: dict[str, list[str]] = {}
    tally = fuzz(name, counts, options, cases, seed, examples)
    found = {k: v[:5] for k, v in examples.items()}
    assert not found, f"{name}: {dict(tally)}; examples: {found}"
    assert tally["refused"] > cases // 4, f"{name}: too few mutants refused to trust the fuzz: {dict(tally)}"


@pytest.mark.parametrize(("env_name_", "counts", "options"), fuzz_cases(slow=False))
def test_mutated_states_are_refused_or_play_out(env_name_, counts, options):
    check_fuzz(env_name_, counts, options, cases=150, seed=1)


@pytest.mark.parametrize(("env_name_", "counts", "options"), fuzz_cases(slow=True))
def test_many_mutated_states_are_refused_or_play_out(env_name_, counts, options):
    check_fuzz(env_name_, counts, options, cases=3000, seed=2)


def test_the_guard_catches_a_hang_and_a_runaway_allocation():
    with pytest.raises(Hang), guarded(0.2):
        while True:
            time.sleep(0.01)
    with pytest.raises(MemoryError), guarded(5.0):
        bytearray(MEMORY_HEADROOM * 2)
    bytearray(1 << 20)  # the cap is lifted afterwards


def test_mutants_differ_from_their_state():
    rng = np.random.default_rng(0)
    state = {"phase": "day", "cups": {"0": [[0, 3], [1, 6]]}, "turn": 1}
    changed = [mutate(state, rng) for _ in range(50)]
    assert all(mutant != state for mutant, _ in changed)
    assert state == {"phase": "day", "cups": {"0": [[0, 3], [1, 6]]}, "turn": 1}, "the original is untouched"


# -- the table ---------------------------------------------------------------------------------
def main() -> None:
    parser = argparse.ArgumentParser(description="Mutation-fuzz restored states and print the findings per table.")
    parser.add_argument("--cases", type=int, default=3000, help="mutants per env and option table")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--env", action="append", help="only these envs (default: every validated env)")
    parser.add_argument("--examples", type=int, default=0, help="print this many examples of each finding")
    parser.add_argument("--games", type=int, default=2, help="random games per player count to take states from")
    args = parser.parse_args()
    names = args.env or validated_envs()
    print("| env | refused | played | " + " | ".join(FINDINGS) + " |")
    print("|---|--:|--:|" + "--:|" * len(FINDINGS))
    for name in names:
        for label, counts, options in tables(name):
            examples: dict[str, list[str]] = {}
            started = time.perf_counter()
            tally = fuzz(name, counts, options, args.cases, args.seed, examples, args.games)
            row = [tally[o] for o in OUTCOMES]
            print(
                f"| {label} | " + " | ".join(map(str, row)) + f" |  <!-- {time.perf_counter() - started:.0f} s -->",
                flush=True,
            )
            for outcome, lines in examples.items():
                for line in lines[: args.examples]:
                    print(f"    {outcome}: {line}")


def _refusal(env_name: str, num_players: int, change: Any, **options: Any) -> str:
    env = envs.make(env_name, raw=True, num_players=num_players, **options)
    env.reset(seed=0)
    env.step(env.legal_action_ids()[-1])
    data = json.loads(json.dumps(env.game_state.to_dict()))
    change(data)
    with pytest.raises(ValueError) as refused:
        env.reset(options={"state": data})
    return str(refused.value)


@pytest.mark.parametrize(
    ("env_name", "num_players", "change", "message"),
    [
        (
            "liars_dice_v0",
            3,
            lambda d: d["round"]["cups"]["2"][1].__setitem__(1, 9),
            r"^round\.cups\.2\[1\]\.face: 9 is not",
        ),
        (
            "liars_dice_v0",
            3,
            lambda d: d["round"]["cups"]["2"].append([2, 5]),
            r"^round\.cups\.2\[5\]\.face: 5 is not a face of a Mermaid die",
        ),
        (
            "liars_dice_v0",
            3,
            lambda d: d.__setitem__("num_players", 10**9),
            "^num_players: 1000000000 is not a table of",
        ),
        (
            "liars_dice_v0",
            3,
            lambda d: d["round"]["bids"][0].__setitem__(1, -(10**9)),
            r"^round\.bids\[0\]\.quantity: -1000000000 is not a quantity",
        ),
        (
            "liars_dice_v0",
            3,
            lambda d: d["round"].__setitem__("turn", True),
            r"^round\.turn: True \(boolean\) is not an integer",
        ),
        ("spytails_v0", 4, lambda d: d.__setitem__("round", 9), "^round: 9 is not a round 0..8"),
        ("spytails_v0", 4, lambda d: d["influence"].__setitem__(1, -1), r"^influence\[1\]: -1 is not an influence"),
        ("spytails_v0", 4, lambda d: d.__setitem__("phase", "bogus"), "^phase: 'bogus' .* is not a phase"),
        (
            "libertalia_v0",
            4,
            lambda d: d["doubloons"].__setitem__(0, -1),
            r"^doubloons\[0\]: -1 is not a number of doubloons",
        ),
        (
            "libertalia_v0",
            4,
            lambda d: d["den_booty"][2].__setitem__(4, -3),
            r"^den_booty\[2\]\.relic: -3 is not a count of relic",
        ),
        (
            "libertalia_v0",
            4,
            lambda d: d["hands"][1].append(d["hands"][1][-1]),
            r"^hands\[1\]: seat 1's cards: rank \d+ appears 2",
        ),
        ("libertalia_v0", 4, lambda d: d.pop("bag"), "^bag: missing"),
    ],
)
def test_bad_fields_are_named_by_their_path(env_name, num_players, change, message):
    assert re.search(message, _refusal(env_name, num_players, change))


if __name__ == "__main__":
    main()
