"""One cold numba compilation of a kernel per test run, however many processes need it.

Parallel test workers (pytest-xdist) share numba's on-disk cache (``cache=True``: the
``__pycache__`` beside each module, or ``NUMBA_CACHE_DIR``): a kernel one worker has
compiled, the other loads. But two processes that ask for the same cold kernel at about
the same time would each compile it (a search kernel takes a minute of CPU on CI). So a
process compiling a cached function holds a lock file named after that function's cache
index: the other waits for it, and then numba finds the first one's result in the cache
(``Dispatcher.compile`` looks there before it compiles). The lock is taken once per new
signature in a process, so it costs nothing once a kernel is loaded.

The processes the tests start take the same locks: the run's lock folder is named by the
environment (``ENV``, set by tests/conftest.py before the workers start), and
``numba_site/sitecustomize.py`` (put on ``PYTHONPATH`` beside it) calls
``share_compilations`` in every Python process that imports numba, so a server, its job
processes or a command a test runs wait for a worker's compilation instead of doing it
again at the same time (and the other way round).

A function compiled inside another's compilation (a kernel's helpers) takes its own lock;
calls between kernels form no cycle, so no two processes wait for each other, and a wait
is bounded anyway (``WAIT``: past it the process compiles by itself). Within one process
a lock already held is not taken again (recursion, or a second thread: numba's own
compiler lock orders those).

Each compilation that took at least ``LOG_OVER`` CPU seconds (a cold one: a load from
the cache takes less) and each wait that long is written to the folder's ``LOG``; ``summary`` sums
them for the end of the run, so a run shows what its cold compilations cost."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

#: the environment variable naming the run's lock folder (for the processes tests start)
ENV = "FOURFOLD_TEST_NUMBA_LOCKS"
#: the longest a process waits for another's compilation before compiling by itself
WAIT = 900.0
#: how often a waiting process tries the lock again
EVERY = 0.05
#: compilations and waits at least this long (seconds) are logged
LOG_OVER = 0.5
#: the log's file name in the lock folder: one line per compilation or wait
LOG = "compilations.tsv"

_held: set[str] = set()
_guard = threading.Lock()
_depth = threading.local()


def _index_of(dispatcher: Any) -> str | None:
    """The cache index file of a cached dispatcher (None: not cached)."""
    cache_file = getattr(getattr(dispatcher, "_cache", None), "_cache_file", None)
    index = getattr(cache_file, "_index_path", None)
    return str(index) if index else None


def _log(folder: Path, kind: str, seconds: float, cpu: float, name: str) -> None:
    """One line of the log (appended whole: the processes of a run share the file)."""
    line = f"{kind}\t{seconds:.2f}\t{cpu:.2f}\t{os.getpid()}\t{name}\n"
    with contextlib.suppress(OSError), (folder / LOG).open("a") as handle:
        handle.write(line)


@contextlib.contextmanager
def _locked(folder: Path, index: str, name: str) -> Iterator[None]:
    with _guard:
        if index in _held:  # this process compiles it already (recursion, a thread)
            mine = False
        else:
            _held.add(index)
            mine = True
    if not mine:
        yield
        return
    path = folder / (hashlib.sha256(index.encode()).hexdigest()[:32] + ".lock")
    try:
        with path.open("a") as handle:
            start = time.monotonic()
            deadline = start + WAIT
            while True:
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        break  # compile by itself: never stuck behind another process
                    time.sleep(EVERY)
            waited = time.monotonic() - start
            if waited >= LOG_OVER:
                _log(folder, "wait", waited, 0.0, name)
            try:
                yield
            finally:
                with contextlib.suppress(OSError):
                    fcntl.flock(handle, fcntl.LOCK_UN)
    finally:
        with _guard:
            _held.discard(index)


def share_compilations(folder: Path) -> None:
    """From now on, this process's compilations of cached numba functions are one at a
    time per function across every process that calls this with the same ``folder``."""
    from numba.core.dispatcher import Dispatcher

    if getattr(Dispatcher.compile, "_shared_in", None) is not None:
        return
    folder.mkdir(parents=True, exist_ok=True)
    compile_: Callable[[Any, Any], Any] = Dispatcher.compile

    def compile(self: Any, sig: Any) -> Any:
        index = _index_of(self)
        if index is None:
            return compile_(self, sig)
        name = f"{self.py_func.__module__}.{self.py_func.__qualname__}"
        with _locked(folder, index, name):
            outer = not getattr(_depth, "inside", False)
            _depth.inside = True
            start, cpu = time.monotonic(), time.thread_time()
            try:
                return compile_(self, sig)
            finally:
                if outer:  # helpers compiled inside are counted in their caller's time
                    _depth.inside = False
                    cpu = time.thread_time() - cpu
                    if cpu >= LOG_OVER:
                        _log(folder, "compile", time.monotonic() - start, cpu, name)

    compile._shared_in = folder  # type: ignore[attr-defined]
    Dispatcher.compile = compile  # type: ignore[method-assign]


@contextlib.contextmanager
def compiling() -> Iterator[Callable[[], float]]:
    """Within: how many seconds this process has spent in numba's ``Dispatcher.compile``
    so far (the function yielded tells it): cold compilations, loads from numba's cache and
    waits for another process's compilation of the same kernel. Threads compiling at the
    same time count once, and a function compiled inside another's compilation counts in
    its caller's time. For a test that bounds a run's wall-clock time, where the bound is
    about the run's own work, not about how cold the kernels it reaches were."""
    from numba.core.dispatcher import Dispatcher

    inner: Callable[[Any, Any], Any] = Dispatcher.compile
    spans: list[tuple[float, float]] = []  # the outermost calls' (start, end), any thread
    open_at: dict[int, float] = {}  # a thread's outermost call under way: its start
    guard = threading.Lock()
    depth = threading.local()

    def compile(self: Any, sig: Any) -> Any:
        outer = not getattr(depth, "inside", False)
        if outer:
            depth.inside = True
            with guard:
                open_at[threading.get_ident()] = time.monotonic()
        try:
            return inner(self, sig)
        finally:
            if outer:
                depth.inside = False
                with guard:
                    spans.append((open_at.pop(threading.get_ident()), time.monotonic()))

    def seconds() -> float:
        now = time.monotonic()
        with guard:
            every = sorted([*spans, *((start, now) for start in open_at.values())])
        total, reached = 0.0, float("-inf")
        for start, end in every:  # the union of the spans: overlapping threads count once
            if end > reached:
                total += end - max(start, reached)
                reached = end
        return total

    shared = getattr(inner, "_shared_in", None)
    if shared is not None:  # share_compilations has wrapped it already: not again
        compile._shared_in = shared  # type: ignore[attr-defined]
    Dispatcher.compile = compile  # type: ignore[method-assign]
    try:
        yield seconds
    finally:
        Dispatcher.compile = inner  # type: ignore[method-assign]


def summary(folder: Path) -> str | None:
    """What the run's logged compilations and waits cost, in one line (None: none logged)."""
    try:
        lines = (folder / LOG).read_text().splitlines()
    except OSError:
        return None
    compiles: list[tuple[float, float, str]] = []
    waits: list[float] = []
    for line in lines:
        kind, seconds, cpu, pid, _ = line.split("\t", 4)
        if kind == "compile":
            compiles.append((float(seconds), float(cpu), pid))
        else:
            waits.append(float(seconds))
    if not compiles and not waits:
        return None
    return (f"numba: {len(compiles)} cold compilations ({sum(c for _, c, _ in compiles):.0f}"
            f" CPU s, {sum(s for s, _, _ in compiles):.0f} s) in "
            f"{len({p for _, _, p in compiles})} processes; {len(waits)} waits for another "
            f"process's compilation ({sum(waits):.0f} s)")
