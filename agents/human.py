"""A person at the keyboard: lists the legal moves in words and reads a choice.

``HumanAgent(input, console)`` follows the agent protocol (``act(observation, agent)``) and needs
the env (``bind(env)``) to name the moves.  A move is typed

- by name or value, as the move list words it, case, spaces and punctuation ignored: ``bid 5x3``,
  ``5x3``, ``bid 5 3``, ``5 3``, ``liar``, ``Liar!``, ``exactly 4x2``, ``gunner``, ``15``, ``stake 2``.
  The leading verb may be left out, a word may be shortened (``gun``), and a number is always a
  value, never a place in the list: at Spytails' forecast ``2`` bids 2;
- or by its place in the list with ``#``: ``#2``.

A text that fits several moves is refused with the moves it fits.  ``?`` lists the moves again,
``? <name>`` prints the rules text of a card, tile, character or die (from ``rules_lookup``),
``quit`` or the end of the input raises ``PlayerQuitError``.  Reading from a terminal uses
``readline`` (line editing and history).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from typing import Any, TextIO

from rich.columns import Columns
from rich.console import Console
from rich.text import Text

QUIT_WORDS = ("quit", "exit", "q")
HELP_WORDS = ("?", "help", "moves")
# Words said at the table for what the move list names otherwise.
SYNONYMS = {"exactly": "exact"}
# The verb a bare value means where several verbs take it: "5x3" bids, "exactly 5x3" must say so.
VALUE_VERBS = ("bid",)
RUN_AT_LEAST = 4  # consecutive moves that differ only in their numbers are shown as one range from this many
PROMPT = "your move (name or value, #N: N-th listed, ?: moves, ? NAME: rules, quit): "


class PlayerQuitError(Exception):
    """The player quit (``quit`` or end of input)."""


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def tokens(text: str) -> list[str]:
    """Words and numbers of a move's name, lower case; ``x`` between numbers (``5x3``) is no word."""
    found = re.findall(r"\d+|[a-z]+", text.lower())
    return [SYNONYMS.get(t, t) for t in found if t != "x"]


def _fits(wanted: list[str], name: list[str]) -> bool:
    """``wanted`` appears in ``name`` as consecutive tokens: numbers whole, a word's beginning enough."""
    for start in range(len(name) - len(wanted) + 1):
        if all(w == t if w.isdigit() else t.startswith(w) for w, t in zip(wanted, name[start:], strict=False)):
            return True
    return False


def parse_choice(env: Any, text: str) -> int:
    """The legal action id ``text`` names (see the module docstring for what may be typed)."""
    raw = env.unwrapped
    legal = raw.legal_action_ids()
    wanted = _norm(text)
    if not wanted:
        raise ValueError(
            "type a move's name or value, or #N for the N-th in the list ('?' lists the moves, 'quit' leaves)"
        )
    if wanted.startswith("#"):
        number = wanted[1:].strip()
        if not number.isdigit() or not 1 <= int(number) <= len(legal):
            raise ValueError(f"{text.strip()!r} is not a place in the list: choose #1-#{len(legal)}")
        return legal[int(number) - 1]
    try:
        action = raw.str_to_action(text)
        if action in legal:
            return action
    except ValueError:
        pass
    typed = tokens(text)
    if not typed:
        raise ValueError(f"{text.strip()!r} is not a legal move now ('?' lists the moves)")
    names = {a: tokens(raw.action_to_str(a)) for a in legal}
    matches = [a for a, name in names.items() if typed == name]
    if not matches:
        matches = [a for a, name in names.items() if typed == name[1:]]  # the value without its verb
        if len(matches) > 1:  # "5x3" where "bid 5x3" and "exactly 5x3" are legal: the bid
            matches = [a for a in matches if names[a][0] in VALUE_VERBS] or matches
    if not matches:
        matches = [a for a, name in names.items() if _fits(typed, name)]
    if len(matches) == 1:
        return matches[0]
    if matches:
        shown = ", ".join(raw.action_to_str(a) for a in matches[:8])
        raise ValueError(
            f"{text.strip()!r} fits {len(matches)} moves ({shown}{', ...' if len(matches) > 8 else ''})"
            f"; type more of it, or #N for the N-th in the list"
        )
    raise ValueError(f"{text.strip()!r} is not a legal move now ('?' lists the moves)")


def move_list(names: list[str], ids: list[int] | None = None) -> list[str]:
    """The numbered move list; a run of ``RUN_AT_LEAST`` or more moves with consecutive action ``ids``
    that differ only in their numbers (Lying Pirates' bids, Spytails' stakes) is one line:
    ``#3-#150  bid 1x4 ... bid 30x6 (148 moves)`` (no gap hides in it)."""
    shape = [re.sub(r"\d+", "#", name) for name in names]
    ids = list(range(len(names))) if ids is None else ids
    out = []
    i = 0
    while i < len(names):
        j = i
        while j + 1 < len(names) and shape[j + 1] == shape[i] and ids[j + 1] == ids[j] + 1:
            j += 1
        if j - i + 1 >= RUN_AT_LEAST:
            out.append(f"#{i + 1}-#{j + 1}  {names[i]} ... {names[j]} ({j - i + 1} moves)")
            i = j + 1
        else:
            out.append(f"#{i + 1}  {names[i]}")
            i += 1
    return out


class HumanAgent:
    """Asks a person (through ``input`` / ``console``) for each decision.

    ``explain(query)``: the rules text for ``? NAME`` (a list of lines; none found: empty).
    """

    name = "human"
    needs_env = True

    def __init__(self, input: TextIO, console: Console, explain: Callable[[str], list[str]] | None = None) -> None:
        self.input = input
        self.console = console
        self.explain = explain
        self.env: Any = None
        # A person at a terminal gets line editing and history; scripted input is read as it is.
        self.editing = input is sys.stdin and input.isatty()
        if self.editing:
            import readline  # noqa: F401  (input() edits lines once it is loaded)

    def bind(self, env: Any) -> None:
        self.env = env

    def reset(self) -> None:
        pass

    def show_moves(self) -> None:
        raw = self.env.unwrapped
        legal = raw.legal_action_ids()
        items = [Text(item, style="cyan") for item in move_list([raw.action_to_str(a) for a in legal], legal)]
        if len(items) <= 12:
            for item in items:
                self.console.print(item)
        else:
            self.console.print(Columns(items, padding=(0, 3), column_first=True))

    def _read(self) -> str | None:
        if self.editing:
            try:
                return input(PROMPT)
            except EOFError:
                return None
        self.console.print(PROMPT, end="", markup=False, highlight=False)
        line = self.input.readline()
        if line:  # a script's answer is not echoed by a terminal: the transcript shows it
            self.console.print(line.rstrip("\n"), markup=False, highlight=False)
        return line if line else None

    def ask(self) -> int:
        """Prompt until a legal move is chosen; ``PlayerQuitError`` on quit or end of input."""
        if self.env is None:
            raise RuntimeError("HumanAgent.act before bind(env)")
        self.show_moves()
        while True:
            line = self._read()
            if line is None:
                self.console.print()
                raise PlayerQuitError("end of input")
            text = line.strip()
            if _norm(text) in QUIT_WORDS:
                raise PlayerQuitError("quit")
            if _norm(text) in HELP_WORDS:
                self.show_moves()
                continue
            if text.startswith("?"):
                self.show_rules(text[1:].strip())
                continue
            try:
                return parse_choice(self.env, text)
            except ValueError as bad:
                self.console.print(f"  ! {bad}", style="red", markup=False, highlight=False)

    def show_rules(self, query: str) -> None:
        lines = self.explain(query) if self.explain else []
        if not lines:
            self.console.print(f"  ! no card, tile, character or die is called {query!r}", style="red", markup=False)
        for line in lines:
            self.console.print(f"  {line}", markup=False, highlight=False)

    def act(self, observation: Any, agent: str) -> int:
        return self.ask()
