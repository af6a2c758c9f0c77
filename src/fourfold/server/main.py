"""Run a server: bind the socket (clear errors), print the URL, serve with uvicorn."""

from __future__ import annotations

import contextlib
import errno
import socket
import sys
from dataclasses import replace

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


def serve(settings: Settings) -> int:
    """Open the database (migrating it), then serve until interrupted."""
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
