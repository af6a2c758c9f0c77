"""Run a coroutine to its end from a test, whatever the test's thread already runs.

A worker that ran a Playwright test before holds a running event loop in its main
thread (the sync API's), where ``asyncio.run`` refuses to start another. The coroutine
runs in a thread of its own, with its own loop, and its result or error comes back.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def run_async(coroutine: Coroutine[Any, Any, T]) -> T:
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="test-loop") as pool:
        return pool.submit(asyncio.run, coroutine).result()
