"""Which reverse proxies may tell the server who the client is (``--trusted-proxy``).

Behind nginx every connection comes from nginx's address, so rate limits and the
WebSocket cap, which are kept per client address, would lump every visitor together.
nginx passes the real address in ``X-Forwarded-For`` (deploy/nginx.conf); the server
believes that header only from a proxy named here, and from nobody by default. That
default matters: uvicorn on its own trusts ``127.0.0.1``, so any local process could
claim to be anyone. Trusted, uvicorn's ``ProxyHeadersMiddleware`` sets
``request.client.host`` (and ``websocket.client.host``) to the nearest untrusted address
in the header.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

from fourfold.core.errors import ConfigurationError


def trusted_proxies(values: Iterable[str]) -> tuple[str, ...]:
    """Addresses and networks (``127.0.0.1``, ``10.0.0.0/8``, ``::1``), each value
    possibly a comma-separated list, checked and written in their normal form.

    >>> trusted_proxies(["127.0.0.1", "10.1.2.3/8, ::1"])
    ('127.0.0.1', '10.0.0.0/8', '::1')
    """
    found: list[str] = []
    for value in values:
        for item in value.split(","):
            text = item.strip()
            if not text:
                continue
            try:
                normal = str(ipaddress.ip_network(text, strict=False)) if "/" in text \
                    else str(ipaddress.ip_address(text))
            except ValueError:
                raise ConfigurationError(
                    f"--trusted-proxy {text!r} is not an IP address or network (for"
                    " example 127.0.0.1 or 172.28.0.0/24); name the proxy's address, not"
                    " its host name, and never every address") from None
            if normal not in found:
                found.append(normal)
    return tuple(found)
