"""``Hub``: every table in memory, the worker pools and the event loop they report to.

The hub holds each table someone may still act at (and finished ones looked at
recently), keyed by id, as a ``LiveTable`` (server/live.py). It loads tables from the
database on demand, makes new ones, saves the running clocks now and then, abandons
idle tables and forgets finished ones nobody watches. Whatever differs between one
instance and several is its broker's (server/broker.py).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from fourfold.core.match import Match
from fourfold.server.broker import Broker, NullBroker
from fourfold.server.daily import DailyDeals
from fourfold.server.fanout import dumps
from fourfold.server.live import LiveTable
from fourfold.server.persistence import Persistence
from fourfold.server.settings import Settings
from fourfold.server.storage import Repository, TableRow
from fourfold.server.tokens import Minter, token_hash

log = logging.getLogger("fourfold.server")
T = TypeVar("T")
#: a finished or abandoned table nobody watches is forgotten after this many seconds
FORGET_SECONDS = 600.0


class Hub:
    """Every table in memory (see the module's docstring)."""

    def __init__(self, settings: Settings, repo: Repository,
                 broker: Broker | None = None) -> None:
        self.settings = settings
        self.repo = repo
        self.broker: Broker = broker or NullBroker()
        self.persistence = Persistence(repo, self.broker)
        #: the daily deals: which tables were dealt one, sealed until their day ends
        self.daily = DailyDeals(repo, settings.test_clock)
        self.minter = Minter(settings.id_seed)
        #: called (on the acting thread) when a game ends: starts its review
        self.on_finished: Callable[[LiveTable], None] | None = None
        self.bots = ThreadPoolExecutor(settings.bot_workers, thread_name_prefix="bots")
        #: table work off the loop: players' actions, timers, broker messages. A few
        #: threads, not AnyIO's forty: every action is a short burst of Python under one
        #: GIL (and one SQLite writer), and more threads only queue for those.
        self.workers = ThreadPoolExecutor(4, thread_name_prefix="tables")
        self.loop: asyncio.AbstractEventLoop | None = None
        self.tables: dict[str, LiveTable] = {}
        self._lock = threading.Lock()

    @property
    def instance(self) -> str:
        return self.broker.instance

    def held(self) -> list[LiveTable]:
        """The tables in memory now."""
        with self._lock:
            return list(self.tables.values())

    def find(self, table_id: str) -> LiveTable | None:
        """The table if it is in memory (no database read)."""
        with self._lock:
            return self.tables.get(table_id)

    async def run(self, work: Callable[[], T]) -> T:
        """Await ``work()`` run on a table worker thread."""
        return await asyncio.get_running_loop().run_in_executor(self.workers, work)

    async def act(self, work: Callable[[], T]) -> T:
        """Await a seat's action. On SQLite it runs on the loop itself: the write is
        local and short, and moving each action to a thread and back (with the GIL
        changing hands at every step) cost more than the action. Elsewhere (a database
        across the network) it runs on a table worker thread."""
        if self.repo.local:
            return work()
        return await self.run(work)

    def call_soon(self, callback: Callable[..., None], *args: Any) -> None:
        """Run ``callback`` on the event loop (from any thread)."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        try:
            if _on_loop(loop):
                loop.call_soon(callback, *args)
            else:
                loop.call_soon_threadsafe(callback, *args)
        except RuntimeError:  # the loop is shutting down
            pass

    def start(self, loop: asyncio.AbstractEventLoop) -> int:
        """Take the unfinished tables back into play (after a restart, as the broker
        says); returns how many."""
        self.loop = loop
        return self.broker.restore(self)

    def load(self, row: TableRow, owner: bool | None = None,
             tokens: dict[str, int] | None = None,
             match: Match[Any, Any] | None = None) -> LiveTable:
        """Put a stored table in play here (the one already in memory, if any)."""
        if owner is None:
            owner = self.broker.owns_loaded()
        if tokens is None:
            tokens = self.repo.token_hashes(row.id)
        live = LiveTable(self, row, tokens, owner, match)
        with self._lock:
            existing = self.tables.get(row.id)
            if existing is not None:
                live.table.close()
                return existing
            self.tables[row.id] = live
        return live

    def get(self, table_id: str) -> LiveTable | None:
        """The table, up to date (from the database if it is not in memory)."""
        live = self.find(table_id)
        if live is not None:
            self.broker.before_read(live)
            return live
        if not table_id.isalnum() or len(table_id) > 32:
            return None
        row = self.repo.load(table_id)
        if row is None:
            return None
        live = self.load(row)
        live.timer.soon()
        return live

    def add(self, row: dict[str, Any], tokens: dict[int, str],
            match: Match[Any, Any] | None = None) -> LiveTable:
        """Store a new table (its seat tokens hashed) and put it in play; ``match`` is
        the game its record holds, if at hand."""
        hashes = {seat: token_hash(token) for seat, token in tokens.items()}
        self.repo.create(row, hashes)
        stored = TableRow.of_new(row)
        owner = None
        if stored.status in ("open", "live"):
            owner = self.broker.claim_new(self, stored.id)
        live = self.load(stored, owner, {h: seat for seat, h in hashes.items()}, match)
        live.timer.soon()
        return live

    def checkpoint(self) -> None:
        for live in self.held():
            try:
                live.checkpoint()
            except Exception as error:  # the database may be down: try again later
                log.warning("table %s: clocks not saved: %s", live.id, error)

    def sweep(self) -> None:
        """Abandon tables idle too long; forget finished ones nobody looks at."""
        now = time.time()
        for live in self.held():
            idle = now - live.updated_at
            if not live.owner:  # a mirror: the owner abandons; forget it when unwatched
                if not live.connections:
                    self.forget(live)
                continue
            if live.status in ("open", "live") and idle > self.settings.idle_seconds:
                if not self.persistence.abandon(live, now):
                    continue
                live.broadcast(dumps({"type": "closed", "reason": "abandoned"}))
                self.forget(live)
            elif live.status in ("finished", "abandoned") and not live.connections and \
                    idle > FORGET_SECONDS:
                self.forget(live)

    def forget(self, live: LiveTable) -> None:
        with self._lock:
            self.tables.pop(live.id, None)
        live.close()

    def shutdown(self) -> None:
        self.checkpoint()
        self.broker.shutdown(self)
        for live in self.held():
            live.close()
        self.bots.shutdown(wait=False, cancel_futures=True)
        self.workers.shutdown(wait=False, cancel_futures=True)


def _on_loop(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False
