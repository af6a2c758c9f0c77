"""The daily deal (issue 32): each UTC day, one secret deal per variant of each
cooperative game with hidden cards, the same at every table that chooses it, and a
leaderboard per day and variant (docs/daily.md).

- ``deal.py``: which games and variants, and the HMAC that keys a day's deal;
- ``store.py``: the server's secret and the daily tables, in the database;
- ``board.py``: the leaderboards, and what they show before and after the day ends;
- ``clock.py``: today in UTC (a file's time for tests);
- ``routes.py``: ``/api/daily...`` and the ``/daily`` page.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from fourfold.server.daily.board import Leaderboards
from fourfold.server.daily.clock import DailyClock
from fourfold.server.daily.store import DailyStore
from fourfold.server.storage import Repository, Row

SEALED = ("a table of the daily deal is shown only to its players until the day ends"
          " (midnight UTC); its results and lines are on the leaderboard then")


class DailyDeals:
    """The server's daily deals: its secret's store, its clock, its leaderboards."""

    def __init__(self, repo: Repository, clock_file: Path | None = None) -> None:
        self.clock = DailyClock(clock_file)
        self.store = DailyStore(repo)
        self.boards = Leaderboards(self.store, repo, self.clock)

    def is_daily(self, table_id: str) -> bool:
        """Whether ``table_id`` was dealt a daily deal (it then gets no hints: its
        players race the other tables on their own)."""
        return self.store.day_of(table_id) is not None

    def seated(self, table_id: str, seat: int, address_key: str) -> None:
        """A person took ``seat`` of ``table_id`` from ``address_key`` (its creator's
        own link, or a join from the lobby): kept for a daily table (as a keyed hash),
        so that its board can tell whether its people played from different addresses
        and which address finished the deal first (board.py); nothing for others."""
        if self.is_daily(table_id):
            self.store.seated(table_id, seat, address_key)

    def join_rows(self, table_id: str, address_key: str
                  ) -> Callable[[int], Sequence[Row]] | None:
        """What a join of ``table_id`` from ``address_key`` writes with the seat, in the
        join's own transaction (``LiveTable.join``'s ``noted``): a daily table's seat
        address (as ``seated``); ``None`` for other tables. The seat and its address
        are saved together or not at all: written after the join, a failure left the
        seat taken, its address missing, and the joiner a 500."""
        if not self.is_daily(table_id):
            return None
        address = self.store.address_hash(address_key)  # before the table's lock
        return lambda seat: [self.store.seat_row(table_id, seat, address)]

    def sealed(self, table_id: str) -> str | None:
        """Why nobody but its players may look at ``table_id`` now (``None``: anyone
        may): a daily table stays sealed until its day ends."""
        day = self.store.day_of(table_id)
        if day is None or self.clock.ended(day):
            return None
        return SEALED
