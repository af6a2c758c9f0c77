"""The daily deal: the server's secret and the tables dealt from it.

``server_secrets`` holds secrets shared by every instance on this database (one row,
``daily``, made once with ``secrets`` by whichever instance needs it first); the day's
deals are keyed from it with HMAC by day and variant (server/daily/deal.py).
``daily_tables`` names each table dealt a daily deal, its day and its game and
variant; the leaderboard reads it with the tables it names.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "server_secrets",
        sa.Column("name", sa.String(40), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
    )
    op.create_table(
        "daily_tables",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("day", sa.String(10), nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("variant", sa.String(40), nullable=False),
    )
    op.create_index("ix_daily_tables_day", "daily_tables", ["day", "game", "variant"])


def downgrade() -> None:
    op.drop_index("ix_daily_tables_day", table_name="daily_tables")
    op.drop_table("daily_tables")
    op.drop_table("server_secrets")
