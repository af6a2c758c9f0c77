"""The daily deal: who took each person seat of a daily table (as a keyed hash).

``daily_seats`` holds, for each ``human`` seat of a daily table, a keyed hash of the
client address that took it (its creator's own link, or a join from the lobby):
HMAC-SHA256 under the server's daily secret of the address's key (IPv4 as it is, IPv6
by its /64), never the address itself. The leaderboard ranks a table only if its
person seats were taken from different addresses, and only the first finish per
address, day and variant (server/daily/board.py, docs/daily.md).

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "daily_seats",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("address", sa.String(64), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("daily_seats")
