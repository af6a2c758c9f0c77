"""Per-address counts shared by several instances through Redis (``--broker``).

Behind a balancer each instance sees part of a client's requests. Counted in each
instance's memory, a client that reached N instances got N times every allowance: N
times the request rate, N times the tables, N times the new tables a minute. Here the
same counts live in Redis, so a client has one allowance whichever instance it reaches:

- **Token buckets** (``SharedLimiter``: the request rate per address and per seat
  token, new tables a minute, new puzzle solvers an hour) are one Lua script each
  take, atomic in Redis, timed by Redis's own clock (``TIME``): the instances' clocks
  may disagree, and no take can race another.
- **WebSockets held at once** (``SharedSlots``) are counted per address and per
  instance (a hash: instance -> count). An instance that dies leaves its counts
  behind; its ``alive`` key (renewed every few seconds) expires, and the next
  acquire drops the counts of instances no longer alive.
- **Tables held** (``SharedTableSlots``) are a hash per address and kind: table id ->
  0, or a reservation being made -> the Redis time it lapses. Tables that no longer
  count are found by the caller's ``alive`` (which reads the database for a table
  held elsewhere) and dropped in the same script that counts and reserves.

**When Redis fails** (down, slow past ``TIMEOUT`` seconds, or refusing), each count
is kept in this instance's memory instead, as one instance alone keeps it: a client
then has at most one allowance per instance (never none), nobody sees an error, and
one warning is logged. Redis is tried again every ``RETRY_SECONDS``; the shared
counts resume when it answers (docs/security.md).

Keys: ``fourfold:l:<kind>:<address key or token hash>``; this is one Redis (the
scripts read keys they are not given, which Redis Cluster would refuse).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import threading
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar
from urllib.parse import urlsplit

from fourfold.server.limits import (
    Allowance,
    Counters,
    Limiter,
    Reservation,
    SocketSlots,
    TableCaps,
    TableSlots,
)

log = logging.getLogger("fourfold.server")
T = TypeVar("T")
PREFIX = "fourfold:l:"
#: the longest a count waits for Redis before this instance's own count is used
TIMEOUT = 0.5
#: after a failure, this instance's own counts are used this long before Redis is tried
RETRY_SECONDS = 2.0
#: an instance's ``alive`` key lasts this long; it is renewed every third of it
ALIVE_SECONDS = 15
#: a reservation (a table being made) lapses after this many seconds unless bound
PENDING_SECONDS = 120
#: a table-cap or socket hash untouched this long is forgotten (longer than a table
#: can count: ``--idle-hours`` is a week by default)
SLOT_KEY_SECONDS = 9 * 24 * 3600

BUCKET = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local v = redis.call('HMGET', KEYS[1], 'l', 's')
local level, stamp = tonumber(v[1]), tonumber(v[2])
if level == nil or stamp == nil then level = burst; stamp = now end
if now < stamp then now = stamp end
level = math.min(burst, level + (now - stamp) * rate)
if level < 1 then return 0 end
if ARGV[3] == '1' then
  level = level - 1
  redis.call('HSET', KEYS[1], 'l', string.format('%.6f', level),
             's', string.format('%.6f', now))
  redis.call('PEXPIRE', KEYS[1], math.ceil((burst - level) / rate * 1000) + 1000)
end
return 1
"""

SLOT_ACQUIRE = """
local all = redis.call('HGETALL', KEYS[1])
local total = 0
for i = 1, #all, 2 do
  local who, n = all[i], tonumber(all[i + 1]) or 0
  if who ~= ARGV[1] and redis.call('EXISTS', ARGV[3] .. who) == 0 then
    redis.call('HDEL', KEYS[1], who)
  else
    total = total + n
  end
end
redis.call('SET', ARGV[3] .. ARGV[1], '1', 'EX', ARGV[5])
if total >= tonumber(ARGV[2]) then return 0 end
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('EXPIRE', KEYS[1], ARGV[4])
return 1
"""

SLOT_RELEASE = """
local n = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
if n <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end
return n
"""

TABLE_RESERVE = """
local now = tonumber(redis.call('TIME')[1])
for i = 5, #ARGV do redis.call('HDEL', KEYS[1], ARGV[i]) end
local all = redis.call('HGETALL', KEYS[1])
local n = 0
for i = 1, #all, 2 do
  local lapses = tonumber(all[i + 1]) or 0
  if lapses > 0 and lapses < now then
    redis.call('HDEL', KEYS[1], all[i])
  else
    n = n + 1
  end
end
if n >= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[2], now + tonumber(ARGV[3]))
redis.call('EXPIRE', KEYS[1], ARGV[4])
return 1
"""

TABLE_BIND = """
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[1], ARGV[2], 0)
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 1
"""


class Link:
    """The Redis clients of one instance's counters, and whether Redis is answering.

    ``call`` and ``call_async`` run one command; on any failure they return ``None``
    (the caller then counts in memory), log once until Redis answers again, and skip
    Redis for ``RETRY_SECONDS``."""

    def __init__(self, url: str) -> None:
        import redis

        self.url = url
        #: where Redis is, for the log: host and port (never a password in the URL)
        self.where = _where(url)
        self.sync: Any = redis.Redis.from_url(url, socket_connect_timeout=TIMEOUT,
                                              socket_timeout=TIMEOUT)
        self._async: Any = None
        self._async_loop: asyncio.AbstractEventLoop | None = None
        self._async_scripts: dict[str, Any] = {}
        self._down_until = 0.0
        self._lock = threading.Lock()

    def up(self) -> bool:
        return time.monotonic() >= self._down_until

    def script(self, text: str) -> Any:
        """``text`` as a script of the sync client (sent by hash, loaded once)."""
        return self.sync.register_script(text)

    def async_script(self, text: str) -> Any:
        """``text`` as a script of the event loop's client."""
        client = self.async_client()
        found = self._async_scripts.get(text)
        if found is None:
            found = self._async_scripts[text] = client.register_script(text)
        return found

    def async_client(self) -> Any:
        """The client of the running event loop (one per loop: uvicorn has one)."""
        loop = asyncio.get_running_loop()
        if self._async is None or self._async_loop is not loop:
            import redis.asyncio as aioredis

            self._async = aioredis.Redis.from_url(self.url, socket_connect_timeout=TIMEOUT,
                                                  socket_timeout=TIMEOUT)
            self._async_loop = loop
            self._async_scripts = {}
        return self._async

    def call(self, work: Callable[[], T]) -> T | None:
        if not self.up():
            return None
        try:
            result = work()
        except Exception as error:  # redis.RedisError, OSError, a timeout: count here
            self._failed(error)
            return None
        self._answered()
        return result

    async def call_async(self, work: Callable[[], Awaitable[T]]) -> T | None:
        if not self.up():
            return None
        try:
            result = await asyncio.wait_for(work(), TIMEOUT * 2)
        except asyncio.CancelledError:
            raise
        except Exception as error:
            self._failed(error)
            return None
        self._answered()
        return result

    def _failed(self, error: BaseException) -> None:
        with self._lock:
            first = self._down_until == 0.0
            self._down_until = time.monotonic() + RETRY_SECONDS
        if first:
            log.warning("limits: Redis %s is not answering (%s); each instance counts"
                        " its clients' requests, sockets and tables itself until it is"
                        " back", self.where, str(error).splitlines()[0] if str(error)
                        else type(error).__name__)

    def _answered(self) -> None:
        if self._down_until == 0.0:
            return
        with self._lock:
            if self._down_until == 0.0:
                return
            self._down_until = 0.0
        log.warning("limits: Redis %s answers again; the counts are shared again",
                    self.where)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.sync.close()


def _where(url: str) -> str:
    """``host:port`` of a Redis URL (``redis://:secret@db:6379/0`` -> ``db:6379``)."""
    try:
        parts = urlsplit(url)
        return f"{parts.hostname or '?'}:{parts.port or 6379}"
    except ValueError:
        return "(the --broker URL)"


class SharedLimiter(Allowance):
    """Token buckets in Redis (the ``BUCKET`` script), this process's own (``local``)
    while Redis does not answer."""

    def __init__(self, link: Link, name: str, rate: float, burst: float) -> None:
        self.link = link
        self.name = name
        self.rate = rate
        self.burst = burst
        self.local = Limiter(rate, burst)
        self._script = link.script(BUCKET)

    def _key(self, key: str) -> str:
        return f"{PREFIX}{self.name}:{key}"

    def _args(self, take: bool) -> list[str]:
        return [repr(self.rate), repr(self.burst), "1" if take else "0"]

    def allow(self, key: str) -> bool:
        answer = self.link.call(lambda: self._script(keys=[self._key(key)],
                                                     args=self._args(True)))
        return self.local.allow(key) if answer is None else bool(answer)

    def ready(self, key: str) -> bool:
        answer = self.link.call(lambda: self._script(keys=[self._key(key)],
                                                     args=self._args(False)))
        return self.local.ready(key) if answer is None else bool(answer)

    async def allow_async(self, key: str) -> bool:
        async def take() -> Any:
            script = self.link.async_script(BUCKET)
            return await script(keys=[self._key(key)], args=self._args(True))

        answer = await self.link.call_async(take)
        return self.local.allow(key) if answer is None else bool(answer)


class SharedSlots(SocketSlots):
    """Things (WebSockets) held at once per key, counted in Redis by instance; held
    here in memory while Redis does not answer. A release Redis could not take is
    owed, and paid by ``settle`` (every few seconds)."""

    def __init__(self, link: Link, name: str, limit: int, instance: str) -> None:
        self.link = link
        self.name = name
        self.limit = limit
        self.instance = instance
        self._local: Counter[str] = Counter()
        self._owed: Counter[str] = Counter()

    def _key(self, key: str) -> str:
        return f"{PREFIX}{self.name}:{key}"

    async def acquire(self, key: str) -> bool:
        async def take() -> Any:
            return await self.link.async_script(SLOT_ACQUIRE)(keys=[self._key(key)], args=[
                self.instance, str(self.limit), PREFIX + "alive:", str(SLOT_KEY_SECONDS),
                str(ALIVE_SECONDS)])

        answer = await self.link.call_async(take)
        if answer is not None:
            return bool(answer)
        if self._local[key] >= self.limit:
            return False
        self._local[key] += 1
        return True

    async def release(self, key: str) -> None:
        if self._local[key] > 0:
            self._local[key] -= 1
            if not self._local[key]:
                del self._local[key]
            return
        if await self._give_back(key) is None:
            self._owed[key] += 1

    async def _give_back(self, key: str) -> Any:
        async def give() -> Any:
            return await self.link.async_script(SLOT_RELEASE)(keys=[self._key(key)],
                                                              args=[self.instance])

        return await self.link.call_async(give)

    async def settle(self) -> None:
        """Pay the releases Redis could not take when they were made."""
        for key, count in list(self._owed.items()):
            for _ in range(count):
                if await self._give_back(key) is None:
                    return
                self._owed[key] -= 1
            del self._owed[key]


class SharedTableSlots(TableCaps):
    """``TableCaps`` in Redis (see the module's docstring); this process's own
    ``TableSlots`` while Redis does not answer."""

    def __init__(self, link: Link, name: str, limit: int) -> None:
        self.link = link
        self.name = name
        self.limit = limit
        self.local = TableSlots(limit)
        self._reserve = link.script(TABLE_RESERVE)
        self._bind = link.script(TABLE_BIND)

    def reserve(self, key: str, alive: Callable[[str], bool]) -> Reservation | None:
        name = f"{PREFIX}{self.name}:{key}"
        held = self.link.call(lambda: self.link.sync.hkeys(name))
        if held is None:
            return self.local.reserve(key, alive)
        tables = [t.decode() for t in held if not t.startswith(b"p:")]
        gone = [t for t in tables if not alive(t)]
        nonce = "p:" + secrets.token_hex(8)
        answer = self.link.call(lambda: self._reserve(keys=[name], args=[
            str(self.limit), nonce, str(PENDING_SECONDS), str(SLOT_KEY_SECONDS), *gone]))
        if answer is None:
            return self.local.reserve(key, alive)
        return SharedReservation(self, name, nonce) if answer else None


class SharedReservation(Reservation):
    def __init__(self, owner: SharedTableSlots, name: str, nonce: str) -> None:
        self._owner = owner
        self._name = name
        self._nonce = nonce
        self._open = True

    def bind(self, table_id: str) -> None:
        if self._open:
            self._open = False
            owner = self._owner
            owner.link.call(lambda: owner._bind(keys=[self._name], args=[
                self._nonce, table_id, str(SLOT_KEY_SECONDS)]))

    def release(self) -> None:
        if self._open:
            self._open = False
            owner = self._owner
            owner.link.call(lambda: owner.link.sync.hdel(self._name, self._nonce))


class SharedCounters(Counters):
    """Counters in the Redis at ``url``, for the instance named ``instance``."""

    def __init__(self, url: str, instance: str) -> None:
        self.link = Link(url)
        self.instance = instance
        self._slots: list[SharedSlots] = []

    def limiter(self, name: str, rate: float, burst: float) -> Allowance:
        return SharedLimiter(self.link, name, rate, burst)

    def slots(self, name: str, limit: int) -> SocketSlots:
        slots = SharedSlots(self.link, name, limit, self.instance)
        self._slots.append(slots)
        return slots

    def table_caps(self, name: str, limit: int) -> TableCaps:
        return SharedTableSlots(self.link, name, limit)

    def tasks(self, loop: asyncio.AbstractEventLoop) -> list[asyncio.Task[None]]:
        return [loop.create_task(self._heartbeat())]

    async def _heartbeat(self) -> None:
        """Keep this instance's ``alive`` key, and pay owed releases."""
        alive = f"{PREFIX}alive:{self.instance}"
        while True:
            await self.link.call_async(
                lambda: self.link.async_client().set(alive, "1", ex=ALIVE_SECONDS))
            for slots in self._slots:
                await slots.settle()
            await asyncio.sleep(ALIVE_SECONDS / 3)

    def close(self) -> None:
        self.link.close()
