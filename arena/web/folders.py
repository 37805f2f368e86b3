"""The folders the browser table may read: records (``--records``), checkpoints shipped with the package
and those of ``--runs``.  A path from a request is resolved (``..`` and symlinks) before it is checked, and
the refusal of a path outside them is the same whether or not it exists there."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bidbluff.arena.web.guard import BadRequestError


@dataclass(frozen=True)
class Folder:
    label: str  # how the page names it: "records", "runs", "shipped"
    path: Path  # resolved

    @classmethod
    def of(cls, label: str, path: str | Path) -> Folder:
        return cls(label, Path(path).expanduser().resolve())


def inside(path: Path, folders: tuple[Folder, ...]) -> Folder | None:
    """The folder that holds ``path`` (already resolved), if any."""
    return next((f for f in folders if path == f.path or path.is_relative_to(f.path)), None)


def resolve(given: str, folders: tuple[Folder, ...], what: str, suffixes: tuple[str, ...] = ("",)) -> Path:
    """The file ``given`` names inside one of ``folders``: an absolute path, or one relative to a folder
    (``label/rest`` or ``rest``), tried with each of ``suffixes``.  ``BadRequestError`` otherwise, in words
    that never tell whether something exists outside the folders."""
    if not folders:
        raise BadRequestError(f"this table opens no {what} files (it was started without a folder for them)")
    where = ", ".join(f"{f.label} ({f.path})" for f in folders)
    outside = BadRequestError(
        f"{what} files are opened only from this table's folders: {where}; {given[:200]!r} is not one"
    )
    if not given or "\x00" in given or len(given) > 1000:
        raise outside
    raw = Path(given).expanduser()
    bases: list[Path] = []
    if raw.is_absolute():
        bases.append(raw)
    else:
        for f in folders:
            first, _, rest = given.partition("/")
            if first == f.label and rest:
                bases.append(f.path / rest)
            bases.append(f.path / raw)
    for base in bases:
        for suffix in suffixes:
            try:
                path = (base.parent / (base.name + suffix)).resolve()
            except (OSError, RuntimeError, ValueError):  # a symlink loop, a name the file system refuses
                continue
            if inside(path, folders) is not None and path.is_file():
                return path
    if any(inside(_resolved(b), folders) for b in bases):
        raise BadRequestError(f"no {what} file {given[:200]!r} in this table's folders: {where}")
    raise outside


def _resolved(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError, ValueError):
        return Path("/nonexistent-folder-of-no-table")


def read_bounded(path: Path, limit: int, what: str) -> bytes:
    """The bytes of ``path`` (already checked to lie in a folder), refused past ``limit`` without reading it."""
    if path.stat().st_size > limit:
        raise BadRequestError(f"the {what} file is over the limit of {limit:,} bytes", 413)
    with path.open("rb") as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:  # it grew while we looked
        raise BadRequestError(f"the {what} file is over the limit of {limit:,} bytes", 413)
    return data
