"""Helpers for the browser-app tests (no tests here): a real ``fourfold serve`` on
loopback with the browser app installed, pages that fail on console errors, and small
waits. Every wait is bounded."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from server_support import end_process, free_port

ARGS = ["--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
#: The screenshots go to a temporary folder: tests never write into the checkout.
#: ``scripts/refresh_screenshots.py`` sets this variable to docs/screenshots/app to
#: refresh the pictures of the docs on purpose.
SHOTS_ENV = "FOURFOLD_SCREENSHOTS"


def shots_folder(tmp_path_factory: Any) -> Path:
    """Where ``shoot`` writes: ``$FOURFOLD_SCREENSHOTS`` when set, else a fresh temporary
    folder of this test run."""
    named = os.environ.get(SHOTS_ENV, "").strip()
    folder: Path = Path(named) if named else tmp_path_factory.mktemp("screenshots")
    return folder


@dataclass
class AppServer:
    data: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[str] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> AppServer:
        log = (self.data / "server.log").open("w")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "fourfold.cli.main", "serve", "--port", str(self.port),
             "--data",
             str(self.data), "--bot-pace", "0.05", "--rate", "5000",
             "--max-bot-tables-per-address", "100000", "--analysis-seconds", "0.3"],
            stdout=log, stderr=subprocess.STDOUT, text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"})
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError((self.data / "server.log").read_text())
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.url + "/ui/app.js", timeout=1).status_code == 200:
                    return self
            time.sleep(0.1)
        self.stop()
        raise RuntimeError("the server did not start: " + (self.data / "server.log").read_text())

    def stop(self) -> None:
        if self.process is not None:
            end_process(self.process)
        self.process = None

    def create(self, game: str, seats: list[str], variant: str | None = None,
               **extra: Any) -> dict[str, Any]:
        body: dict[str, Any] = {"game": game, "seats": seats, **extra}
        if variant:
            body["variant"] = variant
        r = httpx.post(self.url + "/api/tables", json=body, timeout=30)
        assert r.status_code == 201, r.text
        made: dict[str, Any] = r.json()
        return made

    def state(self, table_id: str, token: str | None = None) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        r = httpx.get(f"{self.url}/api/tables/{table_id}", headers=headers, timeout=30)
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        return data


class Watched:
    """A page whose console errors, page errors and failed requests are collected."""

    def __init__(self, context: Any) -> None:
        self.page = context.new_page()
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(f"console: {m.text}")
                     if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        self.page.on("requestfailed", lambda r: self.errors.append(
            f"failed: {r.url} {r.failure}") if "/live" not in r.url
            and "ERR_ABORTED" not in (r.failure or "") else None)
        self.page.on("request", lambda r: self.errors.append(f"external: {r.url}")
                     if not r.url.startswith(("http://127.0.0.1", "ws://127.0.0.1", "data:",
                                              "blob:", "about:")) else None)

    def clean(self) -> None:
        assert not self.errors, self.errors


def wait_until(test: Any, seconds: float = 15.0, what: str = "a condition") -> Any:
    deadline = time.monotonic() + seconds
    while True:
        value = test()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {seconds}s for {what}")
        time.sleep(0.05)
