"""Ship a trained checkpoint as the env's default opponent, and measure it as the README reports it.

    python -m bidbluff.training.ship runs/ship-libertalia/final.zip --games 2000

copies the checkpoint to ``checkpoints/<game>/selfplay.zip`` (+ sidecar) in the
``ActorCritic`` format (``bidbluff.agents.policy``; an old stable-baselines3 checkpoint
is converted on the way) without its optimizer state (a third of the size; the
weights are what plays), then
plays the tournaments of the shipping targets, fairly seated over duplicate
deals (``bidbluff.arena.seating``): at 4 players heuristic vs 3 random, shipped vs 3
random, shipped vs 3 heuristic, and for ``liars_dice_v0`` also shipped vs
heuristic head to head at 2 players.  Their rows go into the sidecar
(``"tournaments"``) and a Markdown table is printed; each row names the
``bidbluff tournament`` command that reproduces it and its seating design.

    python -m bidbluff.training.ship checkpoints/libertalia/selfplay.zip --remeasure

plays them again for a checkpoint already shipped, in place.  ``--retire 2026-12`` first keeps the network
shipped now as ``checkpoints/<game>/shipped@2026-12.zip``, the agent spec ``shipped@2026-12``.

    python -m bidbluff.training.ship runs/eq/lp-seed0/final.zip --equilibrium ppo-2p1d

ships an equilibrium recipe's network at 2 players x 1 die under its spec name instead
(``bidbluff.agents.shipped.EQUILIBRIUM``): its exact exploitability as the spec plays it (sampled) goes into
the sidecar (``"exploitability"``), with the command that measures it again.
"""

from __future__ import annotations

import argparse
import json
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bidbluff import agents as agent_lib
from bidbluff.agents.policy import load_network, read_sidecar, save_checkpoint, write_sidecar

# (hero, villain, players): the hero sits with players - 1 copies of the villain
LINEUPS = (("heuristic", "random", 4), ("shipped", "random", 4), ("shipped", "heuristic", 4))
EXTRA_LINEUPS = {"liars_dice_v0": (("shipped", "heuristic", 2),)}  # issue 15's head-to-head target


def export(source: str | Path, env_name: str | None = None, dest: str | Path | None = None) -> Path:
    """Copy checkpoint ``source`` (either format) to ``dest`` (default: the env's shipped path) in the
    ``ActorCritic`` format, without optimizer state."""
    net, meta, _ = load_network(source, env_name)
    dest = Path(dest) if dest is not None else agent_lib.shipped_path(meta["env"])
    dest.parent.mkdir(parents=True, exist_ok=True)
    meta = {**meta, "exported_from": str(source), "optimizer_state": "dropped (weights only)"}
    return save_checkpoint(dest, net, meta)


def retire(env_name: str, version: str) -> Path:
    """Keep the network ``env_name`` ships now as ``shipped@version`` (zip and sidecar as they are) before a new
    one replaces it, so that comparisons with it can still be played."""
    current, kept = agent_lib.shipped_path(env_name), agent_lib.retired_path(env_name, version)
    if not current.is_file():
        raise ValueError(f"{env_name} ships no network to retire ({current} does not exist)")
    if kept.exists():
        raise ValueError(f"{kept} exists already: shipped@{version} names another network")
    for suffix in (".json", ".zip"):
        shutil.copy2(current.with_suffix(suffix), kept.with_suffix(suffix))
    return kept


def ship_equilibrium(source: str | Path, name: str) -> dict[str, Any]:
    """Ship ``source`` as equilibrium spec ``name``; returns the exploitability block written to its sidecar."""
    from bidbluff.training.exploitability import measure as exact

    if name not in agent_lib.EQUILIBRIUM:
        raise ValueError(f"--equilibrium {name}: one of {', '.join(agent_lib.EQUILIBRIUM)}")
    trained = read_sidecar(source, "liars_dice_v0")
    options = trained.get("env_options") or {}
    if trained.get("num_players") != 2 or options.get("dice") != 1:
        raise ValueError(f"{source}: an equilibrium spec is a 2 players x 1 die network, not {options}")
    preset = options.get("preset", "lying_pirates")
    if (preset == "classic") != name.endswith("-classic"):
        raise ValueError(f"{source} was trained under the {preset} rules; {name} is not their spec")
    path = export(source, dest=agent_lib.EQUILIBRIUM[name])
    result, _ = exact(name, dice=1, preset=preset)
    block = {
        "exploitability": result.exploitability,
        "nash_conv": result.nash_conv,
        "first_seat_value": result.on_policy[0],
        "preset": preset,
        "played": "sampled (the spec's default)",
        "command": f"bidbluff exploitability liars_dice_v0 --agent {name} --preset {preset}",
        "trained": {
            key: trained[key] for key in ("steps", "options", "exploitability", "average", "created") if key in trained
        },
    }
    meta = read_sidecar(path)
    meta["exploitability"] = block
    write_sidecar(path, meta)
    return block


def small_table(path: Path) -> dict[str, Any]:
    """A Liar's dice network's exact exploitability at 2 players x 1 die under both rules, sampled and greedy
    (the issue's bar is the sampled one under Lying Pirates' rules; the ``shipped`` spec plays greedy)."""
    from bidbluff.training.exploitability import measure as exact

    block: dict[str, Any] = {}
    for preset in ("lying_pirates", "classic"):
        for mode in ("sample", "greedy"):
            result, _ = exact(f"{path}:{mode}", dice=1, preset=preset)
            block[f"{preset} {mode}"] = round(result.exploitability, 5)
    block["command"] = "bidbluff exploitability liars_dice_v0 --agent shipped:sample --preset lying_pirates"
    return block


def lineups(env_name: str) -> tuple[tuple[str, str, int], ...]:
    return LINEUPS + EXTRA_LINEUPS.get(env_name, ())


def command(env_name: str, hero: str, villain: str, players: int, games: int, seed: int) -> str:
    villains = villain if players == 2 else f"{villain}*{players - 1}"
    return (
        f"bidbluff tournament {env_name} --agents {hero},{villains} --players {players} --games {games} --seed {seed}"
    )


def lineup_name(hero: str, villain: str, players: int) -> str:
    return f"{hero} vs {villain} (2 players)" if players == 2 else f"{hero} vs {players - 1} {villain}"


def measure(
    env_name: str, games: int, seed: int = 1, path: Path | None = None, known: Sequence[dict[str, Any]] = ()
) -> list[dict[str, Any]]:
    """The shipping tournaments (see the module docstring); ``path`` stands for ``shipped``.  A row of
    ``known`` with the same command and seating design is taken as it is when the lineup has no shipped
    agent (its result does not depend on the checkpoint)."""
    from bidbluff.arena import seating
    from bidbluff.arena.tournament import run_tournament

    rows = []
    for hero, villain, players in lineups(env_name):
        run = command(env_name, hero, villain, players, games, seed)
        design = seating.design(players, seed).name
        same = [r for r in known if r.get("command") == run and r.get("seating") == design]
        if same and hero != "shipped":
            rows.append({**same[0], "reused": True})
            print(json.dumps(rows[-1]), flush=True)
            continue
        spec = str(path) if hero == "shipped" and path is not None else hero
        result = run_tournament(env_name, [spec] + [villain] * (players - 1), games, players, seed=seed)
        row = result.rows()[0]
        rows.append(
            {
                "lineup": lineup_name(hero, villain, players),
                "games": row["games"],
                "win_share": row["win_share"],
                "ci_low": row["ci_low"],
                "ci_high": row["ci_high"],
                "mean_score": row["mean_score"],
                "rating_ordinal": row["rating_ordinal"],
                "seconds": round(result.seconds, 1),
                "seating": result.seating["design"],
                "command": run,
            }
        )
        print(json.dumps(rows[-1]), flush=True)
    return rows


def table(env_name: str, rows: list[dict[str, Any]]) -> str:
    lines = [f"| {env_name} | lineup | games | win share | 95% CI |", "|---|---|--:|--:|--:|"]
    for row in rows:
        lines.append(
            f"| | {row['lineup']} | {row['games']} | {row['win_share']:.3f} | "
            f"{row['ci_low']:.3f}–{row['ci_high']:.3f} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bidbluff.training.ship",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("checkpoint", help="the run's checkpoint to ship (x.zip, x.json or x)")
    parser.add_argument(
        "--equilibrium",
        choices=sorted(agent_lib.EQUILIBRIUM),
        help="ship a 2 players x 1 die network of the equilibrium recipe under this spec, with its exact "
        "exploitability, instead of the env's shipped opponent",
    )
    parser.add_argument(
        "--remeasure",
        action="store_true",
        help="play the tournaments again for this checkpoint where it is, without exporting it "
        "(rows of the same command and seating design are still reused with --keep-baseline)",
    )
    parser.add_argument("--games", type=int, default=2000, help="games per tournament (default 2000)")
    parser.add_argument("--seed", type=int, default=1, help="first deal's seed (default 1)")
    parser.add_argument("--dest", help="where to write it (default checkpoints/<game>/selfplay.zip)")
    parser.add_argument(
        "--retire",
        metavar="VERSION",
        help="first keep the network shipped now as the spec shipped@VERSION (e.g. 2026-12)",
    )
    parser.add_argument(
        "--keep-baseline",
        action="store_true",
        help="take the heuristic vs 3 random row from the checkpoint this one replaces when it "
        "was played with the same games and seed (no checkpoint plays in it)",
    )
    args = parser.parse_args(argv)
    if args.equilibrium:
        print(json.dumps(ship_equilibrium(args.checkpoint, args.equilibrium), indent=1))
        return 0
    env_name = read_sidecar(args.checkpoint)["env"]
    if args.remeasure and args.dest:
        parser.error("--remeasure measures the checkpoint where it is: no --dest")
    if args.retire:
        if args.remeasure or args.dest:
            parser.error("--retire keeps the network the env ships now: not with --remeasure or --dest")
        print(f"kept the network shipped now as shipped@{args.retire}: {retire(env_name, args.retire)}")
    before = Path(args.checkpoint) if args.remeasure else Path(args.dest or agent_lib.shipped_path(env_name))
    known = read_sidecar(before, env_name).get("tournaments", []) if args.keep_baseline and before.exists() else []
    path = before if args.remeasure else export(args.checkpoint, dest=args.dest)
    meta = read_sidecar(path)
    rows = measure(meta["env"], args.games, args.seed, path, known)
    meta["tournaments"] = rows
    if meta["env"] == "liars_dice_v0":
        meta["exploitability_2p1d"] = small_table(path)
        print(json.dumps({"exploitability_2p1d": meta["exploitability_2p1d"]}), flush=True)
    write_sidecar(path, meta)  # (the zip's size and hash are recomputed)
    print(table(meta["env"], rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
