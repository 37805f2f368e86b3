"""The one namespace: every package of the repository's folders is built into ``bidbluff``, nothing in the
project imports or runs a module by its pre-namespace top-level name, and the shipped files are package data."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

import pytest

import bidbluff

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = {
    "envs": "bidbluff.envs",
    "agents": "bidbluff.agents",
    "arena": "bidbluff.arena",
    "training": "bidbluff.training",
    "checkpoints": "bidbluff.checkpoints",
    "bidbluff": "bidbluff",
}
OLD = ("envs", "agents", "training", "arena")


def tracked(suffixes: tuple[str, ...]) -> list[Path]:
    skip = {".git", ".venv", "runs", "build", "node_modules", "__pycache__"}
    return [p for p in ROOT.rglob("*") if p.is_file() and p.suffix in suffixes and not skip & set(p.parts)]


def test_every_package_is_built():
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert setuptools["package-dir"] == {name: folder for folder, name in FOLDERS.items()}
    found = set()
    for folder, name in FOLDERS.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            parts = init.parent.relative_to(ROOT / folder).parts
            found.add(".".join((name, *parts)))
    assert set(setuptools["packages"]) == found


@pytest.mark.parametrize("path", tracked((".py",)), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_import_by_a_pre_namespace_name(path):
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
        if isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module or ""]
        for name in names:
            assert name.split(".")[0] not in OLD, f"{path}:{node.lineno} imports {name}; use bidbluff.{name}"


def test_no_module_run_or_named_by_a_pre_namespace_path():
    pattern = re.compile(rf"""(-m\s+|"-m",\s*"|import_module\(f?"|__import__\("|setattr\(")({"|".join(OLD)})\.""")
    bad = [
        f"{p.relative_to(ROOT)}:{n}"
        for p in [*tracked((".py", ".md", ".toml")), ROOT / "Makefile"]
        for n, line in enumerate(p.read_text().splitlines(), 1)
        if pattern.search(line)
    ]
    assert not bad


def test_the_shipped_files_are_package_data():
    import bidbluff.checkpoints
    from bidbluff import agents

    assert agents.CHECKPOINTS.resolve() == Path(bidbluff.checkpoints.__file__).resolve().parent
    for env_name in ("liars_dice_v0", "libertalia_v0", "lying_pirates_v0", "spytails_v0"):
        assert agents.has_shipped(env_name)
    assert agents.CFR_TABLE.is_file()


def test_version():
    assert re.fullmatch(r"\d+\.\d+\.\d+.*", bidbluff.__version__)
