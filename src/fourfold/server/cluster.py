"""Several ``fourfold serve`` instances on one database: the link to the broker (Redis).

PostgreSQL is the truth; Redis only fans events out between instances, and nothing is
lost when it is down or restarts:

- ``publish`` queues a message (from any thread); one task on the event loop sends
  the queue, in order, on one connection: ``PUBLISH fourfold:t:<table id> <json>``.
  A message that cannot be sent is dropped (the others catch up from the database).
- One task listens (``PSUBSCRIBE fourfold:t:*``) and hands every message from another
  instance to ``Hub.heard``. Whenever the subscription is (re)made, every table in play
  here is compared with the database and its connections are sent their view if they
  fell behind (``Hub.catch_up``); ``Hub.sync`` does the same every ``sync_seconds``
  for a table the broker said nothing about.

A message: ``{"from": instance, "t": table id, "k": event kind, "v": version, "seat",
"offer", "e": {"0": JSON for seat 0, ..., "s": JSON for spectators}}``, or
``{"k": "broadcast", "text": ...}`` for the server's own notices (rematch, closed).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import socket
from typing import Any

from fourfold.core.errors import ConfigurationError

log = logging.getLogger("fourfold.server")
PREFIX = "fourfold:t:"
#: messages waiting to be published before new ones are dropped (the broker is stuck)
MAX_QUEUE = 100_000


def instance_name() -> str:
    """Host, process id and a random part: unique among the instances."""
    return f"{socket.gethostname()[:40]}-{os.getpid()}-{secrets.token_hex(3)}"


def check_broker(url: str) -> None:
    """Fail at start-up, in one line, when the broker cannot be reached."""
    try:
        import redis
    except ModuleNotFoundError:
        raise ConfigurationError("--broker needs redis-py: pip install 'fourfold[scale]'"
                                 ) from None
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=5, socket_timeout=5)
        try:
            client.ping()
        finally:
            client.close()
    except (redis.RedisError, ValueError, OSError) as error:
        raise ConfigurationError(f"cannot reach the broker {url}: {error}") from None


class Cluster:
    """The broker link of one instance (see the module's docstring)."""

    def __init__(self, url: str, instance: str, on_message: Any, on_subscribed: Any,
                 wanted: Any = None) -> None:
        self.url = url
        self.instance = instance
        #: whether a table is held here (its messages are read only then)
        self.wanted = wanted or (lambda table_id: True)
        self.on_message = on_message          # called on the loop with each message
        self.on_subscribed = on_subscribed    # awaited after every (re)subscription
        self.connected = False
        self.loop: asyncio.AbstractEventLoop | None = None
        self._queue: asyncio.Queue[tuple[str, str]] | None = None
        self.published = 0
        self.dropped = 0

    # -- sending -------------------------------------------------------------------------
    def publish(self, table_id: str, message: dict[str, Any]) -> None:
        """Queue ``message`` about ``table_id`` for the other instances (any thread)."""
        loop, queue = self.loop, self._queue
        if loop is None or queue is None or loop.is_closed():
            return
        text = json.dumps({"from": self.instance, "t": table_id, **message},
                          separators=(",", ":"))
        item = (PREFIX + table_id, text)
        with contextlib.suppress(RuntimeError):  # the loop is shutting down
            loop.call_soon_threadsafe(self._put, item)

    def _put(self, item: tuple[str, str]) -> None:
        assert self._queue is not None
        if self._queue.qsize() >= MAX_QUEUE:
            self.dropped += 1
            return
        self._queue.put_nowait(item)

    async def _sender(self) -> None:
        import redis.asyncio as aioredis

        assert self._queue is not None
        client: Any = None
        while True:
            channel, text = await self._queue.get()
            batch = [(channel, text)]
            while not self._queue.empty() and len(batch) < 500:
                batch.append(self._queue.get_nowait())
            try:
                if client is None:
                    client = aioredis.Redis.from_url(self.url, socket_connect_timeout=2,
                                                     socket_timeout=5)
                pipe = client.pipeline(transaction=False)
                for channel, text in batch:
                    pipe.publish(channel, text)
                await pipe.execute()
                self.published += len(batch)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                self.dropped += len(batch)
                log.warning("broker: %d event(s) not published (%s); the other instances"
                            " will catch up from the database", len(batch), error)
                if client is not None:
                    with contextlib.suppress(Exception):
                        await client.aclose()
                client = None
                await asyncio.sleep(0.2)

    # -- listening -----------------------------------------------------------------------
    async def _listener(self) -> None:
        import redis.asyncio as aioredis

        pause = 0.1
        lost = False  # the link was lost: say when it is back (and caught up)
        while True:
            client: Any = None
            try:
                client = aioredis.Redis.from_url(self.url, socket_connect_timeout=2,
                                                 health_check_interval=2)
                pubsub = client.pubsub(ignore_subscribe_messages=True)
                await pubsub.psubscribe(PREFIX + "*")
                self.connected = True
                pause = 0.1
                await self.on_subscribed()
                if lost:
                    log.warning("broker: back; caught up from the database")
                    lost = False
                while True:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is None:
                        continue
                    if message.get("type") != "pmessage":
                        continue
                    channel = message.get("channel") or b""
                    table_id = channel[len(PREFIX):].decode("ascii", "replace") if \
                        isinstance(channel, bytes) else str(channel)[len(PREFIX):]
                    if self.wanted(table_id):  # not held here: no need to read it
                        self._heard(message.get("data"))
            except asyncio.CancelledError:
                raise
            except Exception as error:
                if self.connected:
                    log.warning("broker: lost (%s); catching up from the database", error)
                    lost = True
                self.connected = False
            finally:
                self.connected = False
                if client is not None:
                    with contextlib.suppress(Exception):
                        await client.aclose()
            await asyncio.sleep(pause)
            pause = min(2.0, pause * 2)

    def _heard(self, data: Any) -> None:
        try:
            message = json.loads(data)
        except (TypeError, ValueError):
            return
        if not isinstance(message, dict) or message.get("from") == self.instance:
            return
        try:
            self.on_message(message)
        except Exception:
            log.exception("broker: a message could not be handled")

    # -- running -------------------------------------------------------------------------
    def tasks(self, loop: asyncio.AbstractEventLoop) -> list[asyncio.Task[None]]:
        self.loop = loop
        self._queue = asyncio.Queue()
        return [loop.create_task(self._sender()), loop.create_task(self._listener())]
