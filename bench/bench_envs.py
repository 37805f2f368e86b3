"""Random-legal-play throughput of every registered env, and of peer environments, in one run.

Each timed run plays whole games with uniform random legal actions: every
agent step calls ``env.last()`` (which builds the observation and the action
mask, as a learner would) and draws one action from the mask with a seeded
``numpy.random.Generator``; finished agents get ``step(None)``.  Each env is
measured through ``env()`` (PettingZoo's wrappers) and through ``raw_env``.
Every game starts with ``reset(seed=...)`` (a new seed each game, as
``bidbluff.training.gym_env`` does and as the speed references in DESIGN.md were
measured); ``--seed-once`` seeds the first reset only.

Peers, measured the same way in the same run (the optional ``bench`` extra,
``pip install -e ".[bench]"``; skipped with a line saying so when missing):
PettingZoo classic ``texas_holdem_v4`` at 2 players and at ``--players`` (our
table size: its ``num_players``), ``leduc_holdem_v4`` (2 players only), each
through ``env()`` and ``raw_env()``, and OpenSpiel's C++ ``liars_dice`` through ``pyspiel``
(its default: 2 players x 1 die), each step building the observation tensor
and the legal-action mask as numpy arrays.  Rows are measured round-robin
(repeat 1 of every row, then repeat 2, ...) so a change in the machine's load
falls on every row alike; the report gives the ratio of each of our rows to
each peer (medians) and checks the speed targets of ``bench/README.md``, each of
our rows against texas at its own table size.

Before/after in one run: ``--tree LABEL=PATH`` (repeatable) measures our envs
as the source tree at PATH has them (a ``git worktree`` of another commit),
each timed run in a fresh worker process that imports ``bidbluff.envs`` from PATH (``tree_import.py``), the
rows of every tree and the peers interleaved round-robin; the report adds a
table of each setup's steps/s per tree.
    python bench/bench_envs.py                      # all envs, 4 players, peers, 5 x 3 s each
    python bench/bench_envs.py --players 2 --seconds 1 --repeats 3 --out bench.md
    python bench/bench_envs.py --no-peers --envs liars_dice_v0 --seconds 0.5 --repeats 3
    git worktree add /tmp/before <commit>
    python bench/bench_envs.py --tree before=/tmp/before --tree after=. --seconds 2 --repeats 3

Prints a Markdown report (versions, CPU, one table row per env and API, the
ratios, the targets); ``--out FILE`` writes the same report to FILE.  Not a
test: numbers depend on the machine and on whatever else runs on it.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import numpy as np

from bidbluff import envs

APIS = ("env", "raw_env")

# Speed targets (issue 30; medians, same run): every env through env() at least this many times the
# agent steps/s of texas_holdem_v4 at the same table size (checked like for like, texas through env()
# too, and against its faster raw_env); the betting env at 2 players x 1 die, classic preset, through
# env() at least this share of OpenSpiel's liars_dice (with the default observation or the compact one).
TEXAS_FACTOR = 3.5
OPENSPIEL_SHARE = 0.5

# What "per second" means in the report: "wall" (perf_counter) or "cpu" (process_time, for a
# machine shared with other work, where wall time counts the waits for a core).
CLOCK = {"name": "wall"}
RESEED = {"every_game": True}  # reset(seed=...) before every game, or only the first (--seed-once)
CLOCK_NOTE = {
    "wall": "wall-clock second",
    "cpu": "CPU second of the bench process (time.process_time: waits for a core on a busy machine not counted)",
}


@dataclass(frozen=True)
class Run:
    """One timed run: whole games played until ``seconds`` had passed."""

    steps: int  # agent steps that chose an action (step(None) for finished agents not counted)
    games: int
    elapsed: float  # wall-clock seconds
    cpu: float  # this process's CPU seconds over the same run

    @property
    def seconds(self) -> float:
        """The run's length on the clock chosen by ``--clock``."""
        return self.cpu if CLOCK["name"] == "cpu" else self.elapsed

    @property
    def steps_per_s(self) -> float:
        return self.steps / self.seconds

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds


@dataclass
class Row:
    """One measured setup: ours (``library == "bidbluff"``) or a peer's."""

    env_name: str
    api: str
    players: int
    measure: Callable[[float, int], Run] = field(repr=False)  # (seconds, seed) -> Run
    options: str = ""
    library: str = "bidbluff"
    tree: str = ""  # ``--tree`` label: the source tree our env was measured from ("": this process's)
    runs: list[Run] = field(default_factory=list)

    @property
    def setup(self) -> str:
        api = f"`{self.api}()`" if self.api in APIS else self.api
        extra = f", {self.options}" if self.options else ""
        return f"{self.env_name} {api} {self.players}p{extra}"

    @property
    def label(self) -> str:
        return f"{self.setup} @{self.tree}" if self.tree else self.setup

    @property
    def median(self) -> float:
        return statistics.median(r.steps_per_s for r in self.runs)


# Setups measured besides the default table size: the betting env is also the
# classic Liar's-dice benchmark, compared at its smallest and a large size, and
# once like for like with OpenSpiel's liars_dice: its rules (preset="classic")
# and, like OpenSpiel's loop, one seeding per run (reset() draws on the env's
# Generator after the first game).  (players, options, seed once)
EXTRA_SETUPS: dict[str, list[tuple[int, dict[str, Any], bool]]] = {
    "liars_dice_v0": [
        (2, {"dice": 1}, False),
        (2, {"dice": 1, "preset": "classic"}, True),
        (2, {"dice": 1, "preset": "classic", "observation": "compact"}, True),
        (4, {"dice": 5}, False),
    ],
}
LIKE_OPENSPIEL = ("dice=1, preset=classic, seeded once", "dice=1, preset=classic, observation=compact, seeded once")


def play_game(env: Any, rng: np.random.Generator) -> int:
    """Play ``env`` (already reset) to the end with uniform legal actions; return the agent steps taken."""
    steps = 0
    for _agent in env.agent_iter():
        obs, _reward, termination, truncation, _info = env.last()
        if termination or truncation:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
        steps += 1
    return steps


def timed_run(make_env: Callable[[], Any], seconds: float, seed: int, seed_once: bool = False) -> Run:
    """Play whole games on one AEC env until ``seconds`` have passed (at least one game)."""
    env = make_env()
    rng = np.random.default_rng(seed)
    steps = games = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    while True:
        if (RESEED["every_game"] and not seed_once) or not games:
            env.reset(seed=seed + games)
        else:
            env.reset()
        steps += play_game(env, rng)
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
    cpu = time.process_time() - cpu_start
    env.close()
    return Run(steps=steps, games=games, elapsed=elapsed, cpu=cpu)


def aec_measure(make_env: Callable[[], Any], seed_once: bool = False) -> Callable[[float, int], Run]:
    def measure(seconds: float, seed: int) -> Run:
        return timed_run(make_env, seconds, seed, seed_once)

    timed_run(make_env, 0.0, 0)  # warm-up: one game, imports and caches
    return measure


def options_label(options: dict[str, Any], seed_once: bool) -> str:
    return ", ".join([f"{k}={v}" for k, v in options.items()] + (["seeded once"] if seed_once else []))


def env_factory(env_name: str, api: str, players: int, options: dict[str, Any]) -> Callable[[], Any]:
    module = envs.load(env_name)
    factory = module.env if api == "env" else module.raw_env

    def make_env() -> Any:
        return factory(num_players=players, **options)

    return make_env


def our_row(
    env_name: str, api: str, players: int, options: dict[str, Any] | None = None, seed_once: bool = False
) -> Row:
    options = options or {}
    make_env = env_factory(env_name, api, players, options)
    return Row(env_name, api, players, aec_measure(make_env, seed_once), options=options_label(options, seed_once))


def tree_row(
    tree: str, path: Path, env_name: str, api: str, players: int, options: dict[str, Any], seed_once: bool
) -> Row:
    """Our env as the source tree at ``path`` has it: every timed run in a fresh worker process that
    imports ``envs`` from ``path`` (so two versions of the package never meet in one process)."""
    job = {"env": env_name, "api": api, "players": players, "options": options, "seed_once": seed_once}

    def measure(seconds: float, seed: int) -> Run:
        request = json.dumps({**job, "seconds": seconds, "seed": seed, "reseed": RESEED["every_game"]})
        here = Path(__file__).resolve()
        command = [sys.executable, str(here.parent / "tree_import.py"), str(path), str(here), "--worker", request]
        done = subprocess.run(command, cwd=path, capture_output=True, text=True, check=False)
        if done.returncode:
            raise RuntimeError(f"worker for {env_name} in tree {tree} ({path}) failed:\n{done.stderr}")
        return Run(**json.loads(done.stdout.splitlines()[-1]))

    return Row(env_name, api, players, measure, options=options_label(options, seed_once), tree=tree)


def worker(request: str) -> int:
    """``--worker``: one timed run of one of our envs (after a warm-up game), printed as JSON."""
    job = json.loads(request)
    RESEED["every_game"] = job["reseed"]
    make_env = env_factory(job["env"], job["api"], job["players"], job["options"])
    timed_run(make_env, 0.0, 0)  # warm-up, as aec_measure does
    run = timed_run(make_env, job["seconds"], job["seed"], job["seed_once"])
    if not Path(envs.__file__).resolve().is_relative_to(Path.cwd().resolve()):
        raise RuntimeError(f"the worker imported envs from {envs.__file__}, not from the tree {Path.cwd()}")
    print(json.dumps(run.__dict__))
    return 0


def player_range(env_name: str) -> tuple[int, int]:
    game = envs.game(env_name)
    return game.min_players, game.max_players


# -- peers ------------------------------------------------------------------------------
def pettingzoo_rows(players: int) -> tuple[list[Row], list[str]]:
    """texas_holdem_v4 at 2 and ``players`` seats and leduc_holdem_v4 (2 seats) through env() and raw_env(),
    or why not."""
    try:
        from pettingzoo.classic import leduc_holdem_v4, texas_holdem_v4
    except Exception as missing:  # ImportError, or pettingzoo's DependencyNotInstalled for rlcard
        return [], [
            f"peers texas_holdem_v4, leduc_holdem_v4: not importable ({missing}); "
            'install the bench extra: pip install -e ".[bench]"'
        ]
    rows = []
    # texas takes a table size; leduc is for two only
    tables = [(texas_holdem_v4, "texas_holdem_v4", n, {"num_players": n}) for n in sorted({2, players})]
    for module, name, n, kwargs in [*tables, (leduc_holdem_v4, "leduc_holdem_v4", 2, {})]:
        for api in APIS:
            make_env = partial(getattr(module, api), **kwargs)
            rows.append(Row(name, api, n, aec_measure(make_env), library="PettingZoo classic"))
    return rows, []


def openspiel_game(game: Any, rng: np.random.Generator) -> int:
    """One game of OpenSpiel's own loop: chance nodes sampled (not counted), every decision builds the
    observation tensor and the legal-action mask as numpy arrays, then picks from the mask; returns the
    decisions taken."""
    steps = 0
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.integers(len(outcomes))][0])
            continue
        player = state.current_player()
        _obs = np.asarray(state.observation_tensor(player), dtype=np.float32)
        mask = np.asarray(state.legal_actions_mask(player), dtype=np.int8)
        legal = np.flatnonzero(mask)
        state.apply_action(int(legal[rng.integers(len(legal))]))
        steps += 1
    state.returns()
    return steps


def openspiel_run(game: Any, seconds: float, seed: int) -> Run:
    """Whole games of ``openspiel_game`` until ``seconds`` have passed (at least one game)."""
    rng = np.random.default_rng(seed)
    steps = games = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    while True:
        steps += openspiel_game(game, rng)
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return Run(steps=steps, games=games, elapsed=elapsed, cpu=time.process_time() - cpu_start)


def openspiel_rows() -> tuple[list[Row], list[str]]:
    try:
        import pyspiel
    except ImportError as missing:
        return [], [f'peer OpenSpiel liars_dice: pyspiel not importable ({missing}); pip install -e ".[bench]"']
    game = pyspiel.load_game("liars_dice")
    params = game.get_parameters()

    def measure(seconds: float, seed: int) -> Run:
        return openspiel_run(game, seconds, seed)

    openspiel_run(game, 0.0, 0)  # warm-up
    options = f"dice={params.get('numdice', 1)}"
    return [Row("liars_dice", "pyspiel (C++)", game.num_players(), measure, options, "OpenSpiel")], []


# -- report -------------------------------------------------------------------------
def package_version(name: str) -> str:
    try:
        return version(name)
    except PackageNotFoundError:
        return "not installed"


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def load_line() -> str:
    try:
        one, five, fifteen = os.getloadavg()
    except OSError:
        return "load average: unknown"
    return f"load average {one:.2f} / {five:.2f} / {fifteen:.2f} (1 / 5 / 15 min)"


def environment_lines(cpu_note: str = "the bench uses one") -> list[str]:
    return [
        f"- python {platform.python_version()} ({platform.python_implementation()}), {platform.platform()}",
        f"- numpy {np.__version__}, pettingzoo {package_version('pettingzoo')}, "
        f"gymnasium {package_version('gymnasium')}, rlcard {package_version('rlcard')}, "
        f"open_spiel {package_version('open_spiel')}",
        f"- CPU: {cpu_model()}, {os.cpu_count()} logical CPUs ({cpu_note})",
    ]


def spread(values: Sequence[float], fmt: str) -> list[str]:
    return [format(min(values), fmt), format(statistics.median(values), fmt), format(max(values), fmt)]


def table(rows: Sequence[Row]) -> list[str]:
    lines = [
        "| library | env | API | players | options | steps/s min | steps/s median | steps/s max "
        "| games/s min | games/s median | games/s max | steps/game | games |",
        "|---|---|---|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for row in rows:
        steps = spread([r.steps_per_s for r in row.runs], ",.0f")
        games = spread([r.games_per_s for r in row.runs], ",.1f")
        total_games = sum(r.games for r in row.runs)
        per_game = sum(r.steps for r in row.runs) / total_games
        api = f"`{row.api}()`" if row.api in APIS else row.api
        library = f"{row.library} @{row.tree}" if row.tree else row.library
        cells = [
            library,
            row.env_name,
            api,
            str(row.players),
            row.options or "-",
            *steps,
            *games,
            f"{per_game:.1f}",
            str(total_games),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def ratio_table(ours: Sequence[Row], peers: Sequence[Row]) -> list[str]:
    """Median agent steps/s of each of our rows over each peer's."""
    head = "| ours \\ peer | " + " | ".join(f"{p.label} ({p.median:,.0f}/s)" for p in peers) + " |"
    lines = [head, "|---|" + "--:|" * len(peers)]
    for row in ours:
        cells = [f"{row.median / p.median:.2f}x" for p in peers]
        lines.append(f"| {row.label} ({row.median:,.0f}/s) | " + " | ".join(cells) + " |")
    return lines


def tree_table(ours: Sequence[Row], trees: Sequence[str]) -> list[str]:
    """Median agent steps/s of each setup as each ``--tree`` has it, and the last tree over the first."""
    head = "| setup | " + " | ".join(f"@{t} steps/s" for t in trees) + f" | @{trees[-1]} / @{trees[0]} |"
    lines = [head, "|---|" + "--:|" * (len(trees) + 1)]
    by_setup: dict[str, dict[str, Row]] = {}
    for row in ours:
        by_setup.setdefault(row.setup, {})[row.tree] = row
    for setup, rows in by_setup.items():
        cells = [f"{rows[t].median:,.0f}" if t in rows else "-" for t in trees]
        first, last = rows.get(trees[0]), rows.get(trees[-1])
        change = f"{last.median / first.median:.2f}x" if first and last else "-"
        lines.append(f"| {setup} | " + " | ".join(cells) + f" | {change} |")
    return lines


def tree_lines(trees: dict[str, Path]) -> list[str]:
    """Which commit each ``--tree`` holds, and whether its work tree differs from it."""
    lines = []
    for label, path in trees.items():
        git = ["git", "-C", str(path)]
        head = subprocess.run([*git, "log", "-1", "--format=%h %s"], capture_output=True, text=True, check=False)
        dirty = subprocess.run(
            [*git, "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True, check=False
        ).stdout.strip()
        state = " (with uncommitted changes)" if dirty else ""
        lines.append(f"- tree @{label}: {path}, commit {head.stdout.strip()[:100] or 'unknown'}{state}")
    return lines


def target_lines(ours: Sequence[Row], peers: Sequence[Row]) -> list[str]:
    lines = []
    texas = {(p.api, p.players): p for p in peers if p.env_name == "texas_holdem_v4"}
    # Two readings of "through env(), >= 3x texas_holdem_v4 at the same table size": like for like (texas
    # through env() too), and against texas's faster raw_env(); each gets its own verdict.
    for api, reading in (("env", "like for like"), ("raw_env", "strict: the faster texas API")):
        judged = [(row, texas[api, row.players]) for row in ours if row.api == "env" and (api, row.players) in texas]
        if not judged:
            continue
        lines.append(
            f"- every env through `env()` >= {TEXAS_FACTOR:g}x texas_holdem_v4 `{api}()` at the same "
            f"number of players ({reading}):"
        )
        for row, peer in judged:
            need = TEXAS_FACTOR * peer.median
            verdict = "met" if row.median >= need else "NOT met"
            lines.append(
                f"  - {row.label}: {row.median:,.0f}/s = {row.median / peer.median:.2f}x "
                f"{peer.label} ({peer.median:,.0f}/s; needs {need:,.0f}), {verdict}"
            )
    spiel = [p for p in peers if p.library == "OpenSpiel"]
    betting = [r for r in ours if r.env_name == "liars_dice_v0" and r.players == 2 and r.options in LIKE_OPENSPIEL]
    if spiel and betting:
        peer = spiel[0]
        need = peer.median * OPENSPIEL_SHARE
        lines.append(
            f"- the betting env 2 x 1 die, classic preset, through `env()` >= {OPENSPIEL_SHARE:g}x "
            f"{peer.label} ({peer.median:,.0f}/s), i.e. >= {need:,.0f}/s (`raw_env()` rows for information):"
        )
        for row in sorted(betting, key=lambda r: (r.api != "env", r.options)):
            verdict = ("met" if row.median >= need else "NOT met") if row.api == "env" else "information"
            lines.append(f"  - {row.label}: {row.median:,.0f}/s = {row.median / peer.median:.2f}x, {verdict}")
    return lines or ["- no peer measured: targets not checked"]


def report(rows: Sequence[Row], skipped: Sequence[str], args: argparse.Namespace, load: str) -> str:
    ours = [r for r in rows if r.library == "bidbluff"]
    peers = [r for r in rows if r.library != "bidbluff"]
    lines = [
        "# Env throughput: random legal play",
        "",
        *environment_lines(),
        f"- {args.repeats} runs of {args.seconds:g} s per row, rows round-robin (whole games; "
        f"min/median/max over runs), seed {args.seed}",
        f"- rates are per {CLOCK_NOTE[args.clock]}; "
        + (
            "every game of ours and PettingZoo's starts with reset(seed=...)"
            if not args.seed_once
            else "reset(seed=...) for the first game of a run only"
        )
        + " (OpenSpiel: chance outcomes drawn by the loop's own Generator)",
        f"- machine load: {load}",
        *tree_lines(args.tree),
        "",
        *(table(rows) if rows else ["No env measured."]),
    ]
    if args.tree:
        before_after = tree_table(ours, list(args.tree))
        lines += ["", "## Before / after (median agent steps/s per source tree)", "", *before_after]
    if ours and peers:
        lines += ["", "## Ratios (median agent steps/s, ours / peer)", "", *ratio_table(ours, peers)]
    lines += ["", "## Targets", "", *target_lines(ours, peers)]
    if skipped:
        lines += ["", *(f"- skipped {note}" for note in skipped)]
    return "\n".join(lines) + "\n"


# -- command line ---------------------------------------------------------------------
def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--envs", nargs="+", default=list(envs.ENVS), help="envs to measure (default: all registered)")
    parser.add_argument("--players", type=int, default=4, help="seats at the table (default: 4)")
    parser.add_argument("--api", choices=(*APIS, "both"), default="both", help="which constructor (default: both)")
    parser.add_argument("--seconds", type=float, default=3.0, help="length of one timed run (default: 3)")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per row (default: 5)")
    parser.add_argument("--seed", type=int, default=0, help="base seed for resets and action picks (default: 0)")
    parser.add_argument("--no-extra", action="store_true", help="skip the extra setups (liars_dice 2x1, 4x5)")
    parser.add_argument("--no-peers", action="store_true", help="skip the peer environments")
    parser.add_argument("--seed-once", action="store_true", help="reset(seed=...) for a run's first game only")
    parser.add_argument(
        "--clock",
        choices=tuple(CLOCK_NOTE),
        default="wall",
        help="rates per wall-clock or per CPU second of this process (default: wall)",
    )
    parser.add_argument("--out", type=Path, default=None, help="also write the Markdown report to this file")
    parser.add_argument(
        "--tree",
        action="append",
        default=[],
        metavar="LABEL=PATH",
        help="our envs from the source tree at PATH (repeatable: before/after)",
    )
    parser.add_argument("--worker", help=argparse.SUPPRESS)  # one timed run for --tree, as JSON
    args = parser.parse_args(argv)
    if args.worker:
        return args
    trees = {}
    for spec in args.tree:
        label, _, path = spec.partition("=")
        if not label or not path or not (Path(path) / "envs" / "__init__.py").is_file():
            parser.error(f"--tree {spec!r}: give LABEL=PATH, PATH a source tree with envs/__init__.py")
        if label in trees:
            parser.error(f"--tree label {label!r} given twice")
        trees[label] = Path(path).resolve()
    args.tree = trees
    unknown = [name for name in args.envs if name not in envs.ENVS]
    if unknown:
        parser.error(f"unknown env(s) {', '.join(unknown)}; registered: {', '.join(envs.ENVS)}")
    if args.seconds < 0 or args.repeats < 1:
        parser.error("--seconds must be >= 0 and --repeats >= 1")
    return args


def build_rows(args: argparse.Namespace) -> tuple[list[Row], list[str]]:
    apis = APIS if args.api == "both" else (args.api,)
    rows: list[Row] = []
    skipped: list[str] = []
    for name in args.envs:
        low, high = player_range(name)
        setups = [(args.players, {}, False)] + ([] if args.no_extra else EXTRA_SETUPS.get(name, []))
        for players, options, seed_once in setups:
            if not low <= players <= high:
                skipped.append(f"{name}: {players} players is outside {low}-{high}")
                continue
            if args.tree:
                rows += [
                    tree_row(label, path, name, api, players, options, seed_once)
                    for label, path in args.tree.items()
                    for api in apis
                ]
            else:
                rows += [our_row(name, api, players, options, seed_once) for api in apis]
    if args.no_peers:
        skipped.append("peers (--no-peers)")
    else:
        for found, notes in (pettingzoo_rows(args.players), openspiel_rows()):
            rows += found
            skipped += notes
    return rows, skipped


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.worker:
        return worker(args.worker)
    CLOCK["name"] = args.clock
    RESEED["every_game"] = not args.seed_once
    rows, skipped = build_rows(args)
    for note in skipped:
        print(f"skipping {note}", file=sys.stderr, flush=True)
    load_before = load_line()
    for i in range(args.repeats):
        print(f"round {i + 1}/{args.repeats}: {len(rows)} rows x {args.seconds:g} s ...", file=sys.stderr, flush=True)
        for row in rows:
            row.runs.append(row.measure(args.seconds, args.seed + 1_000_003 * (i + 1)))
    load = f"before {load_before}; after {load_line()}"
    text = report(rows, skipped, args, load)
    print(text, end="")
    if args.out is not None:
        args.out.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
