"""Limits that hold against a real ``fourfold serve`` (uvicorn on loopback): rate limits
keyed by address (made-up tokens buy nothing), the bounded hint pool, the WebSocket
cap, 413 for an oversize chunked body, the loopback Host guard and ``nosniff``,
half-closed pipelined connections, and slow clients cut off."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import select
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect
from websockets.typing import Origin

from support.server import Api, Live, Server, auth, resign, running, tokens_of
from support.wait import wait_until

READ_SECONDS = 1.0


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(tmp_path_factory.mktemp("limits"), extra=(
            "--max-sockets-per-address", "3", "--request-timeout", str(READ_SECONDS),
            "--job-workers", "1", "--job-queue", "1")) as s:
        yield s


@pytest.fixture
def api(server: Server) -> Iterator[Api]:
    client = server.client()
    yield client
    client.http.close()



def client_from(server: Server, address: str) -> httpx.Client:
    """A client whose requests come from ``address`` (any of 127.0.0.0/8)."""
    return httpx.Client(base_url=server.url, timeout=30,
                        transport=httpx.HTTPTransport(local_address=address))


# -- rate limits -----------------------------------------------------------------------------

def test_made_up_tokens_get_no_buckets_of_their_own(tmp_path: Path) -> None:
    with running(tmp_path, extra=("--rate", "1", "--address-rate", "1",
                                  "--refusal-hold", "0")) as server:
        api = server.client()
        created = api.create(game="folio", seats=["human", "human"], seed=1)
        tid = created["id"]
        with client_from(server, "127.0.0.2") as flooder:
            codes = [flooder.get(f"/api/tables/{tid}",
                                 headers=auth(secrets.token_urlsafe(16))).status_code
                     for _ in range(40)]
            # every made-up token was charged to the address: refused once it ran dry
            assert codes[0] == 403 and 429 in codes, codes
            r = flooder.get(f"/api/tables/{tid}")
            assert r.status_code == 429 and r.headers["retry-after"] == "1"
        with client_from(server, "127.0.0.3") as other:  # another address: its own bucket
            assert other.get(f"/api/tables/{tid}").status_code == 200
        api.http.close()


# -- hints in a bounded pool -----------------------------------------------------------------

def _hint_table(http: httpx.Client) -> tuple[str, str]:
    r = http.post("/api/tables", json={"game": "quarto", "seats": ["human", "bot:level1"],
                                       "seed": 5})
    assert r.status_code == 201, r.text
    created = r.json()
    return created["id"], tokens_of(created)[0]


def test_a_hint_flood_is_refused_and_moves_go_on(server: Server, api: Api) -> None:
    # a game between two people, played while others flood the hint pool
    game = api.create(game="folio", seats=["human", "human"], seed=2)
    gid, players = game["id"], tokens_of(game)
    flooders = [client_from(server, f"127.0.1.{n}") for n in range(1, 5)]
    tables = [_hint_table(c) for c in flooders]
    codes: list[int] = []
    retry: list[str] = []
    lock = threading.Lock()
    stop = threading.Event()

    def flood(client: httpx.Client, tid: str, token: str) -> None:
        for _ in range(40):  # bounded in count, and by ``stop``
            if stop.is_set():
                return
            r = client.get(f"/api/tables/{tid}/hint", headers=auth(token))
            with lock:
                codes.append(r.status_code)
                if r.status_code in (429, 503):
                    retry.append(r.headers.get("retry-after", ""))
                    assert r.json()["error"]

    threads = [threading.Thread(target=flood, args=(c, tid, token))
               for c, (tid, token) in zip(flooders, tables, strict=True)
               for _ in range(2)]  # two at once per seat: the second is one too many
    for thread in threads:
        thread.start()
    moves = []
    try:
        deadline = time.monotonic() + 60
        while not ({429, 503} <= set(codes)) and time.monotonic() < deadline:
            state = api.state(gid)
            if state["outcome"] is not None:
                break
            seat = state["to_act"][0]
            mine = api.state(gid, players[seat])
            r = api.move(gid, players[seat], mine["legal"][0], mine["version"])
            moves.append(r.status_code)
    finally:
        stop.set()
        for thread in threads:
            thread.join(60)
        for client in flooders:
            client.close()
    assert moves and set(moves) == {200}, moves
    assert 429 in codes and 503 in codes, codes
    assert all(value.isdigit() and int(value) >= 1 for value in retry), retry
    assert 500 not in codes


# -- WebSockets per address ------------------------------------------------------------------

def test_websockets_per_address_are_capped(server: Server, api: Api) -> None:
    created = api.create(game="folio", seats=["human", "human"], seed=3)
    tid = created["id"]
    held = [Live(server, tid, None) for _ in range(3)]
    try:
        for live in held:
            assert live.next()["type"] == "welcome"
        with connect(f"{server.ws_url}/api/tables/{tid}/live", open_timeout=10) as ws:
            refusal = json.loads(ws.recv(timeout=10))
            assert refusal["status"] == 429 and "at most 3" in refusal["error"]
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
    finally:
        for live in held:
            live.close()
    # a slot is given back when a socket closes
    def welcomed() -> bool:
        again = Live(server, tid, None)
        message = again.next()
        again.close()
        return bool(message["type"] == "welcome")

    wait_until(welcomed, 10, "a slot given back when a socket closed")


# -- bodies, hosts, headers ------------------------------------------------------------------

def _raw(server: Server, data: bytes, shut: bool = False, seconds: float = 10) -> bytes:
    with socket.create_connection(("127.0.0.1", server.port), timeout=seconds) as s:
        s.sendall(data)
        if shut:
            s.shutdown(socket.SHUT_WR)
        got = b""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                part = s.recv(65536)
            except (TimeoutError, ConnectionResetError):
                break
            if not part:
                break
            got += part
        return got


def test_an_oversize_chunked_body_gets_413(server: Server) -> None:
    head = (b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json"
            b"\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n")
    chunk = b"{" + b" " * 9000
    body = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(9)) + b"0\r\n\r\n"
    answer = _raw(server, head + body)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert b"the body is over 65536 bytes" in answer


def _answer(raw: bytes) -> tuple[int, dict[str, str], bytes]:
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (x.partition(":") for x in lines[1:])}
    headers.pop("date", None)
    return int(lines[0].split()[1]), headers, body


def test_an_oversize_body_gets_one_refusal_announced_or_chunked(server: Server) -> None:
    head = (b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json"
            b"\r\n")
    chunk = b"{" + b" " * 9000
    chunked = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(9)) + b"0\r\n\r\n"
    announced = _answer(_raw(server, head + b"content-length: 70000\r\n\r\n" + chunk))
    streamed = _answer(_raw(server, head + b"transfer-encoding: chunked\r\n\r\n" + chunked))
    assert announced == streamed, (announced, streamed)
    status, headers, body = announced
    assert status == 413 and headers["content-type"] == "application/json", headers
    assert headers["x-content-type-options"] == "nosniff", headers
    assert headers["connection"] == "close", headers
    assert json.loads(body) == {"type": "refused", "status": 413,
                                "error": "the body is over 65536 bytes"}


@pytest.mark.parametrize("host", [
    "localhost:8765@evil.com", "localhost@evil.com", "evil.com#@localhost",
    "localhost:80:80", "localhost:", "localhost:x", "localhost:99999", "::1",
    "[::1", "[::1]x", "[evil.com]", "local host", "localhost,evil.com",
    "localhost/evil", "127.0.0.1\\evil.com", "", ".localhost", "localhost..",
])
def test_a_malformed_host_is_refused(server: Server, host: str) -> None:
    request = f"GET /api/health HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    status, _, body = _answer(_raw(server, request.encode()))
    assert status == 400, (host, status, body[:200])
    assert "is not a host name or IP literal" in json.loads(body)["error"], body[:200]


def test_a_missing_host_is_refused_in_http_1_1_only(server: Server) -> None:
    status, _, body = _answer(_raw(server, b"GET /api/health HTTP/1.1\r\n"
                                           b"Connection: close\r\n\r\n"))
    assert status == 400 and "needs a Host header" in json.loads(body)["error"], body
    status, _, body = _answer(_raw(server, b"GET /api/health HTTP/1.0\r\n\r\n"))
    assert status == 200, body[:200]


def test_only_loopback_names_are_answered(server: Server, api: Api) -> None:
    for host in ("localhost", f"localhost:{server.port}", "127.0.0.1", "127.9.9.9:1",
                 "[::1]", f"[::1]:{server.port}", "LOCALHOST.", "[0:0::1]:65535"):
        assert api.http.get("/api/health", headers={"Host": host}).status_code == 200, host
    for host in ("evil.example", f"evil.example:{server.port}", "127.0.0.1.evil.example",
                 "[::2]", "localhost.evil.example:8765", "evil_host"):
        r = api.http.get("/api/health", headers={"Host": host})
        assert r.status_code == 403 and "DNS rebinding" in r.json()["error"], host
    created = api.create(game="folio", seats=["human", "human"], seed=4)
    handshake = ("GET /api/tables/{}/live HTTP/1.1\r\nHost: {}\r\nUpgrade: websocket\r\n"
                 "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                 "Sec-WebSocket-Version: 13\r\n\r\n")
    answer = _raw(server, handshake.format(created["id"], "evil.example").encode(), True)
    assert answer.startswith(b"HTTP/1.1 403") and b"DNS rebinding" in answer, answer[:300]
    answer = _raw(server, handshake.format(created["id"], "localhost").encode(), seconds=2)
    assert answer.startswith(b"HTTP/1.1 101"), answer[:300]
    with pytest.raises(InvalidStatus) as refused:  # a second Host header is no way round
        connect(f"{server.ws_url}/api/tables/{created['id']}/live", open_timeout=10,
                additional_headers={"Host": "evil.example"})
    assert refused.value.response.status_code == 403


def _all_slots(server: Server, tid: str, slots: int) -> list[Live]:
    """Hold every socket an address may open (slots given back a moment after a close)."""
    def every_slot() -> list[Live] | None:
        held = [Live(server, tid, None) for _ in range(slots)]
        if all(live.next()["type"] == "welcome" for live in held):
            return held
        for live in held:
            live.close()
        return None

    found: list[Live] = wait_until(every_slot, 10, "the address's socket slots given back",
                                   every=0.1)
    return found


def test_refused_websockets_leave_the_log_clean(server: Server, api: Api) -> None:
    tid = api.create(game="folio", seats=["human", "human"], seed=6)["id"]
    url = f"{server.ws_url}/api/tables/{tid}/live"
    start = len(server.output())
    for _ in range(3):
        for headers in ({"Host": "evil.example"}, {"Host": "localhost:1@evil.example"}):
            with pytest.raises(InvalidStatus) as refused:  # the Host guard
                connect(url, open_timeout=10, additional_headers=headers)
            assert refused.value.response.status_code in (400, 403)
            assert b'"refused"' in refused.value.response.body
        with pytest.raises(InvalidStatus) as refused:  # another site's page
            connect(url, open_timeout=10, origin=Origin("http://evil.example"))
        assert refused.value.response.status_code == 403
        held = _all_slots(server, tid, 3)
        try:
            with connect(url, open_timeout=10) as ws:  # one too many from this address
                assert json.loads(ws.recv(timeout=10))["status"] == 429
                with pytest.raises(ConnectionClosed):
                    ws.recv(timeout=10)
        finally:
            for live in held:
                live.close()
    assert api.http.get("/api/health").status_code == 200  # logged after the refusals
    log = server.output()[start:]
    assert "ERROR" not in log and "Traceback" not in log, log[-2000:]


def test_answers_say_nosniff(server: Server, api: Api) -> None:
    created = api.create(game="folio", seats=["human", "human"], seed=5)
    token = tokens_of(created)[0]
    for path in ("/api/health", f"/api/tables/{created['id']}/svg",
                 f"/api/tables/{created['id']}/picture", "/api/tables/nosuch"):
        r = api.http.get(path, headers=auth(token))
        assert r.headers.get("x-content-type-options") == "nosniff", path


# -- connections -----------------------------------------------------------------------------

def test_a_half_closed_pipelined_connection_is_answered_without_tracebacks(
        server: Server) -> None:
    requests = b"".join(b"GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" % path
                        for path in [b"/api/health"] * 4 + [b"/api/games"] * 3)
    for _ in range(5):
        answer = _raw(server, requests, shut=True)
        assert answer.count(b"HTTP/1.1 200") == 7, answer[:300]
    assert "Traceback" not in server.output()
    assert "Exception in ASGI application" not in server.output()


def _cut_within(server: Server, first: bytes, trickle: bytes, seconds: float) -> bytes:
    """Send ``first``, then ``trickle`` a byte at a time (waiting up to 0.2 s for the
    server to answer between bytes); the server's answer when it cuts the client."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=seconds) as s:
        s.sendall(first)
        got = b""
        deadline = time.monotonic() + seconds
        for byte in [trickle[i:i + 1] for i in range(len(trickle))] or [b""] * 1000:
            if time.monotonic() > deadline:
                break
            readable, _, _ = select.select([s], [], [], 0.2)
            if readable:
                try:
                    part = s.recv(65536)
                except ConnectionResetError:
                    return got
                got += part
                if not part:
                    return got
            try:
                if byte:
                    s.sendall(byte)
            except (BrokenPipeError, ConnectionResetError):
                break
        if got and time.monotonic() <= deadline:  # cut: the send or the read failed
            return got
        raise AssertionError(f"not cut within {seconds} s; got {got[:200]!r}")


@pytest.mark.parametrize("first,trickle", [
    (b"", b""),                                                        # says nothing
    (b"GET /api/health HTTP/1.1\r\n", b"X-Slow: " + b"a" * 200),      # slow headers
    (b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n"
     b"content-length: 300\r\n\r\n", b"{" + b" " * 299),               # slow body
], ids=["silent", "headers", "body"])
def test_slow_clients_are_cut(server: Server, first: bytes, trickle: bytes) -> None:
    started = time.monotonic()
    answer = _cut_within(server, first, trickle, READ_SECONDS + 15)
    assert time.monotonic() - started >= READ_SECONDS * 0.9
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]


# -- half-closed unfinished requests ----------------------------------------------------------

def _sockets(pid: int) -> int:
    """How many sockets the process holds open."""
    count = 0
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):
            count += os.readlink(fd).startswith("socket:")
    return count


def _unfinished(port: int, kind: str) -> bytes:
    head = (b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
            b"Content-Type: application/json\r\n" % port)
    whole = b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    return {"body": head + b'Content-Length: 50\r\n\r\n{"ga',
            "headers": head + b"Content-Length: 50\r\n\r\n",
            "chunked": head + b'Transfer-Encoding: chunked\r\n\r\n5\r\n{"ga',
            "after a whole one": whole + head + b'Content-Length: 50\r\n\r\n{"ga'}[kind]


def _half_close(port: int, kind: str, count: int) -> list[socket.socket]:
    opened = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port), timeout=READ_SECONDS + 10)
        opened.append(s)
        s.sendall(_unfinished(port, kind))
        s.shutdown(socket.SHUT_WR)
    return opened


@pytest.mark.parametrize("kind", ["body", "headers", "chunked", "after a whole one"])
def test_a_half_closed_unfinished_request_is_closed_at_once(server: Server, kind: str
                                                            ) -> None:
    if not Path("/proc/self/fd").is_dir():
        pytest.skip("needs /proc to count the server's sockets")
    assert server.process is not None
    pid = server.process.pid
    before = _sockets(pid)
    opened = _half_close(server.port, kind, 30)
    try:
        for s in opened:
            got = b""
            while part := s.recv(65536):  # a timeout (READ_SECONDS + 10) fails the test
                got += part
            # nothing to answer but the whole request ahead, if any
            assert got.count(b"HTTP/1.1 200") == (kind == "after a whole one"), got[:200]
            assert b"HTTP/1.1 4" not in got, got[:200]
    finally:
        for s in opened:
            s.close()
    wait_until(lambda: _sockets(pid) <= before, 10,
               f"every connection's socket given back ({before} open before)", every=0.05)


def test_unfinished_requests_leave_no_tasks_at_shutdown(tmp_path: Path) -> None:
    server = Server(tmp_path, extra=("--request-timeout", "30")).start()
    opened: list[socket.socket] = []
    try:
        for kind in ("body", "headers", "chunked"):
            opened += _half_close(server.port, kind, 5)
        for s in opened:  # closed by the server long before the request timeout
            s.settimeout(10)
            assert s.recv(65536) == b""
        server.stop()  # while the clients still hold their ends
    finally:
        server.stop()
        for s in opened:
            s.close()
    log = server.output()
    assert "Cancel" not in log and "Traceback" not in log, log[-2000:]


# -- the hint workers ------------------------------------------------------------------------

def _children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            found.update(int(c) for c in (task / "children").read_text().split())
    return found


def _workers(pid: int) -> set[int]:
    """The server's spawned hint workers (not multiprocessing's resource tracker)."""
    found = set()
    for child in _children(pid):
        with contextlib.suppress(OSError):
            if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes():
                found.add(child)
    return found


@pytest.mark.parametrize("end", ["stop", "kill9"])
def test_hint_workers_end_with_the_server(tmp_path: Path, end: str) -> None:
    if not Path("/proc/self/task").is_dir():
        pytest.skip("needs /proc to find the server's worker processes")
    server = Server(tmp_path).start()
    try:
        assert server.process is not None
        pid = server.process.pid
        # spawned at start, off the loop
        workers = wait_until(lambda: _workers(pid), 60, "a hint worker process", every=0.1)
        server.kill9() if end == "kill9" else server.stop()
    finally:
        server.stop()
    wait_until(lambda: not any(Path(f"/proc/{w}").exists() and b"spawn_main" in _cmdline(w)
                               for w in workers),
               20, f"worker(s) {workers} to end with the server", every=0.1)


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


# -- bot work a client starts ------------------------------------------------------------------

def test_bot_tables_are_capped_per_address(tmp_path: Path) -> None:
    with running(tmp_path, extra=("--max-bot-tables-per-address", "2",
                                  "--refusal-hold", "0")) as server:
        body = {"game": "quarto", "seats": ["human", "bot:level1"]}
        with client_from(server, "127.0.0.2") as http:
            made = [http.post("/api/tables", json=body) for _ in range(2)]
            assert [r.status_code for r in made] == [201, 201]
            third = http.post("/api/tables", json=body)
            assert third.status_code == 429, third.text
            assert "unfinished games with bots" in third.json()["error"]
            # a table of people only costs no slot
            people = http.post("/api/tables", json={"game": "quarto",
                                                    "seats": ["human", "human"]})
            assert people.status_code == 201, people.text
            # another address has slots of its own
            with client_from(server, "127.0.0.3") as other:
                assert other.post("/api/tables", json=body).status_code == 201
            # once one of its games ends, the address may start another
            first = made[0].json()
            token = tokens_of(first)[0]
            resigned = resign(http, first["id"], token)  # the bot may move first
            assert resigned.status_code == 200, resigned.text
            again = http.post("/api/tables", json=body)
            assert again.status_code == 201, again.text
