"""Alembic environment: run against the connection ``storage.migrate`` hands over."""

from __future__ import annotations

from alembic import context

from fourfold.server.storage.models import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata,
                  render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():
    context.run_migrations()
