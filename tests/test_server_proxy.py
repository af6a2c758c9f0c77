"""Who the client is behind a reverse proxy: ``fourfold serve --trusted-proxy ADDR``.

The server keeps its rate limits (and the WebSocket cap) per client address. It believes
``X-Forwarded-For`` from the proxies named with ``--trusted-proxy`` only, and from nobody
by default: not even from 127.0.0.1, which uvicorn on its own trusts (and which its
``FORWARDED_ALLOW_IPS`` variable could widen to everyone). Real servers on loopback;
clients bind the source addresses 127.0.0.2 and 127.0.0.3. Every loop is bounded.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from fourfold.cli.main import main
from fourfold.core.errors import ConfigurationError
from fourfold.server.proxies import trusted_proxies
from support.server import Server, client_from, running

#: requests per second (and twice that at once) per client address
RATE = ("--address-rate", "10")
#: the most requests (and seconds) spent to run one address's bucket dry
MAX_REQUESTS = 1000
MAX_SECONDS = 60.0


def get(client: httpx.Client, table_id: str, forwarded: str | None) -> int:
    """GET the table as a spectator, with that ``X-Forwarded-For``."""
    headers = {"X-Forwarded-For": forwarded} if forwarded else {}
    return client.get(f"/api/tables/{table_id}", headers=headers).status_code


def until_refused(client: httpx.Client, table_id: str, forwarded: Callable[[int], str | None]
                  ) -> int:
    """Send requests (the n-th with ``forwarded(n)``) until one is refused with 429;
    returns how many were sent. Fails if none is within the bounds."""
    deadline = time.monotonic() + MAX_SECONDS
    for n in range(MAX_REQUESTS):
        code = get(client, table_id, forwarded(n))
        if code == 429:
            return n + 1
        assert code == 200, code
        if time.monotonic() > deadline:
            break
    raise AssertionError(f"{n + 1} requests in {MAX_SECONDS:g} s, none refused")


def forged(n: int) -> str:
    """A different made-up address for every request."""
    return f"198.51.{100 + n // 250}.{n % 250 + 1}"


@pytest.fixture
def untrusting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    # uvicorn reads this when it is asked for proxy headers: it must not be
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", "*")
    with running(tmp_path, extra=RATE) as server:
        yield server


@pytest.fixture
def behind_loopback_proxy(tmp_path: Path) -> Iterator[Server]:
    with running(tmp_path, extra=(*RATE, "--trusted-proxy", "127.0.0.1")) as server:
        yield server


def table(server: Server) -> str:
    with httpx.Client(base_url=server.url, timeout=30) as http:
        r = http.post("/api/tables", json={"game": "quarto", "seats": ["human", "human"]})
        assert r.status_code == 201, r.text
        return str(r.json()["id"])


def test_by_default_nobody_may_name_the_client(untrusting: Server) -> None:
    table_id = table(untrusting)
    with client_from("127.0.0.1", untrusting.url) as local:
        # every forged address is ignored: one bucket, 127.0.0.1's, runs dry
        until_refused(local, table_id, forged)
    with client_from("127.0.0.2", untrusting.url) as other:
        assert get(other, table_id, None) == 200  # another address: a bucket of its own


def test_a_trusted_proxy_names_each_client(behind_loopback_proxy: Server) -> None:
    server = behind_loopback_proxy
    table_id = table(server)
    with client_from("127.0.0.1", server.url) as proxy:
        # one client behind the proxy, however busy, is limited as one
        sent = until_refused(proxy, table_id, lambda n: "203.0.113.7")
        # as many again for other clients: each has a bucket of its own
        codes = [get(proxy, table_id, forged(n)) for n in range(sent + 20)]
        assert 429 not in codes, codes.count(429)
        # a chain: the address the proxy added last counts, not what the client wrote
        # before it (a new made-up one each time)
        until_refused(proxy, table_id, lambda n: f"{forged(n)}, 203.0.113.8")


def test_only_the_trusted_proxy_is_believed(behind_loopback_proxy: Server) -> None:
    server = behind_loopback_proxy
    table_id = table(server)
    with client_from("127.0.0.2", server.url) as stranger:
        # 127.0.0.2 is no proxy: its forged headers count for nothing
        until_refused(stranger, table_id, forged)
    with client_from("127.0.0.3", server.url) as neighbour:
        assert get(neighbour, table_id, None) == 200


def test_trusted_proxies_are_addresses_or_networks() -> None:
    assert trusted_proxies(["127.0.0.1", " 10.1.2.3/8 ,::1", "127.0.0.1"]) == (
        "127.0.0.1", "10.0.0.0/8", "::1")
    assert trusted_proxies([]) == ()
    for bad in ("*", "nginx", "localhost", "300.1.1.1", "10.0.0.0/33"):
        with pytest.raises(ConfigurationError, match="not an IP address or network"):
            trusted_proxies([bad])


@pytest.mark.parametrize("option", ["--trusted-proxy", "--forwarded-allow-ips"])
def test_serve_refuses_a_bad_proxy_in_one_line(option: str, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--data", str(tmp_path), option, "*"]) == 2
    err = capsys.readouterr().err
    assert "'*' is not an IP address or network" in err, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
