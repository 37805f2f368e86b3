"""Agents think here, off the event loop and off the request threads: a small pool shared by every table,
so that however many tables wait for an agent, at most ``THINKERS`` cores are busy and the server still
answers.  Each move is bounded by the per-move time limit of the agents it builds (``offered.Offered``)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor

from bidbluff.arena.web.limits import THINKERS

log = logging.getLogger(__name__)


class Thinker:
    """A pool of ``workers`` threads that run agents' moves; ``close`` stops taking new ones."""

    def __init__(self, workers: int = THINKERS) -> None:
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="bidbluff-agent")

    def submit(self, think: Callable[[], None]) -> Future:
        future = self.pool.submit(think)
        future.add_done_callback(_report)
        return future

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)


def _report(future: Future) -> None:
    if not future.cancelled() and future.exception() is not None:  # a table's own errors are caught in it
        log.error("an agent's move failed", exc_info=future.exception())


class InlineThinker:
    """Runs each move at once in the caller's thread, queued so that agent after agent does not recurse:
    a table of agents plays through in ``start``/``play`` (tests, scripts)."""

    def __init__(self) -> None:
        self.queue: list[Callable[[], None]] = []
        self.running = False

    def submit(self, think: Callable[[], None]) -> None:
        self.queue.append(think)
        if self.running:
            return
        self.running = True
        try:
            while self.queue:
                self.queue.pop(0)()
        finally:
            self.running = False

    def close(self) -> None:
        self.queue.clear()
