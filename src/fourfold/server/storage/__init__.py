"""The server's database: schema, migrations and every read and write."""

from fourfold.server.storage.repository import Repository, StaleWrite, TableRow

__all__ = ["Repository", "StaleWrite", "TableRow"]
