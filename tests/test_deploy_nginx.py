"""The shipped deployment, for real: Debian's ``nginx`` running ``deploy/nginx.conf`` byte
for byte in front of three ``fourfold serve`` instances on a throwaway PostgreSQL and
Redis, everything on loopback and started here (tests/server_support.py).

- Two clients from different addresses (127.0.0.2 and 127.0.0.3) get separate rate
  limits: nginx passes each client's address, the instances believe it from nginx
  (``--trusted-proxy 127.0.0.1``), and a client cannot forge it.
- One client whose requests nginx spreads over the three instances gets one allowance
  in all (the counts are shared in Redis), not three.
- A person plays a bot in a real Chromium through nginx, WebSocket included; the
  instance that runs the table is killed (SIGKILL) mid-game and play goes on.

nginx is installed with apt-get when we are root on Debian; elsewhere the test is skipped
loudly, and it fails under ``CI=true``. Every wait is bounded.
"""

from __future__ import annotations

import json
import random
import subprocess
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from support.browser_app import Watched, act, pick, wait_live, wait_version
from support.server import (
    DEPLOY,
    Nginx,
    Postgres,
    Redis,
    Server,
    _as_postgres,
    client_from,
    instances,
    nginx_proxy,
)
from support.wait import wait_until

#: requests a second per client address, in all (twice that at once)
ADDRESS_RATE = "20"
#: new tables a minute per client address, in all (at once too)
TABLES_PER_MINUTE = 4
EXTRA = ("--trusted-proxy", "127.0.0.1", "--address-rate", ADDRESS_RATE,
         "--tables-per-minute", str(TABLES_PER_MINUTE),
         "--lease-seconds", "1.5", "--sync-seconds", "0.5", "--checkpoint-seconds", "0.5")
#: the test's own reads go straight to an instance from this address (its own bucket)
OBSERVER = "127.0.0.4"
#: the most requests (and seconds) one client spends to run its allowance dry
MAX_REQUESTS = 2000
MAX_SECONDS = 60.0
TIMEOUT_MS = 20_000


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory, postgres: Postgres, redis: Redis
            ) -> Iterator[list[Server]]:
    with instances(tmp_path_factory.mktemp("deploy"), postgres.new_database(),
                   redis.url, 3, EXTRA) as running:
        yield running


@pytest.fixture(scope="module")
def proxy(servers: list[Server]) -> Iterator[Nginx]:
    with nginx_proxy([s.port for s in servers]) as nginx:
        yield nginx


def observer(server: Server) -> httpx.Client:
    return client_from(OBSERVER, server.url)


def create(server: Server, **body: Any) -> dict[str, Any]:
    with observer(server) as http:
        r = http.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()
    return made


def state(server: Server, table_id: str, token: str | None = None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    with observer(server) as http:
        r = http.get(f"/api/tables/{table_id}", headers=headers)
    assert r.status_code == 200, r.text
    value: dict[str, Any] = r.json()
    return value


class Busy(threading.Thread):
    """A visitor sending GETs through nginx as fast as it can, each claiming another
    address in ``X-Forwarded-For`` (nginx must drop the claim), until told to stop;
    bounded in requests and seconds. ``refused`` is set at its first 429."""

    def __init__(self, url: str, path: str) -> None:
        super().__init__(daemon=True)
        self.url, self.path = url, path
        self.refused = threading.Event()
        self.done = threading.Event()
        self.codes: list[int] = []

    def run(self) -> None:
        # several connections at once: one alone, on a loaded machine, may not outpace
        # the instances' allowance (2,000 requests, none refused, under four test workers)
        deadline = time.monotonic() + MAX_SECONDS
        numbers = iter(range(MAX_REQUESTS))
        lock = threading.Lock()

        def visit() -> None:
            with client_from("127.0.0.2", self.url) as http:
                while not self.done.is_set() and time.monotonic() < deadline:
                    with lock:
                        n = next(numbers, None)
                    if n is None:
                        return
                    forged = {"X-Forwarded-For": f"198.51.{100 + n // 250}.{n % 250 + 1}"}
                    code = http.get(self.path, headers=forged).status_code
                    with lock:
                        self.codes.append(code)
                    if code == 429:
                        self.refused.set()

        visitors = [threading.Thread(target=visit, daemon=True) for _ in range(4)]
        for visitor in visitors:
            visitor.start()
        for visitor in visitors:
            visitor.join(MAX_SECONDS + 5)
        self.refused.set()  # (the bounds ran out: the test says so)


def test_the_shipped_config_is_used_as_it_is(proxy: Nginx) -> None:
    shipped = (DEPLOY / "nginx.conf").read_bytes()
    assert (proxy.directory / "nginx.conf").read_bytes() == shipped
    assert b"include fourfold-upstream.conf;" in shipped
    assert b"include fourfold-listen.conf;" in shipped


def test_two_client_addresses_get_separate_limits(servers: list[Server], proxy: Nginx
                                                  ) -> None:
    made = create(servers[0], game="quarto", seats=["human", "human"])
    path = f"/api/tables/{made['id']}"
    busy = Busy(proxy.url, path)
    busy.start()
    try:
        assert busy.refused.wait(MAX_SECONDS + 5)
        assert 429 in busy.codes, f"{len(busy.codes)} requests, none refused"
        first = busy.codes.index(429)
        # while the busy visitor goes on at full speed, another one is served (through
        # one address, the proxy's, the busy one would use up the calm one's allowance)
        with client_from("127.0.0.3", proxy.url) as calm:
            codes = [calm.get(path).status_code for _ in range(10)]
    finally:
        busy.done.set()
        busy.join(MAX_SECONDS)
    assert codes == [200] * 10, codes
    assert first >= 2 * int(ADDRESS_RATE), first  # at least the allowance's burst


def test_a_client_gets_one_allowance_from_all_the_instances(
        servers: list[Server], proxy: Nginx, postgres: Postgres) -> None:
    """nginx spreads one client's requests over the three instances; its allowance of
    new tables is one, not one per instance (counted in Redis: server/shared_limits.py).
    Each instance counting alone made all twelve."""
    made, refused = [], []
    started = time.monotonic()
    with client_from("127.0.0.5", proxy.url) as http:
        for _ in range(3 * TABLES_PER_MINUTE):
            r = http.post("/api/tables", json={"game": "quarto", "private": True,
                                               "seats": ["human", "bot:level1"]})
            if r.status_code == 201:
                made.append(r.json()["id"])
            else:
                assert r.status_code == 429, r.text
                refused.append(r.json()["error"])
    refill = int(TABLES_PER_MINUTE / 60 * (time.monotonic() - started))
    assert len(made) <= TABLES_PER_MINUTE + refill, (len(made), refill)
    assert refused and all("too many new tables" in e for e in refused), refused
    # the tables were made (and are run) by more than one instance: nginx spread them
    runners = {getattr(owner_of(servers, postgres, t), "port", None) for t in made}
    assert len(runners - {None}) >= 2, runners


# -- a browser game through nginx, an instance killed mid-game --------------------------------

def human_turn(server: Server, table_id: str, token: str, seconds: float = 30,
               after: int = -1) -> dict[str, Any]:
    """The person's state once it is their turn (or the game is over) at a version past
    ``after`` (a click's move goes over the page's socket: it lands a moment later)."""
    def ready() -> dict[str, Any] | None:
        mine = state(server, table_id, token)
        if mine["version"] <= after:
            return None
        return mine if mine["outcome"] is not None or mine["legal"] else None
    found: dict[str, Any] = wait_until(ready, seconds, "the person's turn")
    return found


def play_turns(page: Any, server: Server, table_id: str, token: str, rng: random.Random,
               turns: int) -> int:
    """Play ``turns`` of the person's moves by clicks (each answered by the bot);
    returns the version reached."""
    mine = human_turn(server, table_id, token)
    for _ in range(turns):
        if mine["outcome"] is not None:
            break
        wait_version(page, mine["version"])
        page.wait_for_selector("#turn.mine")
        act(page, mine, pick(mine, rng))
        mine = human_turn(server, table_id, token, after=mine["version"])
    wait_version(page, mine["version"])
    version: int = mine["version"]
    return version


def owner_of(servers: list[Server], postgres: Postgres, table_id: str) -> Server | None:
    """The instance holding the table's lease (it runs the bot); ``None`` once the game
    is over (its lease is given back)."""
    database = servers[0].database
    assert database is not None
    out = subprocess.run(_as_postgres(["psql", database, "-At", "-c",
                                       f"SELECT owner FROM leases WHERE table_id = '{table_id}'"]),
                         capture_output=True, text=True, timeout=30, check=True).stdout.strip()
    return next((s for n, s in enumerate(servers) if out == f"i{n}"), None)


def test_a_browser_game_through_nginx_survives_a_killed_instance(
        servers: list[Server], proxy: Nginx, postgres: Postgres, browser: Any) -> None:
    made = create(servers[0], game="dao", seats=["human", "bot:level1"])
    table_id, token = made["id"], made["seats"][0]["token"]
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(TIMEOUT_MS)
    watched = Watched(context)
    frames: list[dict[str, Any]] = []  # what the page's sockets received through nginx

    def heard(url: str, payload: Any) -> None:
        if url.startswith(proxy.ws_url) and isinstance(payload, str):
            frames.append(json.loads(payload))

    watched.page.on("websocket", lambda ws: ws.on(
        "framereceived", lambda payload: heard(ws.url, payload)))
    try:
        page = watched.page
        page.goto(proxy.url + made["seats"][0]["url"])
        page.wait_for_selector("#board svg")
        # its moves go over the socket once it is welcomed (over HTTP before: no ack)
        wait_live(page)
        rng = random.Random(29)
        before = play_turns(page, servers[0], table_id, token, rng, 3)
        assert before >= 6, before  # three moves each, all through nginx
        # the page played over its WebSocket through nginx: its moves acknowledged there,
        # the bot's moves pushed to it there
        assert sum(f.get("type") == "ack" for f in frames) >= 3, frames[-5:]
        assert any(f.get("kind") == "move" and f["version"] == before for f in frames)
        heard_before = len(frames)
        owner = owner_of(servers, postgres, table_id)
        assert owner is not None
        owner.kill9()
        survivors = [s for s in servers if s is not owner]
        after = play_turns(page, survivors[0], table_id, token, rng, 3)
        final = state(survivors[1], table_id)
        assert after >= before + 2 or final["outcome"] is not None, (before, after)
        # and over a socket again after the kill (the same one, or its reconnection)
        later = frames[heard_before:]
        assert any(f.get("type") == "ack" for f in later), later[-5:]
        assert any(f.get("kind") == "move" and f["version"] > before for f in later)
        # another instance took the table over (its bot answered after the kill)
        assert owner_of(servers, postgres, table_id) in (*survivors, None)
        page.wait_for_function(
            "v => Number(document.querySelector('#board').dataset.version) >= v",
            arg=final["version"])
        moves = page.locator("#moves li:not(.none)").count()
        assert moves == final["version"], (moves, final["version"])
        # the only complaints a page may have: its socket to the killed instance
        assert [e for e in watched.errors if "/live" not in e] == [], watched.errors
    finally:
        context.close()
        for server in servers:
            if server.process is None:
                server.start()
