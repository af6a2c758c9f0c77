"""Junk at every endpoint of a real server: malformed JSON, wrong types, huge numbers,
other seats' tokens, stale versions, raw bytes. Never a crash, never a 500, and never a
change of state on a refused request. Bounded: a fixed number of examples and seconds."""

from __future__ import annotations

import json
import random
import socket
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from support.server import Live, Server, auth, running

ACTIONS = ("moves", "resign", "offer", "answer", "join", "rematch")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(tmp_path_factory.mktemp("fuzz")) as s:
        yield s


@pytest.fixture(scope="module")
def table(server: Server) -> dict[str, Any]:
    client = server.client()
    created = client.create(game="dao", seats=["human", "human"], seed=3)
    client.http.close()
    return created


def _snapshot(client: httpx.Client, tid: str) -> tuple[int, str]:
    state = client.get(f"/api/tables/{tid}")
    assert state.status_code == 200
    record = client.get(f"/api/tables/{tid}/record").text
    return state.json()["version"], record


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.sampled_from(["move", "version", "offer", "accept", "seat", "name",
                                       "game", "seats", "record", "x"]), children,
                      max_size=4),
    max_leaves=12)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(action=st.sampled_from((*ACTIONS, "create", "import", "get", "record")),
       body=st.one_of(json_values.map(json.dumps), st.binary(max_size=200).map(
           lambda b: b.decode("latin-1")), st.sampled_from(['{"move": "a1-b2", "version": 0',
                                                            '{"version": 1e999}',
                                                            '{"version": 99999999999999999999}',
                                                            '{"move": 1, "version": "0"}'])),
       who=st.sampled_from(("none", "other", "random", "long", "seat")))
def test_http_junk_changes_nothing(server: Server, table: dict[str, Any], action: str,
                                   body: str, who: str) -> None:
    tid = table["id"]
    tokens = [s["token"] for s in table["seats"]]
    token = {"none": None, "other": tokens[1], "random": "x" * 43, "long": "y" * 5000,
             "seat": tokens[0]}[who]
    with httpx.Client(base_url=server.url, timeout=10) as client:
        before = _snapshot(client, tid)
        headers = {"content-type": "application/json", **auth(token)}
        if action in ACTIONS:
            r = client.post(f"/api/tables/{tid}/{action}", content=body, headers=headers)
        elif action == "create":
            r = client.post("/api/tables", content=body, headers=headers)
        elif action == "import":
            r = client.post("/api/import", content=body, headers=headers)
        elif action == "get":
            r = client.get(f"/api/tables/{tid}", headers=auth(token))
        else:
            r = client.get(f"/api/tables/{tid}/record", params={"format": body[:20]},
                           headers=auth(token))
        assert r.status_code < 500, r.text
        if r.status_code >= 400:
            assert r.json()["error"]
            assert _snapshot(client, tid) == before


def test_websocket_junk_changes_nothing(server: Server, table: dict[str, Any]) -> None:
    tid = table["id"]
    tokens = [s["token"] for s in table["seats"]]
    rng = random.Random(5)
    live = Live(server, tid, tokens[1])
    junk = ['{"type":"move","move":"x","version":0}', '{"type":"move"}', "[]", "null", "{",
            '{"type":"resign","version":-1}', '{"type":"offer","offer":"peace","version":0}',
            '{"type":"answer","accept":"yes"}', '{"type":"move","move":"a","version":1e400}',
            '{"type":"hello","token":"x"}', "\u0000" * 50, "9" * 3000]
    with httpx.Client(base_url=server.url, timeout=10) as client:
        before = _snapshot(client, tid)
        try:
            assert live.next()["type"] == "welcome"
            for _ in range(60):
                live.ws.send(rng.choice(junk))
                reply = live.until(lambda m: m["type"] in ("refused", "ack", "pong"))
                assert reply["type"] == "refused" and reply["status"] < 500, reply
        finally:
            live.close()
        assert _snapshot(client, tid) == before


def test_raw_socket_garbage(server: Server, table: dict[str, Any]) -> None:
    rng = random.Random(11)
    starts = [b"GET / HTTP/1.1\r\n", b"POST /api/tables HTTP/1.1\r\nContent-Length: 99999999\r\n",
              b"GET /api/tables/x/live HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n",
              b"\x16\x03\x01", b"", b"POST /api/import HTTP/1.1\r\nTransfer-Encoding: chunked\r\n"]
    deadline = time.monotonic() + 30
    for _ in range(80):
        assert time.monotonic() < deadline
        payload = rng.choice(starts) + bytes(rng.randrange(256) for _ in range(rng.randrange(300)))
        with socket.create_connection(("127.0.0.1", server.port), timeout=2) as sock:
            try:
                sock.sendall(payload)
                sock.shutdown(socket.SHUT_WR)
                sock.recv(4096)
            except OSError:
                pass
    with httpx.Client(base_url=server.url, timeout=10) as client:
        assert client.get("/api/health").status_code == 200
        assert client.get(f"/api/tables/{table['id']}").status_code == 200
