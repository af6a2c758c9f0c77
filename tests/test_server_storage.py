"""The server's storage on SQLite: versioned writes, one kept write connection, and the
write-ahead log copied into the database off the write path."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from fourfold.server.storage import Repository, StaleWrite
from fourfold.server.storage.migrate import open_database


def _row(table_id: str) -> dict[str, Any]:
    now = time.time()
    return {"id": table_id, "game": "quarto", "variant": "standard", "options": {},
            "status": "live", "private": False, "version": 0, "record": "", "seats": [],
            "seed": 1, "clock_base": None, "clock_increment": None, "clock_left": (),
            "shared_elapsed": 0.0, "clock_saved_at": now, "created_at": now,
            "updated_at": now, "rematch_of": None, "rematch_id": None}


@pytest.fixture
def repo(tmp_path: Path) -> Any:
    engine = open_database(f"sqlite:///{tmp_path / 'tables.db'}")
    repository = Repository(engine)
    yield repository
    repository.close()
    engine.dispose()


def test_versioned_writes(repo: Repository) -> None:
    repo.create(_row("t1"), {0: "a" * 64})
    repo.save("t1", 0, {"version": 1, "record": "one", "seats": [{"name": "Ann"}],
                        "clock_left": (3.5, 2.0)})
    repo.save("t1", 1, {"version": 2, "status": "finished"})
    with pytest.raises(StaleWrite, match="not at version 1"):
        repo.save("t1", 1, {"version": 3, "record": "lost"})
    with pytest.raises(StaleWrite):
        repo.save("nope", 0, {"version": 1})
    row = repo.load("t1")
    assert row is not None
    assert (row.version, row.status, row.record) == (2, "finished", "one")
    assert row.seats == [{"name": "Ann"}] and row.clock_left == (3.5, 2.0)
    assert repo.token_hashes("t1") == {"a" * 64: 0}
    # the stale write changed nothing, and the kept connection still works after it
    repo.save("t1", 2, {"version": 3})
    assert repo.versions(["t1"]) == {"t1": 3}


def test_a_new_row_reads_as_stored(repo: Repository) -> None:
    from fourfold.server.storage.repository import TableRow

    row = _row("t2")
    repo.create(row, {})
    assert TableRow.of_new(row) == repo.load("t2")


def test_commits_leave_the_log_to_the_checkpoint(repo: Repository, tmp_path: Path) -> None:
    repo.create(_row("t3"), {})
    for version in range(200):
        repo.save("t3", version, {"version": version + 1, "record": "x" * 2000})
    wal = tmp_path / "tables.db-wal"
    # no commit copied the log back (SQLite's default would have, every 1000 pages)
    with repo._transaction() as c:
        assert c.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 0
    assert wal.stat().st_size > 0
    pages = repo.checkpoint_wal()
    assert pages is not None
    in_log, copied = pages
    assert in_log > 0 and copied == in_log
    row = repo.load("t3")
    assert row is not None and row.version == 200
