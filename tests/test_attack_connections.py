"""Connections as an attacker holds them: one client address may not hold every file
the server may open (idle connections, each kept until the read deadline, opened
faster than it closes them), and nobody else is then served. Real server on loopback;
clients bind 127.0.0.x. Every loop is bounded in count and time."""

from __future__ import annotations

import contextlib
import json
import socket
from collections.abc import Iterator

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from support.server import Server, client_from, running
from support.wait import wait_until

CAP = 5


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(tmp_path_factory.mktemp("attack-connections"), extra=(
            "--max-connections-per-address", str(CAP), "--request-timeout", "30")) as s:
        yield s


def _idle(server: Server, address: str) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=10,
                                    source_address=(address, 0))


def _answer(s: socket.socket) -> bytes:
    got = b""
    with contextlib.suppress(TimeoutError, ConnectionResetError):
        while part := s.recv(4096):
            got += part
    return got


def _served(server: Server, address: str) -> bool:
    with client_from(address, server.url) as http:
        try:
            return http.get("/api/health").status_code == 200
        except httpx.HTTPError:
            return False


def test_idle_connections_per_address_are_capped(server: Server) -> None:
    held = [_idle(server, "127.0.0.2") for _ in range(CAP)]
    try:
        with _idle(server, "127.0.0.2") as extra:  # one too many: answered and closed
            answer = _answer(extra)
        assert answer.startswith(b"HTTP/1.1 429"), answer[:200]
        assert b"too many connections from your address (at most 5 at once)" in answer
        assert _served(server, "127.0.0.3")  # another address is served at once
    finally:
        for s in held:
            s.close()
    wait_until(lambda: _served(server, "127.0.0.2"), 10, "the slots given back")


def test_websockets_hold_connections_too(server: Server) -> None:
    with client_from("127.0.0.1", server.url) as http:
        created = http.post("/api/tables", json={"game": "folio",
                                                 "seats": ["human", "human"]}).json()
    url = f"{server.ws_url}/api/tables/{created['id']}/live"
    with contextlib.ExitStack() as stack:
        sockets: list[ClientConnection] = []
        for _ in range(CAP):
            ws = stack.enter_context(connect(url, open_timeout=10,
                                             source_address=("127.0.0.4", 0)))
            sockets.append(ws)
            ws.send(json.dumps({"type": "hello", "token": None}))
            assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
        assert not _served(server, "127.0.0.4")
        sockets[-1].close()
        wait_until(lambda: _served(server, "127.0.0.4"), 10,
                   "a closed WebSocket's slot given back")
