"""The review of a finished game on the server (issue 32): started when the game ends,
in the bounded job pool, stored with the game, the same as ``fourfold review`` gives
for its record, and refused before the end. A real ``fourfold serve`` on loopback."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from fourfold.analysis.review import review
from fourfold.core.match import Match
from fourfold.core.record import parse_record
from fourfold.puzzles.certify import certify
from fourfold.puzzles.puzzle import Puzzle
from fourfold.server.puzzles.catalog import puzzle_id
from fourfold.server.puzzles.mining import candidates
from support.server import Api, Server, play_out, running, tokens_of
from support.wait import wait_until


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # a test seed: the level 2 bot's seeds (a secret stream in play) are the same every run,
    # so each game below is too, and so is how many are played
    with running(tmp_path_factory.mktemp("review"), extra=("--test-seed", "1")) as started:
        yield started


@pytest.fixture
def api(server: Server) -> Iterator[Api]:
    client = server.client()
    yield client
    client.http.close()



#: Dao games played at most until one has a puzzle (the first one does with this module's
#: test seed, whichever of its tests runs first; every other run of the bot's seeds, too)
GAMES = 4


def _finished_dao(api: Api) -> str:
    """A Dao game of random moves against the level 2 bot, played to its end."""
    created = api.create(game="dao", seats=["human", "bot:level2"], seed=5)
    tid, tokens = created["id"], tokens_of(created)
    assert api.http.get(f"/api/tables/{tid}/review").status_code == 409
    rng = random.Random(7)
    play_out(api, tid, tokens, lambda legal: rng.choice(sorted(legal)))
    return tid


def _puzzles(match: Match[Any, Any, Any]) -> list[Puzzle]:
    """The puzzles of ``match`` as the server mines them: its review's candidates, each
    certified again here by the solver."""
    plies = review(match, seconds=1.0, iterations=2000, seed=0).plies
    found = [certify(match.game, match.states[ply - 1], 5.0)
             for ply in candidates(plies, match.game)]
    return [p for p in found if p is not None]


def _finished_dao_with_a_puzzle(api: Api) -> tuple[str, Match[Any, Any, Any], list[Puzzle]]:
    """A finished game of ``_finished_dao`` with at least one puzzle in it. Not every game
    has one: the random player may lose by its own move (it traps a piece in a corner), or
    the bot's winning position may have a second, slower win (no unique solution)."""
    for _ in range(GAMES):
        tid = _finished_dao(api)
        record = api.http.get(f"/api/tables/{tid}/record").text
        match = Match.from_record(parse_record(record))
        puzzles = _puzzles(match)
        if puzzles:
            return tid, match, puzzles
    raise AssertionError(f"none of {GAMES} games of random moves against level 2 has a puzzle")


def _ready(api: Api, tid: str) -> dict[str, Any]:
    def ready() -> httpx.Response | None:
        r = api.http.get(f"/api/tables/{tid}/review")
        assert r.status_code in (200, 202), r.text
        if r.status_code == 202:
            body = r.json()
            assert body["status"] == "pending" and 0 <= body["done"] <= body["total"]
            return None
        return r

    body: dict[str, Any] = wait_until(ready, 120, "the stored review", every=0.3).json()
    return body


def test_a_finished_game_is_reviewed_as_the_terminal_reviews_its_record(api: Api) -> None:
    tid, match, certified = _finished_dao_with_a_puzzle(api)
    body = _ready(api, tid)
    assert body["status"] == "ready" and body["type"] == "review"
    expected = review(match, seconds=1.0, iterations=2000, seed=0).to_json()
    assert len(body["plies"]) == len(match.moves) > 0
    for got, want in zip(body["plies"], expected["plies"], strict=True):
        for key in ("ply", "move", "player", "before", "after", "label", "best", "source"):
            assert got[key] == want[key], (got["ply"], key)
    mistakes = [p for p in body["plies"] if p["label"] in ("mistake", "blunder")]
    assert body["first_mistake"] == (mistakes[0]["ply"] if mistakes else None)
    assert mistakes, "random moves against level 2 make a mistake in this seeded game"
    first = mistakes[0]
    assert first["line"][0] in first["best"]
    # the best line replays on the board, each step a picture
    for step in range(len(first["line"]) + 1):
        r = api.http.get(f"/api/tables/{tid}/review/picture",
                         params={"ply": first["ply"], "step": step})
        assert r.status_code == 200 and r.text.lstrip().startswith("<svg"), r.text[:200]
    r = api.http.get(f"/api/tables/{tid}/review/picture",
                     params={"ply": first["ply"], "step": len(first["line"]) + 1})
    assert r.status_code == 422 and "line at ply" in r.json()["error"]
    # stored with the game: asked again, the same answer at once
    assert api.http.get(f"/api/tables/{tid}/review").json() == body
    # the game's puzzles, mined after its review (each certified again here by the solver)
    for puzzle in certified:
        pid = puzzle_id(puzzle)

        def served(pid: str = pid) -> dict[str, Any] | None:
            r = api.http.get(f"/api/puzzles/{pid}")
            return r.json() if r.status_code == 200 else None

        shown = wait_until(served, 60, f"the mined puzzle {pid}", every=0.3)
        assert shown["position"] == puzzle.position and shown["theme"] == puzzle.theme
        assert "solution" not in shown


def test_no_review_of_a_game_with_hidden_cards_or_before_the_end(api: Api) -> None:
    created = api.create(game="quatrefoil", seats=["human"] * 4, seed=3)
    tid = created["id"]
    r = api.http.get(f"/api/tables/{tid}/review")
    assert r.status_code == 409 and "over" in r.json()["error"]
    r = api.http.get(f"/api/tables/{tid}/review/picture", params={"ply": 1})
    assert r.status_code == 409
    r = api.http.get("/api/tables/nosuchtable1/review")
    assert r.status_code == 404
