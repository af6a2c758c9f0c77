"""Rate limits and caps: token buckets by key, and counted slots by client address.

Every request costs its client address's bucket; a request with a seat's token also
costs that token's bucket, but only once the token has been seen to hold a seat
(``admit``). A random token therefore never gets a fresh bucket of its own: it is
charged to its address like any other request, so neither minting tokens nor making
them up buys more than the address's allowance.

Three interfaces, each with two implementations: ``Allowance`` (token buckets:
``Limiter`` here, ``SharedLimiter``), ``SocketSlots`` (things held at once:
``LocalSlots`` here, ``SharedSlots``) and ``TableCaps`` (tables held: ``TableSlots`` here,
``SharedTableSlots``). The shared ones (server/shared_limits.py) keep their counts in
Redis, so that several instances behind a balancer give a client one allowance, not
one each. ``counters_for(settings)`` picks the set, once, when the app is made.
"""

from __future__ import annotations

import asyncio
import ipaddress
import threading
import time
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fourfold.server.settings import Settings

#: new puzzle solvers (ids never seen) whose tries are rated, an hour per address
NEW_SOLVERS_PER_HOUR = 20


class Bucket:
    """``rate`` actions a second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.level = burst
        self.stamp = time.monotonic()

    def take(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        self.level = min(self.burst, self.level + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.level < 1.0:
            return False
        self.level -= 1.0
        return True


class Allowance(ABC):
    """Token buckets by key: ``rate`` actions a second on average, ``burst`` at once;
    a key never seen has a full bucket."""

    rate: float
    burst: float

    @abstractmethod
    def allow(self, key: str) -> bool:
        """Take one from ``key``'s bucket; ``False`` (nothing taken) when it is empty."""

    @abstractmethod
    def ready(self, key: str) -> bool:
        """Would ``allow`` say yes now? (Takes nothing: a check before costly work.)"""

    async def allow_async(self, key: str) -> bool:
        """``allow`` from the event loop (a shared one does not block it)."""
        return self.allow(key)


class Limiter(Allowance):
    """Buckets by key in this process, the least recently used forgotten past
    ``max_keys``."""

    def __init__(self, rate: float, burst: float, max_keys: int = 100_000) -> None:
        self.rate = rate
        self.burst = burst
        self.max_keys = max_keys
        self._buckets: OrderedDict[str, Bucket] = OrderedDict()
        self._lock = threading.Lock()

    def allow(self, key: str) -> bool:
        """Take one from ``key``'s bucket (made full on first use)."""
        with self._lock:
            return self._bucket(key).take()

    def ready(self, key: str) -> bool:
        """Would ``allow`` say yes now? (Takes nothing: a check before costly work.)"""
        with self._lock:
            bucket = self._buckets.get(key)
            if bucket is None:
                return self.burst >= 1.0
            now = time.monotonic()
            return min(self.burst, bucket.level + (now - bucket.stamp) * self.rate) >= 1.0

    def _bucket(self, key: str) -> Bucket:
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = Bucket(self.rate, self.burst)
            while len(self._buckets) > self.max_keys:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
        return bucket


@lru_cache(maxsize=4096)
def address_key(host: str | None) -> str:
    """The key of a client address: IPv4 as it is, IPv6 by its /64 (the block one
    subscriber usually holds, so that walking through it buys nothing).

    An IPv6 address that carries an IPv4 one counts as that IPv4 address: IPv4-mapped
    (``::ffff:a.b.c.d``), 6to4 (``2002:aabb:ccdd::/48``: its holder has 65,536 /64s)
    and Teredo (``2001:0::/32``: by the client's own address, not its relay's)."""
    if not host:
        return "a:?"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return "a:" + host[:64]
    if isinstance(address, ipaddress.IPv6Address):
        carried = address.ipv4_mapped or address.sixtofour or (
            address.teredo[1] if address.teredo else None)
        if carried is not None:
            return f"a:{carried}"
        network = ipaddress.ip_network(f"{address}/64", strict=False)
        return f"a:{network.network_address}/64"
    return f"a:{address}"


class Limits:
    """The server's request limits: one bucket per client address for every request,
    and one per seat token that has held a seat.

    Which tokens have held a seat is remembered here, in this process (the least
    recently seen forgotten past ``max_tokens``): a token's first request on an
    instance that has not yet seen it hold a seat costs only its address there, as a
    made-up token's does. The buckets themselves are the ``Allowance`` given (shared
    between instances, or this process's own)."""

    def __init__(self, tokens: Allowance, addresses: Allowance,
                 max_tokens: int = 100_000) -> None:
        self.tokens = tokens
        self.addresses = addresses
        self.max_tokens = max_tokens
        self._known: OrderedDict[str, None] = OrderedDict()
        self._lock = threading.Lock()

    async def allow_async(self, host: str | None, token_digest: str | None) -> bool:
        """One message from ``host`` (with a token's hash, or ``None``), on the loop."""
        if not await self.addresses.allow_async(address_key(host)):
            return False
        if not self._is_known(token_digest):
            return True
        return await self.tokens.allow_async("t:" + str(token_digest))

    def allow_token(self, token_digest: str | None) -> bool:
        """A request with a token's hash (``None``: none), its address already charged
        (``AddressCharge``, server/middleware.py): the token's bucket, if it has one."""
        if not self._is_known(token_digest):
            return True
        return self.tokens.allow("t:" + str(token_digest))

    def admit(self, token_digest: str) -> None:
        """The token was seen to hold a seat: from now on it has its own bucket."""
        with self._lock:
            self._known[token_digest] = None
            self._known.move_to_end(token_digest)
            while len(self._known) > self.max_tokens:
                self._known.popitem(last=False)

    def _is_known(self, token_digest: str | None) -> bool:
        if token_digest is None:
            return False
        with self._lock:
            return token_digest in self._known


class SocketSlots(ABC):
    """At most ``limit`` things (WebSockets) held at once per key."""

    limit: int

    @abstractmethod
    async def acquire(self, key: str) -> bool:
        """Hold one more for ``key``; ``False`` (nothing held) when it holds ``limit``."""

    @abstractmethod
    async def release(self, key: str) -> None:
        """Give back one that ``acquire`` gave."""


class Slots:
    """At most ``limit`` things at once per key, in this process; thread-safe and
    synchronous (the TCP connections of one process, server/http_protocol.py)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._held: dict[str, int] = {}
        self._lock = threading.Lock()

    def acquire(self, key: str) -> bool:
        with self._lock:
            held = self._held.get(key, 0)
            if held >= self.limit:
                return False
            self._held[key] = held + 1
            return True

    def release(self, key: str) -> None:
        with self._lock:
            held = self._held.get(key, 0) - 1
            if held > 0:
                self._held[key] = held
            else:
                self._held.pop(key, None)

    def held(self, key: str) -> int:
        with self._lock:
            return self._held.get(key, 0)


class LocalSlots(SocketSlots):
    """``SocketSlots`` in this process (``Slots`` behind the async interface)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.slots = Slots(limit)

    async def acquire(self, key: str) -> bool:
        return self.slots.acquire(key)

    async def release(self, key: str) -> None:
        self.slots.release(key)


class Reservation(ABC):
    """One reserved table slot: ``bind`` it to the table made, or ``release`` it."""

    @abstractmethod
    def bind(self, table_id: str) -> None: ...

    @abstractmethod
    def release(self) -> None: ...


class TableCaps(ABC):
    """At most ``limit`` tables of one kind at once per client address (unfinished
    games with a bot; unfinished games of people; tables waiting in the lobby).

    A table costs the server memory and work until it ends, and a table in the lobby
    costs everyone a row: without a cap, one address could make them as fast as its
    request allowance lets it. ``reserve`` holds a slot before the table is made (so
    that two requests at once cannot both take the last one); the slot is free again
    once ``alive`` says its table no longer counts (it has ended, or whatever the
    kind's rule is)."""

    limit: int

    @abstractmethod
    def reserve(self, key: str, alive: Callable[[str], bool]) -> Reservation | None:
        """A slot for a new table of ``key``'s, or ``None`` when it holds ``limit``."""


class TableSlots(TableCaps):
    """``TableCaps`` in this process."""

    def __init__(self, limit: int, max_keys: int = 100_000) -> None:
        self.limit = limit
        self.max_keys = max_keys
        self._tables: OrderedDict[str, list[str | None]] = OrderedDict()
        self._lock = threading.Lock()

    def reserve(self, key: str, alive: Callable[[str], bool]) -> TableSlot | None:
        with self._lock:
            held = [t for t in self._tables.get(key, []) if t is None or alive(t)]
            if len(held) >= self.limit:
                self._tables[key] = held
                return None
            slot = TableSlot(self, key)
            held.append(None)
            self._tables[key] = held
            self._tables.move_to_end(key)
            while len(self._tables) > self.max_keys:
                self._tables.popitem(last=False)
            return slot

    def _settle(self, key: str, table_id: str | None) -> None:
        with self._lock:
            held = self._tables.get(key)
            if held is None or None not in held:
                return
            held.remove(None)
            if table_id is not None:
                held.append(table_id)


class TableSlot(Reservation):
    """One slot of a ``TableSlots``."""

    def __init__(self, owner: TableSlots, key: str) -> None:
        self._owner = owner
        self._key = key
        self._open = True

    def bind(self, table_id: str) -> None:
        if self._open:
            self._open = False
            self._owner._settle(self._key, table_id)

    def release(self) -> None:
        if self._open:
            self._open = False
            self._owner._settle(self._key, None)


class Counters:
    """Where a server keeps its per-address counts: this process (one instance), or
    Redis (``SharedCounters``, several instances: ``--broker``). Every limit is made
    here, so that no other code asks which."""

    def limiter(self, name: str, rate: float, burst: float) -> Allowance:
        """Token buckets called ``name`` (a part of their keys when shared)."""
        return Limiter(rate, burst)

    def slots(self, name: str, limit: int) -> SocketSlots:
        return LocalSlots(limit)

    def table_caps(self, name: str, limit: int) -> TableCaps:
        return TableSlots(limit)

    def tasks(self, loop: asyncio.AbstractEventLoop) -> list[asyncio.Task[None]]:
        """Background work for the app's lifespan (none here)."""
        return []

    def close(self) -> None:
        """Let go of connections (none here)."""


def counters_for(settings: Settings, instance: str) -> Counters:
    """This process's counters alone; with ``--broker``, counters shared in Redis."""
    if not settings.broker:
        return Counters()
    from fourfold.server.shared_limits import SharedCounters

    return SharedCounters(settings.broker, instance)


class Tarpit:
    """Hold a refusal (429, or 503 from a full job pool) for ``seconds`` before it is
    sent, up to ``per_key`` held at once per client address (past that, at once).

    A client that ignores ``Retry-After`` and asks again the moment it is refused
    would otherwise cost the server a request's work as fast as the loopback allows;
    held, each of its connections asks at most once per ``seconds``. Waiting is a
    timer on the event loop: it costs no thread and no CPU.
    """

    def __init__(self, seconds: float, per_key: int = 8) -> None:
        self.seconds = seconds
        self.held = Slots(per_key)

    async def hold(self, key: str) -> None:
        if self.seconds <= 0 or not self.held.acquire(key):
            return
        try:
            await asyncio.sleep(self.seconds)
        finally:
            self.held.release(key)
