"""Nothing is lost: ``kill -9`` the server mid-game, restart it on the same data, and
every acknowledged move is there, clocks included, and play goes on. On SQLite and on
a throwaway PostgreSQL."""

from __future__ import annotations

import json
import time
from pathlib import Path

from sqlalchemy import create_engine, text

from fourfold.server.storage.migrate import database_url
from support.server import Api, Postgres, Server
from support.wait import wait_until


def _move(api: Api, tid: str, tokens: dict[int, str]) -> dict:
    seat = api.state(tid)["to_act"][0]
    mine = api.state(tid, tokens[seat])
    r = api.move(tid, tokens[seat], mine["legal"][0], mine["version"])
    assert r.status_code == 200, r.text
    state: dict = r.json()["state"]
    return state


def _stored_clock(server: Server, tid: str) -> tuple[list[float], float]:
    """The clocks the server last saved for ``tid`` and when (Unix time), read from its
    database: what a restarted server starts from."""
    url = database_url(server.database or f"sqlite:///{server.data / 'fourfold.sqlite3'}")
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            left, saved_at = connection.execute(
                text("SELECT clock_left, clock_saved_at FROM tables WHERE id = :id"),
                {"id": tid}).one()
    finally:
        engine.dispose()
    return [float(x) for x in json.loads(left)], float(saved_at)


def _crash_and_resume(server: Server) -> None:
    api = server.client()
    bot = api.create(game="quarto", seats=["human", "bot:level1"], seed=4)
    bot_token = bot["seats"][0]["token"]
    played = api.wait(bot["id"], None, lambda s: 0 in s["to_act"])
    timed = api.create(game="dao", seats=["human", "human"], seed=1,
                       clock={"base": 600, "increment": 5})
    tid = timed["id"]
    tokens = {s["seat"]: s["token"] for s in timed["seats"]}
    for _ in range(4):
        last = _move(api, tid, tokens)
    moved_at = time.time()
    # the mover's clock runs, and a checkpoint (not a move) saves it at least 0.5 s later
    wait_until(lambda: _stored_clock(server, tid)[1] > moved_at + 0.5, 15,
               "a checkpoint of the running clock")
    before = api.state(tid)
    record = api.http.get(f"/api/tables/{tid}/record").text
    server.kill9()
    saved, saved_at = _stored_clock(server, tid)
    mover = before["to_act"][0]
    assert saved[mover] < last["clocks"][mover]  # the checkpoint saved a clock that ran
    api.http.close()
    # the server stays down for 2 s after its last save: were that charged to the mover,
    # the clock below would have lost over 2 s more than the new server ran
    wait_until(lambda: time.time() >= saved_at + 2.0, 10, "2 s of downtime")

    restarted = time.monotonic()
    server.start()
    api = server.client()
    after = api.state(tid)
    ran = time.monotonic() - restarted  # at most this long has the new server run it
    assert after["version"] == before["version"] == 4
    assert api.http.get(f"/api/tables/{tid}/record").text == record
    assert after["to_act"][0] == mover
    # the clocks go on from where they were saved last (a checkpoint every 0.5 s): the
    # time the server was down is charged to nobody
    assert saved[mover] - ran - 0.1 <= after["clocks"][mover] <= saved[mover] + 0.1, (
        saved, after["clocks"], ran)
    assert after["clocks"][1 - mover] == before["clocks"][1 - mover]
    assert abs(saved[1 - mover] - before["clocks"][1 - mover]) < 0.01
    state = _move(api, tid, tokens)
    assert state["version"] == 5
    # the bot's game goes on too
    mine = api.state(bot["id"], bot_token)
    assert mine["version"] == played["version"]
    r = api.move(bot["id"], bot_token, mine["legal"][0], mine["version"])
    assert r.status_code == 200, r.text
    api.wait(bot["id"], None, lambda s: s["version"] >= mine["version"] + 2
             or s["outcome"] is not None)
    api.http.close()


def test_kill_9_on_sqlite(tmp_path: Path) -> None:
    server = Server(tmp_path, extra=("--checkpoint-seconds", "0.5")).start()
    try:
        _crash_and_resume(server)
    finally:
        server.stop()


def test_kill_9_on_postgres(tmp_path: Path, postgres: Postgres) -> None:
    server = Server(tmp_path, postgres.new_database(),
                    extra=("--checkpoint-seconds", "0.5")).start()
    try:
        _crash_and_resume(server)
        # the schema is already there: a second start migrates nothing and serves
        server.restart()
        assert server.client().http.get("/api/lobby").status_code == 200
    finally:
        server.stop()


def test_clear_errors_without_a_traceback(tmp_path: Path) -> None:
    import subprocess
    import sys

    def serve(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", "from fourfold.cli.main import main;"
                               " raise SystemExit(main())", "serve", *args],
                              capture_output=True, text=True, timeout=60)

    blocked = tmp_path / "file"
    blocked.write_text("")
    for args, words in ((("--port", "99999"), "port"),
                        (("--data", str(blocked / "sub")), "data directory"),
                        (("--database", "postgresql://nobody@127.0.0.1:1/none"),
                         "cannot open the database")):
        done = serve(*args)
        assert done.returncode == 2, done
        assert words in done.stderr and "Traceback" not in done.stderr, done.stderr
