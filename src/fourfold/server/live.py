"""``LiveTable``: one table as the server holds it, in the parts that make it live.

A ``LiveTable`` wraps the referee (``fourfold.table.Table``) with the server's parts:

- persistence (server/persistence.py): every accepted change is saved through
  ``Table.on_change`` before anyone hears of it; a failed save undoes the change;
- fan-out (server/fanout.py): the WebSocket connections, each sent its own
  recipient's events;
- a timer (server/timers.py) at the table's next deadline;
- the hub's broker (server/broker.py), asked wherever one instance and several differ:
  whether this instance owns the table (runs its timer, bots and clock checkpoints) or
  mirrors it, how often an action is retried on a copy that may be stale, where its
  events go besides the local connections.

Here live what is the table's own: joining an open seat, acting through the referee,
and rebuilding the referee from the database (``refresh``) when another instance
changed the table. Bots think on the hub's shared worker pool, so a long search never
blocks the event loop.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future
from typing import TYPE_CHECKING, Any, TypeVar

from fourfold.core.errors import FourfoldError
from fourfold.core.game import Game
from fourfold.core.match import Match
from fourfold.server.fanout import Connection, Fanout, Muted, dumps
from fourfold.server.persistence import Persistence, Saved, SavingFailed
from fourfold.server.specs import HUMAN, OPEN, SeatSpec, bot_pace, seat_of, seated_table
from fourfold.server.storage import Row, TableRow
from fourfold.server.timers import TableTimer
from fourfold.server.tokens import token_hash
from fourfold.table import ClockSettings, ClockState, Table, TableError

if TYPE_CHECKING:
    from fourfold.server.hub import Hub

__all__ = ["Connection", "LiveTable", "SavingFailed", "dumps"]

log = logging.getLogger("fourfold.server")
T = TypeVar("T")


class _Parked(Executor):
    """A mirror's bot pool: work handed to it never runs (the owner's bots move)."""

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        return Future()


PARKED = _Parked()


class LiveTable:
    """One table as the server holds it (see the module's docstring)."""

    def __init__(self, hub: Hub, row: TableRow, tokens: dict[str, int],
                 owner: bool = True, match: Match[Any, Any] | None = None) -> None:
        """``match``: the game as the row's record holds it, if the caller has it at
        hand (a table just made); otherwise it is read from the row."""
        self.hub = hub
        self.broker = hub.broker
        self.persistence: Persistence = hub.persistence
        #: this instance runs the table's timer and bots (always, alone)
        self.owner = owner
        #: another instance changed the table: refresh before use
        self.stale = False
        #: the newest version another instance told of (refresh before use if ahead)
        self.wanted = row.version
        #: the stored version seen ahead of ours by the last broker sync
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
        if match is None:
            match = Match.from_record(row.full_record())
        self.game: Game[Any, Any] = match.game
        self.lock = threading.RLock()
        self.fanout = Fanout(self.game, self.broker, hub.call_soon)
        self.timer = TableTimer(self)
        self._pending_token: tuple[int, str] | None = None
        #: what else the seat being taken writes with it (``join``'s ``noted``)
        self._pending_rows: Sequence[Row] = ()
        restored = Persistence.restored_clocks(row, match,
                                               self.broker.charges_restored_clocks())
        self.table = self._make_table(match, Saved.of(row, match), restored)
        self.table.start_bots()

    @property
    def playing(self) -> bool:
        """Every seat is taken (no seat is waiting for someone from the lobby)."""
        return all(s.kind != OPEN for s in self.seats)

    @property
    def connections(self) -> set[Connection]:
        return self.fanout.connections

    # -- the Table ---------------------------------------------------------------------
    def _make_table(self, match: Match[Any, Any], saved: Saved,
                    clock_state: ClockState | None) -> Table:
        self._saved = saved  # what this Table object saved last

        def on_change(table: Table) -> None:
            """Save the change before anyone is told (under the table's lock), then time
            the next deadline again (on the loop, once the change is done). Only
            changes move a deadline: offers and their answers do not."""
            if getattr(self, "table", table) is not table:
                raise SavingFailed("the table was changed elsewhere")
            self.persistence.save_change(self, table, saved, self._pending_token,
                                         self._pending_rows)
            self.timer.soon()
            if table.outcome is not None and self.owner and self.hub.on_finished:
                self.hub.on_finished(self)  # the review starts (server/review)

        table = seated_table(self.game, self.seats, match, bot_seed=self.seed,
                             pause_seed=self.pause_seed,
                             pace=bot_pace(self.game, match, self.hub.settings),
                             playing=self.playing, player_clock=self.clock,
                             version=saved.version, clock_state=clock_state,
                             on_change=on_change, hold_bots=True,
                             on_wake=self.timer.soon,
                             executor=self.hub.bots if self.owner else PARKED)
        self.broker.relay(self, table)
        return table

    def checkpoint(self) -> None:
        """Save the running clocks (between changes)."""
        self.persistence.checkpoint(self, self._saved.version)

    # -- acting ------------------------------------------------------------------------
    def check_open(self) -> None:
        """Refuse actions at an abandoned table or one still waiting for players."""
        if self.status == "abandoned":
            raise TableError("this table was abandoned (nobody played for too long)", "over")
        if not self.playing and self.table.outcome is None:
            waiting = ", ".join(str(p + 1) for p, s in enumerate(self.seats) if s.kind == OPEN)
            raise TableError(f"the game starts when every seat is taken (open: {waiting})",
                             "turn")

    def join(self, seat: int | None, name: str | None,
             noted: Callable[[int], Sequence[Row]] | None = None) -> tuple[int, str]:
        """Take an open seat (the first one, or ``seat``); returns it and its token.
        ``noted(seat)``: rows saved with the seat, in the same transaction (a daily
        table's seat address); if any cannot be saved, the seat stays open
        (``TableError``, kind ``save``)."""
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
                self._pending_rows = () if noted is None else noted(seat)
                self.table.set_seat(seat, seat_of(self.game, seat, self.seats[seat],
                                                  self.seed, 0.0, True))
            except BaseException:
                self.seats[seat] = before
                raise
            finally:
                self._pending_token = None
                self._pending_rows = ()
            self.tokens[token_hash(token)] = seat
            if self.playing:
                self._restart()
            return seat, token

    def _restart(self) -> None:
        """The last open seat was taken: seat the bots and start the clocks now."""
        old = self.table
        match = Match.from_record(old.referee_record())
        self.table = self._make_table(match, self._saved.copy(), None)
        old.close()
        self.fanout.reattach(self.table)
        self.table.start_bots()
        self.timer.soon()

    def seat_for(self, digest: str) -> int | None:
        """The seat a token's hash holds."""
        return self.broker.seat_for(self, digest)

    def act(self, action: Callable[[Table], T]) -> T:
        """Run ``action`` on the table. With several instances a refusal or a failed
        save may come from a stale copy: if the database is ahead, refresh and try
        again (``Broker.attempts`` tries; the database's version check decides every
        race)."""
        attempts = self.broker.attempts
        for attempt in range(attempts):
            table = self.table
            try:
                return action(table)
            except TableError:
                if attempt == attempts - 1:
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
            match = Match.from_record(row.full_record())
            old = self.table
            self.table = self._make_table(match, Saved.of(row, match),
                                          Persistence.restored_clocks(row, match, True))
            old.close()
            self.fanout.reattach(self.table, quiet=not announce)
            self.table.start_bots()
        self.timer.soon()
        return True

    def catch_up_laggards(self) -> None:
        """Send a ``start`` to each connection still short of the version that was saved
        a sync round ago. A read may have refreshed this copy quietly (its events on
        the way through the broker); should the broker drop them, this catches up."""
        with self.lock:
            mark = self.lagging
            if mark is not None:
                for connection in self.fanout.behind(mark):
                    self.attach(connection)
            saved = self.saved_version
            self.lagging = saved if self.fanout.behind(saved) else None

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
            with Muted():
                try:
                    if kind == "offer" and offer is not None:
                        self.table.offer(seat, offer)
                    elif kind == "decline":
                        self.table.answer(seat, False)
                except FourfoldError:
                    pass

    # -- connections -------------------------------------------------------------------
    def attach(self, connection: Connection, quiet: bool = False) -> None:
        """Subscribe ``connection`` to the table as its recipient (``quiet``: without
        the ``start`` a subscription begins with)."""
        self.fanout.attach(self.table, connection, quiet)

    def detach(self, connection: Connection) -> None:
        self.fanout.detach(connection)

    def broadcast(self, text: str, relay: bool = True) -> None:
        """Send ``text`` to every connection (on every instance, unless ``relay`` is
        false)."""
        self.fanout.send(text)
        if relay:
            self.broker.publish(self.id, {"k": "broadcast", "text": text,
                                          "rematch": self.rematch_id,
                                          "status": self.status})

    def reschedule(self) -> None:
        """On the loop: one timer at the table's next deadline."""
        self.timer.reschedule()

    def close(self) -> None:
        self.timer.cancel()
        self.table.close()
        self.fanout.send(None)
