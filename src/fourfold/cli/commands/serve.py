"""``fourfold serve [--host H] [--port P] [--data DIR] [--database URL] [--broker URL]``:
online tables.

One process: the web app (REST API, WebSockets, OpenAPI at ``/docs``) under uvicorn.
The default database is SQLite in ``--data`` (the user data directory); PostgreSQL is
``--database postgresql://USER@HOST/DB``. The schema is created or upgraded at start.
With ``--broker redis://HOST:PORT/0`` any number of instances share one PostgreSQL
(docs/deploy.md). See docs/server.md.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from fourfold.cli.numbers import host_name, origin, path, text
from fourfold.cli.serve_checks import check_broker_url, check_database_url, data_dir
from fourfold.core.errors import ConfigurationError


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535, not {port}")
    return port


def register(sub: Any) -> None:
    p = sub.add_parser("serve", help="serve online tables (web app and API)")
    p.add_argument("--host", default="127.0.0.1", type=text("an address"),
                   help="address to listen on (default 127.0.0.1; 0.0.0.0 for the network)")
    p.add_argument("--port", type=_port, default=8000, help="port (default 8000; 0: any)")
    p.add_argument("--data", type=path("a folder name"), default=None, metavar="DIR",
                   help="where the SQLite database lives (default: the user data directory)")
    p.add_argument("--database", default=None, metavar="URL", type=text("a database URL"),
                   help="a database URL instead, e.g. postgresql://user@localhost/fourfold")
    p.add_argument("--broker", default=None, metavar="URL", type=text("a Redis URL"),
                   help="a Redis URL (redis://host:6379/0): run as one of several"
                        " instances sharing the --database (PostgreSQL); see docs/deploy.md")
    p.add_argument("--instance", default="", metavar="NAME",
                   help="this instance's name in table leases (default: host-pid-random)")
    p.add_argument("--lease-seconds", type=float, default=3.0, help=argparse.SUPPRESS)
    p.add_argument("--sync-seconds", type=float, default=1.0, help=argparse.SUPPRESS)
    p.add_argument("--allow-origin", action="append", default=[], metavar="URL", type=origin,
                   help="another site whose pages may open WebSockets here (repeatable)")
    p.add_argument("--trusted-proxy", "--forwarded-allow-ips", dest="trusted_proxy",
                   action="append", default=[], metavar="ADDR",
                   help="a reverse proxy (IP address or network) whose X-Forwarded-For"
                        " names the client; repeatable; default: trust nobody")
    p.add_argument("--idle-hours", type=float, default=24 * 7,
                   help="close a table nobody played at for this long (default 168)")
    p.add_argument("--bot-pace", type=float, default=0.6,
                   help="mean seconds a bot waits before moving, so people can follow")
    p.add_argument("--real-time-bot-pace", type=float, default=6.0,
                   help="the same in real-time play (Quatrefoil Dual), where bots do not"
                        " wait for a turn (default 6, the terminal's)")
    p.add_argument("--checkpoint-seconds", type=float, default=5.0,
                   help=argparse.SUPPRESS)
    p.add_argument("--analysis-seconds", type=float, default=1.0, help=argparse.SUPPRESS)
    p.add_argument("--sweep-seconds", type=float, default=60.0, help=argparse.SUPPRESS)
    p.add_argument("--test-seed", type=int, default=None, help=argparse.SUPPRESS)
    p.add_argument("--test-clock", type=Path, default=None, help=argparse.SUPPRESS)
    p.add_argument("--rate", type=float, default=20.0, help=argparse.SUPPRESS)
    p.add_argument("--address-rate", type=float, default=100.0, metavar="N",
                   help="requests (and WebSocket messages) a second per client address,"
                        " bursts of twice as many (default 100)")
    p.add_argument("--max-sockets-per-address", type=int, default=32, metavar="N",
                   help="live WebSockets open at once per client address (default 32)")
    p.add_argument("--max-bot-tables-per-address", type=int, default=8, metavar="N",
                   help="unfinished games with a bot that one client address may have"
                        " started at once (default 8)")
    p.add_argument("--max-connections-per-address", type=int, default=256, metavar="N",
                   help="connections (HTTP and WebSocket) open at once per client address,"
                        " a trusted proxy's not counted (default 256)")
    p.add_argument("--max-tables-per-address", type=int, default=16, metavar="N",
                   help="unfinished games between people (no bot) that one client address"
                        " may have started at once (default 16)")
    p.add_argument("--max-lobby-tables-per-address", type=int, default=4, metavar="N",
                   help="public tables of people only (lobby rows) changed in the last hour"
                        " that one client address may have started (default 4)")
    p.add_argument("--tables-per-minute", type=float, default=12.0, metavar="N",
                   help="new tables a minute per client address, in bursts of as many"
                        " (default 12)")
    p.add_argument("--job-workers", type=int, default=1, metavar="N",
                   help="worker processes for hints and analyses (default 1)")
    p.add_argument("--warm-up", action=argparse.BooleanOptionalAction, default=True,
                   help="load the hint kernels in the background at start, so that the first"
                        " hint is as quick as the next (default: on)")
    p.add_argument("--job-queue", type=int, default=8, metavar="N",
                   help="hints and analyses that may wait for a thread (default 8)")
    p.add_argument("--request-timeout", type=float, default=10.0, metavar="SECONDS",
                   help="a request's headers and body must arrive within this (default 10)")
    p.add_argument("--refusal-hold", type=float, default=0.5, metavar="SECONDS",
                   help="hold a 429 this long before sending it (default 0.5)")
    p.add_argument("--allow-host", action="append", default=[], metavar="NAME", type=host_name,
                   help="another Host name to answer while listening on loopback"
                        " (repeatable; localhost, 127.x and [::1] always are)")
    p.set_defaults(run=run)


#: the compile notice of the server process (its own kernels: the lobby's bots, the
#: tables' bots); with the warm-up on, the job workers' warm-up then says as each
#: ruleset's hint kernels are compiled (a time said in advance was wrong on a busy
#: machine: "about a minute" took over five)
SERVE_NOTICE = ("fourfold serve: compiling kernels numba's cache did not hold (after an"
                " install or upgrade: all of them); the warm-up says as each ruleset's are"
                " ready, and the server answers meanwhile...")
SERVE_NOTICE_COLD = ("fourfold serve: compiling kernels numba's cache did not hold (after an"
                     " install or upgrade: all of them; --no-warm-up: a first hint or bot"
                     " move waits for its own, minutes on a busy machine)...")


def run(args: argparse.Namespace) -> int:
    from fourfold.cli import compile_notice
    from fourfold.server.main import serve

    compile_notice.reword(SERVE_NOTICE if args.warm_up else SERVE_NOTICE_COLD)
    from fourfold.server.proxies import trusted_proxies
    from fourfold.server.settings import Settings

    for name, low, high in (("idle_hours", 0.001, 24 * 365), ("bot_pace", 0, 60),
                            ("real_time_bot_pace", 0, 60),
                            ("checkpoint_seconds", 0.05, 3600),
                            ("analysis_seconds", 0.01, 600), ("sweep_seconds", 0.05, 86400),
                            ("rate", 0.1, 100_000), ("lease_seconds", 0.3, 3600),
                            ("address_rate", 0.1, 1_000_000),
                            ("max_sockets_per_address", 1, 100_000), ("job_workers", 1, 64),
                            ("max_bot_tables_per_address", 1, 100_000),
                            ("max_tables_per_address", 1, 100_000),
                            ("max_connections_per_address", 1, 1_000_000),
                            ("max_lobby_tables_per_address", 1, 100_000),
                            ("tables_per_minute", 0.1, 1_000_000),
                            ("job_queue", 0, 10_000), ("request_timeout", 0.5, 3600),
                            ("refusal_hold", 0, 60),
                            ("sync_seconds", 0.05, 3600)):
        value = getattr(args, name)
        if not low <= value <= high:
            raise ConfigurationError(f"--{name.replace('_', '-')} is {low:g} to {high:g},"
                                     f" not {value:g}")
    if args.broker is not None:
        check_broker_url(args.broker)
    if args.database:
        check_database_url(args.database)
        url = args.database
        directory = args.data
    else:
        directory = data_dir(args.data)
        url = f"sqlite:///{directory / 'fourfold.sqlite3'}"
    settings = Settings(
        database=url, host=args.host, port=args.port, data_dir=directory,
        allowed_origins=tuple(o.rstrip("/") for o in args.allow_origin),
        idle_seconds=args.idle_hours * 3600, bot_pace=args.bot_pace,
        real_time_bot_pace=args.real_time_bot_pace,
        checkpoint_seconds=args.checkpoint_seconds, sweep_seconds=args.sweep_seconds,
        analysis_seconds=args.analysis_seconds, id_seed=args.test_seed, test_clock=args.test_clock,
        rate_per_second=args.rate, rate_burst=2 * args.rate,
        bot_workers=max(2, min(8, os.cpu_count() or 2)),
        broker=args.broker or None, instance=args.instance[:80],
        lease_seconds=args.lease_seconds, sync_seconds=args.sync_seconds,
        trusted_proxies=trusted_proxies(args.trusted_proxy),
        address_rate_per_second=args.address_rate, address_rate_burst=2 * args.address_rate,
        max_sockets_per_address=args.max_sockets_per_address, job_workers=args.job_workers,
        max_bot_tables_per_address=args.max_bot_tables_per_address,
        max_tables_per_address=args.max_tables_per_address,
        max_connections_per_address=args.max_connections_per_address,
        max_lobby_tables_per_address=args.max_lobby_tables_per_address,
        tables_per_minute=args.tables_per_minute,
        job_queue=args.job_queue, request_read_seconds=args.request_timeout,
        refusal_hold_seconds=args.refusal_hold, warm_up=args.warm_up,
        allowed_hosts=tuple(h.strip().lower() for h in args.allow_host if h.strip()),
    )
    return serve(settings)
