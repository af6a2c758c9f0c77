"""The WebSocket's ``hello`` reads ``"wire"`` as every other message does: a client that
speaks another version of the wire format is told so and closed (4400), instead of
being welcomed and then handed documents it cannot read (``"wire": "v999"`` and
``"wire": 2`` were taken)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from support.server import Server, running


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, str]]:
    with running(tmp_path_factory.mktemp("serve")) as server:
        client = server.client()
        made = client.create(game="dao", seats=["human", "human"], private=True)
        client.http.close()
        yield server, made["id"]


def _hello(server: Server, table_id: str, hello: dict[str, Any]) -> tuple[list[Any], int]:
    """What the server sends after ``hello``, and the close code (0: left open)."""
    received: list[Any] = []
    with connect(f"{server.ws_url}/api/tables/{table_id}/live", open_timeout=10) as ws:
        ws.send(json.dumps(hello))
        try:
            while len(received) < 2:
                received.append(json.loads(ws.recv(timeout=10)))
        except ConnectionClosed:
            pass
        code = ws.close_code or 0
    return received, code


@pytest.mark.parametrize("wire", [2, "v999", "1", None, 1.5])
def test_another_wire_version_is_refused(table: tuple[Server, str], wire: Any) -> None:
    received, code = _hello(*table, {"type": "hello", "token": None, "wire": wire})
    assert code == 4400, received
    assert received[0]["type"] == "refused" and received[0]["status"] == 400
    assert "wire" in received[0]["error"]


def test_wire_1_is_welcome(table: tuple[Server, str]) -> None:
    received, code = _hello(*table, {"type": "hello", "token": None, "wire": 1})
    assert [m["type"] for m in received] == ["welcome", "event"], received
    assert code in (0, 1000)
