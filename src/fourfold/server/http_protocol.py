"""uvicorn's HTTP/1.1 protocol (httptools), with a read deadline and an honest
half-close.

- **Slow clients.** uvicorn times out only idle keep-alive connections: a client that
  trickles a request's headers or body a byte at a time, or opens a connection and
  says nothing, holds it (and its memory) for ever. Here a request must arrive whole,
  headers and body, within ``read_seconds`` of its first byte, and a new connection's
  first request within as long; otherwise the client gets 408 and the connection is
  closed. Time during which the server itself stopped reading (pipelined requests
  waiting their turn) does not count against the client.
- **Half-closed pipelined connections.** A client may send several requests and shut
  its side (``shutdown(SHUT_WR)``). uvicorn returned nothing from ``eof_received``, so
  the transport closed at once, while the request being answered did not know it (only
  the last one parsed was marked disconnected): its answer was written to a closed
  transport, and uvloop raised "unable to perform operation on <TCPTransport
  closed=True>", two tracebacks in the log per such connection. Here the transport
  stays open for writing until the requests already received are answered, and when
  it closes, every request still owed an answer is told it is gone.
- **Half-closed unfinished requests.** A request whose headers or body the client
  had not sent in full when it shut its side can never be answered: the application
  would wait for the rest for ever, and the connection stayed open (in CLOSE-WAIT once
  the client closed), one file and one task each, until shutdown cancelled the tasks
  with a traceback apiece. Such a request is dropped at the half-close: the connection
  closes at once, or once the whole requests ahead of it are answered.
- **Connections per address.** A client that opens connections faster than the read
  deadline closes them could hold every file the server may open (each idle one for
  ``read_seconds``), and then nobody is served. A client address (its /64 for IPv6,
  server/limits.py) holds at most ``address_slots.limit`` at once, HTTP and WebSocket
  alike; past that a new one is answered 429 and closed before anything is read. A
  connection from a trusted proxy is not counted: it carries many clients (the proxy
  caps them itself; deploy/nginx.conf).
- **Huge headers.** httptools (llhttp) sets no limit on a request's line and headers,
  and uvicorn none either (its h11 protocol has ``h11_max_incomplete_event_size``):
  one request of 50 MB of headers was read whole and answered 200, the server growing
  by 48 MB, and with 256 connections an address could hold gigabytes. Here a request
  whose line and headers pass ``max_head_bytes`` (64 KiB, as the body's limit) is
  answered 431 and the connection closed, without a line in the log: checked when the
  headers are complete, and while they arrive, on each chunk that holds nothing but the
  unfinished head (a chunk that also ends or begins another request is not counted: at
  most one chunk, 256 KiB, more is read before the refusal).
- **WebSocket refusals** go through ``ws_protocol.RefusingWebSocketsProtocol``.
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections import deque
from collections.abc import Callable
from typing import Any

import httptools
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol, RequestResponseCycle

from fourfold.server.limits import Slots, address_key
from fourfold.server.ws_protocol import websocket_protocol

TIMEOUT_408 = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\n"
               b"connection: close\r\ncontent-length: %d\r\n\r\n%s")
TOO_MANY_429 = (b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\n"
                b"retry-after: 1\r\nconnection: close\r\ncontent-length: %d\r\n\r\n%s")
TOO_LARGE_431 = (b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
                 b"content-type: application/json\r\nx-content-type-options: nosniff\r\n"
                 b"connection: close\r\ncontent-length: %d\r\n\r\n%s")
#: the most bytes a request's line and headers may take
MAX_HEAD_BYTES = 64 * 1024


class _HeadTooLarge(Exception):
    """Raised in a parser callback to stop reading a request whose head is too large."""


class GuardedHttpToolsProtocol(HttpToolsProtocol):
    """See the module. ``read_seconds`` is set by ``guarded_protocol``."""

    read_seconds: float = 10.0
    #: the most bytes a request's line and headers may take (431 past that)
    max_head_bytes: int = MAX_HEAD_BYTES
    #: open connections per client address (``None``: not counted)
    address_slots: Slots | None = None
    #: peers not counted (trusted proxies)
    trusted: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...] = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.ws_protocol_class = websocket_protocol(self.ws_protocol_class)
        #: gives this connection's slot back (``None``: it holds none)
        self._release: Callable[[], None] | None = None
        self._read_timer: asyncio.TimerHandle | None = None
        #: the request whose application is running (``self.cycle`` is the one parsed
        #: last, which with pipelining is a later one)
        self._running: RequestResponseCycle | None = None
        self._eof = False
        #: between a request's first byte and the end of its headers
        self._reading_headers = False
        #: between a request's first byte and its end; a request ended in this chunk
        self._in_message = False
        self._ended_in_chunk = False
        #: bytes of the unfinished head counted so far (see the module: huge headers)
        self._head_bytes = 0
        self._head_refused = False

    # -- the read deadline and the cap on connections ---------------------------------
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[arg-type]
        if not self._admit(transport):
            return
        self._arm()

    def _admit(self, transport: asyncio.BaseTransport) -> bool:
        """Take a slot of the peer's address; when it has none left, answer 429 and
        close. A trusted proxy's connections are not counted."""
        slots = self.address_slots
        peer = transport.get_extra_info("peername")
        host = peer[0] if isinstance(peer, tuple) and peer else None
        if slots is None or host is None or _trusted(host, self.trusted):
            return True
        key = address_key(str(host))
        if not slots.acquire(key):
            body = (b'{"error": "too many connections from your address (at most %d at'
                    b' once)", "status": 429, "type": "refused"}' % slots.limit)
            transport.write(TOO_MANY_429 % (len(body), body))  # type: ignore[attr-defined]
            transport.close()
            return False
        self._release = lambda: slots.release(key)
        return True

    def _give_back(self) -> None:
        release, self._release = self._release, None
        if release is not None:
            release()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._reading_headers = True
        self._in_message = True
        self._head_bytes = 0
        self._arm()

    def on_headers_complete(self) -> None:
        self._reading_headers = False
        head = len(self.url) + sum(len(name) + len(value) + 4 for name, value in self.headers)
        if head > self.max_head_bytes:
            self._head_refused = True
            raise _HeadTooLarge  # httptools stops parsing; data_received answers 431
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._in_message = False
        self._ended_in_chunk = True
        super().on_message_complete()
        self._disarm()

    # -- the head's size -----------------------------------------------------------------
    def data_received(self, data: bytes) -> None:
        """uvicorn's, with the head's size checked (431)."""
        heading = self._reading_headers
        at_start = not self._in_message
        self._ended_in_chunk = False
        self._unset_keepalive_if_required()
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserError:
            if self._head_refused:
                self._refuse_head()
                return
            msg = "Invalid HTTP request received."
            self.logger.warning(msg)
            self.send_400_response(msg)
            return
        except httptools.HttpParserUpgrade:
            if self._should_upgrade():
                self.handle_websocket_upgrade()
            else:
                self._unsupported_upgrade_warning()
            return
        if not self._reading_headers or self._ended_in_chunk or not (heading or at_start):
            return  # the chunk is not all head: not counted (at most one chunk more)
        self._head_bytes += len(data)
        if self._head_bytes > self.max_head_bytes:
            self._refuse_head()

    def _refuse_head(self) -> None:
        self._disarm()
        if self.transport.is_closing():
            return
        body = (b'{"error": "the request line and headers are over %d bytes",'
                b' "status": 431, "type": "refused"}' % self.max_head_bytes)
        self.transport.write(TOO_LARGE_431 % (len(body), body))
        self.transport.close()

    def handle_websocket_upgrade(self) -> None:
        self._disarm()
        release, self._release = self._release, None
        super().handle_websocket_upgrade()
        if release is not None:  # the WebSocket's protocol holds the slot from now on
            handed = self.transport.get_protocol()
            if hasattr(handed, "on_lost"):
                handed.on_lost = release
            else:
                release()

    def _arm(self) -> None:
        self._disarm()
        self._read_timer = self.loop.call_later(self.read_seconds, self._read_timeout)

    def _disarm(self) -> None:
        if self._read_timer is not None:
            self._read_timer.cancel()
            self._read_timer = None

    def _read_timeout(self) -> None:
        self._read_timer = None
        if self.transport is None or self.transport.is_closing():
            return
        paused = self.flow is not None and self.flow.read_paused
        ahead = self._owed() and (self._reading_headers or self._running is not self.cycle)
        if paused or ahead:
            self._arm()  # a request ahead is still being answered: not the client's delay
            return
        cycle = self.cycle
        if cycle is None or cycle.response_complete or not cycle.response_started:
            body = (b'{"error": "the request did not arrive within %d seconds",'
                    b' "status": 408, "type": "refused"}' % round(self.read_seconds))
            self.transport.write(TIMEOUT_408 % (len(body), body))
        self.transport.close()

    # -- half-close and pipelining -----------------------------------------------------
    def _start_asgi_task(self, cycle: RequestResponseCycle, app: Any) -> None:
        self._running = cycle
        super()._start_asgi_task(cycle, app)

    def _owed(self) -> bool:
        """Requests received and not yet answered?"""
        running = self._running
        return bool(self.pipeline) or (running is not None and not running.response_complete)

    def eof_received(self) -> bool | None:  # type: ignore[override]  # asyncio allows True
        """The client will send nothing more: answer the requests it sent whole, then
        close. A request cut short (headers or body unfinished) can never be answered:
        it is dropped, and if nothing else is owed the connection closes at once."""
        self._eof = True
        self._disarm()
        cycle = self.cycle
        if cycle is not None and cycle.more_body and not cycle.response_complete:
            # its body never came whole: the application would wait for it for ever
            if cycle is self._running:
                return None  # nothing ahead of it: close (connection_lost tells it)
            self.pipeline = deque(pair for pair in self.pipeline if pair[0] is not cycle)
            cycle.disconnected = True
            cycle.message_event.set()
        return True if self._owed() else None

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self._eof and not self._owed() and not self.transport.is_closing():
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._give_back()
        owed = [self._running, *(cycle for cycle, _ in self.pipeline)]
        self.pipeline.clear()
        for cycle in owed:
            if cycle is not None and not cycle.response_complete:
                cycle.disconnected = True
                cycle.message_event.set()
        super().connection_lost(exc)


def _trusted(host: str, networks: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]
             ) -> bool:
    if not networks:
        return False
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return any(address in network for network in networks)


def guarded_protocol(read_seconds: float, max_connections: int | None = None,
                     trusted: tuple[str, ...] = ()) -> type[GuardedHttpToolsProtocol]:
    """The protocol class for ``uvicorn.Config(http=...)``, with this read deadline, at
    most ``max_connections`` open connections per client address (``None``: no cap),
    not counting those from the ``trusted`` proxies (addresses or networks)."""
    return type("GuardedHttpToolsProtocol", (GuardedHttpToolsProtocol,), {
        "read_seconds": float(read_seconds),
        "address_slots": None if max_connections is None else Slots(max_connections),
        "trusted": tuple(ipaddress.ip_network(t, strict=False) for t in trusted)})
