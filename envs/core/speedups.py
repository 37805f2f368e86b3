"""Which path the observation encoders (and the betting env's deal) take: the compiled kernels, or the pure-Python
reference.

The encoders of every game gather their values in Python and end in a few numpy
calls (``Layout.encode``, Libertalia's last lines) or, for the betting env, a few
dozen single writes.  ``_speedups`` (``envs/core/_speedups.c``, built by
``setup.py`` at install) does those ends in one C call each; the betting env's
whole observation is one C call, and so is Lying Pirates' base-game gathering with
its ``Layout.encode`` (``lying_pirates``) and Spytails' whole gathering and writing
(``spytails``); the betting env's deal draws its dice through ``bounded`` (numpy's
bounded integers from the same bit-generator outputs).  The pure-Python code stays
beside each kernel as the reference: ``tests/test_speedups.py`` compares both
paths, byte for byte, on random states of every env and option table.

- ``BIDBLUFF_PURE_PYTHON=1`` in the environment (read at import) selects the
  pure-Python path everywhere.
- Without the built module (an install where no C compiler was found: the
  extension is optional, so the install itself succeeds) the envs take the
  pure-Python path, with one ``RuntimeWarning`` saying so: the observations are
  the same, only slower.  ``make test`` fails in that case
  (``tests/test_speedups.py``), so a checkout whose build broke does not pass
  its tests silently slow.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

ENV_VAR = "BIDBLUFF_PURE_PYTHON"
PURE_PYTHON = os.environ.get(ENV_VAR, "").strip().lower() not in ("", "0", "false", "no")


def _load() -> tuple[ModuleType | None, str]:
    try:
        from bidbluff.envs.core import _speedups
    except ImportError as error:
        return None, str(error)
    return _speedups, ""


kernels, missing = _load()
if kernels is None and not PURE_PYTHON:
    warnings.warn(
        "bidbluff's compiled observation kernels (bidbluff.envs.core._speedups) are not built "
        f"({missing}); the envs use the pure-Python encoders, which give the same observations more slowly. "
        "Reinstall with a C compiler and Python's headers present (pip install -e .), or set "
        f"{ENV_VAR}=1 to choose the pure-Python path and silence this warning.",
        RuntimeWarning,
        stacklevel=2,
    )


# What the encoders call, read at every call: the kernels, or None for the pure-Python path.
active: ModuleType | None = None if PURE_PYTHON else kernels


def compiled() -> bool:
    """Whether the encoders use the compiled kernels (built, and not turned off by ``BIDBLUFF_PURE_PYTHON``)."""
    return active is not None


@contextmanager
def python_path() -> Iterator[None]:
    """Within the block, every encoder takes its pure-Python path (the reference the tests compare with)."""
    global active
    kept, active = active, None
    try:
        yield
    finally:
        active = kept
