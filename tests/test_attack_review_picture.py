"""``GET /api/tables/{id}/review/picture`` as an attacker uses it: asked again and again,
it must not replay the whole game each time. It did: about 20 ms of CPU per request for
a 500-ply Dao game (the import cap), as fast as a client's rate allowance lets it ask.
Now the positions are worked out once per table version (server/review/positions.py),
and a request plays at most a few moves. A real ``fourfold serve`` on loopback; its CPU
time is read from /proc, so the work counted is the server's alone."""

from __future__ import annotations

import json
import os
import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fourfold.core.match import Match
from fourfold.core.outcome import Outcome
from fourfold.core.record import format_record, parse_record
from fourfold.core.registry import load
from fourfold.server.review.positions import EVERY, ReviewPositions
from support.server import Server, auth, running, tokens_of

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")

#: requests asked of each game, after the first (which works the positions out)
ASKED = 40


def _dao_record(plies: int, seed: int) -> str:
    """A finished Dao record: ``plies`` random moves that do not end the game, then the
    first player resigns (so the import makes a finished table)."""
    game = load("dao", None, max_plies="none")
    match = Match(game, game.initial_state(1), ["a", "b"])
    rng = random.Random(seed)
    for _ in range(plies):
        legal = list(game.legal_moves(match.state))
        rng.shuffle(legal)
        match.play(next(m for m in legal if game.outcome(game.apply(match.state, m)) is None))
    match.declare(Outcome.win(1, "resignation"))
    return format_record(match.referee_record())


def _imported_with_a_review(server: Server, record: str) -> tuple[str, str, list[str]]:
    """A table imported from ``record`` (finished), its stored review written in the
    server's database as the review job writes it (a whole review of 500 plies would
    take the job pool many minutes): every ply with an empty line but one, whose line
    is the game's next two moves. Returns the table id, a seat token and the moves."""
    http = server.client().http
    r = http.post("/api/import", content=record, headers={"content-type": "text/plain"})
    assert r.status_code == 201, r.text
    created = r.json()
    tid, token = created["id"], tokens_of(created)[0]
    state = http.get(f"/api/tables/{tid}", headers=auth(token)).json()
    assert state["outcome"] is not None
    moves = list(parse_record(record).moves)
    plies: list[dict[str, Any]] = [{"ply": i, "move": m, "line": []}
                                   for i, m in enumerate(moves, start=1)]
    plies[len(moves) // 2]["line"] = moves[len(moves) // 2:len(moves) // 2 + 2]
    body = {"type": "review", "id": tid, "status": "ready", "version": state["version"],
            "plies": plies, "end_line": [], "first_mistake": None}
    with sqlite3.connect(server.data / "fourfold.sqlite3", timeout=30) as db:
        db.execute("INSERT INTO reviews (table_id, version, body) VALUES (?, ?, ?)",
                   (tid, state["version"], json.dumps(body)))
    http.close()
    return tid, token, moves


def _cpu_seconds(pid: int) -> float:
    """The process's CPU time so far (user and system)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with running(tmp_path) as started:
        yield started


def test_asking_again_and_again_replays_nothing(server: Server) -> None:
    long_id, _, long_moves = _imported_with_a_review(server, _dao_record(500, 3))
    short_id, _, short_moves = _imported_with_a_review(server, _dao_record(16, 4))
    assert server.process is not None
    pid = server.process.pid
    http = server.client().http

    def ask(tid: str, ply: int, step: int = 0) -> str:
        r = http.get(f"/api/tables/{tid}/review/picture", params={"ply": ply, "step": step})
        assert r.status_code == 200 and r.text.lstrip().startswith("<svg"), r.text[:200]
        return r.text

    # the first request of each works the positions out
    ask(long_id, 1)
    ask(short_id, 1)
    spent = {long_id: 0.0, short_id: 0.0}
    for n in range(ASKED):  # the same plies near the end of each game, in turn
        for tid, moves in ((long_id, long_moves), (short_id, short_moves)):
            ply = len(moves) + 1 - n % 3
            before = _cpu_seconds(pid)
            ask(tid, ply)
            spent[tid] += _cpu_seconds(pid) - before
    extra = (spent[long_id] - spent[short_id]) / ASKED
    # before the fix: 20-30 ms more a request for the long game (its replay), here a few
    # moves from the nearest kept position
    assert extra < 0.006, (f"a picture of the 500-ply game cost {extra * 1000:.1f} ms more"
                           f" CPU than one of the 16-ply game ({spent})")
    http.close()


def test_the_pictures_are_the_positions_of_the_game_and_its_line(server: Server) -> None:
    tid, token, moves = _imported_with_a_review(server, _dao_record(40, 5))
    http = server.client().http
    game = load("dao", None, max_plies="none")
    match = Match.from_record(parse_record(_dao_record(40, 5)))
    from fourfold.render.svg import draw_svg

    def drawn(state: Any, last: Any = None) -> str:
        return str(draw_svg(game, game.revealed_view(state, None), last_move=last,
                            outcome=game.outcome(state)))

    for ply in (1, EVERY, EVERY + 1, 2 * EVERY + 3, len(moves), len(moves) + 1):
        r = http.get(f"/api/tables/{tid}/review/picture", params={"ply": ply})
        assert r.status_code == 200 and r.text == drawn(match.states[ply - 1]), ply
    # the line at the middle ply: two of the game's own moves, the second one marked
    middle = len(moves) // 2 + 1
    state = match.states[middle]
    r = http.get(f"/api/tables/{tid}/review/picture", params={"ply": middle, "step": 2},
                 headers=auth(token))
    last = game.parse_move(state, moves[middle])
    assert r.status_code == 200 and r.text == drawn(game.apply(state, last), last)
    # a seat and a watcher are shown the same picture: the game is over, nothing is hidden
    r2 = http.get(f"/api/tables/{tid}/review/picture", params={"ply": middle, "step": 2})
    assert r2.text == r.text
    r = http.get(f"/api/tables/{tid}/review/picture", params={"ply": middle, "step": 3})
    assert r.status_code == 422 and "has 2 moves" in r.json()["error"]
    r = http.get(f"/api/tables/{tid}/review/picture", params={"ply": len(moves) + 2})
    assert r.status_code == 422 and f"has {len(moves)} plies" in r.json()["error"]
    http.close()


def test_kept_states_give_every_position_of_the_game() -> None:
    match = Match.from_record(parse_record(_dao_record(3 * EVERY + 5, 6)))
    record = match.referee_record()
    review = {"plies": [{"line": []} for _ in record.moves], "end_line": ["x"]}
    positions = ReviewPositions.of(record, review)
    assert len(positions.kept) == 4 and positions.plies == len(record.moves)
    assert positions.lines[-1] == ("x",)
    for ply in range(1, len(record.moves) + 2):
        assert positions.before(ply) == match.states[ply - 1], ply
