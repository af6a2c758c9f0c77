"""Known-deal tables and the tables' own random streams.

``known_deal``: the creator chose the deal (a seed, a set-up position or an imported
record), so the table never counts for a score or a leaderboard. ``bot_seed`` and
``pause_seed``: the seeds of the bots' choices and of their visible pauses, drawn
apart from the deal (which is secret and lives in the record). Tables stored before
this revision keep ``NULL`` there and get fresh secret streams when they are loaded.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("known_deal", sa.Boolean, nullable=False,
                                      server_default=sa.false()))
    op.add_column("tables", sa.Column("bot_seed", sa.Integer, nullable=True))
    op.add_column("tables", sa.Column("pause_seed", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("pause_seed")
        batch.drop_column("bot_seed")
        batch.drop_column("known_deal")
