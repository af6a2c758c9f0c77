"""``fourfold serve``'s places, checked before the server starts: the data directory, the
database URL and the broker URL, each refused in one line in the user's terms.

The storage layer opens the database and reports a server that cannot be reached;
this module catches what is wrong in the command line itself: a file given as the data
folder, a URL of a kind the server does not speak, an SQLite file in a missing folder.
"""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

from fourfold.cli.paths import check_folder, check_writable
from fourfold.core.errors import ConfigurationError, FourfoldError

DATABASES = "SQLite (sqlite:///PATH) or PostgreSQL (postgresql://USER@HOST/DB)"
BROKER_SCHEMES = ("redis", "rediss", "unix")


#: what every refusal of ``--data`` ends with: what to do instead
DATA_ADVICE = ("give --data a folder you can write in (for example --data ~/fourfold-data),"
               " or leave --data out to use {default}")
#: file systems the kernel makes up, where nobody makes files of their own
VIRTUAL = frozenset({"proc", "sysfs", "devtmpfs", "devpts", "cgroup", "cgroup2", "debugfs",
                     "securityfs", "tracefs", "configfs", "pstore", "bpf", "mqueue",
                     "hugetlbfs", "fusectl", "efivarfs", "binfmt_misc", "autofs"})


def default_data_dir() -> Path:
    """The data folder when ``--data`` is not given: the user's data directory."""
    import platformdirs

    return Path(platformdirs.user_data_dir("fourfold"))


def data_dir(path: Path | None) -> Path:
    """The data folder (default: the user data directory), made if missing and probed by
    making a file in it. A folder that cannot be used is refused in one line: which
    folder, why (in the user's terms: a file, a folder of the kernel's, a read-only
    file system, no permission, a full disk) and what to do instead."""
    given = path is not None
    folder = path if path is not None else default_data_dir()

    def refuse(why: str) -> ConfigurationError:
        advice = DATA_ADVICE.format(default=default_data_dir()) if given else \
            "give --data a folder you can write in (for example --data ~/fourfold-data)"
        return ConfigurationError(f"--data {folder}: {why}; {advice}")

    if str(folder).strip() == "":
        raise ConfigurationError(f"--data: the folder name is empty; "
                                 f"{DATA_ADVICE.format(default=default_data_dir())}")
    try:
        check_folder(folder, "the data directory", create=True)
    except FourfoldError:
        raise refuse(_folder_problem(folder)) from None
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".probe-"):
            pass
    except OSError as error:
        raise refuse(_write_problem(folder, error)) from None
    return folder


def _folder_problem(folder: Path) -> str:
    """Why ``folder`` is not a folder the server can make or write in."""
    if folder.exists() and not folder.is_dir():
        return ("this is a file, and the data directory is a folder (the server keeps its"
                " database and its lock in it)")
    if not folder.exists():
        above = next((a for a in folder.parents if a.exists()), None)
        if above is not None and not above.is_dir():
            return f"the data directory cannot be made, as {above} is a file, not a folder"
        try:
            folder.mkdir(parents=True)
        except OSError as error:
            return ("the data directory cannot be made: "
                    + _write_problem(above or folder, error, "the folder above"))
    return _write_problem(folder, PermissionError(errno.EACCES, os.strerror(errno.EACCES)))


def _write_problem(folder: Path, error: OSError, what: str = "the data directory") -> str:
    """Why no file can be made in ``folder`` (``error``: the attempt's), in words."""
    mounted = _file_system(folder)
    if mounted is not None and mounted[1] in VIRTUAL:
        return (f"{what} is on {mounted[0]}, a '{mounted[1]}' file system that the kernel"
                " makes up, where no program can keep files of its own")
    if error.errno == errno.EROFS or _read_only(folder):
        where = f" (mounted read-only at {mounted[0]})" if mounted else ""
        return f"{what} is on a read-only file system{where}, so no file can be made there"
    if error.errno in (errno.EACCES, errno.EPERM):
        return (f"you ({_user()}) may not make files in {what}: give yourself write"
                " permission there, or choose another folder")
    if error.errno in (errno.ENOSPC, errno.EDQUOT):
        return f"the disk (or your quota) is full, so no file can be made in {what}"
    return f"no file can be made in {what} ({error.strerror or error})"


def _read_only(folder: Path) -> bool:
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def _file_system(folder: Path) -> tuple[str, str] | None:
    """Where ``folder``'s file system is mounted and its type (from /proc/self/mounts,
    on Linux), or ``None``."""
    try:
        lines = Path("/proc/self/mounts").read_text().splitlines()
        target = folder.resolve()
    except (OSError, RuntimeError):
        return None
    best: tuple[str, str] | None = None
    for line in lines:
        fields = line.split()
        if len(fields) < 3:
            continue
        point = fields[1].replace("\\040", " ")
        if (target == Path(point) or Path(point) in target.parents) and (
                best is None or len(point) >= len(best[0])):
            best = (point, fields[2])
    return best


def _user() -> str:
    try:
        import pwd

        return f"user {pwd.getpwuid(os.geteuid()).pw_name}"
    except (ImportError, KeyError, AttributeError):
        return "this user"


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
