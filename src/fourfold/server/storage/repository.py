"""Every read and write of the server's database, each in one short transaction.

Writes that change a table check its version (``UPDATE ... WHERE id = ? AND
version = ?``): two writers can never both think they saved the same change. A write
that finds another version raises ``StaleWrite`` and changes nothing.

A table's moves are appended one row each (``table_moves``, ``save_change``); its
``record`` column holds the rest of the record (and, for rows stored before moves had
rows, the first moves), so a move writes a short row, never the whole record.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import orjson
from sqlalchemy import (
    Connection,
    Engine,
    and_,
    bindparam,
    create_engine,
    delete,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError, SQLAlchemyError

from fourfold.core.record import Record, parse_record
from fourfold.server.storage.models import analyses, leases, seat_tokens, table_moves, tables


class StaleWrite(Exception):
    """The row was not at the version the writer expected: nothing was written."""


@dataclass(frozen=True)
class TableRow:
    """One stored table, decoded."""

    id: str
    game: str
    variant: str
    options: dict[str, str]
    status: str
    private: bool
    version: int
    record: str
    seats: list[dict[str, Any]]
    seed: int | None
    clock_base: float | None
    clock_increment: float | None
    clock_left: tuple[float, ...]
    shared_elapsed: float
    clock_saved_at: float
    created_at: float
    updated_at: float
    rematch_of: str | None
    rematch_id: str | None
    known_deal: bool = False
    bot_seed: int | None = None
    pause_seed: int | None = None
    #: the moves stored as rows, after any the ``record`` column holds
    moves: tuple[str, ...] = ()

    def full_record(self) -> Record:
        """The referee's whole record: the ``record`` column and then the move rows."""
        record = parse_record(self.record)
        if not self.moves:
            return record
        return dataclasses.replace(record, moves=record.moves + self.moves)

    @classmethod
    def of_new(cls, row: Mapping[str, Any]) -> TableRow:
        """The row ``Repository.create(row, ...)`` stores, without reading it back."""
        values = dict(row)
        values["options"] = dict(values["options"])
        values["seats"] = [dict(s) for s in values["seats"]]
        values["clock_left"] = tuple(values["clock_left"] or ())
        return cls(**values)

    @classmethod
    def of(cls, row: Any, moves: Sequence[str] = ()) -> TableRow:
        values = dict(row)
        values["moves"] = tuple(moves)
        values["options"] = json.loads(values["options"])
        values["seats"] = json.loads(values["seats"])
        left = values["clock_left"]
        values["clock_left"] = tuple(json.loads(left)) if left else ()
        return cls(**values)


def _encoded(changes: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON columns encoded (orjson: the standard library's encoder was an eighth of
    a move's save)."""
    values = dict(changes)
    if "seats" in values:
        values["seats"] = orjson.dumps(values["seats"]).decode()
    if "clock_left" in values:
        values["clock_left"] = orjson.dumps(list(values["clock_left"])).decode()
    return values


def _compile(statement: Any, dialect: Dialect) -> tuple[str, tuple[str, ...]]:
    """``statement`` in the dialect's SQL, with the order of its parameters if they are
    positional (else ``()``)."""
    compiled = statement.compile(dialect=dialect)
    return compiled.string, tuple(compiled.positiontup or ()) if compiled.positional else ()


def _ordered(params: dict[str, Any], order: tuple[str, ...]) -> Any:
    """Parameters as the compiled statement takes them: a tuple in ``order``, or the
    dict itself for named parameters."""
    return tuple(params[name] for name in order) if order else params


@lru_cache(maxsize=64)
def _versioned_update(dialect: Dialect, columns: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """``UPDATE tables SET <columns> WHERE id = :row_id AND version = :expected`` in the
    dialect's SQL, with the order of its parameters if they are positional (else ``()``).
    Compiled once per set of columns: building and compiling the statement for every
    move cost more than the write itself."""
    statement = update(tables).where(and_(
        tables.c.id == bindparam("row_id"), tables.c.version == bindparam("expected"),
    )).values({name: bindparam("set_" + name) for name in columns})
    return _compile(statement, dialect)


#: runs one statement of SQL compiled once, with its parameters (a tuple or a dict, or
#: a list of them for many rows), in a write transaction; returns the driver's cursor
Run = Callable[[str, Any], Any]


def _update_versioned(run: Run, dialect: Dialect, table_id: str, expected: int,
                      changes: Mapping[str, Any]) -> None:
    """Write ``changes`` to the row if it is still at version ``expected``. (Every value
    is a plain string or number by now, so no type needs SQLAlchemy's conversion.)"""
    values = _encoded(changes)
    params: dict[str, Any] = {"set_" + name: value for name, value in values.items()}
    params.update(row_id=table_id, expected=expected)
    sql, order = _versioned_update(dialect, tuple(sorted(values)))
    done = run(sql, _ordered(params, order))
    if done.rowcount != 1:
        raise StaleWrite(f"table {table_id} is not at version {expected}")


#: a table's stored version, by primary key
_VERSION_OF = select(tables.c.version).where(tables.c.id == bindparam("id"))
#: a table's move rows, in order
_MOVES_OF = select(table_moves.c.move).where(
    table_moves.c.table_id == bindparam("id")).order_by(table_moves.c.ply)


def _moves_of(c: Connection, table_id: str) -> list[str]:
    return [str(r[0]) for r in c.execute(_MOVES_OF, {"id": table_id}).all()]


@lru_cache(maxsize=8)
def _insert_move(dialect: Dialect) -> tuple[str, tuple[str, ...]]:
    """``INSERT INTO table_moves`` in the dialect's SQL (compiled once, as above)."""
    return _compile(insert(table_moves).values(
        table_id=bindparam("t"), ply=bindparam("p"), move=bindparam("m")), dialect)


@lru_cache(maxsize=8)
def _insert_table(dialect: Dialect, columns: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """``INSERT INTO tables`` of ``columns`` (a new table; parameters ``v_<column>``)."""
    return _compile(insert(tables).values({name: bindparam("v_" + name) for name in columns}),
                    dialect)


@lru_cache(maxsize=8)
def _cut_moves(dialect: Dialect) -> tuple[str, tuple[str, ...]]:
    """``DELETE FROM table_moves`` from one ply of one table on (an undo)."""
    return _compile(delete(table_moves).where(and_(
        table_moves.c.table_id == bindparam("t"), table_moves.c.ply >= bindparam("p"))),
        dialect)


#: a row written with a change, in its transaction: a table (of any module's metadata)
#: and the row's values (``save_change``'s ``rows``)
Row = tuple[Any, Mapping[str, Any]]


@lru_cache(maxsize=16)
def _insert_row(dialect: Dialect, table: Any, columns: tuple[str, ...]
                ) -> tuple[str, tuple[str, ...]]:
    """``INSERT INTO <table> (<columns>)``, compiled once per table and columns."""
    return _compile(insert(table).values({c: bindparam(c) for c in columns}), dialect)


@lru_cache(maxsize=8)
def _insert_token(dialect: Dialect) -> tuple[str, tuple[str, ...]]:
    """``INSERT INTO seat_tokens`` (a seat just taken)."""
    return _compile(insert(seat_tokens).values(
        table_id=bindparam("t"), seat=bindparam("s"), token_hash=bindparam("h")), dialect)


class Repository:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        # SQLite takes one writer at a time: threads that each open a write transaction
        # sleep in its back-off (measured: 88 ms a write under load, 1.4 s at p99). One
        # lock in the process queues them instead (1.6 ms, 17 ms at p99; see
        # docs/benchmarks-server.md). PostgreSQL needs no such lock.
        #: the database is a local file (SQLite): no network between us and it
        self.local = engine.dialect.name == "sqlite"
        self._writer: threading.Lock | None = threading.Lock() if self.local else None
        #: SQLite's one write connection, kept open under ``_writer`` (taking one from
        #: the pool for every move cost a third of the write)
        self._write_connection: Connection | None = None
        #: connections for ``stored_version`` (made on first use)
        self._reader: Engine | None = None
        self._reader_lock = threading.Lock()

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[Connection]:
        """One transaction; on SQLite, one at a time in this process, on one connection."""
        if self._writer is None:
            with self.engine.begin() as c:
                yield c
            return
        with self._writer:
            c = self._kept_writer()
            try:
                with c.begin():
                    yield c
            except SQLAlchemyError:
                # the database failed (not a stale version): start afresh next time
                self._drop_writer()
                raise

    @contextlib.contextmanager
    def _compiled(self) -> Iterator[Run]:
        """A write transaction for statements compiled once (a move's save, a clock
        checkpoint). On SQLite they run on the kept write connection's own driver,
        which commits: SQLAlchemy's execution of each statement, and its transaction,
        cost twice SQLite's own work (a move's save: ~165 -> ~60 µs, measured;
        docs/benchmarks-server.md). Elsewhere they run in SQLAlchemy's transaction."""
        if self._writer is None:
            with self._transaction() as c:
                yield c.exec_driver_sql
            return
        with self._writer:
            raw = self._kept_writer().connection.driver_connection
            if raw is None:  # the pool let the connection go: open another next time
                self._drop_writer()
                raise ConnectionError("the database's write connection was closed")
            cursor = raw.cursor()

            def run(sql: str, params: Any) -> Any:
                if isinstance(params, list):
                    cursor.executemany(sql, params)
                else:
                    cursor.execute(sql, params)
                return cursor

            try:
                try:
                    yield run
                    raw.commit()
                except sqlite3.Error as error:  # as SQLAlchemy's: a full disk is a 503
                    raise DBAPIError.instance(None, None, error, sqlite3.Error) from error
            except BaseException as error:
                failed = not isinstance(error, StaleWrite)
                try:
                    raw.rollback()
                except Exception:
                    failed = True
                if failed:  # the database failed (not a stale version): start afresh
                    self._drop_writer()
                raise
            finally:
                cursor.close()

    def _kept_writer(self) -> Connection:
        """SQLite's one write connection (under ``_writer``), opened on first use."""
        if self._write_connection is None:
            self._write_connection = self.engine.connect()
            # commits never copy the log into the database (``checkpoint_wal`` does,
            # from another thread): that copy and its fsync stalled a commit now and
            # then
            self._write_connection.exec_driver_sql("PRAGMA wal_autocheckpoint=0")
            self._write_connection.commit()
        return self._write_connection

    def _drop_writer(self) -> None:
        """Close the kept write connection after a failure (under ``_writer``)."""
        c, self._write_connection = self._write_connection, None
        if c is not None:
            with contextlib.suppress(Exception):
                c.close()

    def checkpoint_wal(self) -> tuple[int, int] | None:
        """SQLite: copy the write-ahead log into the database, without waiting for the
        writer (it goes on meanwhile), so that the log stays short. Returns the pages in
        the log and how many of them are now in the database (``None``: not SQLite)."""
        if not self.local:
            return None
        with self.engine.connect() as c:
            row = c.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)").one()
        return int(row[1]), int(row[2])

    def close(self) -> None:
        """Give back the kept write connection (the engine's pool keeps the rest) and
        the version reader's connections."""
        with self._reader_lock:
            if self._reader is not None and self._reader is not self.engine:
                self._reader.dispose()
            self._reader = None
        if self._writer is None:
            return
        with self._writer:
            if self._write_connection is not None:
                with contextlib.suppress(Exception):
                    self._write_connection.close()
                self._write_connection = None

    # -- tables ------------------------------------------------------------------------
    def create(self, row: Mapping[str, Any], token_hashes: Mapping[int, str]) -> None:
        values = dict(row)
        values["options"] = json.dumps(values["options"], sort_keys=True)
        values["seats"] = json.dumps(values["seats"])
        values["clock_left"] = json.dumps(list(values["clock_left"])) if values[
            "clock_left"] else None
        dialect = self.engine.dialect
        with self._compiled() as run:
            sql, order = _insert_table(dialect, tuple(sorted(values)))
            run(sql, _ordered({"v_" + name: value for name, value in values.items()}, order))
            if token_hashes:
                sql, order = _insert_token(dialect)
                run(sql, [_ordered({"t": row["id"], "s": seat, "h": digest}, order)
                          for seat, digest in token_hashes.items()])

    def save(self, table_id: str, expected: int, changes: Mapping[str, Any]) -> None:
        """Write ``changes`` if the row is still at version ``expected``."""
        with self._compiled() as run:
            _update_versioned(run, self.engine.dialect, table_id, expected, changes)

    def save_change(self, table_id: str, expected: int, changes: Mapping[str, Any], *,
                    moves: Sequence[str] = (), first_ply: int = 0,
                    cut_from: int | None = None,
                    token: tuple[int, str] | None = None,
                    rows: Sequence[Row] = ()) -> None:
        """One change of a table, in one transaction: ``changes`` to its row if it is
        still at version ``expected`` (else ``StaleWrite``, nothing written); then its
        move rows from ply ``cut_from`` on deleted (an undo, a record written anew),
        ``moves`` appended as plies ``first_ply``, ``first_ply + 1``...; ``token``
        (seat, hash) given to a seat just taken; and ``rows`` inserted (what else a
        seat just taken writes: a daily table's seat address). Any of them failing
        writes none of them."""
        dialect = self.engine.dialect
        with self._compiled() as run:
            _update_versioned(run, dialect, table_id, expected, changes)
            if cut_from is not None:
                sql, order = _cut_moves(dialect)
                run(sql, _ordered({"t": table_id, "p": cut_from}, order))
            if moves:
                sql, order = _insert_move(dialect)
                run(sql, [_ordered({"t": table_id, "p": first_ply + i, "m": m}, order)
                          for i, m in enumerate(moves)])
            if token is not None:
                sql, order = _insert_token(dialect)
                run(sql, _ordered({"t": table_id, "s": token[0], "h": token[1]}, order))
            for table, values in rows:
                sql, order = _insert_row(dialect, table, tuple(sorted(values)))
                run(sql, _ordered(dict(values), order))

    def load(self, table_id: str) -> TableRow | None:
        with self.engine.connect() as c:
            row = c.execute(select(tables).where(tables.c.id == table_id)).mappings().first()
            return None if row is None else TableRow.of(row, _moves_of(c, table_id))

    def with_status(self, *statuses: str) -> Iterator[TableRow]:
        with self.engine.connect() as c:
            rows = c.execute(select(tables).where(tables.c.status.in_(statuses))
                             ).mappings().all()
            found = [TableRow.of(row, _moves_of(c, row["id"])) for row in rows]
        yield from found

    def lobby(self, limit: int) -> list[TableRow]:
        query = (select(tables).where(and_(tables.c.private.is_(False),
                                           tables.c.status.in_(("open", "live"))))
                 .order_by(tables.c.updated_at.desc()).limit(limit))
        with self.engine.connect() as c:
            return [TableRow.of(r) for r in c.execute(query).mappings().all()]

    def set_rematch(self, table_id: str, rematch_id: str) -> str:
        """Note the rematch of a table once; returns the one that was noted first."""
        with self._transaction() as c:
            c.execute(update(tables).where(and_(tables.c.id == table_id,
                                                tables.c.rematch_id.is_(None)))
                      .values(rematch_id=rematch_id))
            noted = c.execute(select(tables.c.rematch_id).where(tables.c.id == table_id)
                              ).scalar_one()
        return str(noted)

    # -- tokens ------------------------------------------------------------------------
    def token_hashes(self, table_id: str) -> dict[str, int]:
        """Each seat's token hash -> seat."""
        with self.engine.connect() as c:
            rows = c.execute(select(seat_tokens.c.seat, seat_tokens.c.token_hash).where(
                seat_tokens.c.table_id == table_id)).all()
        return {digest: seat for seat, digest in rows}

    def stored_version(self, table_id: str) -> int | None:
        """The table's stored version (``None``: no such table), read the cheapest way:
        one query by primary key outside a transaction, on connections kept for it
        (autocommit, no ping on checkout): one round trip where a pooled transaction
        took four. Instances sharing a database ask it before every read."""
        for attempt in range(2):
            try:
                with self._version_reader().connect() as c:
                    value = c.execute(_VERSION_OF, {"id": table_id}).scalar()
                return None if value is None else int(value)
            except DBAPIError as error:  # a connection the database dropped: once more
                if attempt or not error.connection_invalidated:
                    raise
        return None

    def _version_reader(self) -> Engine:
        with self._reader_lock:
            if self._reader is None:
                self._reader = self.engine if self.local else create_engine(
                    self.engine.url, pool_size=2, max_overflow=14,
                    isolation_level="AUTOCOMMIT", connect_args={"connect_timeout": 5})
            return self._reader

    def versions(self, table_ids: list[str]) -> dict[str, int]:
        """The stored version of each of ``table_ids`` (one query)."""
        if not table_ids:
            return {}
        with self.engine.connect() as c:
            rows = c.execute(select(tables.c.id, tables.c.version).where(
                tables.c.id.in_(table_ids))).all()
        return {str(i): int(v) for i, v in rows}

    # -- leases (several instances on one database) ------------------------------------
    def claim(self, table_id: str, owner: str, now: float, until: float) -> bool:
        """Take the table's lease if nobody holds it or it has expired (or it is
        ``owner``'s already); one statement, so two instances never both win."""
        values = {"table_id": table_id, "owner": owner, "expires": until}
        from sqlalchemy.dialects import postgresql, sqlite

        dialect: Any = postgresql if self.engine.dialect.name == "postgresql" else sqlite
        statement = dialect.insert(leases).values(**values)
        statement = statement.on_conflict_do_update(
            index_elements=[leases.c.table_id],
            set_={"owner": statement.excluded.owner, "expires": statement.excluded.expires},
            where=or_(leases.c.expires < now, leases.c.owner == owner)
        ).returning(leases.c.owner)
        with self._transaction() as c:
            won = c.execute(statement).first()
        return won is not None

    def renew(self, owner: str, until: float, now: float) -> set[str]:
        """Extend ``owner``'s unexpired leases; returns the tables it still holds."""
        with self._transaction() as c:
            rows = c.execute(update(leases).where(and_(
                leases.c.owner == owner, leases.c.expires >= now)).values(expires=until)
                .returning(leases.c.table_id)).all()
        return {str(r[0]) for r in rows}

    def claimable(self, now: float, limit: int) -> list[str]:
        """Open or live tables whose lease is missing or expired (oldest change first)."""
        query = (select(tables.c.id).select_from(tables.outerjoin(
            leases, leases.c.table_id == tables.c.id)).where(and_(
                tables.c.status.in_(("open", "live")),
                or_(leases.c.table_id.is_(None), leases.c.expires < now)))
            .order_by(tables.c.updated_at).limit(limit))
        with self.engine.connect() as c:
            return [str(r[0]) for r in c.execute(query).all()]

    def release(self, owner: str, table_ids: list[str] | None = None) -> None:
        """Give up ``owner``'s leases (all of them, or ``table_ids``)."""
        condition = leases.c.owner == owner
        if table_ids is not None:
            condition = and_(condition, leases.c.table_id.in_(table_ids))
        with self._transaction() as c:
            c.execute(delete(leases).where(condition))

    # -- analyses ----------------------------------------------------------------------
    def analysis(self, table_id: str) -> tuple[int, str] | None:
        with self.engine.connect() as c:
            row = c.execute(select(analyses.c.version, analyses.c.body).where(
                analyses.c.table_id == table_id)).first()
        return None if row is None else (int(row[0]), str(row[1]))

    def save_analysis(self, table_id: str, version: int, body: str) -> None:
        with self._transaction() as c:
            c.execute(analyses.delete().where(analyses.c.table_id == table_id))
            c.execute(insert(analyses).values(table_id=table_id, version=version, body=body))
