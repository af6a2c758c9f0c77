"""The order of what the live socket sends: ``welcome``, then the ``start`` event, then
the answers to the client's messages, each after the events of the change it made
(docs/wire.md, *The live socket's order*). A client's first message, sent with its
hello, used to be answered before the ``start``: its answer went out at once while
the ``start`` waited in the connection's outbox. A real ``fourfold serve`` on loopback
and the sync websockets client."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.sync.client import connect

from support.server import Server, running, tokens_of

#: connections opened (each sends its messages with its hello, before reading anything)
ROUNDS = 5
#: messages sent with each hello
SENT = 4


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(tmp_path_factory.mktemp("serve")) as started:
        yield started


def _received(server: Server, table_id: str, hello: dict[str, Any],
              messages: list[dict[str, Any]], count: int) -> list[dict[str, Any]]:
    """The first ``count`` messages the server sends after ``hello`` and ``messages``,
    all sent at once before reading."""
    with connect(f"{server.ws_url}/api/tables/{table_id}/live", open_timeout=10) as ws:
        for message in (hello, *messages):
            ws.send(json.dumps(message))
        return [json.loads(ws.recv(timeout=10)) for _ in range(count)]


def _kinds(received: list[dict[str, Any]]) -> list[str]:
    return [m.get("kind", m["type"]) if m["type"] == "event" else m["type"]
            for m in received]


@pytest.mark.parametrize("screen", [False, True])
def test_the_start_comes_before_any_answer(server: Server, screen: bool) -> None:
    api = server.client()
    made = api.create(game="dao", seats=["human", "human"], private=True)
    tid, token = made["id"], tokens_of(made)[0]
    hello = {"type": "hello", "token": token, "screen": screen}
    for _ in range(ROUNDS):
        got = _received(server, tid, hello, [{"type": "ping"}] * SENT, 2 + SENT)
        assert _kinds(got) == ["welcome", "start"] + ["pong"] * SENT, got
        # a spectator too, whose messages are refused
        got = _received(server, tid, {"type": "hello", "token": None},
                        [{"type": "resign", "version": 0}] * SENT, 2 + SENT)
        assert _kinds(got) == ["welcome", "start"] + ["refused"] * SENT, got
    api.http.close()


def test_an_actions_answer_comes_after_its_change(server: Server) -> None:
    api = server.client()
    made = api.create(game="dao", seats=["human", "human"], private=True)
    tid, tokens = made["id"], tokens_of(made)
    state = api.state(tid, tokens[0])
    move = {"type": "move", "move": state["legal"][0], "version": state["version"]}
    got = _received(server, tid, {"type": "hello", "token": tokens[0]}, [move], 4)
    assert _kinds(got) == ["welcome", "start", "move", "ack"], got
    assert got[3]["version"] == got[2]["version"] == state["version"] + 1
    api.http.close()
