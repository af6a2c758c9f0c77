"""Puzzle ratings as an attacker games them: a solver is a random id its browser makes,
and only its first try of a puzzle is rated, so minting ids would give one person
any number of rated tries (to push a puzzle's rating anywhere, and add rows without
end). An address starts at most ``NEW_SOLVERS_PER_HOUR`` rated solvers an hour; past
that, a new id's tries are answered but not rated. Real server on loopback; clients
bind 127.0.0.2 and 127.0.0.3. Every loop is bounded in count."""

from __future__ import annotations

import secrets
from pathlib import Path

from fourfold.server.limits import NEW_SOLVERS_PER_HOUR
from support.server import client_from, running


def test_made_up_solver_ids_stop_being_rated(tmp_path: Path) -> None:
    with running(tmp_path) as server, client_from("127.0.0.2", server.url) as http:
        first = http.get("/api/puzzles", params={"solver": secrets.token_hex(16)}).json()
        puzzle = first["id"]
        rated = []
        for _ in range(NEW_SOLVERS_PER_HOUR + 3):
            r = http.post(f"/api/puzzles/{puzzle}/solution",
                          json={"solver": secrets.token_hex(16), "step": 0})
            assert r.status_code == 200, r.text
            assert r.json()["solution"]  # the answer is given either way
            rated.append(r.json()["rated"] is not None)
        assert rated == [True] * NEW_SOLVERS_PER_HOUR + [False] * 3, rated
        seen = http.get(f"/api/puzzles/{puzzle}",
                        params={"solver": secrets.token_hex(16)}).json()
        assert seen["puzzle_rating"]["plays"] == NEW_SOLVERS_PER_HOUR
        # a solver already rated goes on being rated on other puzzles
        with client_from("127.0.0.3", server.url) as other:
            me = secrets.token_hex(16)
            r = other.post(f"/api/puzzles/{puzzle}/solution", json={"solver": me, "step": 0})
            assert r.json()["rated"] is not None  # another address has its own allowance
            second = other.get("/api/puzzles", params={"solver": me}).json()["id"]
            assert second != puzzle
            for _ in range(NEW_SOLVERS_PER_HOUR):  # spend the address's allowance
                other.post(f"/api/puzzles/{puzzle}/solution",
                           json={"solver": secrets.token_hex(16), "step": 0})
            r = other.post(f"/api/puzzles/{second}/solution", json={"solver": me, "step": 0})
            assert r.json()["rated"] is not None
