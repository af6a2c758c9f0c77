"""One cold numba compilation of a kernel per test run, however many workers need it.

Parallel test workers (pytest-xdist) share numba's on-disk cache (``cache=True``: the
``__pycache__`` beside each module, or ``NUMBA_CACHE_DIR``): a kernel one worker has
compiled, the other loads. But two workers that ask for the same cold kernel at about the
same time would each compile it (a search kernel takes a minute of CPU on CI). So a
worker compiling a cached function holds a lock file named after that function's cache
index: the other waits for it, and then numba finds the first one's result in the cache
(``Dispatcher.compile`` looks there before it compiles). The lock is taken once per new
signature in a process, so it costs nothing once a kernel is loaded.

A function compiled inside another's compilation (a kernel's helpers) takes its own lock;
calls between kernels form no cycle, so no two workers wait for each other, and a wait
is bounded anyway (``WAIT``: past it the worker compiles by itself). Within one process
a lock already held is not taken again (recursion, or a second thread: numba's own
compiler lock orders those)."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

#: the longest a worker waits for another's compilation before compiling by itself
WAIT = 900.0
#: how often a waiting worker tries the lock again
EVERY = 0.05

_held: set[str] = set()
_guard = threading.Lock()


def _index_of(dispatcher: Any) -> str | None:
    """The cache index file of a cached dispatcher (None: not cached)."""
    cache_file = getattr(getattr(dispatcher, "_cache", None), "_cache_file", None)
    index = getattr(cache_file, "_index_path", None)
    return str(index) if index else None


@contextlib.contextmanager
def _locked(folder: Path, index: str) -> Iterator[None]:
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
            deadline = time.monotonic() + WAIT
            while True:
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        break  # compile by itself: never stuck behind another worker
                    time.sleep(EVERY)
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
        with _locked(folder, index):
            return compile_(self, sig)

    compile._shared_in = folder  # type: ignore[attr-defined]
    Dispatcher.compile = compile  # type: ignore[method-assign]
