"""The tables in play: one ``Table`` each, saved on every change, timed on the event loop.

``Hub`` holds every table in memory that someone may still act at (and finished ones
that were looked at recently), keyed by id. Each ``LiveTable``:

- saves every accepted change through ``Table.on_change`` before anyone hears of it
  (one transaction, ``UPDATE ... WHERE version = <the version saved last>``); a failed
  save undoes the change, and the actor is told it did not count;
- keeps the WebSocket connections of its seats and spectators; each is subscribed to
  the table as its own recipient, so it is sent events built from its own view only.
  Events may be raised on a bot's worker thread: they are handed to the event loop
  with ``call_soon_threadsafe``;
- keeps one timer on the event loop at ``Table.next_deadline()`` (a clock running out,
  a bot's turn after its visible pause) and calls ``advance()`` then, off the loop.

Bots think on the hub's shared worker pool, so a long search never blocks the loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from fourfold.core.errors import FourfoldError
from fourfold.core.game import Game
from fourfold.core.match import Match
from fourfold.core.record import format_record, parse_record
from fourfold.server.settings import Settings
from fourfold.server.specs import BOT, HUMAN, OPEN, SeatSpec, configured_game, seat_of
from fourfold.server.storage import Repository, StaleWrite, TableRow
from fourfold.server.tokens import Minter, token_hash
from fourfold.table import ClockSettings, ClockState, Event, Table, TableError
from fourfold.wire import event_to_json

log = logging.getLogger("fourfold.server")

#: events a slow connection may fall behind by before it is dropped
MAX_BACKLOG = 1000


def dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=False)


class SavingFailed(Exception):
    """A change was not saved (the details go to the log, not to the players)."""


@dataclass(eq=False)
class Connection:
    """One WebSocket: who it is (a seat, or ``None`` for a spectator) and its outbox."""

    recipient: int | None
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    unsubscribe: Callable[[], None] | None = None
    overflowed: bool = False

    def push(self, text: str | None) -> None:
        """On the loop: queue a message (``None`` closes the connection)."""
        if self.overflowed:
            return
        if text is not None and self.queue.qsize() >= MAX_BACKLOG:
            self.overflowed = True
            text = None
        self.queue.put_nowait(text)


class LiveTable:
    """One table as the server holds it (see the module's docstring)."""

    def __init__(self, hub: Hub, row: TableRow, tokens: dict[str, int]) -> None:
        self.hub = hub
        self.id = row.id
        self.private = row.private
        self.status = row.status
        self.created_at = row.created_at
        self.updated_at = row.updated_at
        self.rematch_id = row.rematch_id
        self.rematch_of = row.rematch_of
        self.seed = row.seed or 0
        self.seats = [SeatSpec.from_json(s) for s in row.seats]
        self.tokens = tokens  # token hash -> seat
        self.saved_version = row.version
        self.clock = None if row.clock_base is None else ClockSettings(
            row.clock_base, row.clock_increment or 0.0)
        self.game: Game[Any, Any] = configured_game(row.game, row.variant, row.options)
        self.lock = threading.RLock()
        self.connections: set[Connection] = set()
        self._timer: asyncio.TimerHandle | None = None
        self._pending_token: tuple[int, str] | None = None
        match = Match.from_record(parse_record(row.record))
        self.game = match.game
        restored = ClockState(row.clock_left, row.shared_elapsed)
        self.table = self._make_table(match, row.version, restored)

    # -- the Table ---------------------------------------------------------------------
    @property
    def playing(self) -> bool:
        """Every seat is taken (no seat is waiting for someone from the lobby)."""
        return all(s.kind != OPEN for s in self.seats)

    def _make_table(self, match: Match[Any, Any], version: int,
                    clock_state: ClockState | None) -> Table:
        seats = [seat_of(self.game, p, s, self.seed, self.hub.settings.bot_pace,
                         self.playing) for p, s in enumerate(self.seats)]
        table = Table(self.game, seats, match=match, player_clock=self.clock,
                      seed=self.seed, version=version, clock_state=clock_state,
                      on_change=self._on_change, executor=self.hub.bots)
        for p, seat in enumerate(seats):
            if seat.is_bot:
                seat.bot.observe(table.view(p))
        table.subscribe(None, self._heard)
        return table

    def _heard(self, event: Event) -> None:
        """Every change (heard as a spectator): time the next deadline again."""
        self.hub.call_soon(self.reschedule)

    def _on_change(self, table: Table) -> None:
        """Save the change before anyone is told (called under the table's lock)."""
        now = time.time()
        status = "finished" if table.outcome is not None else (
            "live" if self.playing else "open")
        state = table.clock_state()
        changes = {
            "version": table.version,
            "record": format_record(table.match.referee_record()),
            "status": status,
            "seats": [s.to_json() for s in self.seats],
            "clock_left": state.left,
            "shared_elapsed": state.shared_elapsed,
            "clock_saved_at": now,
            "updated_at": now,
        }
        try:
            if self._pending_token is not None:
                seat, digest = self._pending_token
                self.hub.repo.add_token(self.id, seat, digest, self.saved_version, changes)
            else:
                self.hub.repo.save(self.id, self.saved_version, changes)
        except StaleWrite:
            log.error("table %s: another writer saved version %s", self.id,
                      self.saved_version)
            raise SavingFailed("the table was changed elsewhere") from None
        except Exception as error:
            log.error("table %s: cannot save: %s", self.id, error)
            raise SavingFailed("the database is not answering") from None
        self.saved_version = table.version
        self.status = status
        self.updated_at = now

    def checkpoint(self) -> None:
        """Save the running clocks (between moves); skipped if a move is being saved."""
        if self.table.outcome is not None or (self.clock is None
                                              and self.game.shared_clock_seconds is None):
            return
        version = self.saved_version
        state = self.table.clock_state()
        with contextlib.suppress(StaleWrite):
            self.hub.repo.save(self.id, version, {
                "clock_left": state.left, "shared_elapsed": state.shared_elapsed,
                "clock_saved_at": time.time()})

    # -- acting ------------------------------------------------------------------------
    def check_open(self) -> None:
        """Refuse actions at an abandoned table or one still waiting for players."""
        if self.status == "abandoned":
            raise TableError("this table was abandoned (nobody played for too long)", "over")
        if not self.playing and self.table.outcome is None:
            waiting = ", ".join(str(p + 1) for p, s in enumerate(self.seats) if s.kind == OPEN)
            raise TableError(f"the game starts when every seat is taken (open: {waiting})",
                             "turn")

    def join(self, seat: int | None, name: str | None) -> tuple[int, str]:
        """Take an open seat (the first one, or ``seat``); returns it and its token."""
        with self.lock:
            if self.status == "abandoned" or self.table.outcome is not None:
                raise TableError("this table is closed", "over")
            open_seats = [p for p, s in enumerate(self.seats) if s.kind == OPEN]
            if seat is None:
                if not open_seats:
                    raise TableError("every seat is taken", "turn")
                seat = open_seats[0]
            elif not 0 <= seat < len(self.seats):
                raise TableError(f"there is no seat {seat + 1}", "seat")
            elif seat not in open_seats:
                raise TableError(f"seat {seat + 1} is taken", "turn")
            token = self.hub.minter.token()
            before = self.seats[seat]
            self.seats[seat] = SeatSpec(HUMAN, name or before.name)
            self._pending_token = (seat, token_hash(token))
            players = self.table.match.players
            try:
                self.table.match.players = tuple(
                    self.seats[p].name if p == seat else n for p, n in enumerate(players))
                self.table.set_seat(seat, seat_of(self.game, seat, self.seats[seat],
                                                  self.seed, 0.0, True))
            except TableError:
                self.seats[seat] = before
                self.table.match.players = players
                raise
            finally:
                self._pending_token = None
            self.tokens[token_hash(token)] = seat
            if self.playing:
                self._restart()
            return seat, token

    def _restart(self) -> None:
        """The last open seat was taken: seat the bots and start the clocks now."""
        old = self.table
        self.table = self._make_table(old.match, old.version, None)
        old.close()
        for connection in list(self.connections):
            self.attach(connection)
        self.hub.call_soon(self.reschedule)

    # -- listeners ---------------------------------------------------------------------
    def attach(self, connection: Connection) -> None:
        """Subscribe ``connection`` to the table as its recipient (again after a restart)."""
        if connection.unsubscribe is not None:
            connection.unsubscribe()
        game = self.game
        call = self.hub.call_soon

        def listener(event: Event) -> None:
            call(connection.push, dumps(event_to_json(game, event)))

        self.connections.add(connection)
        connection.unsubscribe = self.table.subscribe(connection.recipient, listener)

    def detach(self, connection: Connection) -> None:
        self.connections.discard(connection)
        if connection.unsubscribe is not None:
            connection.unsubscribe()
            connection.unsubscribe = None

    def broadcast(self, text: str) -> None:
        for connection in list(self.connections):
            self.hub.call_soon(connection.push, text)

    # -- time --------------------------------------------------------------------------
    def reschedule(self) -> None:
        """On the loop: one timer at the table's next deadline."""
        loop = self.hub.loop
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if loop is None or self.status in ("abandoned", "finished") or not self.playing:
            return
        deadline = self.table.next_deadline()
        if self.table.real_time and any(s.kind == BOT for s in self.seats) and \
                self.table.outcome is None:
            # a real-time bot may choose to wait without an event: look again soon
            deadline = min(deadline if deadline is not None else float("inf"),
                           loop.time() + 0.5)
        if deadline is None:
            return
        self._timer = loop.call_at(deadline + 0.002, self._fire)

    def _fire(self) -> None:
        self._timer = None
        loop = self.hub.loop
        assert loop is not None
        future = loop.run_in_executor(self.hub.workers, self._advance)
        future.add_done_callback(lambda _: self.reschedule())

    def _advance(self) -> None:
        try:
            self.table.advance()
        except FourfoldError as error:  # a save failed: the change did not count
            log.warning("table %s: %s", self.id, error)
            time.sleep(0.5)

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.table.close()
        for connection in list(self.connections):
            self.hub.call_soon(connection.push, None)


class Hub:
    """Every table in memory, the worker pools and the event loop they report to."""

    def __init__(self, settings: Settings, repo: Repository) -> None:
        self.settings = settings
        self.repo = repo
        self.minter = Minter(settings.id_seed)
        self.bots = ThreadPoolExecutor(settings.bot_workers, thread_name_prefix="bots")
        self.workers = ThreadPoolExecutor(4, thread_name_prefix="tables")
        self.loop: asyncio.AbstractEventLoop | None = None
        self.tables: dict[str, LiveTable] = {}
        self._lock = threading.Lock()

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
        """Take every unfinished table back into play (after a restart); returns how many."""
        self.loop = loop
        count = 0
        for row in self.repo.with_status("open", "live"):
            try:
                live = self._load(row)
            except FourfoldError as error:
                log.error("table %s cannot be restored: %s", row.id, error)
                continue
            live.reschedule()
            count += 1
        return count

    def _load(self, row: TableRow) -> LiveTable:
        live = LiveTable(self, row, self.repo.token_hashes(row.id))
        with self._lock:
            existing = self.tables.get(row.id)
            if existing is not None:
                live.table.close()
                return existing
            self.tables[row.id] = live
        return live

    def get(self, table_id: str) -> LiveTable | None:
        with self._lock:
            live = self.tables.get(table_id)
        if live is not None:
            return live
        if not table_id.isalnum() or len(table_id) > 32:
            return None
        row = self.repo.load(table_id)
        if row is None:
            return None
        live = self._load(row)
        self.call_soon(live.reschedule)
        return live

    def add(self, row: dict[str, Any], tokens: dict[int, str]) -> LiveTable:
        """Store a new table (its seat tokens hashed) and put it in play."""
        hashes = {seat: token_hash(token) for seat, token in tokens.items()}
        self.repo.create(row, hashes)
        stored = self.repo.load(row["id"])
        assert stored is not None
        live = self._load(stored)
        self.call_soon(live.reschedule)
        return live

    def checkpoint(self) -> None:
        with self._lock:
            tables = list(self.tables.values())
        for live in tables:
            try:
                live.checkpoint()
            except Exception as error:  # the database may be down: try again later
                log.warning("table %s: clocks not saved: %s", live.id, error)

    def sweep(self) -> None:
        """Abandon tables idle too long; forget finished ones nobody looks at."""
        now = time.time()
        with self._lock:
            tables = list(self.tables.values())
        for live in tables:
            idle = now - live.updated_at
            if live.status in ("open", "live") and idle > self.settings.idle_seconds:
                try:
                    self.repo.save(live.id, live.saved_version, {"status": "abandoned",
                                                                 "updated_at": now})
                except Exception as error:
                    log.warning("table %s not abandoned: %s", live.id, error)
                    continue
                live.status = "abandoned"
                live.broadcast(dumps({"type": "closed", "reason": "abandoned"}))
                self._forget(live)
            elif live.status in ("finished", "abandoned") and not live.connections and \
                    idle > 600:
                self._forget(live)

    def _forget(self, live: LiveTable) -> None:
        with self._lock:
            self.tables.pop(live.id, None)
        live.close()

    def shutdown(self) -> None:
        self.checkpoint()
        with self._lock:
            tables = list(self.tables.values())
        for live in tables:
            live.close()
        self.bots.shutdown(wait=False, cancel_futures=True)
        self.workers.shutdown(wait=False, cancel_futures=True)


def _on_loop(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False
