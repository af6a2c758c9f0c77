"""Puzzle ratings: each puzzle's and each solver's Glicko-2 rating, and the first try of
each puzzle by each solver (server/puzzles/store.py).

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    for name, key in (("puzzle_ratings", "puzzle_id"), ("solver_ratings", "solver_id")):
        op.create_table(
            name,
            sa.Column(key, sa.String(32), primary_key=True),
            sa.Column("rating", sa.Float, nullable=False),
            sa.Column("rd", sa.Float, nullable=False),
            sa.Column("vol", sa.Float, nullable=False),
            sa.Column("plays", sa.Integer, nullable=False),
        )
    op.create_table(
        "puzzle_attempts",
        sa.Column("solver_id", sa.String(32), primary_key=True),
        sa.Column("puzzle_id", sa.String(32), primary_key=True),
        sa.Column("solved", sa.Boolean, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("puzzle_attempts")
    op.drop_table("solver_ratings")
    op.drop_table("puzzle_ratings")
