"""Ice Dao puzzles mined from a real finished game on the server (issue 32): after its
review, the positions nearest the end are certified by the bounded proof search (a
unique solution at every step, a win in N, or the only move that holds), served on the
puzzle page, and each re-searched here with the readable rules. A real ``fourfold
serve`` on loopback."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from support.server import Api, Server, play_out, running, tokens_of
from support.wait import wait_until
from test_puzzles_icedao import check_hold, check_win

#: games played at most to find one whose end holds a puzzle
GAMES = 4


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(tmp_path_factory.mktemp("mined-icedao")) as started:
        yield started


@pytest.fixture
def api(server: Server) -> Iterator[Api]:
    client = server.client()
    yield client
    client.http.close()


def _reviewed(api: Api, tid: str) -> dict[str, Any]:
    def ready() -> httpx.Response | None:
        r = api.http.get(f"/api/tables/{tid}/review")
        assert r.status_code in (200, 202), r.text
        return r if r.status_code == 200 else None

    body: dict[str, Any] = wait_until(ready, 240, "the stored review", every=0.5).json()
    return body


def test_a_finished_icedao_game_on_the_server_gives_certified_puzzles(api: Api) -> None:
    from fourfold.core.match import Match
    from fourfold.core.record import parse_record
    from fourfold.puzzles.certify import certify
    from fourfold.server.puzzles.catalog import puzzle_id
    from fourfold.server.puzzles.mining import PER_GAME

    # the bot's moves are its own, so a game may end with two winning moves and no
    # puzzle near its end: a few games, at most GAMES
    certified: list[Any] = []
    for attempt in range(GAMES):
        created = api.create(game="icedao", seats=["human", "bot:level3"], seed=attempt)
        tid, tokens = created["id"], tokens_of(created)
        rng = random.Random(attempt)
        play_out(api, tid, tokens, lambda legal, rng=rng: rng.choice(sorted(legal)))
        review = _reviewed(api, tid)
        assert review["status"] == "ready" and review["plies"]
        record = api.http.get(f"/api/tables/{tid}/record").text
        match = Match.from_record(parse_record(record))
        game = match.game
        # what the server was to certify: the positions nearest the end, each within the
        # server's solver time (1 s: 1,000 nodes of the proof search)
        near_end = range(len(match.moves) - 1, max(-1, len(match.moves) - 1 - PER_GAME), -1)
        found = [certify(game, match.states[index], 1.0) for index in near_end]
        certified = [p for p in found if p is not None]
        if certified:
            break
    assert certified, f"no puzzle near the end of {GAMES} games"
    for puzzle in certified:
        assert puzzle.game == "icedao" and puzzle.bound is not None
        (check_win if puzzle.goal == "win" else check_hold)(puzzle)  # by the readable rules
        pid = puzzle_id(puzzle)

        def served(pid: str = pid) -> dict[str, Any] | None:
            r = api.http.get(f"/api/puzzles/{pid}")
            return r.json() if r.status_code == 200 else None

        shown = wait_until(served, 60, f"the mined puzzle {pid}", every=0.3)
        assert shown["position"] == puzzle.position and shown["theme"] == puzzle.theme
        assert "solution" not in shown

