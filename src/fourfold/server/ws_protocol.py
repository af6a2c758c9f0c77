"""uvicorn's WebSocket protocol (websockets, sans-I/O) with a refusal that ends the
handshake.

A handshake refused with an HTTP answer (the ASGI ``websocket.http.response``
extension: the loopback Host guard's 403 with its JSON reason) was written to the
client, but uvicorn 0.54 did not mark the handshake finished, so when the application
returned it logged "ASGI callable returned without completing handshake" at ERROR on
every refusal (uvicorn's wsproto protocol marks it; Kludex/uvicorn pull request 3138
proposes the same). Here the refusal, once whole on the wire, ends the handshake.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol


class RefusingWebSocketsProtocol(WebSocketsSansIOProtocol):
    """See the module. ``on_lost``: called once the connection is gone (it gives back
    the connection's slot of its address: server/http_protocol.py)."""

    on_lost: Callable[[], None] | None = None

    def connection_lost(self, exc: Exception | None) -> None:
        release, self.on_lost = self.on_lost, None
        if release is not None:
            release()
        super().connection_lost(exc)

    async def send(self, message: Any) -> None:
        await super().send(message)
        if message["type"] == "websocket.http.response.body" and not message.get(
                "more_body", False):
            self.handshake_complete = True


def websocket_protocol(configured: Any) -> Any:
    """The protocol class to use for ``configured`` (uvicorn's choice): ours in place of
    the sans-I/O one, anything else as it is."""
    if isinstance(configured, type) and configured is WebSocketsSansIOProtocol:
        return RefusingWebSocketsProtocol
    return configured
