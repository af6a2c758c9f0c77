"""``run_tasks``: independent tasks on a Dask cluster, results in task order.

Every heavy job (matches, tournaments, split solves, reports) is a list of
independent tasks, each carrying everything it depends on (its seed included),
and a module-level function that runs one task. Where a task runs therefore
cannot change its result: the list of results is the same for any number of
workers, on one machine or many. Dask reruns the tasks of a worker that dies
(on another worker, or on the restarted one), and ``run_tasks`` journals each
finished task so a stopped job resumes where it stopped.

Where the tasks run:

* ``scheduler="tcp://host:8786"``: on that cluster (``dask scheduler`` and
  ``dask worker`` processes started beforehand, see docs/distributed.md);
* otherwise ``workers=N`` worker processes of a ``LocalCluster`` on this machine
  (one thread each; ``None``: one per core);
* ``workers=0``: in this process, one task after another, without Dask.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any, TypeVar

from fourfold.core.errors import ConfigurationError, FourfoldError
from fourfold.distributed.journal import Journal

T = TypeVar("T")
R = TypeVar("R")


def run_tasks(
    fn: Callable[[T], R],
    tasks: Sequence[T],
    *,
    keys: Sequence[str] | None = None,
    scheduler: str | None = None,
    workers: int | None = None,
    progress: bool = True,
    journal: Journal | str | Path | None = None,
    job: dict[str, Any] | None = None,
    finished: Callable[[R], bool] | None = None,
    on_result: Callable[[int, R], None] | None = None,
    description: str = "tasks",
) -> list[R]:
    """``[fn(task) for task in tasks]``, run on a cluster; the results in task order.

    ``fn`` must be importable by the workers (a module-level function) and depend on
    nothing but its task. ``keys`` name the tasks (default: their positions); with a
    ``journal`` (a ``Journal``, or a path and ``job``, the description of the job the
    journal must belong to) a task whose key is already journaled is not run again,
    and every result that ``finished`` accepts (default: all) is journaled as soon as
    it arrives. Journaled results are JSON: a result returned by ``fn`` is passed
    through JSON too, so a resumed job returns exactly what a fresh one would.
    ``progress`` shows a progress bar on stderr; ``on_result(i, result)`` is called as
    each task's result arrives (not for journaled ones), in the order they finish.
    """
    names = [str(i) for i in range(len(tasks))] if keys is None else [str(k) for k in keys]
    if len(names) != len(tasks) or len(set(names)) != len(names):
        raise FourfoldError("run_tasks needs one distinct key per task")
    book = _open_journal(journal, job)
    results: dict[int, R] = {}
    todo: list[int] = []
    for i, key in enumerate(names):
        if book is not None and key in book:
            results[i] = book.get(key)
        else:
            todo.append(i)

    def arrived(i: int, result: R) -> None:
        if book is not None and (finished is None or finished(result)):
            result = book.record(names[i], result)
        results[i] = result
        if on_result is not None:
            on_result(i, result)

    with _progress_bar(progress, description, len(tasks), len(tasks) - len(todo)) as advance:
        if todo and workers == 0 and scheduler is None:
            for i in todo:
                arrived(i, fn(tasks[i]))
                advance()
        elif todo:
            _run_on_cluster(fn, tasks, todo, scheduler, workers, arrived, advance)
    return [results[i] for i in range(len(tasks))]


def _open_journal(journal: Journal | str | Path | None, job: dict[str, Any] | None
                  ) -> Journal | None:
    if journal is None or isinstance(journal, Journal):
        return journal
    return Journal(journal, job or {})


def _run_on_cluster(
    fn: Callable[[T], R],
    tasks: Sequence[T],
    todo: list[int],
    scheduler: str | None,
    workers: int | None,
    arrived: Callable[[int, R], None],
    advance: Callable[[], None],
) -> None:
    with cluster_client(scheduler, workers) as client:
        # earlier tasks first (a higher priority runs sooner); pure=False: every task runs
        futures = [
            client.submit(fn, tasks[i], pure=False, priority=len(tasks) - i) for i in todo
        ]
        where = {f.key: i for f, i in zip(futures, todo, strict=True)}
        try:
            for future in _dask().as_completed(futures):
                arrived(where[future.key], future.result())
                advance()
        finally:
            client.cancel([f for f in futures if not f.done()])


@contextmanager
def cluster_client(scheduler: str | None = None, workers: int | None = None) -> Iterator[Any]:
    """A ``distributed.Client``: connected to ``scheduler``, else to a new ``LocalCluster`` of
    ``workers`` processes (one per core when ``None``) that is closed on exit."""
    dask = _dask()
    if scheduler is not None:
        if workers is not None:
            raise ConfigurationError("--workers starts a local cluster; with --scheduler the"
                                     " cluster's own workers run the tasks")
        try:
            client = dask.Client(scheduler, timeout=30)
        except (OSError, TimeoutError) as exc:
            raise FourfoldError(f"cannot reach the Dask scheduler at {scheduler}: {exc}"
                                ) from None
        with client:
            yield client
        return
    count = workers if workers is not None else (os.cpu_count() or 1)
    if count < 1:
        raise ConfigurationError("--workers must be at least 1")
    cluster = dask.LocalCluster(
        n_workers=count,
        threads_per_worker=1,
        processes=True,
        dashboard_address=":0",
        memory_limit=0,  # solver tables are large by design; never pause or kill for memory
        silence_logs=logging.ERROR,
    )
    with cluster, dask.Client(cluster) as client:
        yield client


def _dask() -> Any:
    """``distributed`` (untyped calls: used through ``Any``)."""
    try:
        import distributed
    except ImportError:
        raise ConfigurationError("running on a cluster needs Dask: pip install"
                                 " 'fourfold[scale]'") from None
    return distributed


@contextmanager
def _progress_bar(show: bool, description: str, total: int, done: int
                  ) -> Iterator[Callable[[], None]]:
    if not show:
        yield lambda: None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                   TimeElapsedColumn(), TimeRemainingColumn(), console=Console(stderr=True),
                   transient=True)
    with bar if total else nullcontext():
        task = bar.add_task(description, total=total, completed=done)
        yield lambda: bar.advance(task)


def deadline_after(seconds: float | None) -> float | None:
    """A wall-clock deadline (``time.time()``) ``seconds`` from now, for tasks to share."""
    return None if seconds is None else time.time() + seconds
