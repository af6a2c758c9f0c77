"""What one server is configured with."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Settings:
    """A server's configuration; ``fourfold serve`` fills it from its options.

    ``database`` is an SQLAlchemy URL (``sqlite:///...`` or ``postgresql+psycopg://...``).
    ``id_seed`` makes table ids and tokens reproducible: for tests only, never in play.
    """

    database: str
    host: str = "127.0.0.1"
    port: int = 8000
    data_dir: Path | None = None
    #: extra origins (``https://example.org``) whose pages may open the WebSocket
    allowed_origins: tuple[str, ...] = ()
    #: a live table with no change for this long is closed and kept as abandoned
    idle_seconds: float = 7 * 24 * 3600.0
    #: how often running clocks are saved between moves
    checkpoint_seconds: float = 5.0
    #: how often idle tables are looked for
    sweep_seconds: float = 60.0
    #: the shortest visible pause before a bot's move (mean seconds)
    bot_pace: float = 0.6
    #: the same in real-time play (Quatrefoil Dual), where bots do not wait for a turn:
    #: the terminal's default (6 s, give or take 40%), so that a person can read each
    #: push and answer before the bots have finished the game
    real_time_bot_pace: float = 6.0
    #: worker threads for the bots of every table
    bot_workers: int = 4
    #: solver time per position when analysing a finished game
    analysis_seconds: float = 1.0
    #: requests per second (and burst) per token, per connection and per address
    rate_per_second: float = 20.0
    rate_burst: float = 40.0
    #: the largest request body (an imported record) and WebSocket message, in bytes
    max_body_bytes: int = 65_536
    max_message_bytes: int = 4096
    #: requests per second (and burst) per client address, whatever tokens it sends
    address_rate_per_second: float = 100.0
    address_rate_burst: float = 200.0
    #: WebSockets open at once per client address
    max_sockets_per_address: int = 32
    #: TCP connections (HTTP and WebSocket) open at once per client address, not
    #: counting a trusted proxy's
    max_connections_per_address: int = 256
    #: unfinished tables with a bot seat that one client address may have made at once
    max_bot_tables_per_address: int = 8
    #: unfinished tables of people only (no bot seat) that one address may have made
    max_tables_per_address: int = 16
    #: public tables (rows of the lobby) changed in the last hour one address may have made
    max_lobby_tables_per_address: int = 4
    #: new tables (created, imported, rematched, daily) a minute per address, and bursts
    tables_per_minute: float = 12.0
    #: solver and bot work clients ask for (hints, analysis): worker threads, and jobs
    #: that may wait for one; each seat and each address has at most one job at a time
    job_workers: int = 1
    job_queue: int = 8
    #: load the hint kernels in each job worker at start, in the background
    #: (server/warmup.py), so that the first hint is as quick as the next
    warm_up: bool = True
    #: a 429 (and a full job pool's 503) is sent after this many seconds, so that a
    #: client asking again at once asks at most this often per connection
    refusal_hold_seconds: float = 0.5
    #: a request's headers and body must arrive within this many seconds of its first
    #: byte (and a new connection's first request within as long)
    request_read_seconds: float = 10.0
    #: extra Host names answered while listening on loopback (DNS rebinding guard)
    allowed_hosts: tuple[str, ...] = ()
    id_seed: int | None = None
    #: for tests only: a file holding the Unix time the daily deal takes as "now"
    #: (server/daily/clock.py); missing or empty, the real time
    test_clock: Path | None = None
    #: a Redis URL: run as one of many instances sharing ``database`` (see docs/deploy.md)
    broker: str | None = None
    #: this instance's name in table leases (default: host, process id and a random part)
    instance: str = ""
    #: how long a table's lease lasts without renewal (renewed every third of it)
    lease_seconds: float = 3.0
    #: how often the versions of the tables in memory are compared with the database
    sync_seconds: float = 1.0
    #: reverse proxies whose ``X-Forwarded-For`` names the client (none by default)
    trusted_proxies: tuple[str, ...] = ()
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def public_url(self) -> str:
        host = self.host if ":" not in self.host else f"[{self.host}]"
        if host in ("0.0.0.0", "[::]"):
            host = "127.0.0.1"
        return f"http://{host}:{self.port}/"
