"""A person at the keyboard: lists the legal moves in words and reads a choice.

``HumanAgent(input, console)`` follows the agent protocol (``act(observation, agent)``) and needs
the env (``bind(env)``) to name the moves.  A move is picked by its number in the list or by its
name (case and spaces ignored, an unambiguous prefix is enough).  Bad input gets a message and the
same prompt again; ``quit`` or the end of the input raises ``PlayerQuitError``.
"""

from __future__ import annotations

from typing import Any, TextIO

from rich.columns import Columns
from rich.console import Console
from rich.text import Text

QUIT_WORDS = ("quit", "exit", "q")
HELP_WORDS = ("?", "help", "moves")


class PlayerQuitError(Exception):
    """The player quit (``quit`` or end of input)."""


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def parse_choice(env: Any, text: str) -> int:
    """The legal action id ``text`` names: a 1-based number, a full name or an unambiguous prefix."""
    raw = env.unwrapped
    legal = raw.legal_action_ids()
    wanted = _norm(text)
    if not wanted:
        raise ValueError("type a move's number or its name ('?' lists the moves, 'quit' leaves)")
    if wanted.lstrip("-").isdigit():
        number = int(wanted)
        if not 1 <= number <= len(legal):
            raise ValueError(f"{number} is not a move number: choose 1-{len(legal)}")
        return legal[number - 1]
    try:
        return raw.str_to_action(text)
    except ValueError:
        pass
    names = {a: _norm(raw.action_to_str(a)) for a in legal}
    matches = [a for a, name in names.items() if name.startswith(wanted)]
    if len(matches) == 1:
        return matches[0]
    if matches:
        shown = ", ".join(raw.action_to_str(a) for a in matches[:8])
        raise ValueError(f"{text.strip()!r} is ambiguous: it starts {len(matches)} moves ({shown}"
                         f"{', ...' if len(matches) > 8 else ''}); type more of it or its number")  # fmt: skip
    raise ValueError(f"{text.strip()!r} is not a legal move now ('?' lists the moves)")


class HumanAgent:
    """Asks a person (through ``input`` / ``console``) for each decision."""

    name = "human"
    needs_env = True

    def __init__(self, input: TextIO, console: Console) -> None:
        self.input = input
        self.console = console
        self.env: Any = None

    def bind(self, env: Any) -> None:
        self.env = env

    def reset(self) -> None:
        pass

    def show_moves(self) -> None:
        raw = self.env.unwrapped
        items = [f"{i:>3}. {raw.action_to_str(a)}" for i, a in enumerate(raw.legal_action_ids(), 1)]
        if len(items) <= 12:
            for item in items:
                self.console.print(item, markup=False, highlight=False)
        else:
            self.console.print(Columns([Text(i) for i in items], padding=(0, 3), column_first=True))

    def ask(self) -> int:
        """Prompt until a legal move is chosen; ``PlayerQuitError`` on quit or end of input."""
        if self.env is None:
            raise RuntimeError("HumanAgent.act before bind(env)")
        self.show_moves()
        while True:
            self.console.print("your move (number or name, '?' for the list, 'quit'): ", end="", markup=False)
            line = self.input.readline()
            if not line:
                self.console.print()
                raise PlayerQuitError("end of input")
            text = line.strip()
            if _norm(text) in QUIT_WORDS:
                raise PlayerQuitError("quit")
            if _norm(text) in HELP_WORDS:
                self.show_moves()
                continue
            try:
                return parse_choice(self.env, text)
            except ValueError as bad:
                self.console.print(f"  ! {bad}", markup=False, highlight=False)

    def act(self, observation: Any, agent: str) -> int:
        return self.ask()
