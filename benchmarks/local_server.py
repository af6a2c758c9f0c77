"""A throwaway ``fourfold serve`` on a free loopback port, for the benchmarks that need
one (its own temporary SQLite data directory; stopped, and its log checked for
tracebacks, on the way out)."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

START_SECONDS = 60.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def local_server(args: list[str]) -> Iterator[tuple[str, int]]:
    """``fourfold serve ARGS`` on a free loopback port: yields (url, process id)."""
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="fourfold-bench-") as data:
        log = Path(data) / "server.log"
        with log.open("w") as handle:
            process = subprocess.Popen(
                [sys.executable, "-c", "from fourfold.cli.main import main; raise"
                 " SystemExit(main())", "serve", "--port", str(port), "--data", data,
                 *args], stdout=handle, stderr=subprocess.STDOUT,
                env={**os.environ, "PYTHONUNBUFFERED": "1"})
            url = f"http://127.0.0.1:{port}"
            try:
                deadline = time.monotonic() + START_SECONDS
                while True:
                    if process.poll() is not None:
                        raise SystemExit(f"the server exited: {log.read_text()[-2000:]}")
                    with contextlib.suppress(httpx.HTTPError):
                        if httpx.get(url + "/api/health", timeout=1).status_code == 200:
                            break
                    if time.monotonic() > deadline:
                        raise SystemExit(f"the server did not start: {log.read_text()[-2000:]}")
                    time.sleep(0.1)
                yield url, process.pid
            finally:
                process.terminate()
                try:
                    process.wait(15)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(15)
                tracebacks = log.read_text().count("Traceback")
                if tracebacks:
                    print(f"warning: {tracebacks} traceback(s) in the server log",
                          file=sys.stderr)
