"""One ``fourfold serve`` per SQLite database: a second one on the same data folder (or
the same file given as ``--database sqlite:///...``) is refused in one line, exit 2,
naming the first one's process. Before, both resumed the same tables, refused each
other's moves ("changed elsewhere", 503) and both ran their bots. The lock goes with
the process, ``kill -9`` included."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

from support.server import Server, running


def _second(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from fourfold.cli.main import main; raise SystemExit(main())",
         "serve", "--port", "0", "--no-warm-up", *args],
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)


def test_a_second_server_on_one_sqlite_database_is_refused(tmp_path: Path) -> None:
    with running(tmp_path) as first:
        assert first.process is not None
        pid = first.process.pid
        database = tmp_path / "fourfold.sqlite3"
        for args in (("--data", str(tmp_path)), ("--database", f"sqlite:///{database}")):
            done = _second(*args)
            assert done.returncode == 2, done.stdout + done.stderr
            assert done.stderr.strip() == (
                f"fourfold serve: another fourfold serve (pid {pid}) is using the database"
                f" {database.resolve()}: stop it, or give this one a --data folder of its own"
                " (several servers share one database as PostgreSQL with --broker:"
                " docs/deploy.md)")
            assert "Traceback" not in done.stderr and done.stdout == ""
        assert first.client().http.get("/api/health").json() == {"ok": True}


def test_the_database_is_free_again_once_its_server_is_gone(tmp_path: Path) -> None:
    server = Server(tmp_path).start()
    try:
        assert server.process is not None
        server.process.send_signal(signal.SIGKILL)
        server.process.wait(10)
        server.process = None
        server.start()  # the same folder, at once
        assert server.client().http.get("/api/health").json() == {"ok": True}
    finally:
        server.stop()
