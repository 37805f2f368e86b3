"""Run a bench script with ``bidbluff`` and ``bidbluff.envs`` imported from another source tree.

``python bench/tree_import.py TREE SCRIPT ARGS...``: the editable install maps
``bidbluff.envs`` to this checkout's ``envs/`` whatever ``PYTHONPATH`` says, so
a worker that is to measure the envs of TREE (a ``git worktree`` of another
commit) first binds the two packages to TREE's folders, as the build's
``package-dir`` does, then runs SCRIPT as ``__main__``.  Their submodules then
follow from the packages' ``__path__``.
"""

from __future__ import annotations

import importlib.util
import runpy
import sys
from pathlib import Path

PACKAGES = (("bidbluff", "bidbluff"), ("bidbluff.envs", "envs"))  # name -> folder of the tree


def bind(tree: Path) -> None:
    """Import the ``PACKAGES`` from ``tree``; a later ``import bidbluff.envs...`` finds them there."""
    for name, folder in PACKAGES:
        where = tree / folder
        spec = importlib.util.spec_from_file_location(
            name, where / "__init__.py", submodule_search_locations=[str(where)]
        )
        if spec is None or spec.loader is None:
            raise ImportError(f"{where} is not a package folder")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)


def main() -> None:
    tree, script = Path(sys.argv[1]).resolve(), sys.argv[2]
    bind(tree)
    sys.argv = sys.argv[2:]
    runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main()
