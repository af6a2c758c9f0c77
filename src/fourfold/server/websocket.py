"""``WS /api/tables/{id}/live``: one table's changes as they happen, and actions.

The first message a client sends is ``{"type": "hello", "token": TOKEN}`` (``null``
or no token: a spectator); a token may instead travel as the subprotocol
``fourfold.token.TOKEN``. A page adds ``"screen": true`` (or offers the subprotocol
``fourfold.screen``): its events then also carry what it draws (server/web/screens.py).
Tokens never go in the URL, where logs would keep them. The server answers
``welcome`` and then one wire event per change, built from this connection's own view
(the first, ``start``, holds the view now). Actions are the wire's client messages
(``move``, ``resign``, ``offer``, ``answer``, ``ping``); each is answered ``ack`` or
``refused`` (with an HTTP-like ``status`` and the reason in words). The order is fixed
(docs/wire.md): ``welcome``, ``start``, then each answer after the ``start`` and after
the events of the change it made, as every message goes through the connection's one
outbox after the ``welcome``.

A page from another site may not open the socket: the ``Origin`` must be this host or
one of ``Settings.allowed_origins``. One client address holds at most
``Settings.max_sockets_per_address`` sockets at once; past that a new one is closed
with code 4429 (and a ``refused`` message saying why). Every message costs the
connection's bucket and its address's (server/limits.py), and a seat's token's too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import weakref
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy.exc import OperationalError
from starlette.websockets import WebSocket, WebSocketDisconnect

from fourfold.core.errors import FourfoldError
from fourfold.server.access import seat_holding
from fourfold.server.chat.service import Chat, chat_reply
from fourfold.server.hub import Hub
from fourfold.server.limits import Bucket, Limits, SocketSlots, address_key
from fourfold.server.live import Connection, LiveTable, dumps
from fourfold.server.protocol import error_json, refusal_status, table_info
from fourfold.server.tokens import token_hash
from fourfold.server.web.screens import Dresser, screen_dresser
from fourfold.table import Event, Table, TableError
from fourfold.wire import PingMessage, WireError, apply_client_message, parse_client_message
from fourfold.wire.messages import ChatMessage, decode_json
from fourfold.wire.version import check_version

log = logging.getLogger("fourfold.server")
HELLO_SECONDS = 10.0
SUBPROTOCOL = "fourfold.v1"
TOKEN_PROTOCOL = "fourfold.token."
SCREEN_PROTOCOL = "fourfold.screen"
#: refusals for flooding before the connection is closed
MAX_STRIKES = 20


def origin_allowed(origin: str | None, host: str | None, allowed: tuple[str, ...]) -> bool:
    """No Origin (not a browser), the same host, or an allowed origin."""
    if origin is None:
        return True
    if origin.rstrip("/") in allowed:
        return True
    try:
        return host is not None and urlsplit(origin).netloc.lower() == host.lower()
    except ValueError:
        return False


#: each table's dressers by recipient (see ``shared_dresser``)
_dressers: weakref.WeakKeyDictionary[LiveTable, dict[int | None, Dresser]] = \
    weakref.WeakKeyDictionary()
_dressers_lock = threading.Lock()


def shared_dresser(live: LiveTable, recipient: int | None) -> Dresser:
    """The dresser of ``recipient``'s page sockets at ``live``: one for all of them,
    which draws each event's screen once. The table hands every listener of one
    recipient the same event object, in the same order; dressed per socket, each
    event's picture was drawn once per page open on the table, on the acting path, so
    60 spectator pages (two addresses) made every move of that table take 1.2 s and
    held the event loop meanwhile."""
    with _dressers_lock:
        by_recipient = _dressers.setdefault(live, {})
        found = by_recipient.get(recipient)
        if found is None:
            found = by_recipient[recipient] = _once_per_event(screen_dresser(live, recipient))
        return found


def _once_per_event(dress: Dresser) -> Dresser:
    lock = threading.Lock()
    last: list[Any] = [None, None]  # the event dressed last, and its screen

    def shared(event: Event) -> dict[str, Any]:
        with lock:
            if last[0] is not event:
                last[1] = dress(event)
                last[0] = event
            screen: dict[str, Any] = last[1]
            return screen

    return shared


class Closing(Exception):
    def __init__(self, code: int) -> None:
        self.code = code


async def live_socket(websocket: WebSocket, table_id: str) -> None:
    hub: Hub = websocket.app.state.hub
    settings = hub.settings
    if not origin_allowed(websocket.headers.get("origin"), websocket.headers.get("host"),
                          settings.allowed_origins):
        await websocket.close(code=1008)
        return
    offered: list[str] = list(websocket.scope.get("subprotocols") or [])
    await websocket.accept(subprotocol=SUBPROTOCOL if SUBPROTOCOL in offered else None)
    sockets: SocketSlots = websocket.app.state.sockets
    address = address_key(websocket.client.host if websocket.client else None)
    if not await sockets.acquire(address):
        reason = f"too many live connections from your address (at most {sockets.limit})"
        with contextlib.suppress(Exception):
            await _send(websocket, error_json(429, reason))
            await websocket.close(code=4429, reason=reason[:120])
        return
    try:
        await _checked(websocket, hub, table_id, offered)
    finally:
        await sockets.release(address)


async def _checked(websocket: WebSocket, hub: Hub, table_id: str, offered: list[str]
                   ) -> None:
    """Find the table and the seat, then run the session (closing with a code)."""
    try:
        live = await hub.run(lambda: hub.get(table_id[:64]))
        if live is None:
            await _send(websocket, error_json(404, f"there is no table {table_id[:40]!r}"))
            raise Closing(4404)
        token = next((p[len(TOKEN_PROTOCOL):] for p in offered
                      if p.startswith(TOKEN_PROTOCOL)), None)
        screen = SCREEN_PROTOCOL in offered
        if token is None:
            token, screen = await _hello(websocket)
        state = websocket.app.state
        seat = None if token is None else await hub.run(
            lambda: seat_holding(state, live, token))
        if token is not None and seat is None:
            await _send(websocket, error_json(403, "this token holds no seat at this table"))
            raise Closing(4403)
        sealed = None if seat is not None else await hub.run(
            lambda: state.daily.sealed(live.id))
        if sealed is not None:  # a daily deal's table, until its day ends
            await _send(websocket, error_json(403, sealed))
            raise Closing(4403)
        await _session(websocket, hub, live, seat, token, screen)
    except Closing as closing:
        with contextlib.suppress(Exception):
            await websocket.close(code=closing.code)
    except WebSocketDisconnect:
        pass
    except OperationalError as error:  # the database is full or away
        log.error("database error: %s", str(error.orig or error).strip()[:200])
        with contextlib.suppress(Exception):
            await _send(websocket, error_json(503, "the database cannot answer now: try"
                                                   " again"))
            await websocket.close(code=1013)


async def _send(websocket: WebSocket, value: dict[str, Any]) -> None:
    await websocket.send_text(dumps(value))


async def _receive(websocket: WebSocket, limit: int) -> str:
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    data = message.get("text")
    if data is None:
        raw = message.get("bytes") or b""
        if len(raw) > limit:
            return "\x00too long"
        try:
            data = raw.decode("utf-8")
        except UnicodeDecodeError:
            return "\x00not UTF-8"
    return str(data)


async def _hello(websocket: WebSocket) -> tuple[str | None, bool]:
    """The first message: ``{"type": "hello", "token": TOKEN or null}`` (and, from a
    page, ``"screen": true``). Returns the token and whether it is a page."""
    try:
        text = await asyncio.wait_for(_receive(websocket, 4096), HELLO_SECONDS)
    except TimeoutError:
        await _send(websocket, error_json(408, "say hello first: {\"type\": \"hello\","
                                               " \"token\": TOKEN or null}"))
        raise Closing(4408) from None
    try:
        value = decode_json(text)
        if not isinstance(value, dict) or value.get("type") != "hello" or not set(
                value) <= {"type", "token", "wire", "screen"}:
            raise WireError('expected {"type": "hello", "token": TOKEN or null} (and'
                            ' optionally "screen": true and "wire": 1)')
        if "wire" in value:  # as in every other message: the version this server speaks
            check_version(value["wire"], "wire")
        token = value.get("token")
        if token is not None and (not isinstance(token, str) or not 0 < len(token) <= 200):
            raise WireError("a token is a string of at most 200 characters", "token")
        screen = value.get("screen", False)
        if not isinstance(screen, bool):
            raise WireError("screen is true (a page: events carry what it draws) or"
                            " false", "screen")
    except WireError as error:
        await _send(websocket, error_json(400, str(error)))
        raise Closing(4400) from None
    return token, screen


async def _session(websocket: WebSocket, hub: Hub, live: LiveTable, seat: int | None,
                   token: str | None, screen: bool) -> None:
    settings = hub.settings
    connection = Connection(seat, dress=shared_dresser(live, seat) if screen else None)
    # subscribed before the welcome: whatever a client reads on hearing it (a page reads
    # the chat, a replay its step) cannot miss a change made in between; the outbox is
    # sent from only once the pump starts, so the welcome still comes first
    live.attach(connection)
    try:
        await _send(websocket, {"type": "welcome", "you": seat, "table": table_info(live)})
    except BaseException:
        live.detach(connection)
        raise
    sender = asyncio.create_task(_pump(websocket, connection))
    bucket = Bucket(settings.rate_per_second, settings.rate_burst)
    limits: Limits = websocket.app.state.limits
    host = websocket.client.host if websocket.client else None
    digest = None if token is None else token_hash(token)
    strikes = 0
    try:
        while True:
            text = await _receive(websocket, settings.max_message_bytes)
            if sender.done():
                break
            if not bucket.take() or not await limits.allow_async(host, digest):
                strikes += 1
                hub.call_soon(connection.push, dumps(error_json(
                    429, "too many messages: slow down")))
                if strikes > MAX_STRIKES:
                    raise Closing(1008)
                continue
            reply = await _act(hub, live, seat, text, websocket.app.state.chat)
            # every answer goes through the outbox, after what is queued there already:
            # the ``start`` (queued by ``attach``), and the events of the change the
            # action made; sent at once, a first message's answer beat the ``start``
            hub.call_soon(connection.push, dumps(reply))
    finally:
        live.detach(connection)
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender


async def _pump(websocket: WebSocket, connection: Connection) -> None:
    """Send the connection's events in order; ``None`` closes it."""
    while True:
        text = await connection.queue.get()
        if text is None:
            with contextlib.suppress(Exception):
                await websocket.close(code=1001 if not connection.overflowed else 1008)
            return
        await websocket.send_text(text)


async def _act(hub: Hub, live: LiveTable, seat: int | None, text: str, chat: Chat
               ) -> dict[str, Any]:
    if text.startswith("\x00"):
        return error_json(400, text[1:])
    try:
        message = parse_client_message(text)
    except WireError as error:
        return error_json(400, str(error))
    if isinstance(message, PingMessage):
        return {"type": "pong", "version": live.table.version}
    if isinstance(message, ChatMessage):  # not an action: server/chat/
        line = message.text
        return await hub.run(lambda: chat_reply(chat, live, seat, line))
    if seat is None:
        return error_json(403, "spectators watch; only a seat's token may act")

    def step(table: Table) -> str:
        live.check_open()
        return apply_client_message(table, seat, message)

    def run() -> str:
        return live.act(step)

    try:
        said = await hub.act(run)
    except WireError as error:  # a move whose action and notation disagree
        return error_json(400, str(error), version=live.table.version)
    except TableError as error:
        return error_json(refusal_status(error), error.reason, version=live.table.version)
    except FourfoldError as error:
        return error_json(422, str(error), version=live.table.version)
    return {"type": "ack", "text": said, "version": live.table.version}
