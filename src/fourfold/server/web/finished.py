"""What a finished table's replay routes compute, computed once per table, version and
recipient.

``GET /api/tables/{id}/replay`` of a finished game replayed its whole record and drew
every past view on each request: 0.2 s of CPU for a 500-ply Dao game (the import cap),
most of it under the GIL. One address asking for it over four connections (about 9
requests a second, far inside its rate allowance) took another table's moves from 17 ms
to 230 ms at p50 (433 ms p95; measured on the shared 2-core machine at load 8). A
finished table never changes (its version is part of the key, so an abandoned table or
any later change reads afresh), so its answer is kept here, bounded in count; the
caller's own ``you`` and the shared replay's ply are added to it per request.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

#: finished tables' answers kept (each a few tens of KiB at most)
MAX_KEPT = 64

Key = tuple[str, int, int | None]
T = TypeVar("T")


class Finished(Generic[T]):
    """(table id, version, recipient) -> a value computed once, the least recently used
    dropped past ``max_kept``."""

    def __init__(self, max_kept: int = MAX_KEPT) -> None:
        self.max_kept = max_kept
        self._kept: OrderedDict[Key, T] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Key, compute: Callable[[], T]) -> T:
        """The value kept for ``key``, or ``compute()`` kept (two callers at once may both
        compute it; the answer is the same)."""
        with self._lock:
            if key in self._kept:
                self._kept.move_to_end(key)
                return self._kept[key]
        value = compute()
        with self._lock:
            self._kept[key] = value
            self._kept.move_to_end(key)
            while len(self._kept) > self.max_kept:
                self._kept.popitem(last=False)
        return value

    def __len__(self) -> int:
        with self._lock:
            return len(self._kept)
