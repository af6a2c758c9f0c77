"""A request's line and headers as an attacker sends them: httptools sets no limit, and
one request of 50 MB of headers was read whole and answered 200 (the server grew by
48 MB; 256 connections of one address could hold gigabytes). Past 64 KiB the server
answers 431 and closes the connection; ordinary and pipelined requests are unaffected
(server/http_protocol.py)."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest

from support.server import Server, running

HEAD = b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(tmp_path_factory.mktemp("serve")) as s:
        yield s


def _exchange(server: Server, data: bytes, half_close: bool = False) -> bytes:
    """Send ``data`` on a new connection; everything the server answers until it closes
    (or goes quiet for 10 s)."""
    port = urlsplit(server.url).port
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(data)
        if half_close:
            sock.shutdown(socket.SHUT_WR)
        answer = b""
        while True:
            try:
                chunk = sock.recv(65536)
            except TimeoutError:
                break
            if not chunk:
                break
            answer += chunk
            if not half_close and answer.count(b"\r\n\r\n") and b"content-length" in answer:
                head, _, body = answer.partition(b"\r\n\r\n")
                length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
                if len(body) >= length:
                    break
        return answer


def _refused(answer: bytes) -> dict[str, object]:
    assert answer.startswith(b"HTTP/1.1 431 "), answer[:200]
    head, _, body = answer.partition(b"\r\n\r\n")
    assert b"connection: close" in head and b"application/json" in head
    value: dict[str, object] = json.loads(body)
    return value


def test_many_headers_past_64_kib_are_refused(server: Server) -> None:
    lines = b"".join(b"X-Pad-%d: %s\r\n" % (i, b"a" * 1000) for i in range(80))
    body = _refused(_exchange(server, HEAD + lines + b"\r\n"))
    assert body == {"type": "refused", "status": 431,
                    "error": "the request line and headers are over 65536 bytes"}


def test_one_huge_header_or_url_is_refused(server: Server) -> None:
    _refused(_exchange(server, HEAD + b"X-Big: " + b"b" * 80_000 + b"\r\n\r\n"))
    _refused(_exchange(server, b"GET /api/health?x=" + b"c" * 80_000
                       + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))


def test_headers_under_the_limit_and_pipelined_requests_are_answered(server: Server) -> None:
    answer = _exchange(server, HEAD + b"X-Big: " + b"b" * 60_000 + b"\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 200 "), answer[:200]
    # 150 small requests in one write: over 64 KiB together, each well under it
    one = HEAD + b"X-Pad: " + b"p" * 600 + b"\r\n\r\n"
    answers = _exchange(server, one * 150, half_close=True)
    assert answers.count(b"HTTP/1.1 200 ") == 150 and b" 431 " not in answers

