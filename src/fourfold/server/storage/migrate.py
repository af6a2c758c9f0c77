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
        raise ConfigurationError(f"cannot open the database: {first}") from None
    except ModuleNotFoundError as error:
        raise ConfigurationError(f"cannot open the database: {error} (for PostgreSQL:"
                                 " pip install 'fourfold[postgres]')") from None
    return engine
