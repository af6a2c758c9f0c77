"""Plain ASGI middlewares (a ``BaseHTTPMiddleware`` cost a fifth of creating a table):
the headers every answer carries, and the Host guard of a server on loopback."""

from __future__ import annotations

import ipaddress

from starlette.datastructures import MutableHeaders
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

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


def host_name(header: str) -> str:
    """The name in a ``Host`` header, without its port: ``[::1]:8000`` -> ``::1``."""
    value = header.strip()
    if value.startswith("["):
        return value[1:value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


class LoopbackHosts:
    """A server listening on loopback answers only requests addressed to a loopback
    name (``localhost``, ``127.x.y.z``, ``[::1]``, any port) or to ``allowed``: a web
    page elsewhere whose name is re-pointed at 127.0.0.1 (DNS rebinding) reaches the
    port, but its requests name the page's own host, and are refused (HTTP 403; a
    WebSocket handshake is refused with 403 too)."""

    def __init__(self, app: ASGIApp, allowed: tuple[str, ...] = ()) -> None:
        self.app = app
        self.allowed = frozenset(a.lower().rstrip(".") for a in allowed)

    def accepts(self, header: str) -> bool:
        name = host_name(header).rstrip(".").lower()
        return is_loopback(name) or name in self.allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        names = [value.decode("latin-1") for key, value in scope.get("headers", [])
                 if key == b"host"]
        header = next((n for n in names if not self.accepts(n)), None)
        if header is None:  # every Host it names (one, as a rule) is loopback
            await self.app(scope, receive, send)
            return
        shown = header[:80]
        reason = (f"this server listens on loopback and answers only requests for"
                  f" localhost, 127.0.0.1 or [::1], not {shown!r} (a guard against DNS"
                  " rebinding; fourfold serve --allow-host NAME adds a name)")
        response = JSONResponse(error_json(403, reason), status_code=403)
        if scope["type"] == "http":
            await response(scope, receive, send)
        elif "websocket.http.response" in scope.get("extensions", {}):
            await send({"type": "websocket.http.response.start", "status": 403,
                        "headers": response.raw_headers})
            await send({"type": "websocket.http.response.body", "body": response.body})
        else:
            await send({"type": "websocket.close", "code": 1008, "reason": "Host refused"})
