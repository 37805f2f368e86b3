"""The tables open at this server: in memory (the most recently used ``HOT_TABLES``) and, when the server
has a tables folder, on disk as they are played, so that a table outlives a reload, an unload from memory
and a server restart.  A table closes only when nobody has looked at it for ``idle`` seconds, never because
others were opened: past ``MAX_TABLES`` games in progress a new one is refused instead (a finished game's
table closes after ``FINISHED_MINUTES`` unused: its record is saved).

A table's file holds its setup, its seats (a human seat's secret only as a hash) and its moves; a game is
rebuilt from it by replaying the moves on the same seed.  The files lie in a folder of their own, apart
from the records folder, so a game in progress is never listed or opened as a replay.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bidbluff.arena.web.limits import FINISHED_HOT, FINISHED_MINUTES, HOT_TABLES, MAX_TABLES
from bidbluff.arena.web.tables import TABLE_FORMAT, TABLE_KEY, Seat, Table

log = logging.getLogger(__name__)


class TableStore:
    """Tables by key.  ``folder``: where their files lie (None: in memory only, lost at a restart);
    ``restore(data)`` rebuilds a ``Table`` from its file's dict."""

    def __init__(
        self,
        folder: str | Path | None,
        restore: Callable[[dict[str, Any]], Table],
        idle: float,
        hot: int = HOT_TABLES,
        most: int = MAX_TABLES,
    ) -> None:
        self.folder = Path(folder) if folder is not None else None
        if self.folder is not None:
            self.folder.mkdir(parents=True, exist_ok=True)
        self.restore, self.idle, self.hot, self.most = restore, idle, hot, most
        self.memory: OrderedDict[str, Table] = OrderedDict()
        self.lock = threading.Lock()
        # games in progress, in memory or on disk: they count toward ``most`` (a finished game's record is saved;
        # its table only lets its seats look at the end, and closes after ``FINISHED_MINUTES`` unused)
        self.playing: set[str] = set()
        if self.folder is not None:
            for path in self.folder.glob("*.json"):
                data = self._read(path.stem)
                if data is not None and not data.get("over"):
                    self.playing.add(path.stem)

    # -- files ---------------------------------------------------------------------------------------
    def path(self, key: str) -> Path | None:
        if self.folder is None or not TABLE_KEY.fullmatch(key):
            return None
        return self.folder / f"{key}.json"

    def write(self, table: Table) -> None:
        """Keep ``table``'s file up to date (atomically: a crash leaves the old file or the new one)."""
        path = self.path(table.key)
        if path is None:
            return
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps(table.to_file()))
        os.replace(temporary, path)
        table.written = time.time()
        if table.over:
            self.playing.discard(table.key)

    def touch(self, table: Table) -> None:
        """Note that ``table`` was looked at: its file's time is renewed at most once a minute (its expiry)."""
        table.touched = time.time()
        if table.touched - getattr(table, "written", 0.0) > 60:
            with table.lock:
                self.write(table)

    def _read(self, key: str) -> dict[str, Any] | None:
        path = self.path(key)
        if path is None or not path.is_file():
            return None
        try:
            data = json.loads(path.read_text())
        except (OSError, ValueError):
            log.warning("table file %s cannot be read; left as it is", path)
            return None
        if not isinstance(data, dict) or data.get("format") != TABLE_FORMAT:
            return None
        return data

    def count(self) -> int:
        """Games in progress (finished ones do not count toward the most)."""
        return len(self.playing)

    # -- tables --------------------------------------------------------------------------------------
    def add(self, table: Table) -> None:
        with self.lock:
            if self.count() >= self.most:
                raise TableLimitError(
                    f"this server holds {self.most} games in progress, its most; a game closes after "
                    f"{self.idle / 60:.0f} minutes unused"
                )
            self.memory[table.key] = table
            self.playing.add(table.key)
            self._unload()
        self.write(table)

    def get(self, key: str) -> Table | None:
        """The table ``key``, from memory or rebuilt from its file; None if there is none (or it expired)."""
        with self.lock:
            table = self.memory.get(key)
            if table is not None:
                self.memory.move_to_end(key)
                return table
        data = self._read(key)
        if data is None:
            return None
        if time.time() - float(data.get("touched") or 0) > self.idle:
            self.remove(key)
            return None
        try:
            table = self.restore(data)
        except Exception:  # a file this build cannot replay (an older env version): the table is gone
            log.warning("table %s cannot be resumed", key, exc_info=True)
            return None
        with self.lock:
            table = self.memory.setdefault(key, table)
            self._unload()
        table.start()
        return table

    def remove(self, key: str) -> None:
        with self.lock:
            table = self.memory.pop(key, None)
            self.playing.discard(key)
        if table is not None:
            table.close()
        path = self.path(key)
        if path is not None:
            path.unlink(missing_ok=True)

    def _unload(self) -> None:
        """Drop tables from memory (their files keep them): finished ones past ``FINISHED_HOT`` first, then the
        least recently used past ``hot``; never one whose agent is thinking.  Without a folder nothing is
        dropped (it would be lost)."""
        if self.folder is None:
            return
        finished = [key for key, table in self.memory.items() if table.over]
        for key in finished[: max(0, len(finished) - FINISHED_HOT)]:
            del self.memory[key]
        for key in list(self.memory):
            if len(self.memory) <= self.hot:
                break
            table = self.memory[key]
            if table.thinking is None:
                del self.memory[key]
                table.close()

    def expire(self, now: float | None = None) -> list[str]:
        """Close every table unused for ``idle`` seconds (a finished one: for ``FINISHED_MINUTES``, or ``idle``
        if shorter), in memory and on disk; returns their keys."""
        now = time.time() if now is None else now
        finished_idle = min(self.idle, FINISHED_MINUTES * 60)

        def limit(key: str) -> float:
            return self.idle if key in self.playing else finished_idle

        gone = [key for key, table in list(self.memory.items()) if now - table.touched > limit(key)]
        if self.folder is not None:
            for path in self.folder.glob("*.json"):
                if path.stem in self.memory:
                    continue
                with contextlib.suppress(OSError):
                    if now - path.stat().st_mtime > limit(path.stem):
                        gone.append(path.stem)
        for key in gone:
            self.remove(key)
        return gone

    def close(self) -> None:
        for table in list(self.memory.values()):
            table.close()


class TableLimitError(RuntimeError):
    """No room for another table now."""


__all__ = ["Seat", "TableLimitError", "TableStore"]
