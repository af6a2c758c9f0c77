"""The server's database: schema, migrations and every read and write."""

from fourfold.server.storage.repository import Repository, Row, StaleWrite, TableRow

__all__ = ["Repository", "Row", "StaleWrite", "TableRow"]
