"""The replay routes as an attacker uses them: asking again and again for a finished
game's replay must not replay the game each time. Before, every ``GET .../replay``
walked the whole record and drew every past view (0.2 s of CPU for a 500-ply Dao
game), and four connections of one address, well inside its rate allowance, slowed
every other table's moves tenfold. Counted here, not timed (figures:
server/web/finished.py)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from fourfold.core.match import Match
from fourfold.core.registry import load
from fourfold.server.web import extra_api
from fourfold.server.web.finished import Finished
from fourfold.table import Seat, Table
from support.server import Server, auth, running, tokens_of


class Counting:
    """A table whose history and referee's record are counted."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.calls: list[str] = []

    def history_for(self, recipient: int | None) -> Any:
        self.calls.append(f"history {recipient}")
        return self.table.history_for(recipient)

    def referee_record(self) -> Any:
        self.calls.append("record")
        return self.table.referee_record()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.table, name)


def _finished_quarto() -> Table:
    game = load("quarto")
    match = Match(game)
    rng = random.Random(4)
    while match.outcome is None:
        match.play(game.format_move(match.state, rng.choice(game.legal_moves(match.state))))
    return Table(game, [Seat.human("A"), Seat.human("B")], match=match,
                 version=len(match.moves))


def test_a_finished_games_replay_is_worked_out_once_per_recipient(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(extra_api, "seats_json", lambda live: [])
    monkeypatch.setattr(extra_api, "_histories", Finished(), raising=False)
    monkeypatch.setattr(extra_api, "_replays", Finished(), raising=False)
    table = Counting(_finished_quarto())
    live = SimpleNamespace(id="t1", table=table, game=table.game)
    watcher = SimpleNamespace(live=live, seat=None)
    first = extra_api.get_replay("t1", watcher)  # type: ignore[arg-type]
    assert first["finished"] and first["you"] is None
    assert table.calls == ["history None", "record"]
    for _ in range(5):
        assert extra_api.get_replay("t1", watcher) == first  # type: ignore[arg-type]
    assert table.calls == ["history None", "record"]
    # a seat is its own recipient; the pictures of past plies reuse the history
    seated = extra_api.get_replay("t1", SimpleNamespace(live=live, seat=0))  # type: ignore[arg-type]
    assert seated["you"] == 0 and seated["plies"] == first["plies"]
    assert table.calls == ["history None", "record", "history 0", "record"]
    extra_api._history(live, 0)  # type: ignore[arg-type]
    assert len(table.calls) == 4


def test_a_game_in_play_is_read_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(extra_api, "seats_json", lambda live: [])
    monkeypatch.setattr(extra_api, "_histories", Finished(), raising=False)
    monkeypatch.setattr(extra_api, "_replays", Finished(), raising=False)
    game = load("quarto")
    table = Counting(Table(game, [Seat.human("A"), Seat.human("B")]))
    live = SimpleNamespace(id="t2", table=table, game=game)
    for _ in range(3):
        extra_api.get_replay("t2", SimpleNamespace(live=live, seat=None))  # type: ignore[arg-type]
    assert table.calls == ["history None"] * 3


def test_kept_answers_are_bounded() -> None:
    kept: Finished[int] = Finished(max_kept=3)
    for i in range(10):
        assert kept.get(("t", i, None), lambda i=i: i) == i  # type: ignore[misc]
    assert len(kept) == 3
    assert kept.get(("t", 9, None), lambda: -1) == 9   # kept
    assert kept.get(("t", 0, None), lambda: -1) == -1  # dropped long ago


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with running(tmp_path) as s:
        yield s


def test_the_kept_replay_still_says_who_asks_and_where_the_shared_replay_is(
        server: Server) -> None:
    api = server.client()
    created = api.create(game="quarto", seats=["human", "human"], seed=2)
    tid, tokens = created["id"], tokens_of(created)
    state = api.state(tid, tokens[0])
    for _ in range(2):  # a few moves, then a resignation ends it
        mover = state["to_act"][0]
        state = api.move(tid, tokens[mover], api.state(tid, tokens[mover])["legal"][0],
                         state["version"]).json()["state"]
    r = api.post(tid, "resign", tokens[0], version=state["version"])
    assert r.status_code == 200
    watched = api.http.get(f"/api/tables/{tid}/replay").json()
    assert watched["you"] is None and watched["finished"] and watched["shared_ply"] is None
    mine = api.http.get(f"/api/tables/{tid}/replay", headers=auth(tokens[1])).json()
    assert mine["you"] == 1 and mine["plies"] == watched["plies"]
    assert api.post(tid, "replay", tokens[1], ply=1).status_code == 200
    again = api.http.get(f"/api/tables/{tid}/replay").json()
    assert again["shared_ply"] == 1 and again["you"] is None
    assert again["plies"] == watched["plies"]
    api.http.close()
