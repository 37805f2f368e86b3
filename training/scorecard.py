"""A scorecard for any agent: ``bidbluff evaluate ENV --agent SPEC``.

Everything a strength claim rests on (``docs/evaluation.md``), for one agent, by one command:

- **baselines**: the agent against ``n - 1`` copies of each baseline (``heuristic`` and ``random`` by default)
  at every table size the game supports, fairly seated (every relative order).  Its win share with the 95%
  interval, the equal share ``1/n`` and the ratio to it; at 2 players, the head-to-head.
- **mixed**: one table of different agents (the agent, ``shipped``, ``heuristic``, ``random`` by default) at
  4 players (or the game's largest size below that), in every seat order: each one's share, and the agent's
  rank.
- **exploiter**: a learned best response (``bidbluff.training.exploiter``) trained against copies of the agent
  and played on fresh deals: its win share, the gain over ``1/n`` (a lower bound on the agent's
  exploitability at that budget), its mean reward, the budget.
- **exact**: where the game tree fits (``liars_dice_v0`` at 2 players x 1 die, Lying Pirates' and the classic
  rules), the exact exploitability through OpenSpiel (``bidbluff.training.exploitability``); where the agent's
  policy cannot be read there (it searches with the engine; a program, which is only sampled where asked),
  the row says why instead.

Each finished part (one table, the exploiter, one exact row) is kept as JSON under the scorecard's folder with
the parameters that made it; a rerun with the same parameters reuses it, so an interrupted scorecard resumes,
and the exploiter's run folder resumes its training.  The record carries every figure's seed, games and
budget, the command that reproduces the whole scorecard, and for each part the single command that
reproduces that part alone.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import shlex
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bidbluff import agents, envs
from bidbluff.agents.identity import identity

SECTIONS = ("baselines", "mixed", "exploiter", "exact")
BASELINES = ("heuristic", "random")
FIELD = ("shipped", "heuristic", "random")  # the mixed table's other agents
GAMES_AT_FOUR = 2_000  # the documented budget: 2,000 games a table at 4 players ...
GAMES_ELSEWHERE = 1_000  # ... and 1,000 at the other sizes
QUICK_GAMES = 200
QUICK_EXPLOITER_STEPS = 20_000
EXACT_ENV = "liars_dice_v0"
EXACT_PRESETS = ("lying_pirates", "classic")
SAMPLES = 200  # acts per information state for an in-process agent that does not say its probabilities
FORMAT = 1  # the scorecard JSON's version


@dataclass
class Plan:
    """What one scorecard measures and with what budget; ``make_plan`` builds and checks one."""

    env: str
    agent: str  # a spec, or a name registered with ``agents.register``
    env_options: dict[str, Any] = field(default_factory=dict)
    players: list[int] = field(default_factory=list)  # the baselines' table sizes
    baselines: list[str] = field(default_factory=lambda: list(BASELINES))
    mixed: list[str] = field(default_factory=list)  # the mixed table's other agents (after dropping the agent)
    mixed_players: int = 4
    exploiter_players: int = 4
    games: int | None = None  # None: GAMES_AT_FOUR at 4 players, GAMES_ELSEWHERE elsewhere
    exploiter_steps: int = 300_000
    exploiter_seconds: float | None = None
    exploiter_games: int | None = None  # None: ``games_at`` the exploiter's table size
    exploiter_reference: str = ""  # also an exploiter of this agent, at the same budget (e.g. heuristic)
    samples: int | None = None  # exact: None = SAMPLES for in-process agents, and programs are not sampled
    seed: int = 0
    skip: list[str] = field(default_factory=list)
    out: str = ""
    exploiter_options: dict[str, Any] = field(default_factory=dict)  # the exploiter's BatchedConfig options
    notes: list[str] = field(default_factory=list)  # what make_plan changed in what was asked, and why

    def games_at(self, n: int) -> int:
        if self.games is not None:
            return self.games
        return GAMES_AT_FOUR if n == 4 else GAMES_ELSEWHERE

    def command(self) -> str:
        """The command line that makes this scorecard (registered names with their specs)."""
        words = ["bidbluff", "evaluate", self.env]
        named = registrations([self.agent, *self.baselines, *self.mixed, self.exploiter_reference])
        for name, spec in named.items():
            words += ["--agent", f"{name}={spec}"]
        if self.agent not in named or len(named) > 1:  # a lone NAME=SPEC is the agent; among several, say which
            words += ["--agent", self.agent]
        words += ["--players", ",".join(map(str, self.players)), "--baselines", ",".join(self.baselines)]
        words += ["--mixed", ",".join(self.mixed), "--mixed-players", str(self.mixed_players)]
        words += ["--exploiter-players", str(self.exploiter_players)]
        words += ["--games", str(self.games)] if self.games is not None else []
        words += ["--exploiter-steps", str(self.exploiter_steps)]
        if self.exploiter_seconds is not None:
            words += ["--exploiter-seconds", f"{self.exploiter_seconds:g}"]
        if self.exploiter_games is not None:
            words += ["--exploiter-games", str(self.exploiter_games)]
        if self.exploiter_reference:
            words += ["--exploiter-reference", self.exploiter_reference]
        words += ["--samples", str(self.samples)] if self.samples is not None else []
        words += ["--seed", str(self.seed)] + (["--skip", ",".join(self.skip)] if self.skip else [])
        words += [*_option_words(self.env_options), "--out", self.out]
        return shlex.join(words)


def _option_words(options: dict[str, Any]) -> list[str]:
    words: list[str] = []
    for key, value in options.items():
        words += ["--option", f"{key}={value if isinstance(value, str) else json.dumps(value)}"]
    return words


def registrations(specs: list[str]) -> dict[str, str]:
    """The registered names among ``specs`` and what each stands for."""
    return {spec: agents.NAMED[spec] for spec in dict.fromkeys(specs) if spec in agents.NAMED}


def default_folder(env_name: str, spec: str) -> Path:
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", spec).strip("-")[:60] or "agent"
    return Path("runs") / f"evaluate-{env_name}-{slug}"


def make_plan(
    env_name: str,
    agent: str,
    env_options: dict[str, Any] | None = None,
    players: list[int] | None = None,
    baselines: list[str] | None = None,
    mixed: list[str] | None = None,
    mixed_players: int | None = None,
    exploiter_players: int | None = None,
    games: int | None = None,
    exploiter_steps: int | None = None,
    exploiter_seconds: float | None = None,
    exploiter_games: int | None = None,
    exploiter_reference: str = "",
    samples: int | None = None,
    seed: int = 0,
    skip: list[str] | None = None,
    out: str | Path | None = None,
    quick: bool = False,
    exploiter_options: dict[str, Any] | None = None,
) -> Plan:
    """A checked plan: table sizes the game supports, sections that exist, and every agent spec built once, so
    that a typo fails now rather than after an hour of tables.  ``quick``: ``QUICK_GAMES`` a table and
    ``QUICK_EXPLOITER_STEPS`` decisions where ``games`` and ``exploiter_steps`` are not given."""
    from bidbluff.training.exploiter import DEFAULT_STEPS

    if env_name not in envs.ENVS:
        raise ValueError(f"unknown env {env_name!r}; known: {', '.join(envs.ENVS)}")
    options = dict(env_options or {})
    try:
        game = envs.game(env_name, **options)
    except TypeError as bad:  # an option the game does not take
        raise ValueError(f"{env_name} does not take these options {sorted(options)}: {bad}") from None
    sizes = list(range(game.min_players, game.max_players + 1))
    unknown = sorted(set(skip or []) - set(SECTIONS))
    if unknown:
        raise ValueError(f"--skip {','.join(unknown)}: the sections are {', '.join(SECTIONS)}")
    at_four = min(4, game.max_players)
    plan = Plan(
        env=env_name,
        agent=agent,
        env_options=options,
        players=sorted(set(players)) if players else sizes,
        baselines=list(baselines) if baselines is not None else list(BASELINES),
        mixed_players=mixed_players or at_four,
        exploiter_players=exploiter_players or at_four,
        games=games if games is not None else (QUICK_GAMES if quick else None),
        exploiter_steps=exploiter_steps or (QUICK_EXPLOITER_STEPS if quick else DEFAULT_STEPS),
        exploiter_seconds=exploiter_seconds,
        exploiter_games=exploiter_games,
        exploiter_reference=exploiter_reference,
        samples=samples,
        seed=seed,
        skip=[s for s in SECTIONS if s in (skip or [])],
        out=str(out or default_folder(env_name, agent)),
        exploiter_options=dict(exploiter_options or {}),
    )
    for what, n in [*(("--players", n) for n in plan.players), ("--mixed-players", plan.mixed_players),
                    ("--exploiter-players", plan.exploiter_players)]:  # fmt: skip
        if n not in sizes:
            raise ValueError(f"{what} {n}: {env_name} is for {game.min_players}-{game.max_players} players")
    for what, number in (("--games", plan.games), ("--exploiter-steps", plan.exploiter_steps),
                         ("--exploiter-games", plan.exploiter_games), ("--samples", plan.samples)):  # fmt: skip
        if number is not None and number < 1:
            raise ValueError(f"{what} {number}: must be at least 1")
    plan.mixed = _field(plan, list(mixed) if mixed is not None else list(FIELD))
    for spec in dict.fromkeys([plan.agent, *plan.baselines, *plan.mixed, plan.exploiter_reference]):
        if spec:
            check_spec(spec, env_name)
    return plan


def _field(plan: Plan, given: list[str]) -> list[str]:
    """The mixed table's other agents: the agent itself and a missing ``shipped`` dropped, with a note why."""
    out = []
    for spec in given:
        if spec == plan.agent:
            plan.notes.append(f"mixed table: {spec} is the agent itself, so it sits there once")
        elif spec == "shipped" and not agents.has_shipped(plan.env):
            plan.notes.append(f"mixed table: {plan.env} has no shipped network; the field goes without it")
        elif spec not in out:
            out.append(spec)
    if len(out) > plan.mixed_players - 1:
        raise ValueError(
            f"--mixed {','.join(out)}: the mixed table seats {plan.mixed_players}, the agent and "
            f"{plan.mixed_players - 1} others; give {plan.mixed_players - 1} (or raise --mixed-players)"
        )
    return out


def check_spec(spec: str, env_name: str) -> None:
    """Build the agent of ``spec`` once (a program is not started: it starts at its first move), so that a bad
    spec is an error that names it."""
    try:
        agent = agents.make(spec, env_name=env_name, seed=0)
    except (ValueError, FileNotFoundError, agents.CheckpointError) as bad:
        raise ValueError(f"agent {spec!r} cannot play {env_name}: {bad}") from None
    close = getattr(agent, "close", None)
    if close is not None:
        close()


# -- the parts, each kept as it finishes ---------------------------------------------------------------------------
class Parts:
    """Finished parts as JSON files under ``<out>/parts``: each with the parameters that made it, reused only when
    asked again with the same parameters."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder) / "parts"
        self.reused: list[str] = []

    def path(self, name: str) -> Path:
        slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-")[:80]
        return self.folder / f"{slug}-{hashlib.sha256(name.encode()).hexdigest()[:8]}.json"

    def get(self, name: str, params: dict[str, Any], compute: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        params = json.loads(json.dumps(params))  # tuples as lists: what a reread file holds
        path = self.path(name)
        try:
            kept = json.loads(path.read_text())
        except (OSError, json.JSONDecodeError):
            kept = None
        if isinstance(kept, dict) and kept.get("params") == params:
            self.reused.append(name)
            return {**kept["result"], "reused": True}
        result = compute()
        self.folder.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".tmp")
        partial.write_text(json.dumps({"name": name, "params": params, "result": result}, indent=1) + "\n")
        os.replace(partial, path)  # an interrupt leaves the old file or the new, never half of one
        return result


# -- the sections --------------------------------------------------------------------------------------------------
@dataclass
class Hooks:
    """How a long scorecard shows where it is: ``on_game(what, games done, games in all)`` during a table, ``log``
    a line as each part finishes, ``progress_bar`` the exploiter's training bar."""

    on_game: Callable[[str, int, int], None] | None = None
    log: Callable[[str], None] | None = None
    progress_bar: bool = False

    def done(self, label: str, row: dict[str, Any], reused: bool) -> None:
        """One line for a finished part: the figure, its interval and its games."""
        if self.log is not None:
            kept = " (kept)" if reused else ""
            self.log(f"{label}: {row['win_share']:.3f} ({_ci(row)}), {row['games']:,} games{kept}")


def _tournament(
    plan: Plan, specs: list[str], n: int, games: int, label: str, hooks: Hooks
) -> tuple[Any, dict[str, Any]]:
    from bidbluff.arena.tournament import run_tournament

    result = run_tournament(
        plan.env,
        specs,
        games,
        n,
        seed=plan.seed,
        env_options=plan.env_options,
        on_game=(lambda g: hooks.on_game(label, g, games)) if hooks.on_game else None,
    )
    words = ["bidbluff", "tournament", plan.env, "--agents", ",".join(_spec_list(specs)), "--players", str(n)]
    reproduce = shlex.join([*words, "--games", str(games), "--seed", str(plan.seed), *_option_words(plan.env_options)])
    about = {
        "games": result.games,
        "deals": result.deals,
        "seed": plan.seed,
        "seating": result.seating.get("design"),
        "truncated": result.truncated,
        "seconds": result.seconds,
        "reproduce": reproduce,
    }
    return result, about


def _spec_list(specs: list[str]) -> list[str]:
    """``[a, b, b, b]`` as the tournament command writes it: ``a, b*3``."""
    out: list[str] = []
    for spec in specs:
        if out and out[-1].rpartition("*")[0] == spec:
            head, _, count = out[-1].rpartition("*")
            out[-1] = f"{head}*{int(count) + 1}"
        elif out and out[-1] == spec:
            out[-1] = f"{spec}*2"
        else:
            out.append(spec)
    return out


def _forecasts(row: dict[str, Any]) -> dict[str, Any]:
    """The forecast statistics a tournament row carries (Spytails), whatever they are called."""
    return {k: v for k, v in row.items() if "forecast" in k}


def baseline_rows(plan: Plan, parts: Parts, hooks: Hooks) -> list[dict[str, Any]]:
    """The agent against ``n - 1`` copies of each baseline at each table size."""
    rows = []
    for n in plan.players:
        for baseline in plan.baselines:
            games = plan.games_at(n)
            params = {"env": plan.env, "env_options": plan.env_options, "players": n, "games": games,
                      "seed": plan.seed, "agent": identity(plan.agent, plan.env),
                      "baseline": identity(baseline, plan.env)}  # fmt: skip
            label = f"{n} players against {baseline}"

            def compute(n: int = n, baseline: str = baseline, games: int = games, label: str = label) -> dict:
                result, about = _tournament(plan, [plan.agent, *[baseline] * (n - 1)], n, games, label, hooks)
                rows = result.rows()
                mine, others = rows[0], rows[1:]  # the lineup keeps its order: the agent is the first entry
                row = {
                    "players": n,
                    "against": baseline,
                    **about,
                    "win_share": mine["win_share"],
                    "ci_low": mine["ci_low"],
                    "ci_high": mine["ci_high"],
                    "equal_share": 1 / n,
                    "ratio": mine["win_share"] * n,
                    "mean_reward": mine["mean_reward"],
                    "mean_score": mine["mean_score"],
                    "seat_win_share": mine["seat_win_share"],
                    "forfeits": mine["forfeits"],
                    "opponents_win_share": sum(r["win_share"] for r in others) / len(others),
                    **_forecasts(mine),
                }
                for key, value in _forecasts(others[0]).items():  # the baseline's, pooled over its copies
                    values = [r[key] for r in others if isinstance(r.get(key), (int, float))]
                    row[f"opponents_{key}"] = sum(values) / len(values) if values else value
                return row

            rows.append(parts.get(f"baselines {label}", params, compute))
            hooks.done(f"{plan.agent} at {label}", rows[-1], bool(rows[-1].get("reused")))
    return rows


def mixed_table(plan: Plan, parts: Parts, hooks: Hooks) -> dict[str, Any]:
    """The agent and the field at one table, every seat order; the field repeats to fill the table if short."""
    n = plan.mixed_players
    if not plan.mixed:
        return {"skipped": "the mixed table has no other agents (--mixed)"}
    others = [plan.mixed[i % len(plan.mixed)] for i in range(n - 1)]
    specs = [plan.agent, *others]
    games = plan.games_at(n)
    params = {"env": plan.env, "env_options": plan.env_options, "players": n, "games": games, "seed": plan.seed,
              "entries": [identity(s, plan.env) for s in specs]}  # fmt: skip
    label = f"mixed table at {n} players"

    def compute() -> dict[str, Any]:
        result, about = _tournament(plan, specs, n, games, label, hooks)
        rows = result.rows()
        entries = [
            {
                "entry": r["entry"],
                "spec": r["spec"],
                "win_share": r["win_share"],
                "ci_low": r["ci_low"],
                "ci_high": r["ci_high"],
                "mean_reward": r["mean_reward"],
                "rank": 1 + sum(o["win_share"] > r["win_share"] for o in rows),
                "forfeits": r["forfeits"],
                **_forecasts(r),
            }
            for r in rows
        ]
        mine = entries[0]
        return {
            "players": n,
            **about,
            "entries": entries,
            "agent_rank": mine["rank"],
            "agent_ci_low_above": [e["entry"] for e in entries[1:] if e["win_share"] < mine["ci_low"]],
        }

    table = parts.get(label, params, compute)
    if len(set(others)) < len(others):
        table["note"] = f"the field repeats to fill {n - 1} seats: {', '.join(others)}"
    hooks.done(f"{plan.agent} at the {label}", {**table["entries"][0], "games": table["games"]}, "reused" in table)
    return table


def exploiter_record(plan: Plan, parts: Parts, hooks: Hooks) -> dict[str, Any]:
    """The learned best response against ``n - 1`` copies of the agent (its run folder resumes); with
    ``exploiter_reference``, the same budget against copies of that agent too, and the ratio of the gains."""
    record = _exploiter(plan, parts, hooks, plan.agent)
    if plan.exploiter_reference:
        reference = _exploiter(plan, parts, hooks, plan.exploiter_reference)
        record = {
            **record,
            "reference": reference,
            # How much of what this budget gains against the reference it gains against the agent (the issue's
            # "less than half of what the same budget gains against three heuristics").
            "gain_ratio": record["gain"] / reference["gain"] if reference["gain"] > 0 else None,
        }
    return record


def _exploiter(plan: Plan, parts: Parts, hooks: Hooks, spec: str) -> dict[str, Any]:
    from bidbluff.training.exploiter import learned_exploitability

    n = plan.exploiter_players
    games = plan.exploiter_games or plan.games_at(n)
    run = {"env": plan.env, "env_options": plan.env_options, "players": n, "seed": plan.seed,
           "agent": identity(spec, plan.env), "exploiter_options": plan.exploiter_options}  # fmt: skip
    # The run folder is named by what the exploiter trains against, not by its budget: a larger budget resumes it.
    folder = Path(plan.out) / f"exploiter-{n}p-{hashlib.sha256(json.dumps(run).encode()).hexdigest()[:8]}"
    params = {**run, "steps": plan.exploiter_steps, "seconds": plan.exploiter_seconds, "games": games}

    def compute() -> dict[str, Any]:
        if hooks.log is not None:
            hooks.log(f"training an exploiter of {spec}: {plan.exploiter_steps:,} decisions ({folder}/progress.csv)")
        record = learned_exploitability(
            spec, plan.env, n, plan.env_options, steps=plan.exploiter_steps, seconds=plan.exploiter_seconds,
            games=games, seed=plan.seed, out=folder, progress_bar=hooks.progress_bar, **plan.exploiter_options,
        )  # fmt: skip
        words = ["bidbluff", "exploitability", plan.env, "--agent", spec, "--method", "learned", "--players",
                 str(n), "--steps", str(plan.exploiter_steps), "--games", str(games), "--seed", str(plan.seed),
                 "--out", str(folder), *_option_words(plan.env_options)]  # fmt: skip
        if plan.exploiter_seconds is not None:
            words += ["--seconds", f"{plan.exploiter_seconds:g}"]
        record.pop("exploiter_options", None)  # the params keep them; the record stays readable
        return {**record, "players": n, "reproduce": shlex.join(words)}

    name = f"exploiter at {n} players" if spec == plan.agent else f"exploiter of {spec} at {n} players"
    record = parts.get(name, params, compute)
    hooks.done(f"the exploiter against {n - 1} copies of {spec}", record, "reused" in record)
    return record


def exact_rows(plan: Plan, parts: Parts, hooks: Hooks) -> dict[str, Any]:
    """The exact exploitability at 2 players x 1 die under each preset, where it fits and the agent's policy can
    be read; otherwise the reason."""
    if plan.env != EXACT_ENV:
        return {"skipped": f"no game tree of {plan.env} fits: exact exploitability is for {EXACT_ENV} at 2 x 1"}
    try:
        from bidbluff.training import exploitability
    except ImportError as missing:
        return {"skipped": f"needs the openspiel extra: pip install 'bidbluff[openspiel]' ({missing})"}
    agent = agents.make(plan.agent, env_name=plan.env, seed=plan.seed)
    try:
        exact = exploitability.exact_for(agent)
        program = getattr(agent, "needs_env", False) and getattr(agent, "env_optional", False)
    finally:
        close = getattr(agent, "close", None)
        if close is not None:
            close()
    if program and not exact and plan.samples is None:
        return {
            "skipped": "a program says no probabilities, so its policy could only be sampled, --samples moves "
            "per information state over the protocol (200 would take about an hour at 2 x 1); give --samples "
            "to sample it (--samples 1 reads a deterministic program exactly)"
        }
    samples = plan.samples or SAMPLES
    rows = []
    for preset in EXACT_PRESETS:
        params = {"preset": preset, "dice": 1, "players": 2, "samples": samples, "seed": plan.seed,
                  "agent": identity(plan.agent, plan.env)}  # fmt: skip

        def compute(preset: str = preset) -> dict[str, Any]:
            record = exploitability.report(plan.agent, 2, 1, preset, (), samples, plan.seed)
            words = ["bidbluff", "exploitability", EXACT_ENV, "--agent", plan.agent, "--preset", preset,
                     "--samples", str(samples), "--seed", str(plan.seed)]  # fmt: skip
            return {"preset": preset, **record, "samples": samples, "seed": plan.seed, "reproduce": shlex.join(words)}

        try:
            rows.append(parts.get(f"exact {preset}", params, compute))
        except ValueError as bad:  # the agent searches with the engine, or reads another table's observation
            rows.append({"preset": preset, "skipped": str(bad)})
        if hooks.log is not None and "exploitability" in rows[-1]:
            hooks.log(f"exact exploitability of {plan.agent}, {preset} rules: {rows[-1]['exploitability']:.6f}")
    return {"rows": rows, "players": 2, "dice": 1, "note": "at 2 players x 1 die, whatever table the others use"}


# -- the whole scorecard -------------------------------------------------------------------------------------------
def scorecard(plan: Plan, hooks: Hooks | None = None) -> dict[str, Any]:
    """Every section of ``plan`` not skipped, as one JSON-safe record; also written to ``<out>/scorecard.json``."""
    import bidbluff

    started = time.perf_counter()
    hooks = hooks or Hooks()
    parts = Parts(plan.out)
    record: dict[str, Any] = {
        "scorecard": FORMAT,
        "env": plan.env,
        "env_options": plan.env_options,
        "agent": identity(plan.agent, plan.env),
        "registrations": registrations([plan.agent, *plan.baselines, *plan.mixed, plan.exploiter_reference]),
        "seed": plan.seed,
        "command": plan.command(),
        "bidbluff": bidbluff.__version__,
        "plan": {k: v for k, v in dataclasses.asdict(plan).items() if k != "notes"},
        "notes": list(plan.notes),
    }
    sections: dict[str, Callable[[], dict[str, Any]]] = {
        "baselines": lambda: {"rows": baseline_rows(plan, parts, hooks)},
        "mixed": lambda: mixed_table(plan, parts, hooks),
        "exploiter": lambda: exploiter_record(plan, parts, hooks),
        "exact": lambda: exact_rows(plan, parts, hooks),
    }
    for name, run in sections.items():
        record[name] = {"skipped": "--skip"} if name in plan.skip else run()
    record["reused"] = parts.reused
    record["seconds"] = time.perf_counter() - started
    Path(plan.out).mkdir(parents=True, exist_ok=True)
    (Path(plan.out) / "scorecard.json").write_text(json.dumps(record, indent=2) + "\n")
    return record


# -- as people read it ---------------------------------------------------------------------------------------------
def _ci(row: dict[str, Any]) -> str:
    return f"{row['ci_low']:.3f}-{row['ci_high']:.3f}"


def _forecast_columns(rows: list[dict[str, Any]]) -> list[str]:
    """The forecast statistics worth a column: those of rows that saw forecasts (none outside Spytails, where
    every row still carries the empty statistics)."""
    return sorted({k for r in rows if r.get("forecasts") for k in _forecasts(r) if not k.startswith("opponents_")})


def tables(record: dict[str, Any]) -> list[Any]:
    """The scorecard as rich renderables: one table per section, and a line for each section skipped."""
    from rich.table import Table

    out: list[Any] = []
    agent = record["agent"]["spec"]
    budget = record["plan"]
    skipped = []
    baselines = record["baselines"]
    if "rows" in baselines:
        forecast = _forecast_columns(baselines["rows"])
        table = Table(title=f"{agent} against copies of each baseline ({record['env']}, seed {record['seed']})")
        columns = ["players", "against", "games", "win share", "95% CI", "equal share", "x equal", "mean reward"]
        for column in columns + forecast:
            table.add_column(column, justify="left" if column == "against" else "right")
        for row in baselines["rows"]:
            table.add_row(
                str(row["players"]), row["against"], f"{row['games']:,}", f"{row['win_share']:.3f}", _ci(row),
                f"{row['equal_share']:.3f}", f"{row['ratio']:.2f}", f"{row['mean_reward']:+.3f}",
                *(_number(row.get(k)) for k in forecast),
            )  # fmt: skip
        out.append(table)
    else:
        skipped.append(("baselines", baselines["skipped"]))
    mixed = record["mixed"]
    if "entries" in mixed:
        table = Table(title=f"mixed table: {mixed['players']} players, {mixed['games']:,} games, seed {mixed['seed']}")
        forecast = _forecast_columns(mixed["entries"])
        for column in ["entry", "win share", "95% CI", "mean reward", "rank", *forecast]:
            table.add_column(column, justify="left" if column == "entry" else "right")
        for row in sorted(mixed["entries"], key=lambda r: r["rank"]):
            table.add_row(
                row["entry"], f"{row['win_share']:.3f}", _ci(row), f"{row['mean_reward']:+.3f}", str(row["rank"]),
                *(_number(row.get(k)) for k in forecast),
            )  # fmt: skip
        out.append(table)
        note = f" ({mixed['note']})" if mixed.get("note") else ""
        out.append(f"{agent} ranks {mixed['agent_rank']} of {len(mixed['entries'])} at the mixed table{note}")
    else:
        skipped.append(("mixed", mixed["skipped"]))
    exploiter = record["exploiter"]
    if "win_share" in exploiter:
        n = exploiter["num_players"]
        table = Table(title=f"learned exploiter at {n} players, against {n - 1} copies of each")
        columns = ["against", "decisions", "CPU s", "games", "exploiter wins", "95% CI", "gain over 1/n", "reward"]
        for column in columns:
            table.add_column(column, justify="left" if column == "against" else "right")
        for row in [exploiter, *([exploiter["reference"]] if "reference" in exploiter else [])]:
            table.add_row(
                row["agent"], f"{row['budget']['steps']:,}", f"{row['budget']['cpu_s']:.0f}", f"{row['games']:,}",
                f"{row['win_share']:.3f}", _ci(row), f"{row['gain']:+.3f}", f"{row['mean_reward']:+.3f}",
            )  # fmt: skip
        out.append(table)
        if "reference" in exploiter:
            ratio = exploiter["gain_ratio"]
            said = f"{ratio:.2f}" if ratio is not None else "- (no gain against the reference)"
            out.append(f"gain against {agent} / gain against {exploiter['reference']['agent']}: {said}")
    else:
        skipped.append(("exploiter", exploiter["skipped"]))
    exact = record["exact"]
    if "rows" in exact:
        table = Table(title="exact exploitability at 2 players x 1 die")
        for column in ("rules", "exploitability", "NashConv", "policy"):
            table.add_column(column, justify="left" if column in ("rules", "policy") else "right")
        for row in exact["rows"]:
            if "skipped" in row:
                table.add_row(row["preset"], "-", "-", f"not measured: {row['skipped']}")
            else:
                table.add_row(row["preset"], f"{row['exploitability']:.6f}", f"{row['nash_conv']:.6f}", row["policy"])
        out.append(table)
    else:
        skipped.append(("exact", exact["skipped"]))
    lines = [f"{name}: not measured ({why})" for name, why in skipped]
    lines += [f"note: {note}" for note in record["notes"]]
    if record["reused"]:
        lines.append(f"reused from {budget['out']}: {', '.join(record['reused'])}")
    lines.append(f"scorecard: {Path(budget['out']) / 'scorecard.json'}")
    lines.append(f"command: {record['command']}")
    out.extend(lines)
    return out


def _number(value: Any) -> str:
    return f"{value:.3f}" if isinstance(value, float) else ("-" if value is None else str(value))


def print_scorecard(record: dict[str, Any], console: Any = None) -> None:
    from rich.console import Console

    console = console or Console()
    for item in tables(record):
        if isinstance(item, str):
            console.print(item, markup=False, soft_wrap=True)  # a command stays one line, to copy whole
        else:
            console.print(item)
