"""Which day it is for the daily deal (UTC), and when that day ends.

``DailyClock(path)`` reads "now" from a file when one is given: for tests only
(``fourfold serve --test-clock FILE``), so that a test moves to the next day by
writing a number instead of sleeping. The file holds a Unix time; while it is missing
or empty the real time is used.
"""

from __future__ import annotations

import datetime as dt
import re
import time
from pathlib import Path

from fourfold.core.errors import ConfigurationError

DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class DailyClock:
    """Now, today's date and the end of a day, in UTC."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path

    def now(self) -> float:
        if self.path is not None:
            try:
                text = self.path.read_text(encoding="utf-8").strip()
            except FileNotFoundError:
                text = ""
            if text:
                return float(text)
        return time.time()

    def today(self) -> str:
        return day_of(self.now())

    def ended(self, day: str) -> bool:
        """Whether ``day`` is over (its results may be shown)."""
        return self.now() >= day_end(day)


def day_of(moment: float) -> str:
    """The UTC date of a Unix time, ``YYYY-MM-DD``."""
    return dt.datetime.fromtimestamp(moment, dt.UTC).date().isoformat()


def parse_day(text: str) -> dt.date:
    """``YYYY-MM-DD``, or a one-line ``ConfigurationError`` saying what is wrong."""
    if not DAY.match(text):
        raise ConfigurationError(f"{text[:20]!r} is not a day: write YYYY-MM-DD")
    try:
        return dt.date.fromisoformat(text)
    except ValueError as error:
        raise ConfigurationError(f"{text!r} is not a day: {error}") from None


def day_end(day: str) -> float:
    """The Unix time at which ``day`` ends (midnight UTC after it)."""
    start = dt.datetime.combine(parse_day(day), dt.time(), dt.UTC)
    return (start + dt.timedelta(days=1)).timestamp()
