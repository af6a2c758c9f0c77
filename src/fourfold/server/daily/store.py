"""The daily deal's rows: the server's secret and which tables were dealt which day.

Its tables (``server_secrets``, ``daily_tables``) are made by migration 0005,
``daily_seats`` (who took each person seat, as a keyed hash of the address) by 0010;
all are written only here. A table's ``daily_tables`` row is written before the table itself,
so any table a request can find already has it: a table with no row is not a daily
one, for good.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass

from sqlalchemy import (
    Column,
    Engine,
    Integer,
    MetaData,
    String,
    Table,
    delete,
    insert,
    select,
)
from sqlalchemy.exc import IntegrityError

from fourfold.server.daily.deal import DailyKind
from fourfold.server.storage import Repository, Row
from fourfold.server.storage.models import tables

metadata = MetaData()
server_secrets = Table(
    "server_secrets", metadata,
    Column("name", String(40), primary_key=True),
    Column("value", String(128), nullable=False),
)
daily_tables = Table(
    "daily_tables", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("day", String(10), nullable=False),
    Column("game", String(40), nullable=False),
    Column("variant", String(40), nullable=False),
)
daily_seats = Table(
    "daily_seats", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("address", String(64), nullable=False),
)
SECRET_NAME = "daily"
#: tables whose day (or want of one) is remembered in memory
MEMORY = 100_000


@dataclass(frozen=True)
class DailyTable:
    """A daily table with what the leaderboard reads of its ``tables`` row."""

    table_id: str
    status: str
    known_deal: bool
    created_at: float
    updated_at: float
    #: the seats held by people (``human`` seats, as the table stands)
    people: frozenset[int] = frozenset()
    #: seat -> the keyed hash of the address that took it (``seated``)
    addresses: tuple[tuple[int, str], ...] = ()


class DailyStore:
    """Reads and writes of the daily deal's rows."""

    def __init__(self, repo: Repository) -> None:
        self.repo = repo
        self._secret: bytes | None = None
        self._days: OrderedDict[str, str | None] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def engine(self) -> Engine:
        """The server's database (read when needed: a hub may be made before it)."""
        return self.repo.engine

    def secret(self) -> bytes:
        """The server's daily secret: read, or made once (``secrets``) by whichever
        instance asks first; an instance that loses the race reads the winner's."""
        if self._secret is None:
            value = self._read_secret()
            if value is None:
                try:
                    with self.engine.begin() as c:
                        c.execute(insert(server_secrets).values(
                            name=SECRET_NAME, value=secrets.token_hex(32)))
                except IntegrityError:
                    pass
                value = self._read_secret()
            assert value is not None
            self._secret = bytes.fromhex(value)
        return self._secret

    def _read_secret(self) -> str | None:
        with self.engine.connect() as c:
            value = c.execute(select(server_secrets.c.value).where(
                server_secrets.c.name == SECRET_NAME)).scalar()
        return None if value is None else str(value)

    def add(self, table_id: str, kind: DailyKind, day: str) -> None:
        with self.engine.begin() as c:
            c.execute(insert(daily_tables).values(table_id=table_id, day=day,
                                                  game=kind.game, variant=kind.variant))
        self._remember(table_id, day)

    def address_hash(self, address_key: str) -> str:
        """The keyed hash kept for a client address's key (never the address itself):
        equal keys give equal hashes, and without the secret nobody can tell whose."""
        message = f"address/{address_key}".encode()
        return hmac.new(self.secret(), message, hashlib.sha256).hexdigest()[:32]

    def seated(self, table_id: str, seat: int, address_key: str) -> None:
        """Note that ``seat`` of daily table ``table_id`` was taken from ``address_key``
        (``limits.address_key``)."""
        with self.engine.begin() as c:
            c.execute(insert(daily_seats).values(table_id=table_id, seat=seat,
                                                 address=self.address_hash(address_key)))

    @staticmethod
    def seat_row(table_id: str, seat: int, address: str) -> Row:
        """The ``daily_seats`` row of a seat taken from the address whose keyed hash is
        ``address`` (``address_hash``), for the join's own transaction
        (``Repository.save_change``'s ``rows``)."""
        return daily_seats, {"table_id": table_id, "seat": seat, "address": address}

    def remove(self, table_id: str) -> None:
        """Undo ``add`` (the table itself could not be stored)."""
        with self.engine.begin() as c:
            c.execute(delete(daily_seats).where(daily_seats.c.table_id == table_id))
            c.execute(delete(daily_tables).where(daily_tables.c.table_id == table_id))
        with self._lock:
            self._days.pop(table_id, None)

    def day_of(self, table_id: str) -> str | None:
        """The day of a daily table; ``None`` for any other table."""
        with self._lock:
            if table_id in self._days:
                self._days.move_to_end(table_id)
                return self._days[table_id]
        with self.engine.connect() as c:
            value = c.execute(select(daily_tables.c.day).where(
                daily_tables.c.table_id == table_id)).scalar()
        day = None if value is None else str(value)
        self._remember(table_id, day)
        return day

    def _remember(self, table_id: str, day: str | None) -> None:
        with self._lock:
            self._days[table_id] = day
            while len(self._days) > MEMORY:
                self._days.popitem(last=False)

    def tables_of(self, kind: DailyKind, day: str) -> list[DailyTable]:
        """Every table of ``kind``'s deal on ``day``, oldest first."""
        query = (select(tables.c.id, tables.c.status, tables.c.known_deal,
                        tables.c.created_at, tables.c.updated_at, tables.c.seats)
                 .join(daily_tables, daily_tables.c.table_id == tables.c.id)
                 .where(daily_tables.c.day == day, daily_tables.c.game == kind.game,
                        daily_tables.c.variant == kind.variant)
                 .order_by(tables.c.created_at, tables.c.id))
        seats = (select(daily_seats.c.table_id, daily_seats.c.seat, daily_seats.c.address)
                 .join(daily_tables, daily_tables.c.table_id == daily_seats.c.table_id)
                 .where(daily_tables.c.day == day, daily_tables.c.game == kind.game,
                        daily_tables.c.variant == kind.variant))
        with self.engine.connect() as c:
            rows = c.execute(query).all()
            taken: dict[str, list[tuple[int, str]]] = {}
            for r in c.execute(seats).all():
                taken.setdefault(str(r.table_id), []).append((int(r.seat), str(r.address)))
        return [DailyTable(str(r.id), str(r.status), bool(r.known_deal),
                           float(r.created_at), float(r.updated_at), _people(str(r.seats)),
                           tuple(sorted(taken.get(str(r.id), ()))))
                for r in rows]


def _people(seats: str) -> frozenset[int]:
    """The seats held by people in a ``tables.seats`` JSON list."""
    return frozenset(p for p, s in enumerate(json.loads(seats)) if s.get("kind") == "human")
