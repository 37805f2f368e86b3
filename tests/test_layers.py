"""The layering of the house, as a checked contract: the command line (``bidbluff.cli``) stands above training,
training above the arena, the arena above the agents, the agents above the envs, and no import runs back up
a layer or around a circle.  Every import counts: at the top, inside a function, under ``TYPE_CHECKING``.

``python -m tests.test_layers`` prints the figures: modules, imports, imports running back up, circles."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = {"envs": "bidbluff.envs", "agents": "bidbluff.agents", "arena": "bidbluff.arena",
           "training": "bidbluff.training", "bidbluff": "bidbluff"}  # fmt: skip
LAYERS = ("bidbluff.envs", "bidbluff.agents", "bidbluff.arena", "bidbluff.training", "bidbluff.cli")
TOP = ("bidbluff.cli", "bidbluff.__main__")  # the command line's layer
# (Lying Pirates' own wings, the table below the engine below the saves, are checked by
# tests/lying_pirates/test_layers.py.)


def modules() -> dict[str, Path]:
    found = {}
    for folder, package in FOLDERS.items():
        for path in (ROOT / folder).rglob("*.py"):
            parts = [p for p in path.relative_to(ROOT / folder).with_suffix("").parts if p != "__init__"]
            found[".".join([package, *parts])] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The project modules ``name`` imports (``from pkg import submodule`` is an import of the submodule)."""
    out = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name in known}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join([*package.split(".")[: len(package.split(".")) - node.level + 1], base]).strip(".")
            for alias in node.names:
                target = f"{base}.{alias.name}"
                out.add(target if target in known else base)
    return {m for m in out if m in known and m != name}


def layer(name: str) -> int:
    if name in TOP:
        return len(LAYERS) - 1
    ranks = [i for i, prefix in enumerate(LAYERS) if name == prefix or name.startswith(prefix + ".")]
    return ranks[-1] if ranks else -1  # bidbluff itself (the version) stands below everything


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected groups of more than one module (each holds a circle of imports)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def upward(edges: dict[str, set[str]]) -> list[tuple[str, str]]:
    return sorted((a, b) for a, targets in edges.items() for b in targets if layer(b) > layer(a))


def test_no_import_runs_back_up_a_layer():
    assert upward(graph()) == []


def test_no_circle_of_imports():
    assert circles(graph()) == []


@pytest.mark.parametrize(
    ("source", "bad"),
    [
        ("from bidbluff.training.run import Run\n", "bidbluff.training.run"),
        ("if TYPE_CHECKING:\n    from bidbluff.arena import match\n", "bidbluff.arena.match"),
        ("def f():\n    from bidbluff import cli\n", "bidbluff.cli"),
    ],
)
def test_the_check_sees_every_kind_of_import(tmp_path, source, bad):
    path = tmp_path / "mod.py"
    path.write_text(source)
    edges = {"bidbluff.envs.core.mod": imports("bidbluff.envs.core.mod", path, modules())}
    assert upward(edges) == [("bidbluff.envs.core.mod", bad)]


if __name__ == "__main__":
    edges = graph()
    print(f"modules {len(edges)}, imports {sum(map(len, edges.values()))}, running back up {len(upward(edges))}")
    for group in circles(edges):
        print(f"circle of {len(group)}: {', '.join(group)}")
