"""Seat tokens: unguessable, shown once, stored only as a hash.

A token is 32 random bytes (``secrets.token_urlsafe``). The database keeps its
SHA-256, so a leaked database does not let anyone act for a seat. With a test seed
(``Settings.id_seed``) ids and tokens come from a seeded generator instead, so two
servers started alike hand out the same ones (the leak test compares their output
byte for byte); that is for tests only.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
import string
import threading

ALPHABET = string.ascii_letters + string.digits


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def same_token(a: str, b: str) -> bool:
    return hmac.compare_digest(a, b)


class Minter:
    """Makes table ids (12 characters) and seat tokens (43 characters)."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = None if seed is None else random.Random(seed)
        self._lock = threading.Lock()

    def table_id(self) -> str:
        if self._rng is None:
            return "".join(secrets.choice(ALPHABET) for _ in range(12))
        with self._lock:
            return "".join(self._rng.choice(ALPHABET) for _ in range(12))

    def token(self) -> str:
        if self._rng is None:
            return secrets.token_urlsafe(32)
        with self._lock:
            return "".join(self._rng.choice(ALPHABET) for _ in range(43))

    def seed(self) -> int:
        if self._rng is None:
            return secrets.randbelow(2**31)
        with self._lock:
            return self._rng.randrange(2**31)
