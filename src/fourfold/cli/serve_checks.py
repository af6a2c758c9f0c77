"""``fourfold serve``'s places, checked before the server starts: the data directory, the
database URL and the broker URL, each refused in one line in the user's terms.

The storage layer opens the database and reports a server that cannot be reached;
this module catches what is wrong in the command line itself: a file given as the data
folder, a URL of a kind the server does not speak, an SQLite file in a missing folder.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from fourfold.cli.paths import check_folder, check_writable
from fourfold.core.errors import ConfigurationError, FourfoldError

DATABASES = "SQLite (sqlite:///PATH) or PostgreSQL (postgresql://USER@HOST/DB)"
BROKER_SCHEMES = ("redis", "rediss", "unix")


def data_dir(path: Path | None) -> Path:
    """The data folder (default: the user data directory), made if missing and probed."""
    if path is None:
        import platformdirs

        path = Path(platformdirs.user_data_dir("fourfold"))
    try:
        check_folder(path, "the data directory", create=True)
    except FourfoldError as error:
        raise ConfigurationError(f"--data: {error}") from None
    try:
        with tempfile.NamedTemporaryFile(dir=path, prefix=".probe-"):
            pass
    except OSError as error:
        raise ConfigurationError(f"--data: cannot write in the data directory {path}: "
                                 f"{error.strerror or error}") from None
    return path


def check_database_url(url: str) -> None:
    """A URL of a database the server speaks, with the parts it needs."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        raise ConfigurationError(f"--database {url!r} is not a database URL: the server"
                                 f" keeps its tables in {DATABASES}") from None
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        name = parsed.database or ""
        if name in ("", ":memory:") or name.startswith("file:"):
            raise ConfigurationError(f"--database {url}: give the SQLite file, as"
                                     " sqlite:///PATH (a database in memory would lose"
                                     " every table)")
        try:
            check_writable(Path(name), "the database")
        except FourfoldError as error:
            raise ConfigurationError(f"--database: {error}") from None
        return
    if backend in ("postgresql", "postgres"):
        if parsed.drivername.partition("+")[2] not in ("", "psycopg"):
            raise ConfigurationError(f"--database {url}: PostgreSQL is reached with psycopg"
                                     " here; write postgresql://USER@HOST/DB")
        if not parsed.database:
            raise ConfigurationError(f"--database {url}: name the database, as"
                                     " postgresql://USER@HOST/DB")
        return
    raise ConfigurationError(f"--database {url}: the server keeps its tables in {DATABASES},"
                             f" not {backend!r}")


def check_broker_url(url: str) -> None:
    """A Redis URL: ``redis://HOST:PORT/DB`` (``rediss://`` with TLS, ``unix://`` a socket)."""
    scheme, sep, rest = url.partition("://")
    if not sep or scheme.lower() not in BROKER_SCHEMES or not rest.strip("/"):
        raise ConfigurationError(f"--broker {url!r}: the broker is Redis, written"
                                 " redis://HOST:PORT/0")
