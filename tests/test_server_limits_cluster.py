"""Limits across instances: three real ``fourfold serve`` processes on loopback sharing a
throwaway PostgreSQL and Redis (``--broker``). A client that spreads its requests over
every instance gets one allowance in all, not one per instance: the request rate, new
tables a minute, tables held, WebSockets held. And when Redis stops answering, every
instance goes on answering and limiting (each by itself), without a traceback.

Each test is its own client address (127.0.0.2 ...), so their allowances are apart.
Every loop is bounded in count and time.
"""

from __future__ import annotations

import contextlib
import json
import signal
import socket
import time
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from support.server import Postgres, Redis, Server, client_from, instances, resign, tokens_of
from support.wait import wait_until

#: requests a second per address (bursts of twice that), in all
ADDRESS_RATE = 5
TABLES_PER_MINUTE = 4
MAX_TABLES = 2
MAX_SOCKETS = 2
EXTRA = ("--address-rate", str(ADDRESS_RATE), "--tables-per-minute", str(TABLES_PER_MINUTE),
         "--max-tables-per-address", str(MAX_TABLES), "--max-sockets-per-address",
         str(MAX_SOCKETS), "--refusal-hold", "0", "--lease-seconds", "1.5",
         "--sync-seconds", "0.5")
BOT_TABLE = {"game": "quarto", "seats": ["human", "bot:level1"], "private": True}
PEOPLE = {"game": "folio", "seats": ["human", "human"], "private": True}


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory, postgres: Postgres, redis: Redis
            ) -> Iterator[list[Server]]:
    with instances(tmp_path_factory.mktemp("limits-cluster"), postgres.new_database(),
                   redis.url, 3, EXTRA) as running:
        yield running


def _error(r: Any) -> str:
    error: str = r.json().get("error", "")
    return error


def test_the_request_rate_is_one_allowance_across_instances(servers: list[Server]) -> None:
    """40 GETs from one address, round robin over the three instances as fast as it
    goes: at most one burst plus the refill of the time taken is answered (each
    instance counting alone answered a burst each, three times as many)."""
    clients = [client_from("127.0.0.2", s.url) for s in servers]
    answered = refused = 0
    started = time.monotonic()
    try:
        for n in range(40):
            r = clients[n % 3].get("/api/games")
            if r.status_code == 429:
                assert "too many requests from your address" in _error(r)
                refused += 1
            else:
                assert r.status_code == 200, r.text
                answered += 1
            if time.monotonic() - started > 30:
                break
    finally:
        for client in clients:
            client.close()
    elapsed = time.monotonic() - started
    allowance = 2 * ADDRESS_RATE + ADDRESS_RATE * elapsed
    print(f"request rate: {answered} of {answered + refused} answered in {elapsed:.2f} s,"
          f" allowance {allowance:.1f}")
    assert refused > 0, f"{answered} answered in {elapsed:.2f} s, none refused"
    assert answered <= allowance + 1, (answered, round(elapsed, 2), allowance)


def test_new_tables_a_minute_are_one_allowance_across_instances(servers: list[Server]
                                                                 ) -> None:
    made, refusals = 0, []
    started = time.monotonic()
    with ExitStack() as stack:
        clients = [stack.enter_context(client_from("127.0.0.3", s.url)) for s in servers]
        for n in range(3 * TABLES_PER_MINUTE):
            r = clients[n % 3].post("/api/tables", json=BOT_TABLE)
            if r.status_code == 201:
                made += 1
            else:
                assert r.status_code == 429, r.text
                refusals.append(_error(r))
    refill = TABLES_PER_MINUTE / 60 * (time.monotonic() - started)
    print(f"new tables: {made} of {3 * TABLES_PER_MINUTE} made")
    assert made <= TABLES_PER_MINUTE + int(refill), (made, refill)
    # the tables' allowance runs out first (the fifth request); the twelve requests also
    # outrun the address's burst of ten when the machine is quick, which is refused too
    assert any("too many new tables" in e for e in refusals), refusals
    assert all("too many new tables" in e or "too many requests" in e for e in refusals), \
        refusals


def test_tables_held_are_one_cap_across_instances(servers: list[Server]) -> None:
    """Two unfinished games of people at most, made on any instance; one ended (on an
    instance that does not run it) frees its slot on every instance."""
    with ExitStack() as stack:
        clients = [stack.enter_context(client_from("127.0.0.5", s.url)) for s in servers]
        made = []
        for n in range(MAX_TABLES):
            r = clients[n].post("/api/tables", json=PEOPLE)
            assert r.status_code == 201, r.text
            made.append(r.json())
        r = clients[2].post("/api/tables", json=PEOPLE)
        assert r.status_code == 429, r.text
        assert "unfinished games between people" in _error(r), r.text
        # the first table, made on instance 0, resigned through instance 2
        assert resign(clients[2], made[0]["id"], tokens_of(made[0])[0]).status_code == 200
        r = clients[1].post("/api/tables", json=PEOPLE)
        assert r.status_code == 201, r.text


def _socket_from(address: str, server: Server, table_id: str) -> ClientConnection:
    raw = socket.create_connection(("127.0.0.1", server.port), timeout=10,
                                   source_address=(address, 0))
    ws = connect(f"{server.ws_url}/api/tables/{table_id}/live", sock=raw,
                 open_timeout=10).__enter__()
    with contextlib.suppress(ConnectionClosed):  # refused: closed before the hello
        ws.send(json.dumps({"type": "hello", "token": None}))
    return ws


def test_websockets_held_are_one_cap_across_instances(servers: list[Server]) -> None:
    with client_from("127.0.0.4", servers[0].url) as observer:
        r = observer.post("/api/tables", json=PEOPLE)
        assert r.status_code == 201, r.text
        table_id = r.json()["id"]
    held = []
    try:
        for n in range(MAX_SOCKETS):  # one on instance 0, one on instance 1
            ws = _socket_from("127.0.0.6", servers[n], table_id)
            held.append(ws)
            assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
        extra = _socket_from("127.0.0.6", servers[2], table_id)
        try:
            first = json.loads(extra.recv(timeout=10))
            assert first["status"] == 429 and "live connections" in first["error"], first
        finally:
            extra.close()
        held.pop(0).close()  # instance 0's: its slot is given back in Redis

        def welcomed() -> bool:
            ws = _socket_from("127.0.0.6", servers[2], table_id)
            try:
                answer = json.loads(ws.recv(timeout=10))
            except ConnectionClosed:
                return False
            if answer.get("type") == "welcome":
                held.append(ws)
                return True
            ws.close()
            return False

        wait_until(welcomed, 10, "a socket on instance 2 once one was closed on instance 0",
                   every=0.2)
    finally:
        for ws in held:
            ws.close()


def test_a_stalled_redis_holds_no_request_for_long(servers: list[Server],
                                                   redis: Redis) -> None:
    """Redis stops answering without closing its connections (SIGSTOP): a request
    waits for it at most about a second, then the instance counts by itself."""
    assert redis.process is not None
    mark = len(servers[1].output())
    redis.process.send_signal(signal.SIGSTOP)
    try:
        codes, slowest = [], 0.0
        with client_from("127.0.0.9", servers[1].url) as http:
            for _ in range(20):
                started = time.monotonic()
                codes.append(http.get("/api/games").status_code)
                slowest = max(slowest, time.monotonic() - started)
    finally:
        redis.process.send_signal(signal.SIGCONT)
    print(f"stalled Redis: the slowest of 20 requests took {slowest:.2f} s")
    assert set(codes) <= {200, 429} and 200 in codes, codes
    assert slowest < 3.0, slowest
    log = servers[1].output()[mark:]
    assert "not answering" in log and "Traceback" not in log, log[-3000:]


def test_without_redis_every_instance_limits_on_its_own(servers: list[Server],
                                                        redis: Redis) -> None:
    """Redis stops: requests are still answered (no 500, no traceback) and still
    limited, by each instance alone; once it is back, counts are shared again."""
    marks = [len(s.output()) for s in servers]
    redis.stop()
    try:
        codes = []
        with client_from("127.0.0.7", servers[0].url) as http:
            started = time.monotonic()
            for _ in range(40):
                codes.append(http.get("/api/games").status_code)
                if time.monotonic() - started > 30:
                    break
        assert set(codes) <= {200, 429}, codes
        assert 200 in codes and 429 in codes, codes
    finally:
        redis.start()
    log = servers[0].output()[marks[0]:]
    assert "limits: Redis" in log and "not answering" in log, log[-2000:]
    assert "Traceback" not in log, log[-3000:]
    # back: the next requests are counted in Redis again (said once in the log)
    with client_from("127.0.0.8", servers[0].url) as http:
        wait_until(lambda: http.get("/api/games").status_code == 200 and
                   "answers again" in servers[0].output()[marks[0]:], 20,
                   "the shared counts back", every=0.5)
