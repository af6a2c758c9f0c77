"""The server loads its hint kernels in the background at start (issue 31: the first hint
took 9-11 s): the warm-up runs in the job pool's worker process, requests are answered
meanwhile, and ``GET /api/warm-up`` says when it is done. How fast the first hint is
afterwards is measured by benchmarks/bench_first_hint.py, not here."""

from __future__ import annotations

import contextlib
import os
import signal
from pathlib import Path

import httpx

import fourfold
from support.server import Server, running
from support.wait import wait_until


def playable() -> set[str]:
    return {fourfold.load(name, v.name).info.label() for name in fourfold.game_names()
            for v in fourfold.get_spec(name).variants if v.unavailable is None}


def test_the_warm_up_runs_at_start_and_requests_are_answered_meanwhile(tmp_path: Path) -> None:
    with running(tmp_path, extra=("--warm-up",)) as server, \
            httpx.Client(base_url=server.url, timeout=10) as http:
        first = http.get("/api/warm-up").json()
        assert first["state"] in ("running", "done")
        assert http.get("/api/games").status_code == 200  # not held by the warm-up
        done = wait_until(lambda: (s := http.get("/api/warm-up").json())["state"] != "running"
                          and s, seconds=300, what="the warm-up to end", every=0.5)
        assert done["state"] == "done", done
        assert done["processes"] == 1 and done["seconds"] > 0
        assert done["here"] == "done"  # the lobby's bot lists, worked out before a visitor asks
        assert set(done["rulesets"]) == playable()
        created = http.post("/api/tables", json={"game": "dao",
                                                "seats": ["human", "bot:level1"], "seed": 5})
        seat = created.json()["seats"][0]["token"]
        hint = http.get(f"/api/tables/{created.json()['id']}/hint",
                        headers={"Authorization": f"Bearer {seat}"}, timeout=60)
        assert hint.status_code == 200 and hint.json()["kind"] in ("solver", "bot"), hint.text


def test_the_warm_up_can_be_left_off(tmp_path: Path) -> None:
    with running(tmp_path) as server:  # the test servers start with --no-warm-up
        status = httpx.get(server.url + "/api/warm-up", timeout=10).json()
        assert status == {"state": "off", "here": "none", "rulesets": [], "total": None,
                          "processes": 0, "seconds": None}


def test_ctrl_c_during_the_warm_up_stops_the_server_without_a_traceback(tmp_path: Path) -> None:
    """Ctrl-C in the terminal reaches the whole process group: the warm-up's worker, still
    importing, must leave it to the server, which stops cleanly (it once printed the
    worker's KeyboardInterrupt traceback and started another worker)."""
    server = Server(tmp_path, extra=("--warm-up",), own_group=True).start()
    try:
        wait_until(lambda: server.children(), seconds=60, what="the warm-up's worker process",
                   every=0.05)
        status = server.ctrl_c()
    finally:
        if server.process is not None:
            server.stop()
    output = server.output()
    assert "Traceback" not in output and "KeyboardInterrupt" not in output, output
    assert "died" not in output, output
    assert status == 0, (status, output)


def test_the_server_stops_after_a_worker_process_was_killed(tmp_path: Path) -> None:
    """A job worker killed outright (kill -9, the out-of-memory killer) must not leave the
    server unable to stop: its stop signal once waited for ever on a lock the dead worker
    held."""
    server = Server(tmp_path, extra=("--warm-up",), own_group=True).start()
    try:
        def worker() -> int | None:
            for pid in server.children():
                with contextlib.suppress(OSError):
                    if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes():
                        return pid
            return None

        pid = wait_until(worker, seconds=60, what="the warm-up's worker process", every=0.05)
        # its watch thread (which waits on the stop signal) has started
        wait_until(lambda: len(list(Path(f"/proc/{pid}/task").iterdir())) >= 2, seconds=120,
                   what="the worker's watch thread", every=0.05)
        os.kill(pid, signal.SIGKILL)
        wait_until(lambda: pid not in server.children(), seconds=30,
                   what="the killed worker to be reaped", every=0.05)
        status = server.ctrl_c()
    finally:
        if server.process is not None:
            server.stop()
    assert status == 0, (status, server.output())
