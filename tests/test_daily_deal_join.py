"""Joining a daily table is one transaction: the seat, its token and the seat's address
(``daily_seats``, migration 0010) are saved together or not at all. The address used
to be written after the join had been saved: when that write failed, the joiner got a
500 and the seat stayed taken, with no address for the leaderboard's checks. Here the
write fails for real, on the table's primary key (a row already there for that seat),
in a real ``fourfold serve`` on loopback."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from support.server import Server, auth, client_from, running, tokens_of

PEOPLE = ["human", "open", "open", "open"]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with running(tmp_path) as started:
        yield started


def _addresses(server: Server, table_id: str) -> dict[int, str]:
    with sqlite3.connect(server.data / "fourfold.sqlite3", timeout=30) as db:
        rows = db.execute("SELECT seat, address FROM daily_seats WHERE table_id = ?",
                          (table_id,)).fetchall()
    return {int(seat): str(address) for seat, address in rows}


def test_a_join_whose_address_cannot_be_saved_leaves_the_seat_open(server: Server) -> None:
    with client_from("127.0.0.1", server.url) as http:
        r = http.post("/api/daily/quatrefoil/base", json={"seats": PEOPLE, "private": True})
        assert r.status_code == 201, r.text
        made = r.json()
    tid, creator = made["id"], tokens_of(made)[0]
    assert set(_addresses(server, tid)) == {0}
    # a row for seat 2 already there: the join's insert of its address fails
    with sqlite3.connect(server.data / "fourfold.sqlite3", timeout=30) as db:
        db.execute("INSERT INTO daily_seats (table_id, seat, address) VALUES (?, 1, 'x')",
                   (tid,))
    with client_from("127.0.0.2", server.url) as http:
        r = http.post(f"/api/tables/{tid}/join", json={"seat": 1})
        assert r.status_code == 503, r.text
        assert r.headers.get("retry-after") == "5"  # when to ask again
        error = r.json()["error"]
        assert error.startswith("the seat was not taken (it is still open): the change"
                                " could not be saved"), error
        state = http.get(f"/api/tables/{tid}", headers=auth(creator)).json()
        assert [s["kind"] for s in state["seats"]] == PEOPLE, state["seats"]
        assert _addresses(server, tid) == {0: _addresses(server, tid)[0], 1: "x"}
        # the fault gone, the same join takes the seat and saves its address with it
        with sqlite3.connect(server.data / "fourfold.sqlite3", timeout=30) as db:
            db.execute("DELETE FROM daily_seats WHERE table_id = ? AND seat = 1", (tid,))
        r = http.post(f"/api/tables/{tid}/join", json={"seat": 1})
        assert r.status_code == 201, r.text
        token = r.json()["token"]
        mine = http.get(f"/api/tables/{tid}", headers=auth(token)).json()
        assert mine["seats"][1]["kind"] == "human"
    addresses = _addresses(server, tid)
    assert set(addresses) == {0, 1} and addresses[1] not in ("x", addresses[0])
    # the server, restarted, reads the same: the seat taken once, by the second join
    server.restart()
    with client_from("127.0.0.3", server.url) as http:
        state = http.get(f"/api/tables/{tid}", headers=auth(token)).json()
        assert [s["kind"] for s in state["seats"]] == ["human", "human", "open", "open"]
