"""Rate limits and caps: token buckets by key, and counted slots by client address.

Every request costs its client address's bucket; a request with a seat's token also
costs that token's bucket, but only once the token has been seen to hold a seat
(``admit``). A random token therefore never gets a fresh bucket of its own: it is
charged to its address like any other request, so neither minting tokens nor making
them up buys more than the address's allowance.
"""

from __future__ import annotations

import asyncio
import ipaddress
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from functools import lru_cache

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


class Limiter:
    """Buckets by key, the least recently used forgotten past ``max_keys``."""

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

    def take_known(self, key: str) -> bool | None:
        """Take one from ``key``'s bucket if it has one; ``None`` if it has none (no
        bucket is made)."""
        with self._lock:
            bucket = self._buckets.get(key)
            if bucket is None:
                return None
            self._buckets.move_to_end(key)
            return bucket.take()

    def admit(self, key: str) -> None:
        """Give ``key`` a bucket of its own from now on (a token that holds a seat)."""
        with self._lock:
            self._bucket(key)

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
    and one per seat token that has held a seat."""

    def __init__(self, token_rate: float, token_burst: float, address_rate: float,
                 address_burst: float) -> None:
        self.tokens = Limiter(token_rate, token_burst)
        self.addresses = Limiter(address_rate, address_burst)

    def allow(self, host: str | None, token_digest: str | None) -> bool:
        """One message from ``host`` (with a token's hash, or ``None``)."""
        if not self.addresses.allow(address_key(host)):
            return False
        return self.allow_token(token_digest)

    def allow_token(self, token_digest: str | None) -> bool:
        """A request with a token's hash (``None``: none), its address already charged
        (``AddressCharge``, server/middleware.py): the token's bucket, if it has one."""
        if token_digest is None:
            return True
        return self.tokens.take_known("t:" + token_digest) is not False

    def admit(self, token_digest: str) -> None:
        """The token was seen to hold a seat: from now on it has its own bucket."""
        self.tokens.admit("t:" + token_digest)


class Slots:
    """At most ``limit`` things (WebSockets) at once per key; thread-safe."""

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


class TableSlots:
    """At most ``limit`` tables of one kind at once per client address (unfinished
    games with a bot; unfinished games of people; tables waiting in the lobby).

    A table costs the server memory and work until it ends, and a table in the lobby
    costs everyone a row: without a cap, one address could make them as fast as its
    request allowance lets it. ``reserve`` holds a slot before the table is made (so
    that two requests at once cannot both take the last one); the slot is free again
    once ``alive`` says its table no longer counts (it has ended, or left this
    instance, or whatever the kind's rule is).
    """

    def __init__(self, limit: int, max_keys: int = 100_000) -> None:
        self.limit = limit
        self.max_keys = max_keys
        self._tables: OrderedDict[str, list[str | None]] = OrderedDict()
        self._lock = threading.Lock()

    def reserve(self, key: str, alive: Callable[[str], bool]) -> TableSlot | None:
        """A slot for a new table of ``key``'s, or ``None`` when it holds ``limit``."""
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


class TableSlot:
    """One reserved slot: ``bind`` it to the table made, or ``release`` it."""

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
