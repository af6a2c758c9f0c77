"""Persistence: every accepted change of a table is saved before anyone hears of it.

``Table.on_change`` calls ``Persistence.save_change`` under the table's lock. The save
is one transaction, ``UPDATE tables ... WHERE version = <the version saved last>``
(another instance may have saved since: then nothing is written, and the change is
undone and refused), plus the change's moves:

- a move appends one row to ``table_moves``; the record is not written again;
- an undo deletes the rows it took back;
- a change of the record's tags (a seat taken, the game's end) writes the record
  anew (its tags and set-up) with every move as rows;
- a seat taken also writes its token's hash, and what else the join notes (a daily
  table's seat address): all of it or none.

Between changes, ``checkpoint`` saves the running clocks (the owner's, every few
seconds). A failed save undoes the change; the actor is told it did not count.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fourfold.core.match import Match
from fourfold.core.outcome import Outcome
from fourfold.core.record import format_record
from fourfold.server.storage import Repository, Row, StaleWrite, TableRow
from fourfold.table import ClockState, Table

if TYPE_CHECKING:
    from fourfold.server.broker import Broker
    from fourfold.server.live import LiveTable

log = logging.getLogger("fourfold.server")


class SavingFailed(Exception):
    """A change was not saved (the details go to the log, not to the players)."""


@dataclass
class Saved:
    """What one ``Table`` object last saved (or was loaded at): its version, how many
    moves are stored, how many of them the ``record`` column holds, and the players
    and outcome the ``record`` column was written with."""

    version: int
    plies: int
    in_record: int
    tags: tuple[tuple[str, ...], Outcome | None]
    #: the seats as saved (written again only when they change)
    seats: list[dict[str, Any]]

    @classmethod
    def of(cls, row: TableRow, match: Match[Any, Any]) -> Saved:
        plies = len(match.moves)
        return cls(row.version, plies, plies - len(row.moves),
                   (tuple(match.players), match.outcome), list(row.seats))

    def copy(self) -> Saved:
        return dataclasses.replace(self, seats=list(self.seats))


class Persistence:
    """The saving of live tables (see the module's docstring)."""

    def __init__(self, repo: Repository, broker: Broker) -> None:
        self.repo = repo
        self.broker = broker

    def save_change(self, live: LiveTable, table: Table, saved: Saved,
                    token: tuple[int, str] | None = None, rows: Sequence[Row] = ()
                    ) -> None:
        """Save ``table``'s newest change (``token``: a seat just taken, and its hash;
        ``rows``: what else the seat taken writes, in the same transaction); raises
        ``SavingFailed`` if it cannot."""
        now = time.time()
        status = "finished" if table.outcome is not None else (
            "live" if live.playing else "open")
        clocks = table.clock_state()
        seats = [s.to_json() for s in live.seats]
        changes: dict[str, Any] = {
            "version": table.version,
            "status": status,
            "clock_left": clocks.left,
            "shared_elapsed": clocks.shared_elapsed,
            "clock_saved_at": now,
            "updated_at": now,
        }
        if seats != saved.seats:
            changes["seats"] = seats
        plies = table.plies
        tags = (table.players, table.outcome)
        in_record = saved.in_record
        moves: tuple[str, ...] = ()
        first = saved.plies
        cut: int | None = None
        if tags != saved.tags or plies < saved.in_record:
            record = table.referee_record()
            changes["record"] = format_record(dataclasses.replace(record, moves=()))
            moves, first, cut, in_record = record.moves, 0, 0, 0
        elif plies < saved.plies:
            cut = plies
        elif plies > saved.plies:
            moves = table.moves_since(saved.plies)
        try:
            self.repo.save_change(live.id, saved.version, changes, moves=moves,
                                  first_ply=first, cut_from=cut, token=token,
                                  rows=rows)
        except StaleWrite:
            self.broker.stale_write(live, saved.version)
            live.stale = True
            raise SavingFailed("the table was changed elsewhere") from None
        except Exception as error:
            log.error("table %s: cannot save: %s", live.id, error)
            raise SavingFailed("the database is not answering") from None
        saved.version, saved.plies, saved.in_record, saved.tags, saved.seats = (
            table.version, plies, in_record, tags, seats)
        live.saved_version = table.version
        live.status = status
        live.updated_at = now

    def checkpoint(self, live: LiveTable, version: int) -> None:
        """Save the running clocks of ``live`` (saved last at ``version``); skipped if a
        change was saved meanwhile."""
        table = live.table
        if not live.owner or table.outcome is not None or (
                live.clock is None and live.game.shared_clock_seconds is None):
            return
        state = table.clock_state()
        with contextlib.suppress(StaleWrite):  # a change was saved meanwhile
            self.repo.save(live.id, version, {
                "clock_left": state.left, "shared_elapsed": state.shared_elapsed,
                "clock_saved_at": time.time()})

    def abandon(self, live: LiveTable, now: float) -> bool:
        """Mark an idle table abandoned; whether it was saved."""
        try:
            self.repo.save(live.id, live.saved_version, {"status": "abandoned",
                                                         "updated_at": now})
        except Exception as error:
            log.warning("table %s not abandoned: %s", live.id, error)
            return False
        live.status = "abandoned"
        return True

    @staticmethod
    def restored_clocks(row: TableRow, match: Match[Any, Any], charge: bool) -> ClockState:
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
