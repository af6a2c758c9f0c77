"""Heavy work clients ask for (hints, analysis): a bounded pool, one job per client.

A hint or an analysis runs a solver or a bot for seconds. Run on the request's own
thread, a client asking as fast as it can would hold every thread and the processor;
here such work goes to a few worker threads of its own, and:

- each owner (a seat's token, a client address) has at most one job waiting or
  running; another is refused with 429;
- at most ``workers + queue`` jobs are waiting or running; past that, 503.

Both refusals carry ``Retry-After``. A job keeps its owners until it ends, even when
its client has gone, so hanging up and asking again buys nothing.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")


class JobRefused(Exception):
    """No room for the job: ``status`` 429 (this owner has one already) or 503 (the
    pool is full), and the seconds after which to try again."""

    def __init__(self, status: int, reason: str, retry_after: int) -> None:
        self.status = status
        self.reason = reason
        self.retry_after = retry_after
        super().__init__(reason)


class JobPool:
    """``workers`` threads; at most ``workers + queue`` jobs at once, one per owner."""

    def __init__(self, workers: int, queue: int, job_seconds: float) -> None:
        self.workers = max(1, workers)
        self.capacity = self.workers + max(0, queue)
        #: a typical job's length, for Retry-After
        self.job_seconds = job_seconds
        self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix="jobs")
        self._owners: set[str] = set()
        self._jobs = 0
        self._lock = threading.Lock()

    @property
    def jobs(self) -> int:
        """Jobs waiting or running now."""
        with self._lock:
            return self._jobs

    def submit(self, owners: Iterable[str], work: Callable[[], T]) -> Future[T]:
        """Start ``work`` for ``owners`` or raise ``JobRefused``."""
        keys = tuple(dict.fromkeys(owners))
        with self._lock:
            if any(key in self._owners for key in keys):
                raise JobRefused(429, "one hint or analysis at a time: your last one is"
                                      " still being worked out", self._retry(1))
            if self._jobs >= self.capacity:
                raise JobRefused(503, "the server is busy working out other players'"
                                      " hints and analyses: try again shortly",
                                 self._retry(math.ceil(self._jobs / self.workers)))
            self._owners.update(keys)
            self._jobs += 1
        try:
            future = self._executor.submit(work)
        except RuntimeError:  # shutting down
            self._release(keys)
            raise JobRefused(503, "the server is stopping", 5) from None
        future.add_done_callback(lambda _: self._release(keys))
        return future

    def _retry(self, jobs_ahead: int) -> int:
        return max(1, math.ceil(jobs_ahead * self.job_seconds))

    def _release(self, keys: tuple[str, ...]) -> None:
        with self._lock:
            self._owners.difference_update(keys)
            self._jobs -= 1

    def shutdown(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
