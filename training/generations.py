"""The league method: one command that makes a main agent, generation by generation, against a league that
keeps adding exploiters of it (as AlphaStar's league and PSRO do).  ``bidbluff league ENV --out DIR``.

Each generation ``k``:

1. **Main.**  The batched self-play trainer (``bidbluff.training.batched``) trains the main agent for
   ``main_steps`` decisions with the equilibrium recipe's regularisation (``REGULARISATION``: the reverse
   KL toward a magnet copied every 100 updates, the entropy bonus falling from 0.05 to 0.01, raw advantages,
   clip 0.1, the learning rate annealed to 0), but the default observation and the shipped network's
   layout, so that one network reads every table.  Each game draws its table size from ``players``
   (default: every size the game has) and, in ``liars_dice_v0``, its dice count from ``dice`` (default
   1-5).  ``pool_fraction`` of the seats go to the league (PFSP-weighted): the ``baselines``, every past main
   snapshot and every exploiter so far.  Generation 1 starts from ``init`` (or fresh), each later one from
   the last; the magnet starts at that network, so a generation is one proximal step away from the last.
2. **Snapshot.**  The generation's final network is frozen (``gen<k>/main/final.zip``).
3. **Exploiter.**  ``bidbluff.training.exploiter.learned_exploitability``: an exploiter started from the
   snapshot's weights trains for ``exploiter_steps`` decisions in one seat against copies of it at
   ``eval_players`` seats, then plays ``eval_games`` fairly seated games against them.  Its gain over
   ``1/n`` is the generation's learned-exploiter gain (a lower bound on the snapshot's exploitability at
   that budget), with its 95% interval.
4. **League.**  The snapshot (``main-k``) and the exploiter (``exploiter-k``) join the pool of every later
   generation.  Optionally (``heuristic_games``) the snapshot also plays ``eval_players - 1`` heuristics.

The main agent plays sampled (``main_play``): it is trained as a mixed strategy, and the exploiter is
measured against that.

Everything is in ``out``: ``config.json``, ``league.json`` (each generation's finished parts),
``generations.csv`` (a row per finished generation), ``gen<k>/main`` and ``gen<k>/exploiter`` (ordinary
batched runs, each with its checkpoints), ``main.zip|.json`` (the newest main).  ``--resume`` takes the run
up again after any stop (a signal, a kill, a crash): finished parts are kept, an unfinished training part
resumes from its newest checkpoint, an unfinished measurement is played again.  ``--generations`` may grow
on resume; the other options are the run's.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bidbluff import agents as agent_lib
from bidbluff import envs
from bidbluff.training.configs import RECIPES, Trainer
from bidbluff.training.exploiter import check_trainer_options

# The equilibrium recipe's regularisation and update; its table, observation, network, horizon and
# measurements are the league's own (the recipe is for 2 players x 1 die with the compact observation).
REGULARISATION = (
    "magnet_coef", "magnet_every", "ent_coef", "ent_coef_final", "kl_coef", "normalize_advantages",
    "learning_rate", "anneal_lr", "num_games", "rollout_steps", "minibatch_size", "n_epochs", "clip_range",
    "gamma", "vf_coef",
)  # fmt: skip
SHIPPED_NETWORK = {"trunk": 256, "net_arch": [128], "activation": "tanh"}
RESUMABLE = ("generations",)
EVERY_POOL_MEMBER = 100_000  # the main's pool_max: no league member ever drops out of the draw


@dataclass
class LeagueConfig:
    """Every option of a league run; ``help`` metadata is the command-line help."""

    env: str = field(metadata={"help": "registered env to train on"})
    out: str = field(default="", metadata={"help": "the league's folder (default runs/<env>-league)"})
    generations: int = field(default=5, metadata={"help": "generations to run (may grow on --resume)"})
    main_steps: int = field(default=300_000, metadata={"help": "the main agent's training decisions per generation"})
    exploiter_steps: int = field(default=200_000, metadata={"help": "each exploiter's training decisions"})
    eval_games: int = field(
        default=2_000, metadata={"help": "fairly seated games measuring each exploiter against the main agent"}
    )
    eval_players: int = field(default=4, metadata={"help": "the table size of the exploiter and its measurement"})
    heuristic_games: int = field(
        default=0, metadata={"help": "games of each main snapshot against eval_players - 1 heuristics (0: none)"}
    )
    players: list[int] = field(
        default_factory=list,
        metadata={"help": "table sizes the main agent's games draw from (default: every size the game has)"},
    )
    dice: list[int] = field(
        default_factory=list,
        metadata={"help": "liars_dice_v0: dice counts the main agent's games draw from (default 1-5)"},
    )
    env_options: dict[str, Any] = field(default_factory=dict, metadata={"help": "env options as JSON"})
    baselines: list[str] = field(
        default_factory=lambda: ["heuristic", "random"],
        metadata={"help": "fixed agents in the league's pool (agent specs, comma-separated)"},
    )
    pool_fraction: float = field(
        default=0.5, metadata={"help": "share of the main agent's seats given to the league's pool"}
    )
    pfsp_power: float = field(default=2.0, metadata={"help": "PFSP weight exponent: (1 - main's win rate)^p"})
    baseline_share: float | None = field(
        default=None,
        metadata={
            "help": "share of the pool's draws kept for the baselines, the rest for the snapshots and exploiters "
            "(default: PFSP over all, so the baselines fade as the league grows)"
        },
    )
    main_play: str = field(
        default="sample", metadata={"help": "how the exploiters' opponent (the main agent) plays: sample or greedy"}
    )
    main_options: dict[str, Any] = field(
        default_factory=dict,
        metadata={
            "help": "the main agent's batched-trainer options over the league's, as JSON (e.g. "
            '{"num_games": 32}); the table, pool, budget and run folder are the league\'s'
        },
    )
    exploiter_options: dict[str, Any] = field(
        default_factory=dict,
        metadata={"help": "the exploiters' batched-trainer options, as JSON (default: bidbluff exploitability's)"},
    )
    init: str = field(
        default="", metadata={"help": "a checkpoint (the shipped network's layout) generation 1 starts from"}
    )
    checkpoint_every: int = field(
        default=100_000, metadata={"help": "decisions between checkpoints of a training part (what a kill loses)"}
    )
    seed: int = field(
        default=0, metadata={"help": "seeds every part; the measuring deals are the same in every generation"}
    )


@dataclass
class Generation:
    """One generation's finished parts (``None``: not done yet)."""

    index: int
    main: str | None = None  # the snapshot: the main run's final.zip
    main_steps: int | None = None
    main_cpu_s: float | None = None
    pool: list[str] = field(default_factory=list)  # the league members the main played against
    exploiter: str | None = None
    exploiter_steps: int | None = None
    exploiter_cpu_s: float | None = None
    games: int | None = None
    win_share: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    equal_share: float | None = None
    gain: float | None = None
    heuristic_games: int | None = None
    heuristic_win_share: float | None = None
    heuristic_ci_low: float | None = None
    heuristic_ci_high: float | None = None
    exact_exploitability: float | None = None  # liars_dice_v0 with the main's exact teacher: the snapshot at 2 x 1


CSV_COLUMNS = [
    "generation", "main_steps", "main_cpu_s", "pool", "exploiter_steps", "exploiter_cpu_s", "games", "win_share",
    "ci_low", "ci_high", "equal_share", "gain", "heuristic_games", "heuristic_win_share", "heuristic_ci_low",
    "heuristic_ci_high", "exact_exploitability",
]  # fmt: skip


def main_config(config: LeagueConfig, sizes: list[int], dice: list[int], generation: int, init: str) -> Any:
    """The batched trainer's config of generation ``generation``'s main agent."""
    from bidbluff.training.batched import BatchedConfig

    recipe = {key: RECIPES["equilibrium"][key] for key in REGULARISATION}
    return BatchedConfig(
        env=config.env,
        players=sizes,
        env_options=dict(config.env_options),
        draw_options={"dice": dice} if dice else {},
        opponents=list(config.baselines),
        pool_fraction=config.pool_fraction,
        pool_max=EVERY_POOL_MEMBER,
        pfsp_power=config.pfsp_power,
        baseline_share=config.baseline_share,
        total_steps=config.main_steps,
        checkpoint_every=config.checkpoint_every,
        eval_games=0,
        init=init,
        seed=config.seed + generation,
        out=str(Path(config.out) / f"gen{generation}" / "main"),
        **{**SHIPPED_NETWORK, **recipe, **config.main_options},
    )


class LeagueRun:
    """One league (see the module docstring): ``run()`` runs every generation and returns the main's zip."""

    def __init__(self, config: LeagueConfig, resume: bool = False, progress_bar: bool = True) -> None:
        self.config, self.progress_bar = config, progress_bar
        self.sizes, self.dice = check(config)
        config.players, config.dice = self.sizes, self.dice  # config.json says what was drawn from
        self.network = {key: config.main_options.get(key, value) for key, value in SHIPPED_NETWORK.items()}
        self.out = Path(config.out or f"runs/{config.env}-league")
        self.config.out = str(self.out)
        self.record = self.out / "league.json"
        if resume and not self.record.exists():
            raise FileNotFoundError(f"--resume: {self.record} does not exist (no league to resume there)")
        if not resume and (self.record.exists() or (self.out / "config.json").exists()):
            raise ValueError(f"{self.out} already holds a league: pass --resume to continue it or --out for a new one")
        self.generations: list[Generation] = []
        if resume:
            saved = json.loads(self.record.read_text())
            self.generations = [Generation(**g) for g in saved["generations"]]

    # -- the record ---------------------------------------------------------------------------
    def save(self) -> None:
        """``league.json`` and ``generations.csv``, each written whole and atomically after every part."""
        from bidbluff.training.run import write_json

        write_json(self.record, {"config": dataclasses.asdict(self.config), "generations": self._dicts()})
        self._write_csv()

    def _dicts(self) -> list[dict[str, Any]]:
        return [dataclasses.asdict(g) for g in self.generations]

    def _write_csv(self) -> None:
        from bidbluff.agents.policy import write_atomic

        finished = [g for g in self.generations if g.gain is not None]

        def write(tmp: Path) -> None:
            with tmp.open("w", newline="") as handle:
                writer = csv.DictWriter(handle, CSV_COLUMNS, extrasaction="ignore")
                writer.writeheader()
                for g in finished:
                    row = {**dataclasses.asdict(g), "generation": g.index, "pool": len(g.pool)}
                    writer.writerow({k: "" if v is None else _round(v) for k, v in row.items()})

        write_atomic(self.out / "generations.csv", write)

    def _generation(self, index: int) -> Generation:
        while len(self.generations) < index:
            self.generations.append(Generation(len(self.generations) + 1))
        return self.generations[index - 1]

    def pool(self, before: int) -> list[tuple[str, str]]:
        """The league's members from the generations before ``before``: (name, checkpoint), oldest first."""
        members = []
        for g in self.generations[: before - 1]:
            members += [(f"main-{g.index}", g.main), (f"exploiter-{g.index}", g.exploiter)]
        return [(name, path) for name, path in members if path]

    # -- the parts -------------------------------------------------------------------------------
    def run(self) -> Path:
        from bidbluff.agents.policy import copy_checkpoint
        from bidbluff.training.run import write_json

        self.out.mkdir(parents=True, exist_ok=True)
        write_json(self.out / "config.json", dataclasses.asdict(self.config))
        self.save()
        for index in range(1, self.config.generations + 1):
            generation = self._generation(index)
            if generation.main is None:
                self.train_main(generation)
            if generation.gain is None:
                self.exploit(generation)
            if self.config.heuristic_games > 0 and generation.heuristic_win_share is None:
                self.against_heuristics(generation)
            copy_checkpoint(generation.main, self.out / "main")
        return self.out / "main.zip"

    def train_main(self, generation: Generation) -> None:
        from bidbluff.agents.policy import load_network, read_sidecar
        from bidbluff.training.batched import BatchedTrainer

        k = generation.index
        init = self.generations[k - 2].main if k > 1 else self.config.init
        config = main_config(self.config, self.sizes, self.dice, k, init or "")
        folder = Path(config.out)
        resume = any((folder / "checkpoints").glob("step_*.json"))
        trainer = BatchedTrainer(config, resume=resume, progress_bar=self.progress_bar)
        pool = self.pool(k)
        if trainer.core.resumed is None:  # a resumed run's league came back with its checkpoint
            for name, path in pool:
                trainer.league.add_snapshot(path, 0, load_network(Path(path), config.env)[0], name=name)
        say(f"generation {k}: the main agent trains {config.total_steps:,} decisions (pool: {len(pool)} + baselines)")
        final = trainer.run()  # a signal raises RunInterruptedError: the run resumes from its checkpoint
        generation.main, generation.main_steps = str(final), trainer.steps
        generation.main_cpu_s, generation.pool = trainer.cpu_seconds(), [name for name, _ in pool]
        measured = read_sidecar(final).get("exploitability")  # the last checkpoint's, with an exact teacher
        generation.exact_exploitability = measured["exploitability"] if measured else None
        self.save()

    def main_spec(self, generation: Generation) -> str:
        return f"{generation.main}:{self.config.main_play}"

    def exploit(self, generation: Generation) -> None:
        from bidbluff.training.exploiter import learned_exploitability

        c, k = self.config, generation.index
        say(f"generation {k}: an exploiter of it trains {c.exploiter_steps:,} decisions at {c.eval_players} players")
        started = time.process_time()
        record = learned_exploitability(
            self.main_spec(generation),
            c.env,
            c.eval_players,
            c.env_options,
            steps=c.exploiter_steps,
            games=c.eval_games,
            seed=c.seed,
            out=self.out / f"gen{k}" / "exploiter",
            init=str(generation.main),
            progress_bar=self.progress_bar,
            **{**self.network, **c.exploiter_options},  # it starts from the snapshot: the same layout
        )
        generation.exploiter, generation.exploiter_steps = record["exploiter"], record["budget"]["steps"]
        generation.exploiter_cpu_s = round(time.process_time() - started, 1)
        for key in ("games", "win_share", "ci_low", "ci_high", "equal_share", "gain"):
            setattr(generation, key, record[key])
        self.save()
        say(
            f"generation {k}: exploiter gain {generation.gain:+.3f} (win share {generation.win_share:.3f}, 95% CI "
            f"{generation.ci_low:.3f}-{generation.ci_high:.3f}, {generation.games:,} games)"
        )

    def against_heuristics(self, generation: Generation) -> None:
        from bidbluff.arena.tournament import run_tournament

        c, n = self.config, self.config.eval_players
        spec = self.main_spec(generation)
        result = run_tournament(
            c.env, [spec, *["heuristic"] * (n - 1)], c.heuristic_games, n, seed=c.seed + 2_000_003,
            env_options=c.env_options,
        )  # fmt: skip
        row = next(r for r in result.rows() if r["entry"] == spec)
        generation.heuristic_games, generation.heuristic_win_share = row["games"], row["win_share"]
        generation.heuristic_ci_low, generation.heuristic_ci_high = row["ci_low"], row["ci_high"]
        self.save()
        say(f"generation {generation.index}: against {n - 1} heuristics it wins {row['win_share']:.3f}")


def _round(value: Any) -> Any:
    return round(value, 4) if isinstance(value, float) else value


def say(line: str) -> None:
    print(line, flush=True)


def check(config: LeagueConfig) -> tuple[list[int], list[int]]:
    """Refuse bad options before anything is written; returns the main agent's table sizes and dice counts."""
    if config.env not in envs.ENVS:
        raise ValueError(f"no env {config.env!r}: {', '.join(envs.ENVS)}")
    for name in ("generations", "main_steps", "exploiter_steps", "eval_games", "checkpoint_every"):
        if getattr(config, name) < 1:
            raise ValueError(f"--{name.replace('_', '-')} must be positive, not {getattr(config, name)}")
    if config.heuristic_games < 0:
        raise ValueError(f"--heuristic-games must be 0 or more, not {config.heuristic_games}")
    if not 0.0 <= config.pool_fraction < 1.0:
        raise ValueError(f"--pool-fraction must be in [0, 1), not {config.pool_fraction}")
    if config.pool_fraction > 0 and not config.baselines:
        raise ValueError("--pool-fraction > 0 needs --baselines: generation 1 has no other league member")
    if config.baseline_share is not None and not 0.0 <= config.baseline_share <= 1.0:
        raise ValueError(f"--baseline-share must be in [0, 1], not {config.baseline_share}")
    if config.baseline_share and not config.baselines:
        raise ValueError("--baseline-share needs --baselines to draw")
    if config.main_play not in ("sample", "greedy"):
        raise ValueError(f"--main-play must be sample or greedy, not {config.main_play!r}")
    game = envs.game(config.env, **config.env_options)
    sizes = sorted(config.players) or list(range(game.min_players, game.max_players + 1))
    for n in [*sizes, config.eval_players]:
        if not game.min_players <= n <= game.max_players:
            raise ValueError(f"{config.env} is for {game.min_players}-{game.max_players} players, not {n}")
    dice = sorted(config.dice)
    if config.env != "liars_dice_v0":
        if dice:
            raise ValueError(f"--dice: only liars_dice_v0 has dice counts, not {config.env}")
    elif dice and "dice" in config.env_options:
        raise ValueError("--dice and --option dice: give one (--dice draws per game, --option dice fixes it)")
    elif "dice" not in config.env_options:
        dice = dice or [1, 2, 3, 4, 5]
    for n in sizes:
        env = envs.make(config.env, raw=True, num_players=n, **config.env_options)
        for count in dice:
            try:
                env.reset(seed=0, options={"dice": count})
            except ValueError as bad:
                raise ValueError(f"--dice {count} at {n} players: {bad}") from None
    check_trainer_options("--main-options", config.main_options)
    check_trainer_options("--exploiter-options", config.exploiter_options)
    for spec in config.baselines:
        agent_lib.make(spec, env_name=config.env)
    if config.init and not Path(config.init).exists():
        raise FileNotFoundError(f"--init {config.init}: no such checkpoint")
    return sizes, dice


def run_league(config: LeagueConfig, resume: bool = False, progress_bar: bool = True) -> Path:
    """Run (or resume) a league; returns the newest main agent's zip path."""
    return LeagueRun(config, resume=resume, progress_bar=progress_bar).run()


LEAGUE = Trainer("league", LeagueConfig, run_league, "-league", RESUMABLE)
