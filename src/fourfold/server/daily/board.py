"""The leaderboard of one day's deal of one variant.

A table is ranked once it is finished, if it finished before its day ended, its deal
was not known to its players (``known_deal``: never ranked), its person seats were
taken from different client addresses, and none of those addresses had already
finished a table of the same deal (``standings``: each other finished table gets the
reason, shown to its players). One entry per table: solved first, then fewest actions,
then least time (from the table's making to its last action). While the day lasts the
board shows counts and ranks only: no table, no line, no deal. Once the day is over it
shows each table, its whole line (the day's best lines, best first) and the deal
itself.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from fourfold.core.match import Match
from fourfold.core.outcome import Result
from fourfold.server.daily.clock import DailyClock, day_end
from fourfold.server.daily.deal import DailyKind
from fourfold.server.daily.store import DailyStore, DailyTable
from fourfold.server.storage import Repository

#: the most entries a board lists (the counts cover every table)
SHOWN = 100

# why a table of the day is not ranked (shown to its players: nothing about the cards)
UNFINISHED = "the game is not over yet"
ABANDONED = "the table was abandoned"
LATE = "it finished after its day had ended, when the deal was public"
UNRECORDED = "who took its seats is not on record (a table made before seats were recorded)"
SHARED = ("two of its person seats were taken from the same address: a daily table counts"
          " only if each person plays from an address of their own")
REPEAT = ("one of its players' addresses had already finished a table of this deal today:"
          " only the first finish from an address counts")


def standings(rows: list[DailyTable], day: str) -> dict[str, str | None]:
    """Each table's reason for not being ranked (``None``: ranked, once its entry is
    read). Finished tables are taken in the order they finished: a table's addresses
    count as having seen the deal from then on, ranked or not."""
    end = day_end(day)
    reasons: dict[str, str | None] = {}
    seen: set[str] = set()
    for row in sorted(rows, key=lambda r: (r.updated_at, r.table_id)):
        if row.status != "finished":
            reasons[row.table_id] = ABANDONED if row.status == "abandoned" else UNFINISHED
            continue
        addresses = [a for _, a in row.addresses]
        if row.updated_at >= end:
            reason: str | None = LATE
        elif not row.people <= {seat for seat, _ in row.addresses}:
            reason = UNRECORDED
        elif len(set(addresses)) < len(addresses):
            reason = SHARED
        elif seen.intersection(addresses):
            reason = REPEAT
        else:
            reason = None
        reasons[row.table_id] = reason
        seen.update(addresses)
    return reasons


@dataclass(frozen=True)
class Entry:
    """A finished daily table's result (fixed once the table is finished)."""

    table_id: str
    solved: bool
    actions: int
    seconds: float
    players: tuple[str, ...]
    line: tuple[str, ...]
    deal: str

    def key(self) -> tuple[int, int, float, str]:
        return (0 if self.solved else 1, self.actions, self.seconds, self.table_id)


def entry_of(repo: Repository, row: DailyTable) -> Entry | None:
    """The result of a finished table (``None`` if its row is gone)."""
    stored = repo.load(row.table_id)
    if stored is None:
        return None
    match = Match.from_record(stored.full_record())
    outcome = match.outcome
    return Entry(row.table_id, outcome is not None and outcome.result is Result.TEAM_WIN,
                 len(match.moves), round(row.updated_at - row.created_at, 1),
                 tuple(match.players), tuple(match.notation),
                 match.game.format_position(match.start))


class Leaderboards:
    """Every day's boards, read from the database (finished results kept in memory)."""

    def __init__(self, store: DailyStore, repo: Repository, clock: DailyClock) -> None:
        self.store = store
        self.repo = repo
        self.clock = clock
        self._entries: dict[str, Entry] = {}
        self._lock = threading.Lock()

    def _entry(self, row: DailyTable) -> Entry | None:
        with self._lock:
            known = self._entries.get(row.table_id)
        if known is not None:
            return known
        entry = entry_of(self.repo, row)
        if entry is not None:
            with self._lock:
                self._entries[row.table_id] = entry
        return entry

    def _ranked(self, rows: list[DailyTable], reasons: dict[str, str | None]
                ) -> list[Entry]:
        entries = []
        for row in rows:
            if row.known_deal or row.status != "finished" or reasons[row.table_id]:
                continue
            entry = self._entry(row)
            if entry is not None:
                entries.append(entry)
        return sorted(entries, key=Entry.key)

    def standing(self, kind: DailyKind, day: str, table_id: str) -> dict[str, Any]:
        """What a daily table's players are told of it: whether it is ranked, its rank
        (once finished), or why it is not."""
        rows = [r for r in self.store.tables_of(kind, day) if not r.known_deal]
        reasons = standings(rows, day)
        ranked = self._ranked(rows, reasons)
        rank = next((n for n, e in enumerate(ranked, start=1) if e.table_id == table_id),
                    None)
        reason = reasons.get(table_id, UNRECORDED)
        return {"game": kind.game, "variant": kind.variant, "day": day,
                "ranked": rank is not None, "rank": rank,
                "reason": reason if rank is None else None}

    def board(self, kind: DailyKind, day: str) -> dict[str, Any]:
        """The board as JSON (see the module's docstring for what it shows when)."""
        rows = [r for r in self.store.tables_of(kind, day) if not r.known_deal]
        reasons = standings(rows, day)
        ranked = self._ranked(rows, reasons)
        ended = self.clock.ended(day)
        listed = []
        for rank, entry in enumerate(ranked[:SHOWN], start=1):
            item: dict[str, Any] = {"rank": rank, "solved": entry.solved,
                                    "actions": entry.actions, "seconds": entry.seconds,
                                    "players": list(entry.players)}
            if ended:
                item.update(table=entry.table_id, replay=f"/replay/{entry.table_id}",
                            line=list(entry.line))
            listed.append(item)
        return {
            "game": kind.game, "variant": kind.variant, "title": kind.title, "day": day,
            "ended": ended, "ends_at": day_end(day),
            "tables": len(rows), "playing": sum(r.status in ("open", "live") for r in rows),
            "finished": len(ranked), "solved": sum(e.solved for e in ranked),
            "unranked": sum(r.status == "finished" and reasons[r.table_id] is not None
                            for r in rows),
            "entries": listed,
            "deal": (ranked[0].deal if ranked else self._deal_text(rows)) if ended else None,
        }

    def _deal_text(self, rows: list[DailyTable]) -> str | None:
        """The deal of a finished day that no ranked table shows (any table's start)."""
        for row in rows:
            stored = self.repo.load(row.table_id)
            if stored is not None:
                match = Match.from_record(stored.full_record())
                return str(match.game.format_position(match.start))
        return None
