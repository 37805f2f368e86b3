"""``bidbluff``: the command line.  It stands above what it drives: the arena commands (``match``, ``tournament``,
``play``, ``replay``, ``serve``), the evaluations (``exploitability``, the scorecard ``evaluate``), and the
training commands (``train``, ``selfplay``, ``plot``).  Each command is two small functions here:
``<command>_parser`` adds its flags, ``<command>`` runs it.  Env options are ``--option KEY=VALUE`` in every
command that builds a game."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from rich.console import Console

from bidbluff import agents, envs

Subparsers = Any  # argparse's private _SubParsersAction

# -- env options: one syntax for every command ---------------------------------------
OPTIONS_HELP = (
    "an env option KEY=VALUE, repeatable: --option map=extended --option draft=true (VALUE is read as "
    'JSON where it parses: 2, true, ["mermaid"], else as a string)'
)


def add_env_options(parser: argparse.ArgumentParser) -> None:
    """``--option KEY=VALUE`` (repeatable) and its deprecated alias ``--env-options JSON``."""
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help=OPTIONS_HELP)
    parser.add_argument(
        "--env-options",
        metavar="JSON",
        help="deprecated: the same options as one JSON object (write --option KEY=VALUE instead)",
    )


def env_options(args: argparse.Namespace) -> dict[str, Any]:
    """The env options of ``--option`` (and the deprecated ``--env-options``), later ones winning."""
    from bidbluff.arena.play import parse_option

    options: dict[str, Any] = {}
    if getattr(args, "env_options", None):
        print("note: --env-options is deprecated; write --option KEY=VALUE (repeatable)", file=sys.stderr)
        try:
            given = json.loads(args.env_options)
        except json.JSONDecodeError as bad:
            raise ValueError(f"--env-options {args.env_options!r} is not JSON ({bad.msg})") from None
        if not isinstance(given, dict):
            raise ValueError(f"--env-options {args.env_options!r}: write a JSON object, e.g. '{{\"dice\": 2}}'")
        options.update(given)
    options.update(parse_option(text) for text in getattr(args, "option", None) or [])
    return options


# -- named agents: one syntax for every command that seats agents ---------------------------
AGENT_HELP = (
    "register an agent spec under a name, repeatable: --agent mine='cmd:\"node my_agent.js\"' (a program "
    "speaking the JSON-lines agent protocol, docs/program-agents.md), then --agents mine,random"
)


def add_named_agents(parser: argparse.ArgumentParser) -> None:
    """``--agent NAME=SPEC`` (repeatable): names that the command's agent lists may then use."""
    parser.add_argument("--agent", action="append", default=[], metavar="NAME=SPEC", help=AGENT_HELP)


def register_agents(texts: list[str]) -> None:
    """Register each ``NAME=SPEC`` of ``--agent``."""
    for text in texts:
        agents.register(*agents.parse_registration(text))


def close_agents(seated: list[Any]) -> None:
    """End what agents hold open (a program's process) once a command is done with them."""
    for agent in seated:
        close = getattr(agent, "close", None)
        if close is not None:
            close()


def _lineup(spec: str, n: int) -> list[str]:
    kinds = agents.expand_specs(spec)
    return [kinds[i % len(kinds)] for i in range(n)]


# -- match ------------------------------------------------------------------------
def match_parser(sub: Subparsers) -> None:
    match = sub.add_parser("match", help="play a seeded match on each finished game and print the results")
    match.add_argument("--env", choices=envs.ENVS, help="only this env (default: every finished game)")
    match.add_argument("--games", type=int, default=20, help="games per env (seats rotate)")
    match.add_argument("--players", type=int, help="seats (default: the game's default)")
    match.add_argument(
        "--agents", default="random", help=f"comma-separated agent specs, 'random*3' repeats: {', '.join(agents.KINDS)}"
    )
    match.add_argument("--seed", type=int, default=0)
    add_named_agents(match)
    add_env_options(match)
    match.set_defaults(run=match_command)


def match_command(args: argparse.Namespace) -> int:
    from bidbluff.arena.match import play_match
    from bidbluff.arena.report import match_table

    console = Console()
    options = env_options(args)
    register_agents(args.agent)
    if options and not args.env:
        raise ValueError("--option needs --env: every game takes options of its own")
    for name in [args.env] if args.env else list(envs.ENVS):
        n = args.players or envs.game(name, **options).default_players
        seats = [agents.make(kind, env_name=name, seed=args.seed + i) for i, kind in enumerate(_lineup(args.agents, n))]
        start = time.perf_counter()
        try:
            result = play_match(name, seats, args.games, seed=args.seed, num_players=n, env_options=options)
        finally:
            close_agents(seats)
        elapsed = time.perf_counter() - start
        console.print(match_table(name, result, seats, args.seed))
        for line in result.forfeits:
            console.print(f"forfeit: {line}", markup=False)
        console.print(
            f"{result.agent_steps} agent decisions in {elapsed:.2f}s "
            f"({result.agent_steps / elapsed:,.0f} steps/s, {result.games / elapsed:,.1f} games/s)\n"
        )
    return 0


# -- tournament ---------------------------------------------------------------------
def tournament_parser(sub: Subparsers) -> None:
    tour = sub.add_parser(
        "tournament",
        help="n-player games between agents over duplicate deals: win share with 95%% CI, scores, ratings",
        description="Every deal (env seed) is played once per seating of a balanced design (every permutation of "
        "the seats up to four players), so each agent meets the same luck from every seat and after every "
        "neighbour.  Fewer agents than seats: the list is repeated to fill the table.",
    )
    tour.add_argument("env", choices=envs.ENVS)
    tour.add_argument(
        "--agents",
        default="heuristic,random",
        help="comma-separated agent specs (random, heuristic, ismcts, ismcts:50, ismcts:100ms, "
        "a checkpoint path); 'random*3' repeats (default: heuristic,random)",
    )
    tour.add_argument("--games", type=int, default=200, help="games in all, rounded up to whole deals (default 200)")
    tour.add_argument("--players", type=int, help="seats (default: the game's default)")
    tour.add_argument(
        "--seed",
        type=int,
        default=0,
        help="first deal's seed (default 0); deal k is seed + k, so seeds closer together than a table's deals "
        "share deals: 100000 apart for independent tables",
    )
    add_named_agents(tour)
    add_env_options(tour)
    tour.add_argument("--json", metavar="PATH", help="write the results as JSON ('-': stdout)")
    tour.add_argument("--csv", metavar="PATH", help="write one CSV row per agent ('-': stdout)")
    tour.add_argument("--quiet", action="store_true", help="no table, no progress bar")
    tour.add_argument("--save-games", metavar="DIR", help="save each game's record (JSON) in DIR")
    tour.set_defaults(run=tournament_command)


def tournament_command(args: argparse.Namespace) -> int:
    from rich.progress import Progress

    from bidbluff.arena import seating
    from bidbluff.arena.report import tournament_footer, tournament_table, write_csv, write_text
    from bidbluff.arena.tournament import run_tournament

    register_agents(args.agent)
    specs = agents.expand_specs(args.agents)
    options = env_options(args)
    n = args.players or envs.game(args.env, **options).default_players
    per_deal = seating.design(n, args.seed).games_per_deal
    with Progress(console=Console(stderr=True), transient=True, disable=args.quiet) as progress:
        task = progress.add_task(f"{args.env}", total=-(-args.games // per_deal) * per_deal)
        result = run_tournament(
            args.env,
            specs,
            args.games,
            n,
            seed=args.seed,
            env_options=options,
            on_game=lambda g: progress.update(task, completed=g),
            save_games=args.save_games,
        )
    rows = result.rows()
    if args.json:
        write_text(args.json, json.dumps(result.to_dict(), indent=2) + "\n")
    if args.csv:
        write_csv(args.csv, rows)
    if not args.quiet:
        out = Console()
        if not out.is_terminal:
            out = Console(width=160)  # a log file or a pipe: keep the table readable
        out.print(tournament_table(result, rows))
        out.print(tournament_footer(result))
    return 0


# -- play / replay -------------------------------------------------------------------
def play_parser(sub: Subparsers) -> None:
    play = sub.add_parser(
        "play",
        help="play a game in the terminal against agents",
        description="The table is shown from your seat only.  Type a move by name or value "
        "(5x3, bid 5 3, liar, gunner, 15: a number is a value, never a place in the list) or "
        "its place in the list with # (#2); '?' lists the moves, '? NAME' prints a card's, "
        "tile's or character's rules; 'quit' or Ctrl-C leaves.",
    )
    play.add_argument("env", choices=envs.ENVS)
    play.add_argument("--players", type=int, help="seats (default: the game's default)")
    play.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    play.add_argument(
        "--opponents",
        nargs="+",
        metavar="SPECS",
        help="comma-separated agent specs for the other seats, 'heuristic*2' repeats, the list is "
        "repeated to fill (default: the env's shipped self-play checkpoint, 'shipped'; "
        "heuristic or random where none is shipped)",
    )
    play.add_argument("--seed", type=int, help="the deal's seed (default: a random one, shown)")
    play.add_argument("--save", metavar="FILE", help="save the game's record (JSON) to FILE")
    add_named_agents(play)
    add_env_options(play)
    play.set_defaults(run=play_command)


def play_command(args: argparse.Namespace) -> int:
    from bidbluff.arena.play import play

    options = env_options(args)
    register_agents(args.agent)
    try:
        envs.make(args.env, num_players=args.players, **options)
    except TypeError as bad:  # an option the env does not take
        raise ValueError(f"{args.env} does not take these options {sorted(options)}: {bad}") from None
    opponents = agents.expand_specs(",".join(args.opponents)) if args.opponents else None
    record = play(
        args.env,
        seat=args.seat,
        opponents=opponents,
        num_players=args.players,
        seed=args.seed,
        env_options=options,
        save=args.save,
    )
    return 0 if record is not None else 130


def replay_parser(sub: Subparsers) -> None:
    replay = sub.add_parser("replay", help="print a recorded game move by move from one seat's view or all")
    replay.add_argument("file", help="a game record (from play --save or tournament --save-games)")
    view = replay.add_mutually_exclusive_group()
    view.add_argument("--seat", type=int, default=0, help="show the game as this seat saw it (default 0)")
    view.add_argument("--all", action="store_true", help="show everything, every hidden card and die")
    replay.add_argument("--step", action="store_true", help="wait for Enter after each move")
    replay.set_defaults(run=replay_command)


def replay_command(args: argparse.Namespace) -> int:
    from bidbluff.arena import records
    from bidbluff.arena.play import show_replay

    show_replay(records.load(args.file), view="all" if args.all else args.seat, step=args.step)
    return 0


# -- serve ------------------------------------------------------------------------
def serve_parser(sub: Subparsers) -> None:
    from bidbluff.arena.web import cli as web_cli  # its options only: the web extra is imported by run

    serve = sub.add_parser(
        "serve",
        help="the browser table: play any game against agents, replay game records",
        description="A local web page: pick the game, options, table size, your seat and the "
        "opponents, play from your seat (each table has its own address and survives a restart), replay "
        "finished games step by step.  The page seats only the agents the server offers (docs/browser.md).",
    )
    web_cli.add_arguments(serve)
    serve.set_defaults(run=serve_command)


def serve_command(args: argparse.Namespace) -> int:
    from bidbluff.arena.web import cli as web_cli

    agents.named_programs_only()  # a request may name a program registered here, never bring a command of its own
    return web_cli.run(args)


# -- exploitability -----------------------------------------------------------------
def exploitability_parser(sub: Subparsers) -> None:
    exploit = sub.add_parser(
        "exploitability",
        help="how exploitable an agent is: exact on a small Liar's dice table (OpenSpiel), or by a learned "
        "best response in any game at any table size",
        description="--method exact (the default for liars_dice_v0): the agent's policy is read at every "
        "information state and OpenSpiel's best response plays against it from each seat (2 players x 1 die: "
        "seconds to a few minutes; larger tables do not fit).  --method learned (the default elsewhere): an "
        "exploiter is trained against frozen copies of the agent for --steps decisions, then plays them on "
        "fresh, fairly seated deals for --games games; its gain over the equal share is a lower bound on the "
        "agent's exploitability at that budget.",
    )
    exploit.add_argument("env", choices=envs.ENVS)
    exploit.add_argument(
        "--agent",
        required=True,
        help="agent spec (random, heuristic, cfr, shipped, a checkpoint, onnx:PATH, cmd:COMMAND), or NAME=SPEC to "
        "name it (--agent mine='cmd:\"node my_agent.js\"')",
    )
    exploit.add_argument("--method", choices=("exact", "learned"), help="default: exact for liars_dice_v0")
    exploit.add_argument("--players", type=int, help="seats (default: 2 for exact, else the game's default)")
    exploit.add_argument("--dice", type=int, default=1, help="exact: crew dice per seat (default 1)")
    exploit.add_argument("--preset", choices=("lying_pirates", "classic"), default="lying_pirates")
    exploit.add_argument("--specials", default="", help="exact: special dice, comma-separated (e.g. 'mermaid,ghost')")
    exploit.add_argument(
        "--samples",
        type=int,
        default=200,
        help="exact: acts per information state for agents that do not say their probabilities",
    )
    exploit.add_argument("--steps", type=int, default=300_000, help="learned: the exploiter's training decisions")
    exploit.add_argument("--seconds", type=float, help="learned: also stop its training after this many seconds")
    exploit.add_argument("--games", type=int, default=2_000, help="learned: measuring games (default 2000)")
    exploit.add_argument("--init", default="", help="learned: a checkpoint the exploiter starts from")
    exploit.add_argument(
        "--exploiter-options",
        type=json.loads,
        default={},
        metavar="JSON",
        help='learned: the exploiter\'s batched-trainer options, as JSON (e.g. {"ent_coef": 0.03}); its table, '
        "opponents, budget and folder are the command's",
    )
    exploit.add_argument("--out", help="learned: the exploiter's run folder (default runs/exploit-...; resumed)")
    exploit.add_argument("--seed", type=int, default=0, help="the agent's seed (learned: also the run's)")
    exploit.add_argument("--json", metavar="PATH", help="also write the figures as JSON ('-': stdout)")
    add_env_options(exploit)
    exploit.set_defaults(run=exploitability_command)


def named_spec(spec: str) -> str:
    """``NAME=SPEC`` registers SPEC under NAME (a program, say) and returns NAME; a plain spec as it is."""
    if "=" in spec and agents.NAME.fullmatch(spec.partition("=")[0]):
        name, given = agents.parse_registration(spec)
        agents.register(name, given)
        return name
    return spec


def exploitability_command(args: argparse.Namespace) -> int:
    from bidbluff.arena.report import write_text

    method = args.method or ("exact" if args.env == "liars_dice_v0" else "learned")
    if method == "learned":
        from bidbluff.training.exploiter import learned_exploitability, print_learned

        if not isinstance(args.exploiter_options, dict):
            raise ValueError(f"--exploiter-options: a JSON object, not {args.exploiter_options!r}")

        record = learned_exploitability(
            named_spec(args.agent),
            args.env,
            args.players,
            env_options(args),
            steps=args.steps,
            seconds=args.seconds,
            games=args.games,
            seed=args.seed,
            out=args.out,
            init=args.init,
            **args.exploiter_options,
        )
        if args.json:
            write_text(args.json, json.dumps(record, indent=2) + "\n")
        print_learned(record)
        return 0
    from bidbluff.training.exploitability import print_report, report

    if args.env != "liars_dice_v0":
        raise ValueError(
            f"--method exact solves liars_dice_v0's small tables only; for {args.env} use --method learned"
        )
    specials_flag = [name.strip() for name in args.specials.split(",") if name.strip()]
    options = {"dice": args.dice, "preset": args.preset, "specials": specials_flag, **env_options(args)}
    if set(options) - {"dice", "preset", "specials"}:
        raise ValueError(
            f"--option {', '.join(sorted(set(options) - {'dice', 'preset', 'specials'}))}: the "
            f"exploitability table takes dice, preset and specials"
        )
    specials = options["specials"]
    specials = tuple(specials.split(",") if isinstance(specials, str) else specials)
    record = report(
        named_spec(args.agent), args.players or 2, int(options["dice"]), str(options["preset"]), specials,
        args.samples, args.seed,
    )  # fmt: skip
    if args.json:
        write_text(args.json, json.dumps(record, indent=2) + "\n")
    print_report(record)
    return 0


# -- evaluate ---------------------------------------------------------------------------
def evaluate_parser(sub: Subparsers) -> None:
    evaluate = sub.add_parser(
        "evaluate",
        help="a scorecard for any agent: baselines at every table size, a mixed table, a learned exploiter, and the "
        "exact exploitability where it fits",
        description="Puts one agent through everything a strength claim rests on (docs/evaluation.md): against "
        "n-1 copies of each --baselines agent at every --players size, fairly seated (win share, 95%% CI, the "
        "equal share and the ratio to it); one mixed table of different agents (--mixed) in every seat order; a "
        "learned exploiter trained against copies of it; and, for liars_dice_v0, the exact exploitability at 2 "
        "players x 1 die under both rules.  Prints the tables, writes the whole scorecard as JSON.  Each "
        "finished part is kept under --out: the same command again reuses it (an interrupted scorecard resumes).",
    )
    evaluate.add_argument("env", choices=envs.ENVS)
    evaluate.add_argument(
        "--agent",
        action="append",
        default=[],
        metavar="SPEC",
        help="the agent to evaluate (random, heuristic, shipped, a checkpoint, onnx:PATH, cmd:COMMAND, ...), or "
        "NAME=SPEC to name it; repeatable: other NAME=SPEC register names that --baselines and --mixed may use",
    )
    evaluate.add_argument("--players", help="the baselines' table sizes, e.g. 2,4 (default: every size the game has)")
    evaluate.add_argument("--baselines", default="heuristic,random", help="comma-separated (default heuristic,random)")
    evaluate.add_argument(
        "--mixed",
        default="shipped,heuristic,random",
        help="the mixed table's other agents (default shipped,heuristic,random)",
    )
    evaluate.add_argument("--mixed-players", type=int, help="the mixed table's size (default 4, or the game's largest)")
    evaluate.add_argument("--games", type=int, help="games a table (default 2000 at 4 players, 1000 elsewhere)")
    evaluate.add_argument(
        "--quick", action="store_true", help="a first look: 200 games a table, 20,000 exploiter decisions"
    )
    evaluate.add_argument(
        "--exploiter-players", type=int, help="the exploiter's table (default 4, or the game's largest)"
    )
    evaluate.add_argument("--exploiter-steps", type=int, help="the exploiter's training decisions (default 300000)")
    evaluate.add_argument("--exploiter-seconds", type=float, help="also stop its training after this many seconds")
    evaluate.add_argument("--exploiter-games", type=int, help="its measuring games (default: --games at its table)")
    evaluate.add_argument(
        "--exploiter-reference",
        default="",
        metavar="SPEC",
        help="also train an exploiter of this agent at the same budget (e.g. heuristic), and compare the gains",
    )
    evaluate.add_argument(
        "--samples",
        type=int,
        help="exact: acts per information state for agents that do not say their probabilities (default 200; a "
        "program is sampled only when this is given)",
    )
    evaluate.add_argument(
        "--seed",
        type=int,
        default=0,
        help="every table's first deal (default 0); deal k is seed + k: 100000 apart for independent scorecards",
    )
    evaluate.add_argument("--skip", default="", help="sections to leave out: baselines,mixed,exploiter,exact")
    evaluate.add_argument("--out", help="where finished parts are kept (default runs/evaluate-ENV-AGENT)")
    evaluate.add_argument("--json", metavar="PATH", help="also write the scorecard here ('-': stdout)")
    evaluate.add_argument("--quiet", action="store_true", help="no progress, no table")
    add_env_options(evaluate)
    evaluate.set_defaults(run=evaluate_command)


def evaluated_agent(texts: list[str]) -> str:
    """Register each ``NAME=SPEC`` of ``--agent`` and return the agent to evaluate: the one plain spec, else the one
    name registered."""
    plain, names = [], []
    for text in texts:
        if "=" in text and agents.NAME.fullmatch(text.partition("=")[0]):
            names.append(named_spec(text))
        else:
            plain.append(text)
    if len(plain) == 1:
        return plain[0]
    if not plain and len(names) == 1:
        return names[0]
    raise ValueError(
        "--agent: say which agent to evaluate, once (--agent SPEC, or --agent NAME=SPEC alone; other NAME=SPEC "
        f"only register names); given {', '.join(texts) or 'none'}"
    )


def evaluate_command(args: argparse.Namespace) -> int:
    from rich.progress import Progress

    from bidbluff.arena.report import write_text
    from bidbluff.training.run import RunInterruptedError
    from bidbluff.training.scorecard import Hooks, make_plan, print_scorecard, scorecard

    try:
        players = [int(p) for p in args.players.split(",")] if args.players else None
    except ValueError:
        raise ValueError(f"--players {args.players!r}: table sizes, comma-separated (2,3,4)") from None
    plan = make_plan(
        args.env,
        evaluated_agent(args.agent),
        env_options(args),
        players=players,
        baselines=agents.split_specs(args.baselines),
        mixed=agents.split_specs(args.mixed),
        mixed_players=args.mixed_players,
        exploiter_players=args.exploiter_players,
        games=args.games,
        exploiter_steps=args.exploiter_steps,
        exploiter_seconds=args.exploiter_seconds,
        exploiter_games=args.exploiter_games,
        exploiter_reference=args.exploiter_reference,
        samples=args.samples,
        seed=args.seed,
        skip=[s.strip() for s in args.skip.split(",") if s.strip()],
        out=args.out,
        quick=args.quick,
    )
    err = Console(stderr=True)
    if not err.is_terminal:
        err = Console(stderr=True, width=160)  # a log file: one line a finished part
    with Progress(console=err, transient=True, disable=args.quiet) as progress:
        tasks: dict[str, Any] = {}

        def on_game(label: str, done: int, total: int) -> None:
            if label not in tasks:
                tasks[label] = progress.add_task(label, total=total)
            progress.update(tasks[label], completed=done, total=max(done, total))

        def log(line: str) -> None:
            progress.console.print(line, markup=False)

        hooks = Hooks(on_game=on_game, log=log, progress_bar=False) if not args.quiet else Hooks()
        try:
            record = scorecard(plan, hooks)
        except (KeyboardInterrupt, RunInterruptedError) as stopped:
            where = (
                f" (the exploiter saved its step {stopped.steps})" if isinstance(stopped, RunInterruptedError) else ""
            )
            print(
                f"stopped{where}: the finished parts are kept in {plan.out}; the same command goes on", file=sys.stderr
            )
            return 130
    if args.json:
        write_text(args.json, json.dumps(record, indent=2) + "\n")
    if not args.quiet:
        out = Console()
        if not out.is_terminal:
            out = Console(width=160)  # a log file or a pipe: keep the tables readable
        print_scorecard(record, out)
    return 0


# -- export -------------------------------------------------------------------------
def export_parser(sub: Subparsers) -> None:
    export = sub.add_parser(
        "export",
        help="a checkpoint's policy as an ONNX graph (plays with onnxruntime alone: the onnx:PATH agent)",
        description="Writes OUT (.onnx): inputs observation (float32) and action_mask (int8, the env's mask); "
        "outputs probabilities (the mask applied inside the graph: an illegal move has probability 0) and value; "
        "and OUT's sidecar (.json beside it): the env signature, every action's name, the observation's "
        "fields.  Needs the export extra (torch and onnx); see docs/onnx.md.",
    )
    export.add_argument("checkpoint", help="a checkpoint (x.zip, x.json or x), or 'shipped' with --env")
    export.add_argument("out", help="the graph to write (.onnx)")
    export.add_argument("--env", choices=envs.ENVS, help="check the checkpoint is for this env ('shipped': which)")
    export.set_defaults(run=export_command)


def export_command(args: argparse.Namespace) -> int:
    try:
        from bidbluff.training.export import export
    except ImportError as missing:
        raise SystemExit(
            f"bidbluff export needs the export extra: pip install 'bidbluff[export]' ({missing})"
        ) from None
    checkpoint = args.checkpoint
    if checkpoint == "shipped":
        if args.env is None:
            raise ValueError("export shipped: say which env's with --env")
        checkpoint = str(agents.shipped_path(args.env))
    out = export(checkpoint, args.out, env_name=args.env)
    print(f"{out} and its sidecar {out.with_suffix('.json')} (play it: --agents onnx:{out})")
    return 0


# -- train / selfplay -----------------------------------------------------------------
def needs_extra(sub: Subparsers, command: str, help_text: str, missing: ImportError) -> None:
    """A stand-in for a command whose extra is not installed: the other commands still work (a tournament of
    ONNX policies needs no torch), and this one says what to install."""

    def refuse(args: argparse.Namespace) -> int:
        raise SystemExit(f"bidbluff {command} needs the train extra: pip install 'bidbluff[train]' ({missing})")

    stand_in = sub.add_parser(command, help=f"{help_text} (needs the train extra)")
    stand_in.add_argument("rest", nargs=argparse.REMAINDER)
    stand_in.set_defaults(run=refuse)


def train_parser(sub: Subparsers) -> None:
    try:
        from bidbluff.training.configs import add_config_options, trainer

        chosen = trainer("train")
    except ImportError as missing:
        needs_extra(sub, "train", "train a MaskablePPO policy against fixed opponents", missing)
        return

    train = sub.add_parser(
        "train",
        help="train a MaskablePPO policy against fixed opponents",
        description="Every hyperparameter is an option; all are logged to <out>/config.json "
        "and each checkpoint's sidecar.",
    )
    train.add_argument("env", choices=envs.ENVS)
    add_config_options(train, chosen, skip=("env", "env_options"))
    add_env_options(train)
    train.add_argument(
        "--resume", action="store_true", help="continue the run in --out from its newest intact checkpoint"
    )
    train.add_argument("--no-progress", action="store_true", help="no progress bar")
    train.set_defaults(run=train_command)


def selfplay_parser(sub: Subparsers) -> None:
    try:
        from bidbluff.training.configs import RECIPES, SELFPLAY_TRAINERS, add_config_options, trainer

        trainers = [trainer(name) for name in SELFPLAY_TRAINERS]
    except ImportError as missing:
        needs_extra(sub, "selfplay", "self-play league: PPO against its past snapshots and fixed baselines", missing)
        return

    league = sub.add_parser(
        "selfplay",
        help="self-play league: PPO against its past snapshots and fixed baselines",
        description="--trainer batched (default): a torch PPO playing every seat of "
        "--num-games games at once (one batched forward pass per step); --pool-fraction of the "
        "seats go to snapshots and baselines (PFSP).  --trainer sb3: MaskablePPO in one seat; "
        "opponents: the latest policy with --latest-prob, else past snapshots and the "
        "--opponents baselines weighted by difficulty (PFSP).  A snapshot every --checkpoint-every "
        "steps, each evaluated; --resume continues the league.  --trainer rllib: Ray RLlib's PPO, "
        "the batched trainer's league on --num-env-runners processes of a Ray cluster (--address; "
        "needs the rllib extra).  Options differ by trainer.",
    )
    league.add_argument("env", choices=envs.ENVS)
    league.add_argument(
        "--trainer",
        choices=SELFPLAY_TRAINERS,
        default="batched",
        help="batched: bidbluff's batched self-play PPO; sb3: sb3-contrib MaskablePPO; rllib: Ray "
        "RLlib's PPO, on a cluster (default batched)",
    )
    add_config_options(league, *trainers, skip=("env", "env_options"))
    league.add_argument(
        "--recipe",
        choices=sorted(RECIPES),
        help="a named set of options (the batched trainer's), under the flags given: equilibrium = "
        "self-play toward an equilibrium at 2 players x 1 die (docs/convergence.md); the config table shows "
        "every option it set",
    )
    add_env_options(league)
    league.add_argument("--resume", action="store_true", help="continue the league in --out")
    league.add_argument("--no-progress", action="store_true", help="no progress bar")
    league.set_defaults(run=train_command)


def configured(chosen: Any, args: argparse.Namespace, given: dict[str, Any]) -> tuple[Path, Any, Console]:
    """The run folder and the config of ``chosen`` for the flags ``given`` (reloaded with --resume), its table
    printed: what every training command does before it runs."""
    from bidbluff.training.configs import build_config, run_folder
    from bidbluff.training.progress import config_table

    out = run_folder(chosen, args.env, given.get("out"))
    config = build_config(chosen, args.env, {**given, "out": str(out)}, args.resume)
    console = Console()
    console.print(config_table(config, title=f"bidbluff {args.command} {args.env} (also in {out}/config.json)"))
    return out, config, console


def train_command(args: argparse.Namespace) -> int:
    """``bidbluff train`` and ``bidbluff selfplay``: build (or, with --resume, reload) the config and run.

    SIGINT (Ctrl-C) or SIGTERM: the run saves a checkpoint and final.zip, one line says so, exit code 130.
    """
    from bidbluff.training.configs import trainer, with_recipe
    from bidbluff.training.progress import final_steps, summary
    from bidbluff.training.run import RunInterruptedError

    chosen = trainer("train" if args.command == "train" else args.trainer)
    options = env_options(args)
    skip = {"env", "command", "run", "resume", "no_progress", "trainer", "option", "env_options", "recipe"}
    given = {k: v for k, v in vars(args).items() if k not in skip}
    if options:
        given["env_options"] = options
    if getattr(args, "recipe", None):
        if chosen.name != "batched":
            raise SystemExit(f"--recipe {args.recipe}: a recipe of the batched trainer, not of --trainer {chosen.name}")
        given = with_recipe(args.recipe, given)
    out, config, console = configured(chosen, args, given)
    try:
        final = chosen.run(config, resume=args.resume, progress_bar=not args.no_progress)
    except RunInterruptedError as stopped:
        console.print(summary(out, stopped.steps, config.total_steps, config.time_limit, stopped.signal_name))
        print(
            f"{stopped.signal_name}: stopped at step {stopped.steps}; checkpoint and {stopped.final} saved "
            f"(--resume continues)",
            flush=True,
        )
        return 130
    console.print(summary(out, final_steps(final, out), config.total_steps, config.time_limit))
    print(
        f"final checkpoint: {final}  (play it: bidbluff play {args.env} --opponents {final}; "
        f"curves: bidbluff plot {out})"
    )
    return 0


# -- league -----------------------------------------------------------------------
def league_parser(sub: Subparsers) -> None:
    try:
        from bidbluff.training.configs import add_config_options
        from bidbluff.training.generations import LEAGUE
    except ImportError as missing:
        needs_extra(sub, "league", "the league method: a main agent against a league of its exploiters", missing)
        return

    league = sub.add_parser(
        "league",
        help="the league method: a main agent trained generation by generation against a league that keeps "
        "adding exploiters of it; each generation's learned-exploiter gain in generations.csv",
        description="Each generation: the main agent trains --main-steps decisions in self-play with the "
        "equilibrium recipe's regularisation, --pool-fraction of its seats drawn from the league (--baselines, "
        "past main snapshots, every exploiter), each game at a table size from --players (and in liars_dice_v0 "
        "a dice count from --dice); it is frozen; an exploiter started from it trains --exploiter-steps "
        "decisions against copies of it and plays them --eval-games fairly seated games at --eval-players; "
        "snapshot and exploiter join the league.  --resume continues after any stop (docs/league.md).",
    )
    league.add_argument("env", choices=envs.ENVS)
    add_config_options(league, LEAGUE, skip=("env", "env_options"))
    add_env_options(league)
    league.add_argument("--resume", action="store_true", help="continue the league in --out after any stop")
    league.add_argument("--no-progress", action="store_true", help="no progress bars")
    league.set_defaults(run=league_command)


def league_command(args: argparse.Namespace) -> int:
    from bidbluff.training.generations import LEAGUE
    from bidbluff.training.run import RunInterruptedError

    options = env_options(args)
    skip = {"env", "command", "run", "resume", "no_progress", "option", "env_options"}
    given = {k: v for k, v in vars(args).items() if k not in skip}
    if options:
        given["env_options"] = options
    out, config, _ = configured(LEAGUE, args, given)
    try:
        main_agent = LEAGUE.run(config, resume=args.resume, progress_bar=not args.no_progress)
    except RunInterruptedError as stopped:
        print(f"{stopped.signal_name}: the league stopped; {out} keeps what is done (--resume continues)", flush=True)
        return 130
    print(f"main agent: {main_agent}; per generation: {out / 'generations.csv'} (plot: bidbluff plot {out})")
    return 0


# -- plot -------------------------------------------------------------------------
def plot_parser(sub: Subparsers) -> None:
    plot = sub.add_parser(
        "plot",
        help="a training run's learning curves as PNGs (needs the plot extra)",
        description="Reads RUN_DIR/progress.csv and eval.csv and writes reward.png, "
        "win_share.png (each evaluation opponent with its 95%% CI band), losses.png and "
        "entropy.png.",
    )
    plot.add_argument("run_dir", metavar="RUN_DIR", help="a train or selfplay run's --out directory")
    plot.add_argument("--out", metavar="DIR", help="where the PNGs go (default RUN_DIR/plots)")
    plot.set_defaults(run=plot_command)


def plot_command(args: argparse.Namespace) -> int:
    from bidbluff.training.plot import plot_run

    for path in plot_run(args.run_dir, args.out):
        print(path)
    return 0


# -- the parser ------------------------------------------------------------------------
COMMANDS = (
    match_parser,
    tournament_parser,
    play_parser,
    replay_parser,
    exploitability_parser,
    evaluate_parser,
    export_parser,
    serve_parser,
    train_parser,
    selfplay_parser,
    league_parser,
    plot_parser,
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bidbluff", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    for add in COMMANDS:
        add(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except KeyboardInterrupt:  # Ctrl-C in a game, a tournament, a match: one line, no traceback
        parser.exit(130, f"\nbidbluff {args.command}: interrupted\n")
    except (ValueError, FileNotFoundError, agents.ForfeitError) as bad:  # bad options, agent specs, checkpoints,
        # a program that broke the agent protocol where no game can be forfeited (exploitability): say what
        parser.exit(2, f"bidbluff {args.command}: error: {bad}\n")
    except OSError as bad:  # a full disk, an unwritable --out: the path and the reason, in one line
        where = bad.filename if bad.filename is not None else "?"
        parser.exit(1, f"bidbluff {args.command}: error: {where}: {bad.strerror or bad}\n")
