"""The Quatrefoil solver, checked against an independent method and the engine."""

from __future__ import annotations

import json
from itertools import permutations

import pytest

import fourfold
from fourfold.cli.main import main
from fourfold.core.outcome import Result
from fourfold.games.quatrefoil import ACTION_NAMES, ALL_ARRANGEMENTS, act, format_arrangement
from fourfold.games.quatrefoil.solver import distance_table, optimum, solve
from fourfold.games.quatrefoil.state import Deal, QuatrefoilState

# -- an independent model of the quatrefoil: a 2x2 grid of (row, column) cells --------

CELL = {"NW": (0, 0), "NE": (0, 1), "SW": (1, 0), "SE": (1, 1)}


def slide(grid: dict[tuple[int, int], str], free: str, side: str, corner: str
          ) -> tuple[dict[tuple[int, int], str], str]:
    """Push ``free`` into ``corner`` from ``side`` by moving a row or column one cell."""
    r, c = CELL[corner]
    step = {"W": (0, 1), "E": (0, -1), "N": (1, 0), "S": (-1, 0)}[side]
    far = (r + step[0], c + step[1])
    new = dict(grid)
    new[(r, c)] = free
    new[far] = grid[(r, c)]
    return new, grid[far]


def twist(grid: dict[tuple[int, int], str], clockwise: bool) -> dict[tuple[int, int], str]:
    # Clockwise about the centre maps (row, col) to (col, 1 - row).
    if clockwise:
        return {(c, 1 - r): t for (r, c), t in grid.items()}
    return {(1 - c, r): t for (r, c), t in grid.items()}


def neighbours(text: str) -> list[str]:
    tokens, free = text[:4], text[5]
    names = ("NW", "NE", "SW", "SE")
    grid = {CELL[name]: tokens[i] for i, name in enumerate(names)}
    results: list[tuple[dict[tuple[int, int], str], str]] = []
    for action in ACTION_NAMES[:8]:
        side, corner = action.split(">")
        results.append(slide(grid, free, side, corner))
    for clockwise in (True, False):
        results.append((twist(grid, clockwise), free))
    return ["".join(g[CELL[n]] for n in names) + "/" + f for g, f in results]


def floyd_warshall() -> dict[tuple[str, str], int]:
    nodes = ["".join(p[:4]) + "/" + p[4] for p in permutations("BGPRY")]
    index = {n: i for i, n in enumerate(nodes)}
    inf = 10**9
    n = len(nodes)
    d = [[inf] * n for _ in range(n)]
    for i, node in enumerate(nodes):
        d[i][i] = 0
        for other in neighbours(node):
            d[i][index[other]] = 1
    for k in range(n):
        dk = d[k]
        for i in range(n):
            dik = d[i][k]
            if dik == inf:
                continue
            di = d[i]
            for j in range(n):
                if dik + dk[j] < di[j]:
                    di[j] = dik + dk[j]
    return {(a, b): d[index[a]][index[b]] for a in nodes for b in nodes}


def test_all_120x120_distances_agree_with_floyd_warshall() -> None:
    other = floyd_warshall()
    table = distance_table()
    names = [format_arrangement(a) for a in ALL_ARRANGEMENTS]
    assert len(other) == 120 * 120
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            assert table[i][j] == other[(a, b)], (a, b)


def test_independent_model_agrees_with_the_engine_on_every_edge() -> None:
    for arrangement in ALL_ARRANGEMENTS:
        text = format_arrangement(arrangement)
        engine = [format_arrangement(act(arrangement, a)) for a in range(10)]
        assert neighbours(text) == engine


def test_every_solution_is_shortest_and_wins_in_the_engine() -> None:
    game = fourfold.load("quatrefoil", "nothing-to-hide")
    table = distance_table()
    for i, start in enumerate(ALL_ARRANGEMENTS):
        for j, goal in enumerate(ALL_ARRANGEMENTS):
            actions = solve(start, goal)
            assert len(actions) == table[i][j] + 1 == optimum(start, goal)
            assert actions[-1] == ACTION_NAMES.index("stack")
            if i == j or j % 7:
                continue  # replay a sample through the engine (the full grid is slow-ish)
            state = QuatrefoilState(Deal(goal, (0, 1, 2, 3)), start)
            for a in actions:
                state = game.play(state, ACTION_NAMES[a])
            outcome = game.outcome(state)
            assert outcome is not None and outcome.result is Result.TEAM_WIN


def test_distance_profile() -> None:
    counts: dict[int, int] = {}
    for row in distance_table():
        for d in row:
            counts[d] = counts.get(d, 0) + 1
    # Every arrangement reaches every other in at most four moves.
    assert counts == {0: 120, 1: 1200, 2: 6360, 3: 6480, 4: 240}


def test_solve_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "quatrefoil", "--start", "RGBY/P", "--solution", "YBRG/P"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "RGBY/P -> YBRG/P: 4 actions (3 moves, then stack)"
    assert out[1].split()[-1] == "stack"
    assert main(["solve", "quatrefoil", "--start", "RGBY/P", "--solution", "YBRG/P",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["length"] == 4 and data["actions"][-1] == "stack"
    state = ALL_ARRANGEMENTS[[format_arrangement(a) for a in ALL_ARRANGEMENTS].index("RGBY/P")]
    for name in data["actions"][:-1]:
        state = act(state, ACTION_NAMES.index(name))
    assert format_arrangement(state) == "YBRG/P"
    # already solved: one action, said in the singular
    assert main(["solve", "quatrefoil", "--start", "RGBY/P", "--solution", "RGBY/P"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == (
        "RGBY/P -> RGBY/P: 1 action (0 moves, then stack)")
    assert main(["solve", "quatrefoil", "--start", "RGBY/X", "--solution", "YBRG/P"]) == 2
    assert "not a token" in capsys.readouterr().err
