"""What differs between one instance and several: the ``Broker`` interface.

``Hub`` and ``LiveTable`` ask their broker wherever one instance and several instances
on one database behave differently; they never ask whether there is one. Two brokers:

- ``NullBroker`` (this module): one instance. It owns every table, takes every
  unfinished table back into play at start, trusts its copy of each table, and
  hands each connection every event as it comes. Nothing is published.
- ``RedisBroker`` (server/redis_broker.py): several instances on one database, events
  fanned out through Redis, tables owned through leases (docs/deploy.md).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from fourfold.core.errors import FourfoldError

if TYPE_CHECKING:
    from fourfold.server.fanout import Connection
    from fourfold.server.hub import Hub
    from fourfold.server.live import LiveTable
    from fourfold.table import Table

log = logging.getLogger("fourfold.server")


class Broker:
    """The interface, with one instance's answers as the defaults (``NullBroker``);
    ``RedisBroker`` answers for several. Every method is called by the hub or a live
    table; see each for when."""

    #: this instance's name among several ("" alone)
    instance = ""
    #: how many times an action is tried on a copy that may be stale (once alone)
    attempts = 1

    def describe(self) -> str | None:
        """A line for the start-up banner, or ``None``."""
        return None

    # -- tables ------------------------------------------------------------------------
    def owns_loaded(self) -> bool:
        """Whether a table loaded from the database is this instance's to run (its
        timer, bots and clock checkpoints)."""
        return True

    def claim_new(self, hub: Hub, table_id: str) -> bool:
        """Whether a table just made here is this instance's to run."""
        return True

    def restore(self, hub: Hub) -> int:
        """At start: take every unfinished table back into play; returns how many."""
        count = 0
        for row in hub.repo.with_status("open", "live"):
            try:
                live = hub.load(row)
            except FourfoldError as error:
                log.error("table %s cannot be restored: %s", row.id, error)
                continue
            live.timer.soon()
            count += 1
        return count

    def before_read(self, live: LiveTable) -> None:
        """A table is about to be read or acted on: bring a stale copy up to date."""
        if live.stale or live.wanted > live.saved_version:
            live.refresh(announce=False)

    def seat_for(self, live: LiveTable, digest: str) -> int | None:
        """The seat a token's hash holds (``live.tokens`` is the whole truth alone)."""
        return live.tokens.get(digest)

    def charges_restored_clocks(self) -> bool:
        """Whether clocks read back from the database run on to now (another instance
        kept the table going since they were saved); alone, a restart stops time."""
        return False

    def stale_write(self, live: LiveTable, expected: int) -> None:
        """A save found the row past ``expected``: alone, nobody else writes."""
        log.error("table %s: another writer saved version %s", live.id, expected)

    # -- events ------------------------------------------------------------------------
    def relay(self, live: LiveTable, table: Table) -> None:
        """Subscribe whatever publishes ``table``'s events to the other instances."""

    def deliver(self, connection: Connection, version: int, kind: str, text: str) -> None:
        """On the loop: hand one event to a local connection. Alone, every event comes
        once, in order."""
        connection.push(text)

    def publish(self, table_id: str, message: dict[str, Any]) -> None:
        """Tell the other instances (nobody, alone)."""

    # -- running -----------------------------------------------------------------------
    def tasks(self, hub: Hub, loop: asyncio.AbstractEventLoop,
              every: Callable[[float, Callable[[], object]], asyncio.Task[None]]
              ) -> list[asyncio.Task[None]]:
        """Background work for the app's lifespan (``every(seconds, work)`` runs work
        on a thread periodically)."""
        return []

    async def start(self, hub: Hub) -> None:
        """After ``restore``, before serving."""

    def shutdown(self, hub: Hub) -> None:
        """Let the other instances take over at once."""


class NullBroker(Broker):
    """One instance alone: the interface's own answers."""
