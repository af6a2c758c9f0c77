"""Plain ASGI middlewares (a ``BaseHTTPMiddleware`` cost a fifth of creating a table):
the headers every answer carries, the Host guard of a server on loopback, the body
limit, and the charge of every request to its client address's rate limit."""

from __future__ import annotations

import ipaddress
import re

from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from fourfold.server.limits import Limits, Tarpit, address_key
from fourfold.server.protocol import error_json


class AnswerHeaders:
    """Every HTTP answer: ``Referrer-Policy: no-referrer`` and ``X-Content-Type-Options:
    nosniff`` (a browser never guesses a type: an SVG or a record stays what it says);
    under ``/api/`` also ``Cache-Control: no-store`` (answers hold seat views)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        api = str(scope.get("path", "")).startswith("/api/")

        async def headed(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                if api:
                    headers["Cache-Control"] = "no-store"
                headers["X-Content-Type-Options"] = "nosniff"
                headers.setdefault("Referrer-Policy", "no-referrer")
            await send(message)

        await self.app(scope, receive, headed)


def is_loopback(host: str) -> bool:
    """``localhost``, ``127.x.y.z`` or ``::1`` (an address to listen on, or a name)."""
    name = host.strip().strip("[]").rstrip(".").lower()
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


#: a ``Host`` header: a name or IPv4 literal (letters, digits, ``-``, ``_``; labels of at
#: most 63, dot-separated, optionally a final dot) or an IPv6 literal in brackets, then
#: an optional ``:port`` of digits; nothing else (no user info, path, spaces or commas)
_HOST = re.compile(r"(?:(?P<name>(?:[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?\.)*"
                   r"[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?\.?)"
                   r"|\[(?P<ipv6>[0-9A-Fa-f:.]+)\])(?::(?P<port>[0-9]{1,5}))?")


def host_name(header: str) -> str | None:
    """The name in a ``Host`` header, without its port (``[::1]:8000`` -> ``::1``), or
    ``None`` when the header is not a host and an optional port, strictly."""
    match = _HOST.fullmatch(header)
    if match is None or len(header) > 260:
        return None
    port = match.group("port")
    if port is not None and int(port) > 65_535:
        return None
    ipv6 = match.group("ipv6")
    if ipv6 is not None:
        try:
            return str(ipaddress.IPv6Address(ipv6))
        except ValueError:
            return None
    return str(match.group("name"))


class LoopbackHosts:
    """A server listening on loopback answers only requests addressed to a loopback
    name (``localhost``, ``127.x.y.z``, ``[::1]``, any port) or to ``allowed``: a web
    page elsewhere whose name is re-pointed at 127.0.0.1 (DNS rebinding) reaches the
    port, but its requests name the page's own host, and are refused (HTTP 403; a
    WebSocket handshake is refused with 403 too). The ``Host`` is read strictly: a
    header that is not a host name or IP literal with an optional port, or an HTTP/1.1
    request without one, gets 400. (HTTP/1.0 may omit it: no browser does, so no page
    can use that to rebind.)"""

    def __init__(self, app: ASGIApp, allowed: tuple[str, ...] = ()) -> None:
        self.app = app
        self.allowed = frozenset(a.lower().rstrip(".") for a in allowed)

    def refusal(self, scope: Scope) -> tuple[int, str] | None:
        """``(status, reason)`` when the request's Host is refused, else ``None``."""
        headers = [value.decode("latin-1") for key, value in scope.get("headers", [])
                   if key == b"host"]
        if not headers and scope.get("http_version", "1.1") != "1.0":
            return 400, "an HTTP/1.1 request needs a Host header (RFC 9112, 3.2)"
        for header in headers:
            name = host_name(header)
            if name is None:
                return 400, (f"the Host header {header[:80]!r} is not a host name or IP"
                             " literal with an optional :port (IPv6 in brackets)")
            name = name.rstrip(".").lower()
            if not (is_loopback(name) or name in self.allowed):
                return 403, (f"this server listens on loopback and answers only requests"
                             f" for localhost, 127.0.0.1 or [::1], not {header[:80]!r} (a"
                             " guard against DNS rebinding; fourfold serve --allow-host"
                             " NAME adds a name)")
        return None  # every Host it names (one, as a rule) is loopback

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        refused = self.refusal(scope) if scope["type"] in ("http", "websocket") else None
        if refused is None:
            await self.app(scope, receive, send)
            return
        status, reason = refused
        response = JSONResponse(error_json(status, reason), status_code=status)
        if scope["type"] == "http":
            await response(scope, receive, send)
        elif "websocket.http.response" in scope.get("extensions", {}):
            await send({"type": "websocket.http.response.start", "status": status,
                        "headers": response.raw_headers})
            await send({"type": "websocket.http.response.body", "body": response.body})
        else:
            await send({"type": "websocket.close", "code": 1008, "reason": "Host refused"})


class BodyTooLarge(HTTPException):
    """A request body over the limit (raised while it is read, and answered 413)."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, too_large(limit), headers={"Connection": "close"})


def too_large(limit: int) -> str:
    return f"the body is over {limit} bytes"


class BodyLimit:
    """Request bodies of at most ``limit`` bytes. One announced larger
    (``Content-Length``) is refused before the application runs; one streamed
    (chunked) is counted as it is read, and :class:`BodyTooLarge` raised from
    ``receive`` is answered by the app's ``HTTPException`` handler. Both get the same
    JSON 413 with ``Connection: close``, inside ``AnswerHeaders``. (Starlette's own
    limit, FastAPI's ``max_body_size``, answers an announced size with a bare
    ``text/plain`` 413 from outside every middleware of ours.)"""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        announced = [value for key, value in scope.get("headers", [])
                     if key == b"content-length"]
        if any(v.strip().isdigit() and int(v) > self.limit for v in announced):
            error = BodyTooLarge(self.limit)
            response = JSONResponse(error_json(413, error.detail), status_code=413,
                                    headers=error.headers)
            await response(scope, receive, send)
            return
        limit = self.limit
        total = 0

        async def counted() -> Message:
            nonlocal total
            message = await receive()
            if message["type"] == "http.request":
                total += len(message.get("body", b""))
                if total > limit:
                    raise BodyTooLarge(limit)
            return message

        await self.app(scope, counted, send)


class AddressCharge:
    """Every HTTP request and WebSocket handshake costs its client address's bucket
    (``Limits.addresses``), whatever its route: pages, static files, pictures, rules,
    the API. A route that did not charge its request itself was free to flood (one
    address drew the start picture of a game 300 times in 9 s, unrefused). Past the
    rate: 429 with ``Retry-After: 1``, held by the ``tarpit`` like every 429 (a
    WebSocket handshake: HTTP 429, or closed with 4429). The client address is the
    connection's, or the one a ``--trusted-proxy`` names (uvicorn sets it before
    this runs)."""

    def __init__(self, app: ASGIApp, limits: Limits, tarpit: Tarpit) -> None:
        self.app = app
        self.limits = limits
        self.tarpit = tarpit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        key = address_key(client[0] if client else None)
        if await self.limits.addresses.allow_async(key):
            await self.app(scope, receive, send)
            return
        await self.tarpit.hold(key)
        reason = "too many requests from your address: slow down"
        response = JSONResponse(error_json(429, reason), status_code=429,
                                headers={"Retry-After": "1"})
        if scope["type"] == "http":
            await response(scope, receive, send)
        elif "websocket.http.response" in scope.get("extensions", {}):
            await send({"type": "websocket.http.response.start", "status": 429,
                        "headers": response.raw_headers})
            await send({"type": "websocket.http.response.body", "body": response.body})
        else:
            await send({"type": "websocket.close", "code": 4429, "reason": reason})
