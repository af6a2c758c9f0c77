"""Fan-out: the WebSocket connections of one table, each sent its own recipient's events.

Each connection is subscribed to the table as its own recipient (a seat, or ``None``
for a spectator), so it is sent events built from its own view only. Events may be
raised on a worker thread (a bot's, an action's): each is encoded there, once per
connection, and handed to the event loop (``call_soon``), where the connection's
outbox takes it. The broker decides how an event enters an outbox (``deliver``: as it
comes, alone; or deduplicated by version, when events also arrive from other
instances).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import orjson

from fourfold.core.game import Game
from fourfold.table import Event, Table
from fourfold.table.events import EventKind
from fourfold.wire import event_to_json

if TYPE_CHECKING:
    from fourfold.server.broker import Broker

#: events that change the table's state (a START at that version or later holds them)
STATE_KINDS = frozenset({"move", "undo", "end"})
#: events a slow connection may fall behind by before it is dropped
MAX_BACKLOG = 1000


def dumps(value: Any) -> str:
    """Compact JSON with sorted keys (orjson: the server encodes every event once per
    recipient, and the standard library's encoder was a tenth of the time per move)."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()


def recipient_key(recipient: int | None) -> str:
    return "s" if recipient is None else str(recipient)


#: set while a mirror replays an offer heard from another instance: its events are
#: neither delivered again nor published again
_muted = threading.local()


def muted() -> bool:
    return bool(getattr(_muted, "on", False))


class Muted:
    """``with Muted():`` events raised on this thread are not delivered or published."""

    def __enter__(self) -> None:
        _muted.on = True

    def __exit__(self, *_: object) -> None:
        _muted.on = False


@dataclass(eq=False)
class Connection:
    """One WebSocket: who it is (a seat, or ``None`` for a spectator) and its outbox."""

    recipient: int | None
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    unsubscribe: Callable[[], None] | None = None
    overflowed: bool = False
    #: a page's connection: what each of its events also carries (server/web/screens.py)
    dress: Callable[[Event], dict[str, Any]] | None = None
    #: the newest version sent, and the version of the last ``start`` sent
    version: int = -1
    synced: int = -1

    def offer(self, version: int, kind: str, text: str) -> None:
        """On the loop: send an event unless the connection already has it. Events
        reach a connection from its own instance's table and, for changes made on
        other instances, from the broker; a ``start`` (a view at one version) holds
        every change up to its version, so later copies of those are dropped."""
        if kind == "start":
            if version <= self.version:
                return
            self.synced = version
        elif version < self.version or (kind in STATE_KINDS and version <= self.synced):
            return
        elif kind in STATE_KINDS and 0 <= self.version < version - 1:
            # a change this connection was never sent (it joined while the broker
            # carried it): hold back what follows, so that the stream never skips a
            # version; the sync sends it a ``start`` (``LiveTable.catch_up_laggards``)
            return
        self.version = max(self.version, version)
        self.push(text)

    def push(self, text: str | None) -> None:
        """On the loop: queue a message (``None`` closes the connection)."""
        if self.overflowed:
            return
        if text is not None and self.queue.qsize() >= MAX_BACKLOG:
            self.overflowed = True
            text = None
        self.queue.put_nowait(text)


class Fanout:
    """The connections of one table (see the module's docstring)."""

    def __init__(self, game: Game[Any, Any], broker: Broker,
                 call_soon: Callable[..., None]) -> None:
        self.game = game
        self.broker = broker
        self.call_soon = call_soon
        self.connections: set[Connection] = set()
        #: per recipient, the last event encoded: (event, its JSON value if a page's
        #: connection asked for it, its text). The table makes one event per recipient,
        #: so its spectators (or a seat's several pages) share one encoding. Events of
        #: one table are delivered one at a time.
        self._encoded: dict[int | None, tuple[Event, dict[str, Any] | None, str]] = {}

    def encode(self, event: Event) -> str:
        """``event``'s wire JSON text (encoded once per event)."""
        cached = self._encoded.get(event.recipient)
        if cached is not None and cached[0] is event:
            return cached[2]
        text = dumps(event_to_json(self.game, event))
        # the value is not kept: it is a dozen objects more per table for the
        # collector to walk, and only a page's connection needs it (``value``)
        self._encoded[event.recipient] = (event, None, text)
        return text

    def value(self, event: Event) -> dict[str, Any]:
        """``event``'s wire JSON as a value, which a page's connection dresses."""
        cached = self._encoded.get(event.recipient)
        if cached is not None and cached[0] is event and cached[1] is not None:
            return cached[1]
        value = event_to_json(self.game, event)
        self._encoded[event.recipient] = (event, value, dumps(value))
        return value

    def attach(self, table: Table, connection: Connection, quiet: bool = False) -> None:
        """Subscribe ``connection`` to ``table`` as its recipient (again after the table
        was rebuilt; ``quiet``: without the ``start`` a subscription begins with)."""
        if connection.unsubscribe is not None:
            connection.unsubscribe()
        self.connections.add(connection)
        connection.unsubscribe = table.subscribe(connection.recipient,
                                                 _Listener(self, connection, quiet))

    def reattach(self, table: Table, quiet: bool = False) -> None:
        """Move every connection to a rebuilt ``table``."""
        for connection in list(self.connections):
            self.attach(table, connection, quiet)

    def detach(self, connection: Connection) -> None:
        self.connections.discard(connection)
        if connection.unsubscribe is not None:
            connection.unsubscribe()
            connection.unsubscribe = None

    def send(self, text: str | None) -> None:
        """Send ``text`` to every local connection (``None``: close them)."""
        for connection in list(self.connections):
            self.call_soon(connection.push, text)

    def behind(self, version: int) -> list[Connection]:
        """The connections not yet sent ``version``."""
        return [c for c in self.connections if c.version < version]


class _Listener:
    """What a connection's subscription calls with each event: the event encoded for
    its recipient (dressed for a page), handed to the loop for its outbox. An object
    rather than a closure: a live table keeps one per connection, and a closure was
    seven objects for the collector to walk, this is one."""

    __slots__ = ("connection", "fanout", "skip_start")

    def __init__(self, fanout: Fanout, connection: Connection, quiet: bool) -> None:
        self.fanout = fanout
        self.connection = connection
        #: ``quiet``: the ``start`` a subscription begins with is not sent
        self.skip_start = quiet

    def __call__(self, event: Event) -> None:
        if muted():
            return
        if self.skip_start and event.kind is EventKind.START:
            self.skip_start = False
            return
        fanout, connection = self.fanout, self.connection
        if connection.dress is None:
            text = fanout.encode(event)
        else:
            text = dumps({**fanout.value(event), "screen": connection.dress(event)})
        fanout.call_soon(fanout.broker.deliver, connection, event.version, event.kind.value,
                         text)
