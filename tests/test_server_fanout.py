"""Fan-out: each connection gets its own recipient's events; a table's spectators (and
a seat's several connections) share one encoding of each event."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

import fourfold
from fourfold.server import fanout as fanout_module
from fourfold.server.broker import NullBroker
from fourfold.server.fanout import Connection, Fanout
from fourfold.table import Seat, Table


def test_spectators_share_one_encoding_and_seats_get_their_own(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = fourfold.load("quarto")
    table = Table(game, [Seat.human("A"), Seat.human("B")])
    encoded: list[Any] = []
    real = fanout_module.event_to_json

    def counting(game: Any, event: Any) -> dict[str, Any]:
        encoded.append(event.recipient)
        return real(game, event)

    monkeypatch.setattr(fanout_module, "event_to_json", counting)
    loop = asyncio.new_event_loop()
    try:
        fan = Fanout(game, NullBroker(), lambda callback, *args: callback(*args))
        mover = table.actors()[0]
        watchers = [Connection(None, queue=asyncio.Queue()) for _ in range(3)]
        seat = Connection(mover, queue=asyncio.Queue())
        for connection in (*watchers, seat):
            fan.attach(table, connection)
        assert len(encoded) == 4  # each subscription's own ``start``
        encoded.clear()
        table.play(mover, table.legal_moves(mover)[0])
        assert sorted(encoded, key=str) == sorted([None, mover], key=str)
        received = [[c.queue.get_nowait() for _ in range(c.queue.qsize())]
                    for c in (*watchers, seat)]
        assert [len(r) for r in received] == [2, 2, 2, 2]  # the start, then the move
        texts = [r[1] for r in received]
        assert all(t is not None and json.loads(t)["kind"] == "move" for t in texts)
        assert len(set(texts[:3])) == 1 and texts[3] != texts[0]
        spectator, player = (json.loads(texts[0]), json.loads(texts[3]))
        assert spectator["recipient"] is None and player["recipient"] == mover
    finally:
        loop.close()


def test_a_connection_never_skips_a_version_it_was_not_sent() -> None:
    """A change carried by the broker while the connection joined (on another instance)
    never reaches it: what follows waits for the catch-up ``start``, so the stream it
    is sent has no hole (tests/test_scale_instances.py's check_stream)."""
    connection = Connection(0, queue=asyncio.Queue())
    sent: list[str] = []
    connection.push = sent.append  # type: ignore[method-assign]
    connection.offer(0, "start", "start 0")
    connection.offer(2, "move", "move 2")      # version 1 was never sent
    connection.offer(2, "end", "end 2")
    assert sent == ["start 0"] and connection.version == 0
    connection.offer(2, "start", "start 2")    # the sync's catch-up
    connection.offer(3, "move", "move 3")
    connection.offer(3, "offer", "offer 3")
    connection.offer(4, "end", "end 4")        # a resignation: a change of its own
    assert sent == ["start 0", "start 2", "move 3", "offer 3", "end 4"]
