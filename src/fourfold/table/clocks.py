"""Time for tables: real time supplied from outside, and the players' clocks.

A table never reads the time by itself: it is given a ``TimeSource`` (a callable
returning monotonic seconds). ``MonotonicClock`` is the real one; ``ManualClock`` is
moved by hand, so tests run whole timed games without sleeping.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Protocol

from fourfold.core.errors import FourfoldError


class TimeSource(Protocol):
    def __call__(self) -> float:
        """Seconds on a monotonic clock."""
        ...


class MonotonicClock:
    """The real clock."""

    def __call__(self) -> float:
        return time.monotonic()


class ManualClock:
    """A clock that moves only when told to (``advance``), for tests and simulations."""

    def __init__(self, start: float = 0.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        if seconds < 0:
            raise FourfoldError("a clock does not run backwards")
        self.now += seconds
        return self.now


@dataclass(frozen=True)
class ClockSettings:
    """A two-player game's clock per player: ``base`` seconds, plus ``increment`` seconds
    added after each of that player's moves (Fischer)."""

    base: float
    increment: float = 0.0

    def __post_init__(self) -> None:
        _check(self.base, self.increment, f"{self.base:g} s", f"{self.increment:g} s")

    @classmethod
    def parse(cls, text: str) -> ClockSettings:
        """``5+3``: 5 minutes plus 3 seconds a move; ``90s+0``: 90 seconds, no increment.
        A value out of range is refused as it was typed (``-5`` is "-5 min")."""
        base_text, _, inc_text = text.strip().partition("+")
        base_text, inc_text = base_text.strip(), inc_text.strip()
        try:
            if base_text.endswith("s"):
                base, typed = float(base_text[:-1]), f"{base_text[:-1].strip()} s"
            else:
                minutes = base_text.removesuffix("m").strip()
                base, typed = float(minutes) * 60, f"{minutes} min"
            increment = float(inc_text or 0)
        except ValueError:
            raise FourfoldError(
                f"cannot read clock {text!r}: write MINUTES+SECONDS (e.g. 5+3) or SECONDSs+SECONDS"
                " (e.g. 90s+2)"
            ) from None
        _check(base, increment, typed[:30], f"{(inc_text or '0')[:30]} s")
        return cls(base, increment)

    def describe(self) -> str:
        base = f"{self.base / 60:g} min" if self.base >= 60 else f"{self.base:g} s"
        return f"{base} + {self.increment:g} s a move"


def _check(base: float, increment: float, base_typed: str, increment_typed: str) -> None:
    """Refuse a base outside 1 s to 24 h or an increment outside 0 s to 1 h (NaN
    included), naming the value as it was given."""
    if not 1 <= base <= 24 * 3600:
        raise FourfoldError(f"a clock's base time is 1 s to 24 h, not {base_typed}")
    if not 0 <= increment <= 3600:
        raise FourfoldError(f"a clock's increment is 0 s to 1 h, not {increment_typed}")
