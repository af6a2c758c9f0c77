"""A headless Chromium for real-browser tests (Playwright's sync API, Debian's chromium).

The ``browser`` fixture is registered once for the whole run in ``conftest.py``, so
every module shares one Playwright and one Chromium (two sync Playwrights cannot live in
one process). If ``/usr/bin/chromium`` is missing and we are root on Debian, the
fixture installs it with apt-get; if it is still missing, the test fails loudly on
CI (``CI=true``) and is skipped loudly elsewhere. Never runs ``playwright install``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from support.server import apt_lock

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


def _on_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() == "true"


def _missing(reason: str) -> None:
    if _on_ci():
        pytest.fail(f"REAL-BROWSER TESTS CANNOT RUN ON CI: {reason}", pytrace=False)
    pytest.skip(f"REAL-BROWSER TESTS SKIPPED: {reason}")


def ensure_chromium() -> str:
    """The path of Chromium, installing it from Debian when we are root there."""
    if not Path(CHROMIUM).exists() and os.geteuid() == 0 and Path("/etc/debian_version").exists() \
            and shutil.which("apt-get"):
        with apt_lock():  # one install at a time across parallel workers
            if not Path(CHROMIUM).exists():  # another worker may have installed it meanwhile
                env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
                wait = ["-o", "DPkg::Lock::Timeout=300"]
                subprocess.run(["apt-get", *wait, "update"], check=False, env=env,
                               capture_output=True)
                subprocess.run(["apt-get", "install", "-y", *wait, "chromium",
                                "chromium-driver"], check=False, env=env, capture_output=True)
    if not Path(CHROMIUM).exists():
        _missing(f"{CHROMIUM} is missing (apt-get install -y chromium chromium-driver)")
    return CHROMIUM


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """A launched Playwright Chromium browser, shared by the session."""
    path = ensure_chromium()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("the playwright package is not installed (pip install playwright==1.65.2)")
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=path, args=ARGS)
        try:
            yield launched
        finally:
            launched.close()
