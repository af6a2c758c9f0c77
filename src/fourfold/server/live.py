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

With a broker (``Settings.broker``, several instances on one database; see
docs/deploy.md) each ``LiveTable`` is either the table's *owner* (it holds the table's
lease in the database, and alone runs its timer, its bots and its clock checkpoints)
or a *mirror* (its bots are parked, it has no timer). Any instance applies actions:
the database's version check serialises them (a stale local copy is refreshed from
the database and the action tried again, at most three times). Every event of a
change is published, one message per event with every recipient's JSON, by the
instance that made it (``fourfold.server.cluster``); other instances hand each local
connection the JSON of its own recipient and refresh their copy from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import orjson

from fourfold.core.errors import FourfoldError
from fourfold.core.game import Game
from fourfold.core.match import Match
from fourfold.core.record import format_record, parse_record
from fourfold.server.settings import Settings
from fourfold.server.specs import (
    BOT,
    HUMAN,
    OPEN,
    SeatSpec,
    configured_game,
    seat_of,
    seated_table,
)
from fourfold.server.storage import Repository, StaleWrite, TableRow
from fourfold.server.tokens import Minter, token_hash
from fourfold.table import ClockSettings, ClockState, Event, Table, TableError
from fourfold.table.events import EventKind
from fourfold.wire import event_to_json

if TYPE_CHECKING:
    from fourfold.server.cluster import Cluster

log = logging.getLogger("fourfold.server")
T = TypeVar("T")
#: events that change the table's state (a START at that version or later holds them)
STATE_KINDS = frozenset({"move", "undo", "end"})

#: events a slow connection may fall behind by before it is dropped
MAX_BACKLOG = 1000


def dumps(value: Any) -> str:
    """Compact JSON with sorted keys (orjson: the server encodes every event once per
    recipient, and the standard library's encoder was a tenth of the time per move)."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()


class SavingFailed(Exception):
    """A change was not saved (the details go to the log, not to the players)."""


class _Parked(Executor):
    """A mirror's bot pool: work handed to it never runs (the owner's bots move)."""

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        return Future()


PARKED = _Parked()
#: set while a mirror replays an offer heard from another instance: its events are
#: neither delivered again nor published again
_muted = threading.local()


def muted() -> bool:
    return bool(getattr(_muted, "on", False))


def recipient_key(recipient: int | None) -> str:
    return "s" if recipient is None else str(recipient)


@dataclass(eq=False)
class Connection:
    """One WebSocket: who it is (a seat, or ``None`` for a spectator) and its outbox."""

    recipient: int | None
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    unsubscribe: Callable[[], None] | None = None
    overflowed: bool = False
    #: a page's connection: what each of its events also carries (server/web/screens.py)
    dress: Callable[[Event], dict[str, Any]] | None = None
    #: the newest version sent, and the version of the last ``start`` sent
    version: int = -1
    synced: int = -1

    def offer(self, version: int, kind: str, text: str) -> None:
        """On the loop: send an event unless the connection already has it. Events
        reach a connection from its own instance's table and, for changes made on
        other instances, from the broker; a ``start`` (a view at one version) holds
        every change up to its version, so later copies of those are dropped."""
        if kind == "start":
            if version <= self.version:
                return
            self.synced = version
        elif version < self.version or (kind in STATE_KINDS and version <= self.synced):
            return
        self.version = max(self.version, version)
        self.push(text)

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

    def __init__(self, hub: Hub, row: TableRow, tokens: dict[str, int],
                 owner: bool = True, match: Match[Any, Any] | None = None) -> None:
        """``match``: the game as ``row.record`` holds it, if the caller has it at hand
        (a table just made); otherwise it is read from the record."""
        self.hub = hub
        #: this instance runs the table's timer and bots (always, without a broker)
        self.owner = owner
        #: another instance changed the table: refresh before use
        self.stale = False
        #: the newest version another instance told of (refresh before use if ahead)
        self.wanted = row.version
        #: the stored version seen ahead of ours by the last ``Hub.sync``
        self.behind: int | None = None
        #: the saved version some connection here had not been sent at the last sync
        self.lagging: int | None = None
        self.id = row.id
        self.private = row.private
        self.status = row.status
        self.created_at = row.created_at
        self.updated_at = row.updated_at
        self.rematch_id = row.rematch_id
        self.rematch_of = row.rematch_of
        #: the seeds of the bots' choices (and hints) and of their visible pauses:
        #: streams of their own, never the deal's (which is secret and lives in the
        #: record); a table stored before they existed gets fresh ones
        self.seed = row.bot_seed if row.bot_seed is not None else hub.minter.bot_seed()
        self.pause_seed = (row.pause_seed if row.pause_seed is not None
                           else hub.minter.pause_seed())
        #: the creator chose the deal: everyone is told, and it is never ranked
        self.known_deal = row.known_deal
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
        self._expected = [row.version]
        if match is None:
            match = Match.from_record(parse_record(row.record))
        self.game = match.game
        restored = self._restored_clocks(row, match, charge=hub.cluster is not None)
        self.table = self._make_table(match, row.version, restored)
        self.table.start_bots()

    # -- the Table ---------------------------------------------------------------------
    @property
    def playing(self) -> bool:
        """Every seat is taken (no seat is waiting for someone from the lobby)."""
        return all(s.kind != OPEN for s in self.seats)

    def _make_table(self, match: Match[Any, Any], version: int,
                    clock_state: ClockState | None) -> Table:
        expected = [version]  # the version this Table object saved last

        def on_change(table: Table) -> None:
            self._on_change(table, expected)

        table = seated_table(self.game, self.seats, match, bot_seed=self.seed,
                             pause_seed=self.pause_seed, pace=self.hub.settings.bot_pace,
                             playing=self.playing, player_clock=self.clock,
                             version=version, clock_state=clock_state,
                             on_change=on_change, hold_bots=True,
                             on_wake=lambda: self.hub.call_soon(self.reschedule),
                             executor=self.hub.bots if self.owner else PARKED)
        self._expected = expected
        table.subscribe(None, self._heard)
        if self.hub.cluster is not None:
            self._relay(table)
        return table

    def _relay(self, table: Table) -> None:
        """Publish every event of a change made here, with each recipient's JSON."""
        cluster = self.hub.cluster
        assert cluster is not None
        group: dict[str, str] = {}
        recipients: list[int | None] = [*range(self.game.num_players), None]
        game = self.game

        def listener_for(recipient: int | None) -> Callable[[Event], None]:
            def listener(event: Event) -> None:
                if event.kind is EventKind.START or muted():
                    return
                group[recipient_key(recipient)] = dumps(event_to_json(game, event))
                if recipient is None:  # subscribed last: every recipient's JSON is in
                    cluster.publish(self.id, {
                        "k": event.kind.value, "v": event.version, "seat": event.seat,
                        "offer": event.offer, "e": dict(group)})
                    group.clear()
            return listener

        for recipient in recipients:
            table.subscribe(recipient, listener_for(recipient))

    @staticmethod
    def _restored_clocks(row: TableRow, match: Match[Any, Any], charge: bool
                         ) -> ClockState:
        """The clocks saved in ``row``; with ``charge``, run on to now (another
        instance kept the table going since they were saved)."""
        left = list(row.clock_left)
        shared = row.shared_elapsed
        if charge and row.status == "live" and match.outcome is None:
            elapsed = max(0.0, time.time() - row.clock_saved_at)
            mover = match.game.to_move(match.state)
            if left and mover is not None and 0 <= mover < len(left):
                left[mover] = max(0.0, left[mover] - elapsed)
            if match.game.shared_clock_seconds is not None:
                shared += elapsed
        return ClockState(tuple(left), shared)

    def _heard(self, event: Event) -> None:
        """Every change (heard as a spectator): time the next deadline again. (The
        ``start`` of a new Table is not a change; whoever made it reschedules.)"""
        if event.kind is not EventKind.START:
            self.hub.call_soon(self.reschedule)

    def _on_change(self, table: Table, expected: list[int]) -> None:
        """Save the change before anyone is told (called under the table's lock).
        ``expected`` holds the version this Table object saved last: the row must
        still be at it (another instance may have saved a change since)."""
        if getattr(self, "table", table) is not table:
            raise SavingFailed("the table was changed elsewhere")
        now = time.time()
        status = "finished" if table.outcome is not None else (
            "live" if self.playing else "open")
        state = table.clock_state()
        changes = {
            "version": table.version,
            "record": format_record(table.referee_record()),
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
                self.hub.repo.add_token(self.id, seat, digest, expected[0], changes)
            else:
                self.hub.repo.save(self.id, expected[0], changes)
        except StaleWrite:
            if self.hub.cluster is None:
                log.error("table %s: another writer saved version %s", self.id,
                          expected[0])
            self.stale = True
            raise SavingFailed("the table was changed elsewhere") from None
        except Exception as error:
            log.error("table %s: cannot save: %s", self.id, error)
            raise SavingFailed("the database is not answering") from None
        expected[0] = table.version
        self.saved_version = table.version
        self.status = status
        self.updated_at = now

    def checkpoint(self) -> None:
        """Save the running clocks (between moves); skipped if a move is being saved."""
        if not self.owner or self.table.outcome is not None or (
                self.clock is None and self.game.shared_clock_seconds is None):
            return
        version = self._expected[0]
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
            try:  # the record names the newcomer from now on
                self.table.set_seat(seat, seat_of(self.game, seat, self.seats[seat],
                                                  self.seed, 0.0, True))
            except TableError:
                self.seats[seat] = before
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
        match = Match.from_record(old.referee_record())
        self.table = self._make_table(match, old.version, None)
        old.close()
        for connection in list(self.connections):
            self.attach(connection)
        self.table.start_bots()
        self.hub.call_soon(self.reschedule)

    # -- several instances -------------------------------------------------------------
    def seat_for(self, digest: str) -> int | None:
        """The seat a token's hash holds (asking the database again on a miss when
        another instance may have seated someone)."""
        seat = self.tokens.get(digest)
        if seat is None and self.hub.cluster is not None:
            self.tokens = self.hub.repo.token_hashes(self.id)
            seat = self.tokens.get(digest)
        return seat

    def act(self, action: Callable[[Table], T]) -> T:
        """Run ``action`` on the table. With a broker, a refusal or a failed save may
        come from a stale copy: if the database is ahead, refresh and try again (at
        most three tries; the database's version check decides every race)."""
        for attempt in range(3):
            table = self.table
            try:
                return action(table)
            except TableError:
                if self.hub.cluster is None or attempt == 2:
                    raise
                try:
                    refreshed = self.refresh(announce=True)
                except Exception as error:  # the database is not answering
                    log.warning("table %s: cannot refresh: %s", self.id, error)
                    refreshed = False
                if not refreshed and self.table is table:
                    raise
        raise AssertionError("unreachable")

    def refresh(self, row: TableRow | None = None, *, announce: bool = True,
                force: bool = False) -> bool:
        """Rebuild the table from the database if it is ahead of this copy (or
        ``force``). ``announce``: send each connection a ``start`` with its view (a
        catch-up); otherwise the broker's events tell them. Returns whether it did."""
        with self.lock:
            if row is None:
                row = self.hub.repo.load(self.id)
            self.stale = False
            if row is None or row.version < self.saved_version:
                return False
            same = (row.version == self.saved_version and row.status == self.status
                    and row.seats == [s.to_json() for s in self.seats])
            if same and not force:
                return False
            self.status = row.status
            self.updated_at = row.updated_at
            self.rematch_id = row.rematch_id
            self.seats = [SeatSpec.from_json(s) for s in row.seats]
            self.tokens = self.hub.repo.token_hashes(self.id)
            self.saved_version = row.version
            self.behind = None
            match = Match.from_record(parse_record(row.record))
            old = self.table
            self.table = self._make_table(match, row.version,
                                          self._restored_clocks(row, match, charge=True))
            old.close()
            for connection in list(self.connections):
                self.attach(connection, quiet=not announce)
            self.table.start_bots()
        self.hub.call_soon(self.reschedule)
        return True

    def catch_up_laggards(self) -> None:
        """Send a ``start`` to each connection still short of the version that was saved
        a sync round ago. A read may have refreshed this copy quietly (its events on
        the way through the broker); should the broker drop them, this catches up."""
        with self.lock:
            mark = self.lagging
            if mark is not None:
                for connection in [c for c in self.connections if c.version < mark]:
                    self.attach(connection)
            saved = self.saved_version
            self.lagging = saved if any(c.version < saved for c in self.connections) \
                else None

    def set_owner(self, owner: bool) -> None:
        """This instance took the table's lease (run its timer and bots) or lost it."""
        with self.lock:
            if owner == self.owner:
                return
            self.owner = owner
            self.refresh(announce=False, force=True)

    def mirror_offer(self, kind: str, seat: int | None, offer: str | None) -> None:
        """Another instance's table heard an offer or a refusal of one: hold it here
        too, so it may be answered through this instance."""
        if seat is None:
            return
        with self.lock:
            try:
                self.refresh(announce=False)
            except Exception as error:
                log.warning("table %s: cannot refresh: %s", self.id, error)
            _muted.on = True
            try:
                if kind == "offer" and offer is not None:
                    self.table.offer(seat, offer)
                elif kind == "decline":
                    self.table.answer(seat, False)
            except FourfoldError:
                pass
            finally:
                _muted.on = False

    # -- listeners ---------------------------------------------------------------------
    def attach(self, connection: Connection, quiet: bool = False) -> None:
        """Subscribe ``connection`` to the table as its recipient (again after a restart;
        ``quiet``: without the ``start`` a subscription begins with)."""
        if connection.unsubscribe is not None:
            connection.unsubscribe()
        game = self.game
        call = self.hub.call_soon
        skip = [quiet]

        def listener(event: Event) -> None:
            if muted():
                return
            if skip[0] and event.kind is EventKind.START:
                skip[0] = False
                return
            value = event_to_json(game, event)
            if connection.dress is not None:
                value["screen"] = connection.dress(event)
            text = dumps(value)
            if self.hub.cluster is None:  # one instance: every event, as it comes
                call(connection.push, text)
            else:
                call(connection.offer, event.version, event.kind.value, text)

        self.connections.add(connection)
        connection.unsubscribe = self.table.subscribe(connection.recipient, listener)

    def detach(self, connection: Connection) -> None:
        self.connections.discard(connection)
        if connection.unsubscribe is not None:
            connection.unsubscribe()
            connection.unsubscribe = None

    def broadcast(self, text: str, relay: bool = True) -> None:
        """Send ``text`` to every connection (on every instance, unless ``relay`` is
        false)."""
        for connection in list(self.connections):
            self.hub.call_soon(connection.push, text)
        if relay and self.hub.cluster is not None:
            self.hub.cluster.publish(self.id, {"k": "broadcast", "text": text,
                                               "rematch": self.rematch_id,
                                               "status": self.status})

    # -- time --------------------------------------------------------------------------
    def reschedule(self) -> None:
        """On the loop: one timer at the table's next deadline."""
        loop = self.hub.loop
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if loop is None or self.status in ("abandoned", "finished") or not self.playing \
                or not self.owner:
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
        #: table work off the loop: players' actions, timers, broker messages. A few
        #: threads, not AnyIO's forty: every action is a short burst of Python under one
        #: GIL (and one SQLite writer), and more threads only queue for those.
        self.workers = ThreadPoolExecutor(4, thread_name_prefix="tables")
        self.loop: asyncio.AbstractEventLoop | None = None
        self.tables: dict[str, LiveTable] = {}
        self._lock = threading.Lock()
        #: the broker's link when several instances share the database (set by the app)
        self.cluster: Cluster | None = None

    @property
    def instance(self) -> str:
        return self.cluster.instance if self.cluster is not None else ""

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
        """Take every unfinished table back into play (after a restart); returns how many."""
        self.loop = loop
        count = 0
        if self.cluster is not None:
            return 0  # tables are taken up through their leases (``leases``)
        for row in self.repo.with_status("open", "live"):
            try:
                live = self._load(row)
            except FourfoldError as error:
                log.error("table %s cannot be restored: %s", row.id, error)
                continue
            live.reschedule()
            count += 1
        return count

    def _load(self, row: TableRow, owner: bool | None = None,
              tokens: dict[str, int] | None = None,
              match: Match[Any, Any] | None = None) -> LiveTable:
        if owner is None:
            owner = self.cluster is None
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
        with self._lock:
            live = self.tables.get(table_id)
        if live is not None:
            if self.cluster is not None:
                self._read_your_writes(live)
            elif live.stale or live.wanted > live.saved_version:
                live.refresh(announce=False)
            return live
        if not table_id.isalnum() or len(table_id) > 32:
            return None
        row = self.repo.load(table_id)
        if row is None:
            return None
        live = self._load(row)
        self.call_soon(live.reschedule)
        return live

    def _read_your_writes(self, live: LiveTable) -> None:
        """Several instances: another one may have saved a change a moment ago, its
        event still on the way through the broker. Read the stored version (one query
        by primary key) and reload when it is ahead, so whoever was told a change was
        accepted, on any instance, reads it here at once (docs/deploy.md)."""
        try:
            stored = self.repo.stored_version(live.id)
            if live.stale or max(stored or -1, live.wanted) > live.saved_version:
                live.refresh(announce=False)
        except Exception as error:  # the database is not answering: serve this copy
            log.warning("table %s: cannot check for newer changes: %s", live.id, error)

    def add(self, row: dict[str, Any], tokens: dict[int, str],
            match: Match[Any, Any] | None = None) -> LiveTable:
        """Store a new table (its seat tokens hashed) and put it in play; ``match`` is
        the game its record holds, if at hand."""
        hashes = {seat: token_hash(token) for seat, token in tokens.items()}
        self.repo.create(row, hashes)
        stored = TableRow.of_new(row)
        owner = None
        if self.cluster is not None and stored.status in ("open", "live"):
            now = time.time()
            owner = self.repo.claim(stored.id, self.instance, now,
                                    now + self.settings.lease_seconds)
        live = self._load(stored, owner, {h: seat for seat, h in hashes.items()}, match)
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
            if not live.owner:  # a mirror: the owner abandons; forget it when unwatched
                if not live.connections:
                    self._forget(live)
                continue
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

    # -- several instances (a broker) --------------------------------------------------
    def leases(self) -> None:
        """Renew this instance's leases, let go of lost and finished tables, and take
        tables whose lease expired (their instance died) or that have none."""
        if self.cluster is None:
            return
        now = time.time()
        until = now + self.settings.lease_seconds
        held = self.repo.renew(self.instance, until, now)
        with self._lock:
            tables = list(self.tables.values())
        for live in tables:
            if live.owner and live.id not in held:
                log.warning("table %s: lease lost", live.id)
                live.set_owner(False)
        done = [live.id for live in tables
                if live.owner and live.status in ("finished", "abandoned")]
        if done:
            self.repo.release(self.instance, done)
            for live in tables:
                if live.id in done:
                    live.owner = False
        for table_id in self.repo.claimable(now, 50):
            if table_id in held or not self.repo.claim(table_id, self.instance, now, until):
                continue
            taken = self.get(table_id)
            if taken is not None:
                log.info("table %s: lease taken", table_id)
                taken.set_owner(True)

    def sync(self) -> None:
        """Compare the versions of the tables in play here with the database: catch up
        tables the broker did not tell us about (it may be down, or restarting)."""
        cluster = self.cluster
        if cluster is None:
            return
        with self._lock:
            tables = [t for t in self.tables.values() if t.connections or t.owner]
        stored = self.repo.versions([t.id for t in tables])
        for live in tables:
            version = stored.get(live.id)
            if version is None or version <= live.saved_version:
                live.behind = None
                live.catch_up_laggards()
            elif not cluster.connected or (live.behind is not None
                                           and live.behind <= version):
                live.refresh(announce=True)
            else:
                live.behind = version  # maybe an event in flight: look again next time

    def catch_up(self) -> None:
        """After (re)subscribing to the broker: events may have been missed. Refresh
        every watched table from the database; send its connections their view."""
        with self._lock:
            tables = list(self.tables.values())
        for live in tables:
            if live.connections or live.owner:
                try:
                    live.refresh(announce=True)
                except Exception as error:
                    log.warning("table %s: cannot catch up: %s", live.id, error)
            else:
                live.stale = True

    def heard(self, message: dict[str, Any]) -> None:
        """On the loop: an event of a change made on another instance."""
        with self._lock:
            live = self.tables.get(str(message.get("t")))
        if live is None:
            return
        kind = message.get("k")
        if kind == "broadcast":
            live.rematch_id = message.get("rematch") or live.rematch_id
            live.broadcast(str(message.get("text")), relay=False)
            live.stale = True
            return
        version = int(message.get("v", -1))
        events = message.get("e") or {}
        for connection in list(live.connections):
            text = events.get(recipient_key(connection.recipient))
            if isinstance(text, str):
                connection.offer(version, str(kind), text)
        if kind in ("offer", "decline"):
            self.workers.submit(live.mirror_offer, str(kind), message.get("seat"),
                                message.get("offer"))
        elif version > live.saved_version or kind == "seats":
            # whoever reads it next refreshes it first
            live.wanted = max(live.wanted, version)
            live.stale = live.stale or kind == "seats"
            if live.connections or live.owner:
                self.workers.submit(self._refresh_quietly, live)

    @staticmethod
    def _refresh_quietly(live: LiveTable) -> None:
        try:
            live.refresh(announce=False)
        except Exception as error:
            live.stale = True
            log.warning("table %s: cannot refresh: %s", live.id, error)

    def shutdown(self) -> None:
        self.checkpoint()
        if self.cluster is not None:
            try:  # let the other instances take over at once
                self.repo.release(self.instance)
            except Exception as error:
                log.warning("leases not released: %s", error)
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
