"""Table chat against a real ``fourfold serve`` (issue 31): two people at a two-player
table write, everyone at the table reads (over the WebSocket, and ``GET /chat`` for a
page that opens later); lines are plain text, limited in length and rate, and kept with
the game across a restart; Quatrefoil, a table with a bot and a spectator cannot write."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from fourfold.server.chat.service import RATE_LINES
from fourfold.wire.messages import MAX_CHAT_CHARS
from support.server import Live, Server, auth, running


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(tmp_path_factory.mktemp("serve")) as s:
        yield s


def create(server: Server, **body: Any) -> tuple[str, dict[int, str]]:
    r = httpx.post(server.url + "/api/tables", json=body, timeout=30)
    assert r.status_code == 201, r.text
    made = r.json()
    return made["id"], {s["seat"]: s["token"] for s in made["seats"] if s["token"]}


def welcomed(server: Server, tid: str, token: str | None) -> Live:
    live = Live(server, tid, token)
    live.used = set()  # type: ignore[attr-defined]
    live.until(lambda m: m.get("type") == "welcome")
    return live


def reply(live: Live) -> dict[str, Any]:
    return live.until(lambda m: m.get("type") in ("ack", "refused"))


def chat_line(live: Live) -> dict[str, Any]:
    """The next chat line this socket hears (perhaps heard already, before an answer)."""
    for text in live.seen:
        value: dict[str, Any] = json.loads(text)
        if value.get("type") == "chat" and text not in live.used:  # type: ignore[attr-defined]
            live.used.add(text)  # type: ignore[attr-defined]
            return value
    line = live.until(lambda m: m.get("type") == "chat")
    live.used.add(live.seen[-1])  # type: ignore[attr-defined]
    return line


def test_two_people_chat_and_everyone_at_the_table_reads_it(server: Server) -> None:
    tid, tokens = create(server, game="dao", seats=["human", "human"], seed=1)
    one, two, watcher = (welcomed(server, tid, t) for t in (tokens[0], tokens[1], None))
    try:
        markup = "<img src=x onerror=alert(1)> good luck & have fun"
        one.send({"type": "chat", "text": f"  {markup}\n"})
        assert reply(one)["type"] == "ack"
        for live in (one, two, watcher):
            line = chat_line(live)
            assert line["text"] == markup and line["seat"] == 0  # as written: the page escapes
        two.send({"type": "chat", "text": "thanks, you too"})
        assert reply(two)["type"] == "ack"
        watcher.send({"type": "chat", "text": "hello from the stands"})
        refused = reply(watcher)
        assert refused["status"] == 403 and "spectators" in refused["error"]
        one.send({"type": "chat", "text": "x" * (MAX_CHAT_CHARS + 1)})
        too_long = reply(one)
        assert too_long["status"] == 400 and "too long" in too_long["error"]
        one.send({"type": "chat", "text": " \t\n "})
        assert reply(one)["status"] == 400
        answers = []
        for n in range(RATE_LINES + 1):  # one line already sent: the last two are too fast
            one.send({"type": "chat", "text": f"line {n}"})
            answers.append(reply(one))
        assert [a["type"] for a in answers[:RATE_LINES - 1]] == ["ack"] * (RATE_LINES - 1)
        assert answers[-1]["status"] == 429 and "wait" in answers[-1]["error"]
    finally:
        for live in (one, two, watcher):
            live.close()
    kept = httpx.get(f"{server.url}/api/tables/{tid}/chat", timeout=10).json()
    assert kept["enabled"] and kept["lines"][0]["text"] == markup
    assert [x["seat"] for x in kept["lines"][:2]] == [0, 1]
    server.restart()  # kept with the game
    again = httpx.get(f"{server.url}/api/tables/{tid}/chat", timeout=10).json()
    assert again["lines"] == kept["lines"]


@pytest.mark.parametrize(("body", "why"), [
    ({"game": "quatrefoil", "variant": "base", "seats": ["human"] * 4}, "signal"),
    ({"game": "dao", "seats": ["human", "bot:level1"]}, "bot"),
])
def test_tables_without_chat_say_why(server: Server, body: dict[str, Any], why: str) -> None:
    tid, tokens = create(server, seed=2, **body)
    history = httpx.get(f"{server.url}/api/tables/{tid}/chat", headers=auth(tokens[0]),
                        timeout=10).json()
    assert history["enabled"] is False and history["lines"] == []
    live = welcomed(server, tid, tokens[0])
    try:
        live.send({"type": "chat", "text": "psst: my card is NW"})
        refused = reply(live)
    finally:
        live.close()
    assert refused["status"] == 403 and refused["error"] == history["reason"]
    if why == "signal":
        assert "Quatrefoil has no table chat" in refused["error"]
    else:
        assert "bot" in refused["error"]
