"""Heavy work clients ask for (hints, analysis): a bounded pool, one job per client.

A hint or an analysis runs a solver or a bot for seconds. Run on the request's own
thread, a client asking as fast as it can would hold every thread and the processor;
here such work goes to a few worker threads of its own, and:

- each owner (a seat's token, a client address) has at most one job waiting or
  running; another is refused with 429;
- at most ``workers + queue`` jobs are waiting or running; past that, 503;
- long jobs (a review or an analysis of a whole game: minutes, one solver call per
  position) have a lane of their own, ``workers`` threads and ``LONG_QUEUE`` waiting,
  so that however many games are being reviewed, a hint never waits behind them for
  a thread. Their solver calls share the worker processes one position at a time,
  so a hint waits at most for one position's call.

Both refusals carry ``Retry-After``. A job keeps its owners until it ends, even when
its client has gone, so hanging up and asking again buys nothing.

A job's thread only waits: the solver or bot itself runs in a worker *process*
(``compute``), one per worker thread. In a thread of the server it held the GIL for
seconds at a time, and every move on every table queued behind it (a player's moves
took 160 ms at the median, 360 ms at p95, under a one-token hint flood; see
benchmarks/bench_hint_flood.py). The processes are spawned, never forked (the server
has threads), when the pool starts, at a lower priority than the server.
"""

from __future__ import annotations

import contextlib
import logging
import math
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import Connection
from typing import Any, TypeVar

from fourfold.server.limits import address_key

T = TypeVar("T")
log = logging.getLogger("fourfold.server")
#: how much lower the worker processes' priority is than the server's (see ``nice``)
NICENESS = 10
#: how often a worker process checks that the server is still there
PARENT_CHECK_SECONDS = 1.0
#: long jobs (reviews, analyses) that may wait for a thread of their lane
LONG_QUEUE = 4
#: Retry-After of a full long lane (a review takes minutes; asking every second is useless)
LONG_RETRY_SECONDS = 30


def long_owner(host: str | None) -> str:
    """The owner a client address's long jobs are charged to: one review or analysis
    at a time per address, apart from its hints (a player whose finished game is being
    reviewed still gets hints in the next one)."""
    return "long:" + address_key(host)


class JobRefused(Exception):
    """No room for the job: ``status`` 429 (this owner has one already) or 503 (the
    pool is full), and the seconds after which to try again."""

    def __init__(self, status: int, reason: str, retry_after: int) -> None:
        self.status = status
        self.reason = reason
        self.retry_after = retry_after
        super().__init__(reason)


class JobPool:
    """``workers`` threads; at most ``workers + queue`` jobs at once, one per owner; and
    a lane of ``workers`` threads and ``long_queue`` waiting for long jobs."""

    def __init__(self, workers: int, queue: int, job_seconds: float,
                 processes: bool = True, long_queue: int = LONG_QUEUE) -> None:
        self.workers = max(1, workers)
        self.capacity = self.workers + max(0, queue)
        self.long_capacity = self.workers + max(0, long_queue)
        #: a typical job's length, for Retry-After
        self.job_seconds = job_seconds
        self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix="jobs")
        self._long_executor = ThreadPoolExecutor(self.workers, thread_name_prefix="long-jobs")
        self._owners: set[str] = set()
        self._jobs = 0
        self._long_jobs = 0
        self._lock = threading.Lock()
        self._processes = processes
        self._process_pool: ProcessPoolExecutor | None = None
        self._stopping = False
        # closed at shutdown: each worker process, seeing its end of the pipe close, then
        # ends at once, the solve it was running included (a review's position may take
        # many seconds; the server's exit waits for the threads that wait on it). A pipe,
        # not an Event: a worker killed while holding an Event's lock (kill -9, the
        # out-of-memory killer) would leave ``set`` waiting for ever, and the server
        # unstoppable
        self._stop_workers: tuple[Connection, Connection] | None = None
        if processes:
            self._stop_workers = multiprocessing.get_context("spawn").Pipe(duplex=False)

    def start(self) -> None:
        """Spawn the worker processes now (not on the first hint), off the caller's
        thread."""
        if self._processes:
            self._executor.submit(self.compute, _ready)

    def compute(self, work: Callable[..., T], *args: Any) -> T:
        """Run ``work(*args)`` in a worker process (its arguments and result are
        pickled); called from a job's thread. A worker that died is replaced, and
        the job fails with ``JobRefused`` (503). Once the pool is shut down it refuses
        (503): a review running then ends at its next position, instead of spawning new
        worker processes and holding the server's exit for the rest of the game."""
        with self._lock:
            if self._stopping:
                raise JobRefused(503, "the server is stopping", 5)
        if not self._processes:
            return work(*args)
        with self._lock:
            if self._process_pool is None:
                self._process_pool = ProcessPoolExecutor(
                    self.workers, mp_context=multiprocessing.get_context("spawn"),
                    initializer=_worker_started,
                    initargs=(os.getpid(), self._stop_workers[0] if self._stop_workers else None))
            pool = self._process_pool
        try:
            # the pool spawns its workers in ``submit``: they start with Ctrl-C blocked, so
            # that a Ctrl-C for the server while one is still importing cannot stop it
            # with a traceback (``_worker_started`` then ignores it: the server stops them)
            previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
            try:
                future = pool.submit(work, *args)
            finally:
                signal.pthread_sigmask(signal.SIG_SETMASK, previous)
            return future.result()
        except BrokenProcessPool:
            if self._stopping:  # ended by ``shutdown``
                raise JobRefused(503, "the server is stopping", 5) from None
            log.error("a hint or analysis worker process died; starting another")
            with self._lock:
                if self._process_pool is pool:
                    self._process_pool = None
            pool.shutdown(wait=False, cancel_futures=True)
            raise JobRefused(503, "the worker for this job stopped: try again", 1) from None

    def check(self, owners: Iterable[str], long: bool = False) -> None:
        """Refuse now (``JobRefused``) if ``submit`` would, before any work is done to
        prepare the job; reserves nothing."""
        with self._lock:
            self._refusal(tuple(owners), long)

    @property
    def jobs(self) -> int:
        """Jobs waiting or running now (both lanes)."""
        with self._lock:
            return self._jobs + self._long_jobs

    def submit(self, owners: Iterable[str], work: Callable[[], T],
               long: bool = False) -> Future[T]:
        """Start ``work`` for ``owners`` (in the long jobs' lane if ``long``) or raise
        ``JobRefused``."""
        keys = tuple(dict.fromkeys(owners))
        with self._lock:
            self._refusal(keys, long)
            self._owners.update(keys)
            if long:
                self._long_jobs += 1
            else:
                self._jobs += 1
        try:
            future = (self._long_executor if long else self._executor).submit(work)
        except RuntimeError:  # shutting down
            self._release(keys, long)
            raise JobRefused(503, "the server is stopping", 5) from None
        future.add_done_callback(lambda _: self._release(keys, long))
        return future

    def _refusal(self, keys: tuple[str, ...], long: bool) -> None:
        """Raise the refusal a job for ``keys`` meets now (under the lock)."""
        if any(key in self._owners for key in keys):
            raise JobRefused(429, "one hint, review or analysis at a time: your last one"
                                  " is still being worked out", self._retry(1))
        if long:
            if self._long_jobs >= self.long_capacity:
                raise JobRefused(503, "the server is busy reviewing other games: try"
                                      " again in a while", LONG_RETRY_SECONDS)
            return
        if self._jobs >= self.capacity:
            raise JobRefused(503, "the server is busy working out other players'"
                                  " hints and analyses: try again shortly",
                             self._retry(math.ceil(self._jobs / self.workers)))

    def _retry(self, jobs_ahead: int) -> int:
        return max(1, math.ceil(jobs_ahead * self.job_seconds))

    def _release(self, keys: tuple[str, ...], long: bool) -> None:
        with self._lock:
            self._owners.difference_update(keys)
            if long:
                self._long_jobs -= 1
            else:
                self._jobs -= 1

    def shutdown(self) -> None:
        with self._lock:
            self._stopping = True
        if self._stop_workers is not None:
            self._stop_workers[1].close()
        self._executor.shutdown(wait=False, cancel_futures=True)
        self._long_executor.shutdown(wait=False, cancel_futures=True)
        with self._lock:
            pool, self._process_pool = self._process_pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


def _worker_started(server: int, stop: Any) -> None:
    """In each worker process: leave Ctrl-C to the server (which stops its workers); yield
    the processor to the server (whose moves must stay quick) and to everything else (a
    hint's budget is wall time, so it only finds less on a busy machine); and end when the
    server has gone, however it went (``kill -9`` included, and before this ran): an
    orphan would hold its memory for ever.
    ``server`` is the server's process id; ``stop`` the reading end of the pool's pipe,
    which the server closes to end its workers (``JobPool.shutdown``)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    with contextlib.suppress(OSError):
        os.nice(NICENESS)

    def watch() -> None:
        while os.getppid() == server and not stop.poll(PARENT_CHECK_SECONDS):
            pass
        os._exit(0)

    threading.Thread(target=watch, name="server-watch", daemon=True).start()


def _ready() -> bool:
    """A worker process's first job: importing this module (and fourfold) is its cost."""
    return True
