"""Open the database and bring its schema up to date (alembic, run in-process).

The migration scripts ship inside the package (``fourfold/server/migrations``), so
``fourfold serve`` needs no alembic.ini and no set-up: the first start creates the
schema, a later version upgrades it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.exc import SQLAlchemyError

from fourfold.core.errors import ConfigurationError

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"


def database_url(url: str) -> str:
    """``postgresql://`` (and ``postgres://``) mean psycopg 3."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


#: where else a server's SQLite database may go
ELSEWHERE = "give another --data folder (or --database file)"


def _cannot_open(url: str, reason: str) -> str:
    """The one line a database that cannot be opened is refused with: for an SQLite
    file, which file and what to do when it is a folder or not a database."""
    from sqlalchemy.engine import make_url

    try:
        parsed = make_url(url)
    except Exception:  # the URL itself was refused earlier; say what the driver said
        return f"cannot open the database: {reason}"
    if parsed.get_backend_name() != "sqlite" or not parsed.database:
        return f"cannot open the database: {reason}"
    file = Path(parsed.database)
    line = f"cannot open the database {file}: {reason}"
    if file.is_dir():
        return f"{line} (it is a folder, not a file: move it away, or {ELSEWHERE})"
    if "not a database" in reason:
        return (f"{line} (this file is not an SQLite database: move it away, or"
                f" {ELSEWHERE})")
    return line


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    # WAL: readers never wait for the writer; NORMAL: a commit survives the process
    # being killed (kill -9), as only a power cut could lose the last transactions
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def open_database(url: str) -> Engine:
    """An engine on ``url`` with the schema migrated to the newest revision.
    Raises ``ConfigurationError`` (one line) when the database cannot be reached."""
    url = database_url(url)
    try:
        if url.startswith("sqlite"):
            engine = create_engine(url, connect_args={"check_same_thread": False,
                                                      "timeout": 10},
                                   pool_size=8, max_overflow=8)
            event.listen(engine, "connect", _sqlite_pragmas)
        else:
            engine = create_engine(url, pool_size=8, max_overflow=8, pool_pre_ping=True,
                                   connect_args={"connect_timeout": 5})
        with engine.begin() as connection:
            if connection.dialect.name == "postgresql":
                # instances starting together migrate one after another
                connection.execute(text("SELECT pg_advisory_xact_lock(4404)"))
            config = Config()
            config.set_main_option("script_location", str(MIGRATIONS))
            config.attributes["connection"] = connection
            command.upgrade(config, "head")
    except (SQLAlchemyError, OSError) as error:
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise ConfigurationError(_cannot_open(url, first)) from None
    except ModuleNotFoundError as error:
        raise ConfigurationError(f"cannot open the database: {error} (for PostgreSQL:"
                                 " pip install 'fourfold[postgres]')") from None
    return engine
