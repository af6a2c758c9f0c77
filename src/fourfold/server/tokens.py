"""Seat tokens, table ids and the tables' random streams: unguessable, and independent.

A token is 32 random bytes (``secrets.token_urlsafe``). The database keeps its
SHA-256, so a leaked database does not let anyone act for a seat.

Every use of randomness has its own stream, so that nothing observable tells anything
about anything else: table ids, seat tokens, the bots' choices (``bot_seed``) and the
bots' visible pauses (``pause_seed``). A deal (``deal_seed``) always comes from
``secrets``: no seed that drives something a seat or spectator can observe ever
drives a deal, in play or in tests.

With a test seed (``Settings.id_seed``) ids, tokens, bot and pause seeds come from
seeded generators instead (one per use, each derived from the test seed and the
use's name), so two servers started alike hand out the same ones (the leak test
compares their output byte for byte); that is for tests only. Deals stay secret even
then.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
import string
import threading

ALPHABET = string.ascii_letters + string.digits
#: stream seeds fit the database's 32-bit integer columns
SEED_LIMIT = 2**31
STREAMS = ("ids", "tokens", "bots", "pauses")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def same_token(a: str, b: str) -> bool:
    return hmac.compare_digest(a, b)


def deal_seed() -> int:
    """A deal's seed: 128 bits from ``secrets``, never from a seeded stream."""
    return secrets.randbits(128)


class Minter:
    """Makes table ids (12 characters), seat tokens (43 characters) and the seeds of
    each table's bot and pause streams."""

    def __init__(self, seed: int | None = None) -> None:
        self._streams: dict[str, random.Random] | None = None if seed is None else {
            name: random.Random(hashlib.sha256(f"{seed}:{name}".encode()).digest())
            for name in STREAMS}
        self._lock = threading.Lock()

    def _test_stream(self, name: str) -> random.Random | None:
        return None if self._streams is None else self._streams[name]

    def table_id(self) -> str:
        rng = self._test_stream("ids")
        if rng is None:
            return "".join(secrets.choice(ALPHABET) for _ in range(12))
        with self._lock:
            return "".join(rng.choice(ALPHABET) for _ in range(12))

    def token(self) -> str:
        rng = self._test_stream("tokens")
        if rng is None:
            return secrets.token_urlsafe(32)
        with self._lock:
            return "".join(rng.choice(ALPHABET) for _ in range(43))

    def _seed(self, name: str) -> int:
        rng = self._test_stream(name)
        if rng is None:
            return secrets.randbelow(SEED_LIMIT)
        with self._lock:
            return rng.randrange(SEED_LIMIT)

    def bot_seed(self) -> int:
        """The seed of a table's bots' choices (and of hints at that table)."""
        return self._seed("bots")

    def pause_seed(self) -> int:
        """The seed of a table's bots' visible pauses."""
        return self._seed("pauses")
