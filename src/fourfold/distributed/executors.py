"""Where ``run_tasks`` runs its tasks: in this process, on local processes, or on Dask.

An executor takes a module-level function, the tasks, the positions of those still
to run and a callback, and calls ``arrived(i, fn(tasks[i]))`` once for every such
position, in the order the results arrive, earlier tasks started first. It knows
nothing of journals, keys or progress bars (``fourfold.distributed.runner`` does):

* ``InProcess``: one task after another in this process (no pickling at all);
* ``LocalProcesses(n)``: a pool of ``n`` worker processes on this machine, forked
  on POSIX so they start at once and share the parent's compiled kernels. A worker
  that dies (killed, out of memory) breaks the pool: the tasks it held and those
  not yet started run again on a new pool, at most ``ALLOWED_FAILURES`` times, as a
  Dask scheduler reruns a lost worker's tasks;
* ``DaskCluster(address)``: the workers of a running Dask scheduler, on any number
  of machines (docs/distributed.md); Dask reruns the tasks of a worker that dies.

``executor_for(scheduler, workers)`` is the one reading of the commands'
``--scheduler`` and ``--workers`` flags.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from fourfold.core.errors import ConfigurationError, FourfoldError

T = TypeVar("T")
R = TypeVar("R")

#: how many times a local pool may lose a worker before the run gives up
#: (Dask's ``distributed.scheduler.allowed-failures`` is 3 too)
ALLOWED_FAILURES = 3


class Executor(Protocol):
    """Runs ``fn`` on ``tasks[i]`` for every ``i`` in ``todo``; ``arrived(i, result)`` for each."""

    def run(self, fn: Callable[[T], R], tasks: Sequence[T], todo: Sequence[int],
            arrived: Callable[[int, R], None]) -> None: ...


@dataclass(frozen=True)
class InProcess:
    """The tasks one after another in this process."""

    def run(self, fn: Callable[[T], R], tasks: Sequence[T], todo: Sequence[int],
            arrived: Callable[[int, R], None]) -> None:
        for i in todo:
            arrived(i, fn(tasks[i]))


@dataclass(frozen=True)
class LocalProcesses:
    """A pool of ``workers`` processes on this machine (one task at a time each)."""

    workers: int

    def run(self, fn: Callable[[T], R], tasks: Sequence[T], todo: Sequence[int],
            arrived: Callable[[int, R], None]) -> None:
        left = list(todo)
        failures = 0
        while left:
            try:
                _run_pool(fn, tasks, left, min(self.workers, len(left)), arrived)
            except BrokenProcessPool:
                failures += 1
                if failures > ALLOWED_FAILURES:
                    raise FourfoldError(
                        f"a worker process died {failures} times (killed, or out of memory?);"
                        f" {len(left)} tasks were not finished") from None


def _run_pool(fn: Callable[[T], R], tasks: Sequence[T], left: list[int], workers: int,
              arrived: Callable[[int, R], None]) -> None:
    """Run the tasks of ``left`` on a new pool, removing each from ``left`` as it arrives."""
    # fork: the workers start at once and share the parent's compiled kernels
    context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
    pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_ignore_sigint)
    try:
        # submitted in task order: the pool starts the earlier tasks first
        pending: dict[Future[R], int] = {pool.submit(fn, tasks[i]): i for i in left}
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in sorted(done, key=pending.__getitem__):
                i = pending.pop(future)
                result = future.result()  # BrokenProcessPool when a worker died
                left.remove(i)
                arrived(i, result)
    except BaseException:
        _stop(pool)
        raise
    pool.shutdown()


def _ignore_sigint() -> None:
    """Ctrl-C is the parent's to handle: it stops the workers (a worker would otherwise
    print its own traceback of the task it was running)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Cancel what has not started and end the workers now (a running task may be long)."""
    processes = list(pool._processes.values()) if pool._processes else []
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(timeout=10)


@dataclass(frozen=True)
class DaskCluster:
    """The workers of the Dask scheduler at ``address`` (``tcp://host:8786``)."""

    address: str

    def run(self, fn: Callable[[T], R], tasks: Sequence[T], todo: Sequence[int],
            arrived: Callable[[int, R], None]) -> None:
        dask = _dask()
        try:
            client = dask.Client(self.address, timeout=30)
        except (OSError, TimeoutError) as exc:
            raise FourfoldError(f"cannot reach the Dask scheduler at {self.address}: {exc}"
                                ) from None
        with client:
            # earlier tasks first (a higher priority runs sooner); pure=False: every task runs
            futures = [client.submit(fn, tasks[i], pure=False, priority=len(tasks) - i)
                       for i in todo]
            where = {f.key: i for f, i in zip(futures, todo, strict=True)}
            try:
                for future in dask.as_completed(futures):
                    arrived(where[future.key], future.result())
            finally:
                client.cancel([f for f in futures if not f.done()])


def _dask() -> Any:
    """``distributed`` (untyped calls: used through ``Any``)."""
    try:
        import distributed
    except ImportError:
        raise ConfigurationError("running on a Dask cluster needs Dask: pip install"
                                 " 'fourfold[scale]'") from None
    return distributed


def executor_for(scheduler: str | None = None, workers: int | None = None) -> Executor:
    """``--scheduler ADDRESS``: that Dask cluster; ``--workers 0`` or ``1``: this process
    (a pool of one would only add the cost of sending every task and result);
    ``--workers N``: N local processes; neither: one local process per core."""
    if scheduler is not None:
        if workers is not None:
            raise ConfigurationError("--workers starts local worker processes; with --scheduler"
                                     " the cluster's own workers run the tasks")
        return DaskCluster(scheduler)
    if workers is None:
        workers = cores()
    if workers < 0:
        raise ConfigurationError(f"--workers must be 0 or more, not {workers}")
    return InProcess() if workers <= 1 else LocalProcesses(workers)


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1
