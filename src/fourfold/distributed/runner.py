"""``run_tasks``: independent tasks, journaled, results in task order, on any executor.

Every heavy job (matches, tournaments, ``analyze`` reports, split solves) is a list
of independent tasks, each carrying everything it depends on (its seed included),
and a module-level function that runs one task. Where a task runs therefore
cannot change its result: the list of results is the same in this process, on a
pool of local processes and on a Dask cluster of any size
(``fourfold.distributed.executors``). ``run_tasks`` adds what every job shares: a
journal of finished tasks so a stopped job resumes, a progress bar, a callback per
result, and the results put back in task order.

Where the tasks run (``executor_for``):

* ``scheduler="tcp://host:8786"``: on that Dask cluster (``dask scheduler`` and
  ``dask worker`` processes started beforehand, see docs/distributed.md);
* otherwise ``workers=N`` worker processes on this machine (``None``: one per core);
* ``workers=0``: in this process, one task after another.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any, Protocol, TypeVar

from fourfold.core.errors import FourfoldError
from fourfold.distributed.executors import Executor, executor_for
from fourfold.distributed.journal import Journal

T = TypeVar("T")
R = TypeVar("R")


class Store(Protocol):
    """Finished tasks by key (``Journal``, or any record of results that a job keeps)."""

    def __contains__(self, key: str) -> bool: ...

    def get(self, key: str) -> Any: ...

    def record(self, key: str, result: Any) -> Any:
        """Keep one finished task; return the result as a later run will read it back."""
        ...


def run_tasks(
    fn: Callable[[T], R],
    tasks: Sequence[T],
    *,
    keys: Sequence[str] | None = None,
    executor: Executor | None = None,
    scheduler: str | None = None,
    workers: int | None = None,
    progress: bool = True,
    journal: Store | str | Path | None = None,
    job: dict[str, Any] | None = None,
    finished: Callable[[R], bool] | None = None,
    on_result: Callable[[int, R], None] | None = None,
    description: str = "tasks",
) -> list[R]:
    """``[fn(task) for task in tasks]``, run by ``executor`` (default
    ``executor_for(scheduler, workers)``); the results in task order.

    ``fn`` must be importable by the workers (a module-level function) and depend on
    nothing but its task. ``keys`` name the tasks (default: their positions); with a
    ``journal`` (a ``Store`` such as a ``Journal``, or a path and ``job``, the
    description of the job the journal must belong to) a task whose key is already
    journaled is not run again, and every result that ``finished`` accepts (default:
    all) is journaled as soon as it arrives. A ``Journal`` keeps JSON: a result
    returned by ``fn`` is passed through JSON too, so a resumed job returns exactly
    what a fresh one would. ``progress`` shows a progress bar on stderr;
    ``on_result(i, result)`` is called as each task's result arrives (not for
    journaled ones), in the order they finish.
    """
    names = [str(i) for i in range(len(tasks))] if keys is None else [str(k) for k in keys]
    if len(names) != len(tasks) or len(set(names)) != len(names):
        raise FourfoldError("run_tasks needs one distinct key per task")
    book = _open_journal(journal, job)
    if executor is None:
        executor = executor_for(scheduler, workers)
    results: dict[int, R] = {}
    todo: list[int] = []
    for i, key in enumerate(names):
        if book is not None and key in book:
            results[i] = book.get(key)
        else:
            todo.append(i)

    with _progress_bar(progress, description, len(tasks), len(tasks) - len(todo)) as advance:
        def arrived(i: int, result: R) -> None:
            if book is not None and (finished is None or finished(result)):
                result = book.record(names[i], result)
            results[i] = result
            if on_result is not None:
                on_result(i, result)
            advance()

        if todo:
            executor.run(fn, tasks, todo, arrived)
    return [results[i] for i in range(len(tasks))]


def _open_journal(journal: Store | str | Path | None, job: dict[str, Any] | None
                  ) -> Store | None:
    if journal is None or not isinstance(journal, (str, Path)):
        return journal
    return Journal(journal, job or {})


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
