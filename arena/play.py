"""Play a game in the terminal against agents (``bidbluff play``) and print a recorded one (``bidbluff replay``).

The table is always rendered from the human's seat (``render_view=seat``): another seat's hidden
dice or cards are never shown.  Between the human's turns the others' actions are printed in words
with who took them, as the browser table's log says them (``bidbluff.arena.web.views``: public calls read
"calls Liar!"); an action of a kind the game keeps secret (a card played face down, a card passed
in a draft) that the human cannot tell apart from the seat's other choices is named by its kind
only.  New entries of the engine's public log are printed before each prompt, and the dice a
decision depends on (Lying Pirates' sail die, Pirate/Treasure die, battle rolls) under the board.
The console takes the terminal's width (80 columns when writing to a file).
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any, TextIO

import numpy as np
from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from bidbluff import agents as agent_lib
from bidbluff import envs
from bidbluff.agents.base import ForfeitError, bind_all, seat_of
from bidbluff.agents.human import HumanAgent, PlayerQuitError
from bidbluff.arena import records
from bidbluff.arena.match import MAX_STEPS
from bidbluff.arena.web.views import view_of

SECRET_CHECKS = 12  # alternatives compared to decide whether the human could tell which action was taken


def default_opponent(env_name: str) -> str:
    """The shipped self-play checkpoint; the heuristic (or random) player where none is shipped."""
    if agent_lib.has_shipped(env_name):
        return "shipped"
    return "heuristic" if env_name in agent_lib.HEURISTICS else "random"


def parse_option(text: str) -> tuple[str, Any]:
    """``"map=extended"`` -> ``("map", "extended")``; values are JSON when they parse (``dice=2``, ``draft=true``)."""
    key, eq, value = text.partition("=")
    if not eq or not key.strip():
        raise ValueError(f"--option {text!r}: write key=value")
    try:
        parsed = json.loads(value)
    except json.JSONDecodeError:
        parsed = value
    return key.strip(), parsed


def visible_log(state: Any, seat: int | None) -> list[str]:
    """The engine log entries ``seat`` may read (Libertalia's are ``[reader, text]``, -1 = everyone; None: all)."""
    out = []
    for entry in getattr(state, "log", None) or []:
        if isinstance(entry, (list, tuple)) and len(entry) == 2 and isinstance(entry[0], int):
            if seat is None or entry[0] in (-1, seat):
                out.append(str(entry[1]))
        else:
            out.append(str(entry))
    return out


def new_entries(seen: list[str], now: list[str]) -> list[str]:
    """Entries of ``now`` after its longest prefix that ends ``seen`` (logs are trimmed at the front)."""
    for k in range(min(len(seen), len(now)), 0, -1):
        if now[:k] == seen[-k:]:
            return now[k:]
    return now


def is_secret(raw: Any, viewer: int, action: int) -> bool:
    """Whether ``viewer`` could not tell ``action`` from some other legal choice of the acting seat.

    Applies the action and up to ``SECRET_CHECKS`` alternatives to copies of the position (same
    dice and shuffles) and compares ``viewer``'s observations afterwards.
    """
    legal = [a for a in raw.legal_action_ids() if a != action][:SECRET_CHECKS]
    if not legal:
        return False
    game, state = raw.game, raw.game_state
    seat = seat_of(raw.agent_selection)

    def seen_after(action_id: int) -> np.ndarray:
        clone = state.clone()
        clone.apply(game.id_to_action(state, action_id, seat), copy.deepcopy(raw._rng))
        return game.encode(clone, viewer)

    taken = seen_after(action)
    return any(np.array_equal(taken, seen_after(other)) for other in legal)


def said(raw: Any, env_name: str, viewer: int | None, action: int) -> str:
    """``action`` of the acting seat (before it is applied) in words as ``viewer`` hears it (None: everything)."""
    view = view_of(env_name)
    kind = raw.game.codec.decode(action)[0]
    if (
        viewer is not None
        and kind in view.HIDDEN_KINDS
        and viewer != seat_of(raw.agent_selection)
        and is_secret(raw, viewer, action)
    ):
        return view.HIDDEN_KINDS[kind]
    return view.words(kind, raw.action_to_str(action))


def dice_lines(env_name: str, state: Any, seat: int | None) -> list[str]:
    """The dice on the table that a decision may hang on, from the browser board's view of ``state``."""
    board = view_of(env_name).board(state, seat)
    names = {c["captain"]: c["name"] for c in board.get("captains", ())}
    out = []
    if board.get("sail_die"):
        out.append(f"sail die: {board['sail_die']}")
    if board.get("pt"):
        pt = board["pt"]
        die = "Pirate" if pt["die"] == "P" else "Treasure"
        out.append(f"{die} die of {names.get(pt['roller'], pt['roller'])}: {pt['face']}")
    if board.get("rolls"):
        rolls = board["rolls"]
        shown = [
            f"{names.get(c, c)} {rolls['rolls'][c] if rolls['rolls'][c] >= 0 else '(to roll)'}"
            + (f" (crew {rolls['crew'][c]})" if rolls["crew"] else "")
            for c in rolls["rolling"]
        ]
        out.append("battle rolls: " + ", ".join(shown))
    if board.get("reroll"):
        out.append(f"to decide: reroll the {board['reroll']['die']} die for a coin, or keep it")
    return out


def rules_lookup(env_name: str, query: str) -> list[str]:
    """Rules texts of the game's cards, tiles, characters, dice and calls whose name holds ``query``
    (the browser table's glossary); an exact name alone when there is one."""
    wanted = " ".join(query.lower().split())
    entries: list[tuple[str, str]] = []

    def walk(part: Any, key: str = "") -> None:
        if isinstance(part, dict) and "text" in part:
            entries.append((str(part.get("name", key)), str(part["text"])))
        elif isinstance(part, dict):
            for k, v in part.items():
                if isinstance(v, str):
                    entries.append((str(k), v))
                else:
                    walk(v, str(k))
        elif isinstance(part, list):
            for v in part:
                walk(v)

    walk(view_of(env_name).GLOSSARY)
    if not wanted:
        return []
    exact = [(n, t) for n, t in entries if n.lower() == wanted]
    found = exact or [(n, t) for n, t in entries if wanted in n.lower()]
    return [f"{n}: {t}" if not t.lower().startswith(n.lower()) else t for n, t in dict.fromkeys(found)]


def _console(output: TextIO | None, width: int | None) -> Console:
    """stdout: the terminal's width and colours; a file: ``width`` (80 by default), no colour codes."""
    if output is None:
        return Console(width=width, highlight=False, soft_wrap=False)
    return Console(
        file=output, width=width or 80, highlight=False, color_system=None, force_terminal=False, soft_wrap=False
    )


def _board(text: str) -> Text:
    """A render with its ``a | b | c`` history lines broken one event a line, to fit narrow screens."""
    lines = []
    for line in text.splitlines():
        head, sep, rest = line.partition(": ")
        if " | " in rest:
            lines.append(head + sep)
            lines += ["  " + part for part in rest.split(" | ")]
        else:
            lines.append(line)
    return Text("\n".join(lines))


def play(
    env_name: str,
    seat: int = 0,
    opponents: list[str] | None = None,
    num_players: int | None = None,
    seed: int | None = None,
    env_options: dict[str, Any] | None = None,
    input: TextIO | None = None,
    output: TextIO | None = None,
    save: str | Path | None = None,
    width: int | None = None,
    max_steps: int = MAX_STEPS,
) -> dict[str, Any] | None:
    """A terminal game: the human in ``seat``, agent specs ``opponents`` (repeated to fill) elsewhere.

    Reads moves from ``input`` and writes to ``output`` (stdin/stdout by default).  Returns the game
    record (saved to ``save`` when given), or ``None`` when the player quit (``quit``, end of input,
    Ctrl-C).  A game past ``max_steps`` decisions (an opponent policy looping) is stopped and scored
    as it stands, like in matches.
    """
    console = _console(output, width)
    options = dict(env_options or {})
    game = envs.game(env_name, **options)
    n = num_players or game.default_players
    if not 0 <= seat < n:
        raise ValueError(f"--seat {seat}: seats are 0-{n - 1}")
    env = envs.make(env_name, num_players=n, render_mode="ansi", render_view=seat, **options)
    seed = int(np.random.SeedSequence().entropy % 2**31) if seed is None else seed
    specs = opponents or [default_opponent(env_name)]
    human = HumanAgent(input or sys.stdin, console, explain=lambda query: rules_lookup(env_name, query))
    players: list[Any] = []
    labels: list[str] = []
    others = 0
    for s in range(n):
        if s == seat:
            players.append(human)
            labels.append("human")
        else:
            spec = specs[others % len(specs)]
            others += 1
            players.append(agent_lib.make(spec, env_name=env_name, seed=seed * 100 + s))
            labels.append(spec)
    try:
        env.reset(seed=seed)
        raw = env.unwrapped
        bind_all(players, env)
        table = ", ".join(f"P{s}: {'you' if s == seat else labels[s]}" for s in range(n))
        console.print(
            f"{env_name}, {n} players, seed {seed}{f', options {options}' if options else ''} - {table}", markup=False
        )
        seen: list[str] = []
        actions: list[tuple[int, int]] = []
        forfeit: int | None = None

        def show_log() -> None:
            nonlocal seen
            now = visible_log(raw.game_state, seat)
            for line in new_entries(seen, now):
                console.print(f"  log: {line}", markup=False)
            seen = now

        for name in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            s = seat_of(name)
            if s == seat:
                show_log()
                console.print(Panel(_board(raw.render() or ""), title=f"your view (P{seat})", expand=False))
                for line in dice_lines(env_name, raw.game_state, seat):
                    console.print(line, style="bold yellow", markup=False)
                try:
                    action = human.ask()
                except (PlayerQuitError, KeyboardInterrupt):
                    console.print("\nYou left the game; it is not saved.")
                    return None
                console.print(f"you: {said(raw, env_name, None, action)}", style="green", markup=False)
            else:
                try:
                    action = int(players[s].act(observation, name))
                except ForfeitError as lost:  # a program that broke the protocol: the game ends, a loss for it
                    console.print(f"P{s} ({labels[s]}) forfeits: {lost.reason}", style="bold red", markup=False)
                    forfeit = s
                    break
                console.print(f"P{s} ({labels[s]}): {said(raw, env_name, seat, action)}", markup=False)
            actions.append((s, action))
            env.step(action)
            if len(actions) >= max_steps and not raw.game_state.is_terminal():
                console.print(f"The game is stopped after {max_steps} decisions and scored as it stands.")
                break
        show_log()
        state = raw.game_state
        truncated = not state.is_terminal()
        scores = list(state.scores())
        console.print(Panel(_board(raw.render() or ""), title=f"game over - your view (P{seat})", expand=False))
        best = max(scores)
        winners = [s for s, sc in enumerate(scores) if sc == best]
        if forfeit is not None:  # scored as in matches: a loss for the seat that forfeited, a shared win for the rest
            winners = [s for s in range(n) if s != forfeit]
        console.print(
            "scores: " + ", ".join(f"P{s}{' (you)' if s == seat else ''} {sc:g}" for s, sc in enumerate(scores))
        )
        console.print(
            "You win!"
            if winners == [seat]
            else ("You share the win." if seat in winners else f"Winner: {', '.join(f'P{w}' for w in winners)}.")
        )
        record = records.record_game(env_name, n, seed, actions, scores, {**options}, labels, truncated)
        if save:
            console.print(f"record saved to {records.save(record, save)}", markup=False)
        return record
    finally:
        for player in players:  # a program's process ends with the game
            close = getattr(player, "close", None)
            if close is not None:
                close()


def show_replay(
    record: dict[str, Any],
    view: int | str = 0,
    step: bool = False,
    input: TextIO | None = None,
    output: TextIO | None = None,
    width: int | None = None,
) -> Any:
    """Print a record move by move from ``view`` (a seat, or ``"all"``); ``step``: wait for Enter each move."""
    console = _console(output, width)
    records.check(record)
    if view != "all" and not 0 <= int(view) < record["num_players"]:
        raise ValueError(f"--seat {view}: the record has seats 0-{record['num_players'] - 1}")
    who = record.get("agents") or []
    seat = None if view == "all" else int(view)
    console.print(
        f"{record['env']}, {record['num_players']} players, seed {record['seed']}, options "
        f"{record['env_options']}, {len(record['actions'])} actions; view: "
        f"{'everything' if seat is None else f'P{seat}'}",
        markup=False,
    )
    note = records.proof_note(record)
    if note:
        console.print(note, markup=False)
    state_seen: list[str] = []

    def on_step(env: Any, s: int, action: int, text: str) -> None:
        nonlocal state_seen
        now = visible_log(env.game_state, seat)
        for line in new_entries(state_seen, now):
            console.print(f"  log: {line}", markup=False)
        state_seen = now
        if seat is None or s == seat:
            console.print(Panel(_board(env.render() or ""), expand=False))
            for line in dice_lines(record["env"], env.game_state, seat):
                console.print(line, style="bold yellow", markup=False)
        label = who[s] if s < len(who) else f"player_{s}"
        console.print(f"P{s} ({label}): {said(env, record['env'], seat, action)}", markup=False)
        if step and (input or sys.stdin).readline() == "":
            raise PlayerQuitError("end of input")

    try:
        env = records.replay(record, render_view=view, on_step=on_step)
    except PlayerQuitError:
        return None
    console.print(Panel(_board(env.render() or ""), title="final position", expand=False))
    console.print("scores: " + ", ".join(f"P{s} {sc:g}" for s, sc in enumerate(env.game_state.scores())))
    return env
