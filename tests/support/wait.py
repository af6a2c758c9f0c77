"""Waiting on a condition with a deadline: how tests synchronise with servers, workers
and browsers, never with a sleep that hopes the thing has happened."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def wait_until(predicate: Callable[[], Any], seconds: float = 15.0, what: str = "a condition",
               every: float = 0.02) -> Any:
    """Poll ``predicate`` until it returns something truthy (returned), for at most
    ``seconds``; past the deadline, an AssertionError names ``what`` was awaited and the
    last value seen."""
    deadline = time.monotonic() + seconds
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"waited {seconds}s in vain for {what} (last: {value!r})")
        time.sleep(min(every, max(0.0, deadline - time.monotonic())))
