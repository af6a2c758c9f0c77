"""The rows of table chat: ``chat_lines`` (made by migration 0006, written only here)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Column,
    Engine,
    Float,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    func,
    insert,
    select,
)

from fourfold.server.storage import Repository

metadata = MetaData()
chat_lines = Table(
    "chat_lines", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(32), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("name", String(80), nullable=False),
    Column("text", String(400), nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_chat_lines_table", "table_id", "id"),
)


@dataclass(frozen=True)
class ChatLine:
    """One line: its number at the server, the seat (0-based), the seat's name, the text
    and when (Unix seconds)."""

    id: int
    seat: int
    name: str
    text: str
    at: float

    def to_json(self) -> dict[str, Any]:
        return {"type": "chat", "id": self.id, "seat": self.seat, "name": self.name,
                "text": self.text, "at": round(self.at, 3)}


class ChatStore:
    """Reads and writes of ``chat_lines``."""

    def __init__(self, repo: Repository) -> None:
        self.repo = repo

    @property
    def engine(self) -> Engine:
        return self.repo.engine

    def add(self, table_id: str, seat: int, name: str, text: str, at: float) -> ChatLine:
        with self.engine.begin() as c:
            result = c.execute(insert(chat_lines).values(
                table_id=table_id, seat=seat, name=name, text=text, at=at))
            key = result.inserted_primary_key
            assert key is not None
            return ChatLine(int(key[0]), seat, name, text, at)

    def count(self, table_id: str) -> int:
        with self.engine.connect() as c:
            return int(c.execute(select(func.count()).select_from(chat_lines)
                                 .where(chat_lines.c.table_id == table_id)).scalar_one())

    def lines(self, table_id: str) -> list[ChatLine]:
        with self.engine.connect() as c:
            rows = c.execute(select(chat_lines).where(chat_lines.c.table_id == table_id)
                             .order_by(chat_lines.c.id)).all()
        return [ChatLine(int(r.id), int(r.seat), str(r.name), str(r.text), float(r.at))
                for r in rows]
