"""Moves saved append-only: one row per move instead of the whole record per move.

``table_moves`` holds a table's moves (``ply`` from 0, in notation); the ``record``
column of ``tables`` holds the rest of the record (its tags and set-up), and is
written again only when those change (a seat taken, the game's end) or an undo
reaches moves it holds. Rows stored before this revision keep every move in
``record``: the moves of a table are the record's followed by its rows, so they need
no copying. Downgrading folds the rows back into each record.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import dataclasses

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_moves",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("ply", sa.Integer, primary_key=True),
        sa.Column("move", sa.Text, nullable=False),
    )


def downgrade() -> None:
    from fourfold.core.record import format_record, parse_record

    connection = op.get_bind()
    ids = [r[0] for r in connection.execute(sa.text(
        "SELECT DISTINCT table_id FROM table_moves")).all()]
    for table_id in ids:
        moves = tuple(r[0] for r in connection.execute(sa.text(
            "SELECT move FROM table_moves WHERE table_id = :t ORDER BY ply"),
            {"t": table_id}).all())
        text = connection.execute(sa.text("SELECT record FROM tables WHERE id = :t"),
                                  {"t": table_id}).scalar_one()
        record = parse_record(text)
        whole = dataclasses.replace(record, moves=record.moves + moves)
        connection.execute(sa.text("UPDATE tables SET record = :r WHERE id = :t"),
                           {"r": format_record(whole), "t": table_id})
    op.drop_table("table_moves")
