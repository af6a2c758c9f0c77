"""Fitting a notional 4x4 grid (Folio freeform): every generated fitting position is
recognised, positions no grid fits are refused, and every grid shown really fits."""

from __future__ import annotations

import cmath
import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fourfold.cli.main import main
from fourfold.games.folio.freeform import fit_bounds
from fourfold.games.folio.freeform.fitting import (
    HALF,
    REFUSED,
    TOLERANCE,
    UNDECIDED,
    Grid,
    Point,
    Table,
    check,
    convex,
    fit,
    fits,
    grids,
    solve,
)

ALL_CELLS = [(c, r) for c in range(4) for r in range(4)]


def generate(
    rng: random.Random, n: int, jitter: float, *, tolerance: float = TOLERANCE,
    scale: tuple[float, float] = (1.0, 2.2), margin: float = 0.25,
) -> tuple[list[Point], list[tuple[int, int]]]:
    """``n`` points near cell centres of a random grid (turned, scaled, moved) that lies on
    the side-16 table centred on the first point, each within ``jitter * t * s`` of its
    centre; and their cells."""
    while True:
        s = rng.uniform(*scale)
        z = s * cmath.exp(1j * rng.uniform(0, 2 * math.pi))
        cells = rng.sample(ALL_CELLS, n)
        origin = complex(rng.uniform(-9, 5), rng.uniform(-9, 5))
        pts = [
            origin + z * complex(c + 0.5, r + 0.5)
            + cmath.rect(rng.uniform(0, jitter * tolerance * s), rng.uniform(0, 2 * math.pi))
            for c, r in cells
        ]
        first = pts[0]
        corners = [origin - first + z * k for k in (0, 4, 4j, 4 + 4j)]
        if all(max(abs(c.real), abs(c.imag)) <= 8 - margin for c in corners):
            return [(p.real - first.real, p.imag - first.imag) for p in pts], cells


def assert_fits(points: list[Point], tolerance: float = TOLERANCE) -> Grid:
    grid = fit(points, tolerance)
    assert grid is not None, points
    assert check(grid, points, tolerance, Table(points[0])) is None
    assert 0 <= grid.angle < math.pi / 2
    return grid


@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(2, 16),
    jitter=st.floats(0.0, 0.5),
)
def test_positions_near_cell_centres_are_recognised(seed: int, n: int, jitter: float) -> None:
    points, _ = generate(random.Random(seed), n, jitter)
    assert_fits(points)


@pytest.mark.parametrize("n", [3, 6, 9, 12, 16])
def test_positions_with_errors_up_to_the_tolerance_are_recognised(n: int) -> None:
    """Every point as far as 0.97 t from its centre: the generating grid fits, so a grid
    must be found (the search is exact, not just good with a margin)."""
    rng = random.Random(n)
    for _ in range(40):
        points, _ = generate(rng, n, 0.97)
        assert_fits(points)


@pytest.mark.parametrize("tolerance", [0.1, 0.25, 0.3])
def test_other_tolerances(tolerance: float) -> None:
    rng = random.Random(int(tolerance * 100))
    for n in (4, 10, 16):
        points, _ = generate(rng, n, 0.5, tolerance=tolerance)
        assert_fits(points, tolerance)


def test_the_fit_is_deterministic() -> None:
    points, _ = generate(random.Random(5), 9, 0.5)
    assert fit(points) == fit(list(points)) == fit(points)


def test_the_whole_grid_is_found_for_sixteen_pieces() -> None:
    """With all 16 cells filled the grid is pinned: the cells found are the generating
    cells up to a quarter turn of the labels."""
    rng = random.Random(16)
    for _ in range(10):
        points, cells = generate(rng, 16, 0.5)
        grid = assert_fits(points)
        turns = []
        for _turn in range(4):
            turns.append(cells)
            cells = [(3 - r, c) for c, r in cells]
        assert list(grid.cells) in turns


# -- positions no grid fits -------------------------------------------------------------


@pytest.mark.parametrize("spacing", [1.0, 1.3, 2.0, 2.6])
def test_five_collinear_pieces_never_fit(spacing: float) -> None:
    points = [(i * spacing, 0.0) for i in range(5)]
    assert fit(points) is None
    turned = [(x * math.cos(0.4) - y * math.sin(0.4), x * math.sin(0.4)) for x, y in points]
    assert fit(turned) is None


def block_3x3(rng: random.Random, jitter: float) -> tuple[list[Point], Grid]:
    if True:
        s = rng.uniform(1.0, 1.8)
        angle = rng.uniform(0, math.pi / 2)
        grid = Grid((-0.5 * s * (math.cos(angle) - math.sin(angle)),
                     -0.5 * s * (math.sin(angle) + math.cos(angle))), angle, s, ())
        cells = [(c, r) for r in range(3) for c in range(3)]
        pts = []
        for cell in cells:
            x, y = grid.centre(cell)
            e = cmath.rect(rng.uniform(0, jitter * TOLERANCE * s), rng.uniform(0, 2 * math.pi))
            pts.append((x + e.real, y + e.imag))
        return pts, grid


@pytest.mark.parametrize("seed", range(8))
def test_a_piece_where_four_cells_meet_never_fits(seed: int) -> None:
    rng = random.Random(seed)
    pts, grid = block_3x3(rng, 0.3)
    assert_fits(pts)
    corner = grid.point(rng.choice([1, 2]), rng.choice([1, 2]))  # inside the 3x3 block
    assert fit([*pts, corner]) is None


def test_pieces_in_one_place_or_off_the_table_never_fit() -> None:
    assert fit([(0.0, 0.0), (1.0, 0.0), (1.0, 0.0)]) is None
    # a piece at the table's edge: its cell (side >= 1) would hang over the edge
    assert fit([(0.0, 0.0), (7.9, 0.0)]) is None
    # the same two pieces fit on a bigger table
    assert fit([(0.0, 0.0), (7.9, 0.0)], table=Table((0.0, 0.0), 40.0)) is not None


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(3, 12))
def test_every_grid_returned_really_fits(seed: int, n: int) -> None:
    """Random points: whatever the answer, a grid returned passes the independent check."""
    rng = random.Random(seed)
    points = [(0.0, 0.0)] + [(rng.uniform(-3, 3), rng.uniform(-3, 3)) for _ in range(n - 1)]
    grid = fit(points)
    if grid is not None:
        assert check(grid, points, TOLERANCE, Table(points[0])) is None


def test_a_moved_point_breaks_a_full_grid() -> None:
    """Sixteen pieces on a grid, then one moved by 0.6 cell: nothing fits any more."""
    rng = random.Random(3)
    points, _ = generate(rng, 16, 0.2)
    grid = assert_fits(points)
    x, y = points[7]
    u, v = grid.locate(x, y)
    moved = grid.point(u + 0.6, v) if u < 3 else grid.point(u - 0.6, v)
    assert fit([*points[:7], moved, *points[8:]]) is None


# -- several grids ----------------------------------------------------------------------


def test_two_points_fit_different_grids() -> None:
    """Two pieces 2.0 apart: neighbours at scale 2, or two cells apart at scale 1."""
    found = list(grids([(0.0, 0.0), (2.0, 0.0)]))
    for grid in found:
        assert check(grid, [(0.0, 0.0), (2.0, 0.0)], TOLERANCE, Table()) is None
    scales = sorted({round(g.scale, 6) for g in found})
    assert len(found) >= 2 and scales[0] <= 1.2 and scales[-1] >= 1.8


def test_three_in_a_row_fit_a_row_or_a_spread_row() -> None:
    points = [(0.0, 0.0), (2.0, 0.0), (4.0, 0.0)]
    found = list(grids(points))
    spans = {max(c for c, _ in g.cells) - min(c for c, _ in g.cells) for g in found}
    spans |= {max(r for _, r in g.cells) - min(r for _, r in g.cells) for g in found}
    assert found and 2 in spans  # adjacent cells at scale 2 ...
    assert all(check(g, points, TOLERANCE, Table()) is None for g in found)
    # ... and no grid puts them two cells apart: that needs 5 columns
    assert 4 not in spans


def test_grids_filter_sees_every_assignment() -> None:
    """1.5 apart: a row at scale 1.5, or a diagonal at scale 1.06."""
    points = [(0.0, 0.0), (1.5, 0.0), (3.0, 0.0)]
    every = list(grids(points))
    rows = list(grids(points, want=lambda cells: len({r for _, r in cells}) == 1))
    assert 0 < len(rows) < len(every)


# -- the command ------------------------------------------------------------------------


def test_fit_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fit", "0,0 1.1,0.05 2,0 0,1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("fits\n") and "angle:" in out and "scale:" in out
    assert "1.1,0.05 " in out
    assert main(["fit", "0,0 1,0 2,0 3,0 4,0"]) == 1
    assert capsys.readouterr().out == "no fit\n"
    assert main(["fit", "0,0;1,0", "--tolerance", "0.1"]) == 0
    capsys.readouterr()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["fit", "0,0 1,x"], "not a decimal number"),
        (["fit", "0,0 1"], "a point is written x,y"),
        (["fit", ""], "no points"),
        (["fit", "0,0 1,0", "--tolerance", "0.7"], "tolerance"),
        (["fit", "0,0 1,0", "--table", "2"], "between 4"),
    ],
)
def test_fit_command_refuses_bad_input(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(args) == 2
    assert message in capsys.readouterr().err


def test_fits_agrees_with_fit() -> None:
    points, _ = generate(random.Random(1), 5, 0.3)
    assert fits(points) == (fit(points) is not None)


def test_the_convex_test_tells_refused_from_undecided() -> None:
    """``convex`` answers accepted, refused (certified) or undecided; ``solve`` shows a grid
    only when accepted, and ``fit_bounds.infeasible`` refutes only when refused."""
    ws = [HALF, 1 + HALF, 2 + HALF, 1 + 1j + HALF]
    square = convex([0j, 1, 1j, 1 + 1j], [HALF, 1 + HALF, 1j + HALF, 1 + 1j + HALF], 0.2)
    assert square.similarity == (1, HALF) and not square.refused
    assert convex([0j, 1], [HALF, 3 + HALF], 0.2) == REFUSED  # would need |q| = 3 > 1
    near = [0j, 1, 2, 1 + 1.55j]  # the best grid fits by a hair: two steps do not decide
    assert convex(near, ws, 0.2, steps=2) == UNDECIDED
    assert convex(near, ws, 0.2).similarity is not None
    assert solve(near, ws, 0.2) == convex(near, ws, 0.2).similarity
    far = [0j, 1, 2, 1 + 1.6j]  # no grid: two steps do not say so, the default steps do
    assert convex(far, ws, 0.2, steps=2) == UNDECIDED and solve(far, ws, 0.2) is None
    assert convex(far, ws, 0.2) == REFUSED
    assert not fit_bounds.infeasible(near, ws, 0.2)
    assert fit_bounds.infeasible([0j, 1], [HALF, 3 + HALF], 0.2)


@pytest.mark.parametrize("n", [2, 5, 16])
def test_grids_touching_the_table_edge_are_found(n: int) -> None:
    """Grids scaled so that a corner lies on the table's edge, errors up to 0.95 t: the
    search must squeeze them onto the table."""
    rng = random.Random(100 + n)
    found = 0
    while found < 25:
        u = cmath.exp(1j * rng.uniform(0, 2 * math.pi))
        cells = rng.sample(ALL_CELLS, n)
        errors = [cmath.rect(rng.uniform(0, 0.95 * TOLERANCE), rng.uniform(0, 2 * math.pi))
                  for _ in cells]
        unit = [u * (complex(c + 0.5, r + 0.5) + e) for (c, r), e in zip(cells, errors,
                                                                           strict=True)]
        corners = [u * k - unit[0] for k in (0, 4, 4j, 4 + 4j)]
        scale = (8 - 1e-7) / max(max(abs(c.real), abs(c.imag)) for c in corners)
        if scale < 1:
            continue
        found += 1
        points = [(p - unit[0]) * scale for p in unit]
        assert_fits([(p.real, p.imag) for p in points])
