"""The proof-number search's transposition table: a dictionary in front of SQLite.

Entries are ``key -> (proof number, disproof number)``. The dictionary holds what
the search touches; ``flush`` writes the changed entries to the file, and when the
dictionary grows past ``cache_limit`` entries it is flushed and emptied, so the
table can be larger than memory. A missing entry is looked up in the file. The
file also keeps the run's facts (``meta``: the claim, nodes and seconds so far), so
that a search stopped after S seconds resumes from the same file.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from fourfold.core.errors import FourfoldError

Entry = tuple[int, int]

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS entries (key BLOB PRIMARY KEY, pn INTEGER NOT NULL,"
    " dn INTEGER NOT NULL) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
)


class DiskTable:
    """A transposition table kept in ``path`` (an SQLite file, created if absent)."""

    def __init__(self, path: str | Path, cache_limit: int = 2_000_000) -> None:
        self.path = Path(path)
        try:
            self.db = sqlite3.connect(self.path)
            for statement in _SCHEMA:
                self.db.execute(statement)
            self.db.commit()
        except sqlite3.Error as exc:
            raise FourfoldError(f"proof table {self.path}: cannot open it ({exc})") from None
        self.cache_limit = cache_limit
        self.cache: dict[bytes, Entry] = {}
        self.dirty: set[bytes] = set()
        self.on_disk = self.db.execute("SELECT 1 FROM entries LIMIT 1").fetchone() is not None

    def get(self, key: bytes) -> Entry | None:
        found = self.cache.get(key)
        if found is not None or not self.on_disk:
            return found
        row = self.db.execute("SELECT pn, dn FROM entries WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        entry = (int(row[0]), int(row[1]))
        self.cache[key] = entry
        return entry

    def put(self, key: bytes, pn: int, dn: int) -> None:
        self.cache[key] = (pn, dn)
        self.dirty.add(key)
        if len(self.cache) > self.cache_limit:
            self.flush()
            self.cache.clear()

    def flush(self) -> None:
        """Write every changed entry to the file."""
        if self.dirty:
            self.db.executemany(
                "INSERT OR REPLACE INTO entries (key, pn, dn) VALUES (?, ?, ?)",
                ((k, *self.cache[k]) for k in self.dirty))
            self.dirty.clear()
            self.on_disk = True
        self.db.commit()

    def meta(self) -> dict[str, str]:
        return dict(self.db.execute("SELECT name, value FROM meta").fetchall())

    def set_meta(self, **values: object) -> None:
        self.db.executemany("INSERT OR REPLACE INTO meta (name, value) VALUES (?, ?)",
                            ((k, str(v)) for k, v in values.items()))
        self.db.commit()

    def size(self) -> int:
        """Entries in the file (after a flush)."""
        return int(self.db.execute("SELECT COUNT(*) FROM entries").fetchone()[0])

    def close(self) -> None:
        self.flush()
        self.db.close()
