"""Chromium and a server for the page benchmarks (bench_page_load.py, bench_page_events.py):
one way to start them and to open a page, so that both measure the same thing.

Debian's Chromium (``/usr/bin/chromium``, headless, through Playwright; never a
downloaded browser), a laptop's window (1280x860), and a fresh ``fourfold serve`` on
loopback (``local_server.py``) whose rate limits a benchmark's own traffic would meet.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from local_server import local_server

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"]
LAPTOP = {"width": 1280, "height": 860}
#: every wait on a page, in milliseconds
TIMEOUT_MS = 15_000
#: the limits a benchmark's traffic from one address would meet, out of the way
LIMITS = ["--rate", "5000", "--address-rate", "50000"]


def need_chromium() -> None:
    """Stop with one line when Chromium is not installed."""
    if not Path(CHROMIUM).exists():
        raise SystemExit(f"{CHROMIUM} is missing (apt-get install -y chromium)")


@contextlib.contextmanager
def bench_server(extra: Sequence[str] = ()) -> Iterator[str]:
    """A ``fourfold serve`` on a free loopback port (``LIMITS`` and ``extra`` flags):
    yields its URL."""
    with local_server([*LIMITS, *extra]) as (url, _pid):
        yield url


@contextlib.contextmanager
def chromium() -> Iterator[Any]:
    """A headless Chromium, closed on the way out."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


@contextlib.contextmanager
def laptop_page(browser: Any, instrument: str) -> Iterator[Any]:
    """A page in a new context (an empty cache, as a first visit) at laptop size, with
    ``instrument`` run before the page's own scripts; closed on the way out."""
    context = browser.new_context(viewport=LAPTOP)
    context.set_default_timeout(TIMEOUT_MS)
    context.add_init_script(instrument)
    try:
        yield context.new_page()
    finally:
        context.close()
