"""The README as a newcomer reads it: every python block runs as written; every command of a bash block
names a real ``bidbluff`` subcommand with flags it takes (parsed as ``--help`` would check them, not run:
most are minutes long), a ``make`` target the Makefile has, or a ``python -m`` module that exists."""

from __future__ import annotations

import importlib.util
import re
import shlex
from pathlib import Path

import pytest

from bidbluff.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
BLOCKS = re.findall(r"^```(\w+)\n(.*?)^```", README, flags=re.S | re.M)
PYTHON = [code for lang, code in BLOCKS if lang == "python"]
# Blocks that play whole games with search agents: seconds each, run with the slow suite.
SLOW_MARKERS = ("ismcts",)


def commands(code: str) -> list[str]:
    """The commands of a bash block: continuation lines joined, comments and ``[optional]`` parts cut."""
    joined = re.sub(r"\\\n\s*", " ", code)
    out = []
    for line in joined.splitlines():
        line = re.sub(r"\s#\s.*$|^#.*$", "", line).strip()
        line = re.sub(r"\s*\[[^\]]*\]", "", line)
        if line:
            out.append(line)
    return out


PARSER = build_parser()
BASH = [c for lang, code in BLOCKS if lang == "bash" for c in commands(code)]


def test_the_readme_has_blocks_to_check() -> None:
    assert PYTHON and BASH


@pytest.mark.parametrize(
    "code",
    [
        pytest.param(code, id=f"python{i}", marks=[pytest.mark.slow] if any(m in code for m in SLOW_MARKERS) else [])
        for i, code in enumerate(PYTHON)
    ],
)
def test_python_blocks_run_as_written(code: str, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    exec(compile(code, "README.md", "exec"), {"__name__": "__readme__"})


SHELL = ("source", ".", "python3", "tensorboard", "cd", "ray", "mkdir", "cp", "for")  # the shell's and other tools'


@pytest.mark.parametrize("command", BASH)
def test_bash_commands_name_what_exists(command: str) -> None:
    words = shlex.split(command)
    first = words[0]
    if first.endswith("bidbluff"):
        PARSER.parse_args(words[1:])  # argparse exits on an unknown subcommand or flag
    elif first == "make":
        targets = re.findall(r"^([\w-]+):", (ROOT / "Makefile").read_text(), flags=re.M)
        assert all(t in targets for t in words[1:]), f"{command}: the Makefile has {targets}"
    elif first.endswith("python") and words[1] == "-m":
        assert importlib.util.find_spec(words[2]) is not None, f"{command}: no module {words[2]}"
    elif first in SHELL or first.endswith(("pip", "pytest")):
        pass  # the shell's and other tools' own commands
    elif "=" in first:  # VAR=value command ...
        pass
    else:
        pytest.fail(f"README command not checked: {command}")
