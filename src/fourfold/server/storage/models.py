"""The schema (SQLAlchemy Core). The migrations in ``fourfold/server/migrations`` build it;
this module is what the code reads and writes through.

- ``tables``: one row per table, live or finished. ``record`` is the referee's record
  (every hidden card: storage only, never sent), ``version`` the table's version, which
  every write checks (``UPDATE ... WHERE id = ? AND version = ?``). ``clock_left`` and
  ``shared_elapsed`` are the clocks at ``clock_saved_at``. ``seed`` is the seed its
  creator chose for the deal (``None``: a secret deal); ``known_deal`` marks a table
  whose deal its creator chose (a seed, a set-up position or an imported record),
  which never counts for a score or a leaderboard. ``bot_seed`` and ``pause_seed``
  seed the bots' choices and their visible pauses: streams of their own, never the
  deal's.
- ``seat_tokens``: the SHA-256 of each seat's token, never the token itself.
- ``analyses``: solver values of a finished game, computed once.
- ``leases``: which server instance runs a table's clocks and bots, until when (Unix
  time); only used when several instances share the database (``--broker``).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    false,
)

metadata = MetaData()

tables = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("variant", String(40), nullable=False),
    Column("options", Text, nullable=False),          # JSON object of strings
    Column("status", String(16), nullable=False),     # open, live, finished, abandoned
    Column("private", Boolean, nullable=False),
    Column("version", Integer, nullable=False),
    Column("record", Text, nullable=False),           # the referee's; more moves:
    #                                                   table_moves
    Column("seats", Text, nullable=False),            # JSON: who sits where
    Column("seed", Integer, nullable=True),
    Column("clock_base", Float, nullable=True),
    Column("clock_increment", Float, nullable=True),
    Column("clock_left", Text, nullable=True),        # JSON array of seconds
    Column("shared_elapsed", Float, nullable=False),
    Column("clock_saved_at", Float, nullable=False),  # Unix time of the clocks above
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),      # Unix time of the last change
    Column("rematch_of", String(32), nullable=True),
    Column("rematch_id", String(32), nullable=True),
    # the creator chose the deal (a seed or a set-up position): never ranked
    Column("known_deal", Boolean, nullable=False, server_default=false()),
    Column("bot_seed", Integer, nullable=True),       # the bots' choices and hints
    Column("pause_seed", Integer, nullable=True),     # the bots' visible pauses
)
Index("ix_tables_status", tables.c.status)


def _of_a_table(name: str, *columns: Column[Any]) -> Table:
    """A table whose rows each belong to one row of ``tables``: its key starts with that
    row's id, ``table_id``, then ``columns``."""
    return Table(name, metadata,
                 Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
                 *columns)


seat_tokens = _of_a_table(
    "seat_tokens",
    Column("seat", Integer, primary_key=True),
    Column("token_hash", String(64), nullable=False),
)
Index("ix_seat_tokens_hash", seat_tokens.c.token_hash)

#: a table's moves, one row each, appended as they are played (the ``record`` column
#: holds the rest of the record, and the moves of rows stored before this table existed)
table_moves = _of_a_table(
    "table_moves",
    Column("ply", Integer, primary_key=True),
    Column("move", Text, nullable=False),
)

analyses = _of_a_table(
    "analyses",
    Column("version", Integer, nullable=False),
    Column("body", Text, nullable=False),             # JSON
)

leases = Table(
    "leases",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("owner", String(80), nullable=False),
    Column("expires", Float, nullable=False),
)
Index("ix_leases_owner", leases.c.owner)
