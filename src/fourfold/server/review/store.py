"""The rows of stored reviews: ``reviews`` (made by migration 0007, written only here)."""

from __future__ import annotations

from sqlalchemy import Column, Integer, MetaData, String, Table, Text, delete, insert, select

from fourfold.server.storage import Repository

metadata = MetaData()
reviews = Table(
    "reviews", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("version", Integer, nullable=False),   # the table's version it reviews
    Column("body", Text, nullable=False),         # JSON
)


class ReviewStore:
    """Reads and writes of ``reviews``: one review per table, of its final version."""

    def __init__(self, repo: Repository) -> None:
        self.repo = repo

    def get(self, table_id: str) -> tuple[int, str] | None:
        with self.repo.engine.connect() as c:
            row = c.execute(select(reviews.c.version, reviews.c.body).where(
                reviews.c.table_id == table_id)).first()
        return None if row is None else (int(row[0]), str(row[1]))

    def save(self, table_id: str, version: int, body: str) -> None:
        with self.repo.engine.begin() as c:
            c.execute(delete(reviews).where(reviews.c.table_id == table_id))
            c.execute(insert(reviews).values(table_id=table_id, version=version, body=body))
