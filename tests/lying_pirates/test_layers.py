"""Lying Pirates' wings, as a checked contract: the table stands on nothing above it, the engine on the table,
the saves on both; the modules that face the outside (the env, the codec, the board) may use them all.  No
import circles among the folder's modules.  Every import counts: at the top, under ``TYPE_CHECKING``, or
inside a function (docs/lying_pirates_engine.md)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bidbluff.envs import lying_pirates

PACKAGE = lying_pirates.__name__
FOLDER = Path(lying_pirates.__file__).parent
TABLE, ENGINE, SAVES, FACE = "table", "engine", "saves", "face"
WINGS = {
    TABLE: ("dice", "content", "crew", "betting", "frames", "table", "cards"),
    ENGINE: (
        "stages",
        "hooks",
        "movement",
        "rerolls",
        "battle",
        "betting_phase",
        "sailing",
        "windows",
        "effects",
        "action_phase",
        "final_battle",
        "setup_steps",
        "captains",
        "cities",
        "influence",
        "cargo",
        "variant_cards",
        "merchants",
        "options",
        "engine",
    ),
    SAVES: ("state_shapes", "stack_rules", "validation", "state"),
    FACE: ("setup", "action_codec", "observation", "encoder", "codec", "render", "env"),
}
WING_OF = {module: wing for wing, modules in WINGS.items() for module in modules}
# what each wing may import of the folder (its own wing's modules too)
MAY_IMPORT = {TABLE: {TABLE}, ENGINE: {TABLE, ENGINE}, SAVES: {TABLE, ENGINE, SAVES}, FACE: set(WINGS)}


def modules() -> list[str]:
    return sorted(p.stem for p in FOLDER.glob("*.py") if p.stem != "__init__")


def imports_of(module: str) -> set[str]:
    """The folder's modules ``module`` imports, wherever the import stands."""
    found = set()
    for node in ast.walk(ast.parse((FOLDER / f"{module}.py").read_text())):
        if isinstance(node, ast.ImportFrom) and node.module == PACKAGE:
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(PACKAGE + "."):
            found.add(node.module[len(PACKAGE) + 1 :].split(".")[0])
        elif isinstance(node, ast.Import):
            found |= {a.name[len(PACKAGE) + 1 :].split(".")[0] for a in node.names if a.name.startswith(PACKAGE + ".")}
    return found & set(modules())


def test_every_module_belongs_to_one_wing():
    assert sorted(WING_OF) == modules()
    assert sum(len(m) for m in WINGS.values()) == len(WING_OF)


@pytest.mark.parametrize("module", modules())
def test_a_module_imports_nothing_of_a_wing_above_its_own(module):
    wing = WING_OF[module]
    above = {m: WING_OF[m] for m in sorted(imports_of(module)) if WING_OF[m] not in MAY_IMPORT[wing]}
    assert not above, f"{module} ({wing}) imports from a wing above it: {above}"


def test_no_import_circle_among_the_modules():
    graph = {m: imports_of(m) for m in modules()}
    done: set[str] = set()

    def visit(m: str, path: list[str]) -> None:
        if m in path:
            raise AssertionError(f"import circle: {' -> '.join([*path[path.index(m) :], m])}")
        if m in done:
            return
        for n in sorted(graph[m]):
            visit(n, [*path, m])
        done.add(m)

    for m in graph:
        visit(m, [])


def test_the_check_sees_imports_under_type_checking_and_inside_functions(tmp_path, monkeypatch):
    source = f"""from typing import TYPE_CHECKING
if TYPE_CHECKING:
    from {PACKAGE}.state import LyingPiratesState
def f():
    from {PACKAGE} import engine
    import {PACKAGE}.validation
"""
    (tmp_path / "probe.py").write_text(source)
    monkeypatch.setattr(f"{__name__}.FOLDER", tmp_path)
    for name in ("state", "engine", "validation"):
        (tmp_path / f"{name}.py").write_text("")
    assert imports_of("probe") == {"state", "engine", "validation"}
