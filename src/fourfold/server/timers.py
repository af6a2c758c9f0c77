"""Timers: one per table, on the event loop, at the table's next deadline.

A deadline is a clock running out or a bot's move falling due after its visible pause
(``Table.next_deadline``). When it comes, ``Table.advance`` runs on a table worker
thread (never on the loop), and the timer is set again. Only the table's owner runs
its timer (alone, always); a finished, abandoned or still-open table has none.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

from fourfold.core.errors import FourfoldError
from fourfold.server.specs import BOT

if TYPE_CHECKING:
    from fourfold.server.live import LiveTable

log = logging.getLogger("fourfold.server")
#: how often a real-time table with a bot looks again (a bot may choose to wait
#: without an event)
REAL_TIME_LOOK = 0.5
#: after the deadline, so that the table finds the time has come
SLACK = 0.002


class TableTimer:
    """The timer of one live table."""

    def __init__(self, live: LiveTable) -> None:
        self.live = live
        self._handle: asyncio.TimerHandle | None = None

    def reschedule(self) -> None:
        """On the loop: one timer at the table's next deadline."""
        live = self.live
        loop = live.hub.loop
        self.cancel()
        if loop is None or live.status in ("abandoned", "finished") or not live.playing \
                or not live.owner:
            return
        table = live.table
        deadline = table.next_deadline()
        if table.real_time and table.outcome is None and any(
                s.kind == BOT for s in live.seats):
            deadline = min(deadline if deadline is not None else float("inf"),
                           loop.time() + REAL_TIME_LOOK)
        if deadline is None:
            return
        self._handle = loop.call_at(deadline + SLACK, self._fire)

    def soon(self) -> None:
        """From any thread: reschedule on the loop."""
        self.live.hub.call_soon(self.reschedule)

    def cancel(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def _fire(self) -> None:
        self._handle = None
        loop = self.live.hub.loop
        assert loop is not None
        future = loop.run_in_executor(self.live.hub.workers, self._advance)
        future.add_done_callback(lambda _: self.reschedule())

    def _advance(self) -> None:
        try:
            self.live.table.advance()
        except FourfoldError as error:  # a save failed: the change did not count
            log.warning("table %s: %s", self.live.id, error)
            time.sleep(0.5)
