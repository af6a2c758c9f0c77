"""Where each finished table's shared replay stands: bounded in count and in age.

A seat's holder moves the shared replay of a finished game (``POST .../replay``), and
every page of the table follows it. The position is a passing thing, kept in memory
only; kept for every table ever replayed, a client making and finishing tables (or
many clients over weeks) would grow the map without end. Here a position is
forgotten ``max_age`` seconds after it was last set, and the least recently set go
first past ``max_tables``; a forgotten position reads as none (the page starts at the
end, as before anyone moved it).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable

#: tables whose shared replay position is kept
MAX_TABLES = 10_000
#: seconds a position is kept after it was last set
MAX_AGE = 6 * 3600.0


class ReplayPositions:
    """Table id -> the shared replay's ply (see the module's docstring)."""

    def __init__(self, max_tables: int = MAX_TABLES, max_age: float = MAX_AGE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.max_tables = max_tables
        self.max_age = max_age
        self._clock = clock
        self._plies: OrderedDict[str, tuple[int, float]] = OrderedDict()
        self._lock = threading.Lock()

    def set(self, table_id: str, ply: int) -> None:
        now = self._clock()
        with self._lock:
            self._plies[table_id] = (ply, now)
            self._plies.move_to_end(table_id)
            self._prune(now)

    def get(self, table_id: str) -> int | None:
        now = self._clock()
        with self._lock:
            self._prune(now)
            found = self._plies.get(table_id)
            return None if found is None else found[0]

    def __len__(self) -> int:
        with self._lock:
            self._prune(self._clock())
            return len(self._plies)

    def _prune(self, now: float) -> None:
        """Drop the oldest past the count, and any set longer ago than ``max_age`` (the
        map is in the order positions were set, so the stale ones are at its front)."""
        plies = self._plies
        while len(plies) > self.max_tables:
            plies.popitem(last=False)
        while plies:
            oldest = next(iter(plies.values()))
            if now - oldest[1] <= self.max_age:
                break
            plies.popitem(last=False)
