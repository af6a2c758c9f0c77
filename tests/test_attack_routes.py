"""Every route costs its client address, whatever it is: an attacker who finds a route
that skips the rate limit (a page, a static file, a start picture, the rules) could
flood it unrefused. Real server on loopback; each route is tried from an address of
its own (127.0.2.N), with a bucket of one request refilled every two seconds. Every
loop is bounded in count."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from support.server import Server, client_from, running

ROUTES = ["/", "/new", "/daily", "/puzzles", "/explore", "/rules/folio", "/favicon.ico",
          "/ui/app.js", "/api/health", "/api/games", "/api/games/folio/picture",
          "/api/games/folio/rules", "/api/lobby", "/api/explore", "/api/daily",
          "/api/puzzles/games", "/openapi.json", "/docs", "/api/tables/nosuch",
          "/no/such/page"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(tmp_path_factory.mktemp("attack-routes"), extra=(
            "--address-rate", "0.5", "--refusal-hold", "0")) as s:
        yield s


@pytest.mark.parametrize("path", ROUTES)
def test_every_route_costs_its_address(server: Server, path: str) -> None:
    n = ROUTES.index(path) + 1
    address = f"127.0.2.{n}"
    with client_from(address, server.url) as http:
        answers = [http.get(path) for _ in range(8)]
        codes = [r.status_code for r in answers]
        assert codes[0] != 429 and 429 in codes, (path, codes)
        refused = answers[codes.index(429)]
        assert refused.json()["error"] == "too many requests from your address: slow down"
        assert refused.headers["retry-after"] == "1"
        assert refused.headers["x-content-type-options"] == "nosniff"
    with client_from(f"127.0.3.{n}", server.url) as other:  # another address: served
        assert other.get("/api/health").status_code == 200


def test_websocket_handshakes_cost_their_address(server: Server) -> None:
    with client_from("127.0.4.1", server.url) as http:
        codes = []
        for _ in range(8):  # until the bucket is empty
            codes.append(http.get("/api/health").status_code)
            if codes[-1] == 429:
                break
        assert codes[-1] == 429, codes
    url = f"{server.ws_url}/api/tables/nosuch/live"
    with pytest.raises(InvalidStatus) as refused, connect(
            url, open_timeout=10, source_address=("127.0.4.1", 0)):
        pass
    assert refused.value.response.status_code == 429


def test_the_start_picture_is_drawn_once(server: Server) -> None:
    with client_from("127.0.5.1", server.url) as http, \
            client_from("127.0.5.2", server.url) as other:
        first = http.get("/api/games/quarto/picture")
        again = other.get("/api/games/quarto/picture")
        assert first.status_code == again.status_code == 200
        assert first.text == again.text and first.text.startswith("<svg")
        assert first.headers["content-type"].startswith("image/svg+xml")

