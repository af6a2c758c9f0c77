"""Run a server: bind the socket (clear errors), print the URL, serve with uvicorn."""

from __future__ import annotations

import contextlib
import errno
import os
import socket
import sys
from dataclasses import replace
from pathlib import Path
from typing import IO

import uvicorn

from fourfold.core.errors import ConfigurationError
from fourfold.server.app import create_app
from fourfold.server.http_protocol import guarded_protocol
from fourfold.server.settings import Settings
from fourfold.server.storage.migrate import open_database


def bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as error:
        sock.close()
        if error.errno == errno.EADDRINUSE:
            raise ConfigurationError(f"port {port} on {host} is in use; pick another with"
                                     " --port") from None
        if error.errno in (errno.EACCES, errno.EPERM):
            raise ConfigurationError(f"not allowed to listen on port {port}; use a port"
                                     " above 1023") from None
        raise ConfigurationError(f"cannot listen on {host}:{port}: {error.strerror}"
                                 ) from None
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def hold_sqlite(url: str) -> IO[str] | None:
    """One server per SQLite database: take an exclusive lock on ``DATABASE.lock`` for as
    long as the returned file stays open (the kernel lets it go when the process ends,
    ``kill -9`` included), or refuse in one line. Two servers on one SQLite file both
    resumed the same tables, then refused each other's moves ("changed elsewhere", 503)
    and both ran their bots; several instances share one PostgreSQL, with ``--broker``.
    ``None`` for another database, or where there is no ``fcntl``."""
    try:
        import fcntl
    except ImportError:  # not POSIX
        return None
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database:
        return None
    path = Path(parsed.database).expanduser().resolve()
    lock = open(path.with_name(path.name + ".lock"), "a+", encoding="utf-8")  # noqa: SIM115
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        lock.seek(0)
        holder = lock.read().strip()[:20]
        lock.close()
        raise ConfigurationError(
            f"another fourfold serve{f' (pid {holder})' if holder.isdigit() else ''} is"
            f" using the database {path}: stop it, or give this one a --data folder of its"
            " own (several servers share one database as PostgreSQL with --broker:"
            " docs/deploy.md)") from None
    lock.seek(0)
    lock.truncate()
    lock.write(str(os.getpid()))
    lock.flush()
    return lock


def serve(settings: Settings) -> int:
    """Open the database (migrating it), then serve until interrupted."""
    lock = hold_sqlite(settings.database)
    try:
        return _serve(settings)
    finally:
        if lock is not None:
            lock.close()


def _serve(settings: Settings) -> int:
    engine = open_database(settings.database)
    if settings.broker:
        from fourfold.server.cluster import check_broker

        if engine.dialect.name == "sqlite":
            raise ConfigurationError("--broker is for instances sharing one PostgreSQL:"
                                     " give --database postgresql://...")
        check_broker(settings.broker)
    sock = bind(settings.host, settings.port)
    settings = replace(settings, port=sock.getsockname()[1])
    app = create_app(settings, engine)
    # the warm-up tells the terminal as each ruleset's kernels are compiled, if any are
    app.state.warmup.say = lambda text: print(text, flush=True)
    config = uvicorn.Config(app, log_level="warning", ws_max_size=settings.max_message_bytes,
                            ws_ping_interval=20, ws_ping_timeout=20,
                            timeout_graceful_shutdown=3, lifespan="on",
                            # a request must arrive whole in time; a half-closed
                            # pipelined connection is answered, not a traceback
                            http=guarded_protocol(settings.request_read_seconds,
                                                  settings.max_connections_per_address,
                                                  settings.trusted_proxies),
                            server_header=False,
                            # X-Forwarded-For from the --trusted-proxy addresses only
                            # (uvicorn alone would trust 127.0.0.1: anyone local)
                            proxy_headers=bool(settings.trusted_proxies),
                            forwarded_allow_ips=list(settings.trusted_proxies) or None)
    print(f"fourfold serve: {settings.public_url}", flush=True)
    banner = app.state.hub.broker.describe()
    if banner is not None:
        print(f"  {banner}", flush=True)
    print(f"  API docs: {settings.public_url}docs   (Ctrl-C stops)", flush=True)
    server = uvicorn.Server(config)
    with contextlib.suppress(KeyboardInterrupt):  # uvicorn re-raises Ctrl-C once done
        server.run(sockets=[sock])
    print("fourfold serve: stopped; every table is saved", flush=True)
    sys.stdout.flush()
    return 0
