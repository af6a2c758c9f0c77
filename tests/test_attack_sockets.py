"""WebSockets as an attacker uses them: page sockets (``"screen": true``) opened on a
table by the dozen must not multiply the work of each of its moves. Each event's
screen (its picture, drawn for the recipient's view) is drawn once per recipient, not
once per socket: before, 60 spectator pages made every move of the table take 1.2 s,
on the event loop. The drawing is counted here, not timed (figures: docs/security.md)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from fourfold.server import websocket
from fourfold.table import Event, EventKind
from support.server import Server, client_from, running, tokens_of


class FakeTable:
    """Stands for a LiveTable as a key (the dresser itself is counted)."""


def test_one_drawing_per_event_and_recipient(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[tuple[int, int | None]] = []

    def dresser(live: Any, recipient: int | None) -> Any:
        def dress(event: Any) -> dict[str, Any]:
            drawn.append((id(event), recipient))
            return {"svg": f"<svg>{len(drawn)}</svg>"}
        return dress

    monkeypatch.setattr(websocket, "screen_dresser", dresser)
    table, other = FakeTable(), FakeTable()
    pages = [websocket.shared_dresser(table, None) for _ in range(30)]  # type: ignore[arg-type]
    seat = websocket.shared_dresser(table, 0)  # type: ignore[arg-type]
    elsewhere = websocket.shared_dresser(other, None)  # type: ignore[arg-type]
    event = Event(EventKind.MOVE, 1, None, None, "a move")  # type: ignore[arg-type]
    screens = [dress(event) for dress in pages]
    assert len(drawn) == 1 and all(s is screens[0] for s in screens)
    later = Event(EventKind.MOVE, 2, None, None, "another")  # type: ignore[arg-type]
    assert pages[3](later) is not screens[0] and len(drawn) == 2
    assert [dress(later) for dress in pages] == [pages[0](later)] * 30 and len(drawn) == 2
    seat(event)
    elsewhere(event)
    assert len(drawn) == 4  # another recipient, another table: their own drawings


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with running(tmp_path) as s:
        yield s


def test_page_sockets_of_one_recipient_get_the_same_screen(server: Server) -> None:
    with client_from("127.0.0.1", server.url) as http:
        created = http.post("/api/tables", json={"game": "folio",
                                                 "seats": ["human", "human"]}).json()
        tid, tokens = created["id"], tokens_of(created)
        url = f"{server.ws_url}/api/tables/{tid}/live"
        with connect(url, open_timeout=10) as one, connect(url, open_timeout=10) as two:
            for ws in (one, two):
                ws.send(json.dumps({"type": "hello", "token": None, "screen": True}))
                assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
                assert json.loads(ws.recv(timeout=10))["kind"] == "start"
            seat = http.get(f"/api/tables/{tid}").json()["to_act"][0]
            mine = http.get(f"/api/tables/{tid}",
                            headers={"Authorization": f"Bearer {tokens[seat]}"}).json()
            r = http.post(f"/api/tables/{tid}/moves",
                          headers={"Authorization": f"Bearer {tokens[seat]}"},
                          json={"move": mine["legal"][0], "version": mine["version"]})
            assert r.status_code == 200, r.text
            moves = [json.loads(ws.recv(timeout=10)) for ws in (one, two)]
    assert moves[0]["kind"] == "move" and moves[0] == moves[1]
    assert moves[0]["screen"]["svg"].startswith("<svg")
