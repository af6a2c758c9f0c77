"""Does a 4x4 notional grid fit these points? (Folio freeform, RULES.md §1.)

A **grid** is the unit 4x4 grid rotated by ``angle``, scaled by ``scale >= 1``
and moved so that the outer corner of its cell ``a1`` (column 0, row 0) is at
``origin``. It **fits** a list of points when every point lies within
``tolerance * scale`` of the centre of its own cell, distinct points are in
distinct cells, and the whole grid (all four corners) lies on the table.

The search, and why its answers can be trusted
----------------------------------------------
Points are complex numbers ``p``. Seen from the grid, the similarity
``u = q p + b`` (``q = exp(-i angle) / scale``) maps the table into grid units,
where the cell in column ``c``, row ``r`` has its centre at
``w = (c + 1/2) + i (r + 1/2)``. With an assignment of points to cells fixed,
a grid fits exactly when

    |q p_k + b - w_k| <= t   for every point k     and     t |q| <= t   (scale >= 1),

a convex set of ``(q, b)``. The search is a finite choice of assignment
followed by a convex test.

1. *Assignments* (``leaves``). Only cells relative to the first point matter
   (the occupied block is placed in the 4x4 afterwards), and turning the
   labels a quarter turn gives the same grid. Let ``f`` be the point farthest
   from the first point, at distance ``D``. Its cell offset ``d_f`` is a
   non-zero integer vector with ``|d_f| <= D + 2t`` (two points' errors add up
   to ``2t`` and ``|q| <= 1``); up to a quarter turn it has ``x >= 1, y >= 0``,
   12 choices at most. Every pair ``(j, k)`` of points forces
   ``|q - (d_k - d_j) / (p_k - p_j)| <= 2t / |p_k - p_j|``. The search keeps an
   axis-parallel box that contains every such disc of the points assigned so
   far, so it holds every ``q`` that could still work, and it offers the next
   point (farthest first) every integer offset within ``2t`` of ``q (p_k - p_a)``
   (``p_a`` the first point) for some ``q`` in the box, except offsets
   already used or that would make the cells span more than four columns or
   rows. A candidate is dropped only
   when one of its pair discs misses the box. So the assignment of any fitting
   grid, turned to its canonical quarter turn, reaches a leaf: each of its
   offsets is offered (its true ``q`` is in the box) and no pair test drops it
   (its true ``q`` is in every disc). Leaves are distinct assignments.
2. *The convex test* (``convex``; ``solve`` reads it) minimises the largest of
   the ``n + 1`` norms ``|q p_k + b - w_k|`` and ``t |q|`` by Lawson's iteratively
   reweighted least squares, starting from plain least squares (whose grid, when it fits, is
   the most natural one to show). Every step yields an upper bound (the
   largest norm at its ``(q, b)``) and a certified lower bound: for weights ``lambda >= 0`` summing
   to 1, ``min max_k |r_k|^2 >= min sum_k lambda_k |r_k|^2``, and the step
   computes the right side exactly (a weighted least-squares solve). It stops
   with a grid as soon as the upper bound is at most ``t``, and rules the
   assignment out as soon as the lower bound exceeds ``t`` (by a relative
   ``1e-9``, far above rounding error). Lawson's weights converge to the
   optimal ones, so one of the two happens unless the best grid of that
   assignment misses or meets the tolerance by a hair (measured: always
   decided beyond a relative ``1e-3``, almost always beyond ``1e-5``); after
   ``MAX_STEPS`` such a knife-edge assignment is treated as not fitting (no
   grid can then be *shown*).
3. *The table.* For the ``(q, b)`` found, every placement of the occupied
   block inside the 4x4 is tried. If the grid hangs off the table in all of
   them, the assignment waits until every other assignment has been tried
   (``grids`` yields those first), and then the search squeezes it on: a
   placement is kept only if each corner can reach the table for some ``q``
   in the box (a necessary condition, ``_may_fit_table``); for a sample of
   rotations and scales (the solved one, slightly smaller grids of it, then
   5x5 and 9x9 points of the box) the translation is solved exactly
   (``_slide``: a point in the intersection of the error discs and the
   rectangle of translations that keep the corners on the table; the lowest
   point of that convex set is a disc bottom, a box corner, or a crossing of
   two boundaries, so testing those candidates decides it). This is the one
   place where the search is not exhaustive: a grid that stays on the table
   only at an unsampled rotation and scale, squeezed against the edge, can be
   missed. It concerns grids within a hair of the table's edge; tests with
   grids touching the edge exactly find every one.

Speed without changing an answer: ``_placed`` judges each placement with ``_fault``'s
own arithmetic written out (``_Placements``, the same floats) and builds a grid only for
one that passes; the squeeze runs ``_slide`` only on the rotations and scales that
``_may_slide`` (every sample at once in NumPy, a margin of ``1e-9`` for rounding) does not
rule out. Both decide exactly as the plain loops do (the differential check in
docs/envs.md compared every grid, in order).

Every grid returned is checked again from scratch (``check``), so a grid that
does not fit is never reported, whatever happens above.
"""

from __future__ import annotations

import cmath
import functools
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

Point = tuple[float, float]
Cell = tuple[int, int]

SIZE = 4  # the notional grid is 4x4
TOLERANCE = 0.2
MAX_TOLERANCE = 0.3
TABLE_SIDE = 16.0
SLACK = 1e-9  # relative slack of every comparison against the tolerance
MAX_STEPS = 500

HALF = complex(0.5, 0.5)
_CORNERS = (0j, complex(SIZE, 0), complex(0, SIZE), complex(SIZE, SIZE))
# one representative of every non-zero offset up to a quarter turn, shortest first
_FIRST_OFFSETS = tuple(
    sorted(
        (complex(x, y) for x in range(1, SIZE) for y in range(SIZE)),
        key=lambda d: (abs(d), d.real),
    )
)


@dataclass(frozen=True)
class Table:
    """The square table pieces and grids must lie on (side 16 around the first piece)."""

    centre: Point = (0.0, 0.0)
    side: float = TABLE_SIDE

    def holds(self, x: float, y: float) -> bool:
        h = self.side / 2 * (1 + SLACK) + SLACK
        return abs(x - self.centre[0]) <= h and abs(y - self.centre[1]) <= h


@dataclass(frozen=True)
class Grid:
    """A notional grid and the cell (column, row) of each fitted point, in input order.

    ``angle`` is in radians, ``0 <= angle < pi/2`` (a quarter turn relabels the
    cells, so every grid has one such description).
    """

    origin: Point
    angle: float
    scale: float
    cells: tuple[Cell, ...]

    @property
    def degrees(self) -> float:
        return math.degrees(self.angle)

    @functools.cached_property
    def _turn(self) -> tuple[float, float]:
        return math.cos(self.angle), math.sin(self.angle)

    def point(self, u: float, v: float) -> Point:
        """The table position of grid coordinates ``(u, v)`` (cell a1 spans 0..1)."""
        c, s = self._turn
        u, v = u * self.scale, v * self.scale
        return self.origin[0] + u * c - v * s, self.origin[1] + u * s + v * c

    def centre(self, cell: Cell) -> Point:
        return self.point(cell[0] + 0.5, cell[1] + 0.5)

    def corners(self) -> tuple[Point, ...]:
        return tuple(self.point(z.real, z.imag) for z in _CORNERS)

    def locate(self, x: float, y: float) -> tuple[float, float]:
        """Grid coordinates ``(u, v)`` of a table position (inverse of ``point``)."""
        c, s = self._turn
        dx, dy = x - self.origin[0], y - self.origin[1]
        return (dx * c + dy * s) / self.scale, (-dx * s + dy * c) / self.scale

    def describe(self) -> str:
        """``origin (x, y), angle a deg, scale s; cells a1 b3 ...`` for people and logs."""
        cells = " ".join(cell_name(c) for c in self.cells)
        return (
            f"origin ({fmt(self.origin[0])}, {fmt(self.origin[1])}), angle"
            f" {self.degrees:.2f} deg, scale {self.scale:.4f}; cells {cells or '-'}"
        )


def fmt(value: float, places: int = 4) -> str:
    text = f"{value:.{places}f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def cell_name(cell: Cell) -> str:
    """Cells are named like a board: columns a..d, rows 1..4 (``a1`` is column 0, row 0)."""
    return f"{'abcd'[cell[0]]}{cell[1] + 1}"


def check(
    grid: Grid, points: Sequence[Point], tolerance: float = TOLERANCE, table: Table | None = None
) -> str | None:
    """Why ``grid`` does not fit ``points`` (checked from scratch), or ``None`` if it does."""
    fault = _fault(grid, points, tolerance, table)
    return None if fault is None else fault()


def _fault(
    grid: Grid, points: Sequence[Point], tolerance: float, table: Table | None
) -> Callable[[], str] | None:
    """``check``'s test, the reason written only when asked (the search tests many grids
    that do not fit, and reads no reason)."""
    if len(grid.cells) != len(points):
        return lambda: f"the grid places {len(grid.cells)} points, not {len(points)}"
    if grid.scale < 1 - SLACK:
        return lambda: f"scale {grid.scale:.6f} is below 1"
    for cell in grid.cells:
        if not (0 <= cell[0] < SIZE and 0 <= cell[1] < SIZE):
            return lambda: f"cell {cell} is outside the 4x4 grid"
    if len(set(grid.cells)) != len(grid.cells):
        return lambda: "two points share a cell"
    limit = tolerance * grid.scale * (1 + SLACK)
    for (x, y), cell in zip(points, grid.cells, strict=True):
        cx, cy = grid.centre(cell)
        if math.hypot(x - cx, y - cy) > limit:
            return lambda: (
                f"point ({fmt(x)}, {fmt(y)}) is {math.hypot(x - cx, y - cy) / grid.scale:.4f}"
                f" cells from the centre of {cell_name(cell)} (tolerance {tolerance})"
            )
    if table is not None:
        for corner in grid.corners():
            if not table.holds(*corner):
                return lambda: (
                    f"grid corner ({fmt(corner[0])}, {fmt(corner[1])}) is off the table"
                )
    return None


def check_tolerance(tolerance: float) -> float:
    if not (isinstance(tolerance, (int, float)) and 0 < tolerance <= MAX_TOLERANCE):
        raise ValueError(f"the tolerance must be a number above 0 and at most {MAX_TOLERANCE}")
    return float(tolerance)


# -- public entry points ---------------------------------------------------------------------


def fit(
    points: Sequence[Point], tolerance: float = TOLERANCE, table: Table | None = None
) -> Grid | None:
    """A grid that fits ``points`` (on ``table``, default side 16 around the first point)."""
    return next(grids(points, tolerance, table), None)


def fits(points: Sequence[Point], tolerance: float = TOLERANCE, table: Table | None = None) -> bool:
    return fit(points, tolerance, table) is not None


def default_table(points: Sequence[Point]) -> Table:
    return Table(points[0] if points else (0.0, 0.0), TABLE_SIDE)


def grids(
    points: Sequence[Point],
    tolerance: float = TOLERANCE,
    table: Table | None = None,
    want: Callable[[tuple[Cell, ...]], bool] | None = None,
) -> Iterator[Grid]:
    """One fitting grid for every assignment of points to cells that some grid realises.

    ``want(cells)`` filters assignments before any grid is solved for; it sees
    the cells shifted so that the lowest column and row are 0 (a full row,
    column or diagonal spans the grid, so that is where it sits in every grid
    realising the assignment). Deterministic: same input, same grids, same order.
    """
    t = check_tolerance(tolerance)
    table = default_table(points) if table is None else table
    ps = [complex(x, y) for x, y in points]
    if len(ps) <= 1:
        grid = _single(ps, table)
        if grid is not None and (want is None or want(grid.cells)):
            yield grid
        return
    # grids that hang off the table and need squeezing on are tried after all the others
    # (those hanging least over the edge first)
    pending: list[tuple[float, int, Leaf, tuple[complex, complex]]] = []
    for leaf in leaves(ps, t):
        if want is not None and not want(normalised(leaf.offsets)):
            continue
        found = solve(ps, [d + HALF for d in leaf.offsets], t)
        if found is None:
            continue
        grid, overhang = _placed(ps, leaf.offsets, found, t, table)
        if grid is not None:
            yield grid
        else:
            pending.append((overhang, len(pending), leaf, found))
    pending.sort(key=lambda item: item[:2])
    for _, _, leaf, found in pending:
        grid = _squeezed(ps, leaf.offsets, found, t, table, leaf.box)
        if grid is not None:
            yield grid


def normalised(offsets: Sequence[complex]) -> tuple[Cell, ...]:
    x0 = min(int(d.real) for d in offsets)
    y0 = min(int(d.imag) for d in offsets)
    return tuple((int(d.real) - x0, int(d.imag) - y0) for d in offsets)


# -- assignments -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Leaf:
    """A candidate assignment: cell offsets relative to the first point, and a box
    ``(qx0, qx1, qy0, qy1)`` holding every ``q`` its pair constraints allow."""

    offsets: tuple[complex, ...]
    box: tuple[float, float, float, float]


def leaves(ps: list[complex], t: float) -> Iterator[Leaf]:
    n = len(ps)
    if len(set(ps)) != n:
        return  # two points in one place can never be in two cells
    rel = [p - ps[0] for p in ps]
    far = max(range(1, n), key=lambda k: (abs(rel[k]), -k))
    dist = abs(rel[far])
    order = sorted((k for k in range(1, n) if k != far), key=lambda k: (-abs(rel[k]), k))
    for d_far in _FIRST_OFFSETS:
        if abs(d_far) > (dist + 2 * t) * (1 + SLACK):
            continue
        qc = d_far / rel[far]
        qr = 2 * t / dist * (1 + SLACK)
        if abs(qc) - qr > 1 + SLACK:
            continue  # every grid for this offset would be smaller than scale 1
        box = (
            max(qc.real - qr, -1.0), min(qc.real + qr, 1.0),
            max(qc.imag - qr, -1.0), min(qc.imag + qr, 1.0),
        )
        if box[0] > box[1] or box[2] > box[3]:
            continue
        offsets: list[complex] = [0j] * n
        offsets[far] = d_far
        yield from _extend(ps, t, order, 0, offsets, [0, far], box)


def free_cells(
    ps: list[complex], t: float
) -> Iterator[tuple[Leaf, complex, tuple[complex, complex]]]:
    """``(leaf, free cell, similarity (q, b))`` for every assignment of the points to
    cells that a grid realises (ignoring the table's edge), and every free cell of the
    4x4 spans that hold it: where one more piece could go."""
    for leaf in leaves(ps, t):
        solved = solve(ps, [d + HALF for d in leaf.offsets], t)
        if solved is None:
            continue
        xs = [int(d.real) for d in leaf.offsets]
        ys = [int(d.imag) for d in leaf.offsets]
        used = set(leaf.offsets)
        for x in range(max(xs) - 3, min(xs) + 4):
            for y in range(max(ys) - 3, min(ys) + 4):
                w = complex(x, y)
                if w not in used:
                    yield leaf, w, solved


def _extend(
    ps: list[complex],
    t: float,
    order: list[int],
    depth: int,
    offsets: list[complex],
    assigned: list[int],
    box: tuple[float, float, float, float],
) -> Iterator[Leaf]:
    if depth == len(order):
        yield Leaf(tuple(offsets), box)
        return
    k = order[depth]
    qx0, qx1, qy0, qy1 = box
    qc = complex((qx0 + qx1) / 2, (qy0 + qy1) / 2)
    half_diagonal = math.hypot(qx1 - qx0, qy1 - qy0) / 2
    rel = ps[k] - ps[0]
    guess = qc * rel
    reach = half_diagonal * abs(rel) + 2 * t * (1 + SLACK) + SLACK
    xs = [int(offsets[j].real) for j in assigned]
    ys = [int(offsets[j].imag) for j in assigned]
    x_lo = max(math.ceil(guess.real - reach), max(xs) - SIZE + 1)
    x_hi = min(math.floor(guess.real + reach), min(xs) + SIZE - 1)
    y_lo = max(math.ceil(guess.imag - reach), max(ys) - SIZE + 1)
    y_hi = min(math.floor(guess.imag + reach), min(ys) + SIZE - 1)
    used = {offsets[j] for j in assigned}
    candidates = [
        complex(x, y)
        for x in range(x_lo, x_hi + 1)
        for y in range(y_lo, y_hi + 1)
        if complex(x, y) not in used and abs(complex(x, y) - guess) <= reach
    ]
    candidates.sort(key=lambda d: (abs(d - guess), d.real, d.imag))
    for d in candidates:
        nb = _constrain(ps, t, offsets, assigned, k, d, box)
        if nb is None:
            continue
        offsets[k] = d
        assigned.append(k)
        yield from _extend(ps, t, order, depth + 1, offsets, assigned, nb)
        assigned.pop()
        offsets[k] = 0j


def _constrain(
    ps: list[complex],
    t: float,
    offsets: list[complex],
    assigned: list[int],
    k: int,
    d: complex,
    box: tuple[float, float, float, float],
) -> tuple[float, float, float, float] | None:
    """The box shrunk by the pair discs of point ``k`` at offset ``d``; ``None`` if one misses."""
    x0, x1, y0, y1 = box
    for j in assigned:
        dp = ps[k] - ps[j]
        c = (d - offsets[j]) / dp
        r = 2 * t / abs(dp) * (1 + SLACK) + SLACK
        nx = min(max(c.real, x0), x1)
        ny = min(max(c.imag, y0), y1)
        if math.hypot(c.real - nx, c.imag - ny) > r:
            return None
        x0, x1 = max(x0, c.real - r), min(x1, c.real + r)
        y0, y1 = max(y0, c.imag - r), min(y1, c.imag + r)
    return x0, x1, y0, y1


# -- the convex test -------------------------------------------------------------------------


@dataclass(frozen=True)
class Convex:
    """The convex test's answer for one assignment, one of three: ``similarity``, a
    ``(q, b)`` that fits (then ``refused`` is false); ``refused``, certified infeasible (its
    lower bound is above the tolerance); or neither: undecided within the steps allowed."""

    similarity: tuple[complex, complex] | None = None
    refused: bool = False


UNDECIDED = Convex()
REFUSED = Convex(refused=True)


def convex(
    ps: Sequence[complex], ws: Sequence[complex], t: float,
    margin: float = 2 * SLACK, steps: int = MAX_STEPS,
) -> Convex:
    """Lawson's iteration for one assignment (see the module): accepted as soon as the
    largest norm is within ``t (1 + SLACK)``, refused as soon as the certified lower bound
    of its square exceeds ``t^2 (1 + margin)``, otherwise undecided after ``steps`` steps.

    ``solve`` reads it with the search's own slack; ``fit_bounds`` asks for a refusal with
    a wider margin and fewer steps, and must tell a refusal from an undecided answer."""
    n = len(ps)
    tt = t * t
    accept = t * (1 + SLACK)
    refuse = tt * (1 + margin)
    # the plain least-squares grid first: when it fits, it is the most natural one to show
    lam = [1.0 / n] * n
    lam_s = 0.0
    for step in range(steps):
        total = sum(lam)
        pm = sum(wt * p for wt, p in zip(lam, ps, strict=True)) / total
        wm = sum(wt * w for wt, w in zip(lam, ws, strict=True)) / total
        num = 0j
        den = lam_s * tt
        for wt, p, w in zip(lam, ps, ws, strict=True):
            dp = p - pm
            num += wt * dp.conjugate() * (w - wm)
            den += wt * (dp.real * dp.real + dp.imag * dp.imag)
        if den <= 0:
            return UNDECIDED
        q = num / den
        b = wm - q * pm
        res = [abs(q * p + b - w) for p, w in zip(ps, ws, strict=True)]
        rs = t * abs(q)
        if max(max(res), rs) <= accept:
            return Convex((q, b))
        lower = (sum(wt * r * r for wt, r in zip(lam, res, strict=True)) + lam_s * rs * rs) / (
            total + lam_s
        )
        if lower > refuse:
            return REFUSED
        if step == 0:
            lam, lam_s = [1.0 / (n + 1)] * n, 1.0 / (n + 1)
            continue
        lam = [wt * r for wt, r in zip(lam, res, strict=True)]
        lam_s *= rs
        norm = sum(lam) + lam_s
        if norm <= 0:
            return UNDECIDED
        lam = [wt / norm for wt in lam]
        lam_s /= norm
    return UNDECIDED


def solve(ps: Sequence[complex], ws: Sequence[complex], t: float) -> tuple[complex, complex] | None:
    """``(q, b)`` with every ``|q p + b - w| <= t`` and ``|q| <= 1``, or ``None`` (see module):
    a refused assignment and an undecided one (a knife edge) alike show no grid."""
    return convex(ps, ws, t).similarity


# -- placing the grid on the table -----------------------------------------------------------


def realise(
    ps: Sequence[complex],
    offsets: Sequence[complex],
    t: float,
    table: Table,
    box: tuple[float, float, float, float] | None = None,
) -> Grid | None:
    """A fitting grid with exactly this assignment (cell offsets), or ``None``.

    ``box`` bounds the ``q`` that the assignment allows (from the search); it
    guides the search for a grid on the table when the best-fitting one is not.
    """
    found = solve(ps, [d + HALF for d in offsets], t)
    if found is None:
        return None
    return _placed(ps, offsets, found, t, table)[0] or _squeezed(
        ps, offsets, found, t, table, box
    )


def _placed(
    ps: Sequence[complex],
    offsets: Sequence[complex],
    found: tuple[complex, complex],
    t: float,
    table: Table,
) -> tuple[Grid | None, float]:
    """The solved grid in the first placement of the occupied block that is on the table;
    else ``None`` and how far the best placement's corners reach over the table's edge.

    Every placement is judged as ``_fault`` judges ``_grid(q, b, offsets, shift)``, with
    the same arithmetic written out (``_Placements``: no grid is built for a placement
    that fails); a placement that passes is checked once more by ``_fault`` itself."""
    q, b = found
    if abs(q) > 1:
        q /= abs(q)
    points = [(p.real, p.imag) for p in ps]
    overhang = math.inf
    places = _Placements(q, b, table)
    if places.scale < 1 - SLACK:  # _fault's first refusal, the same for every placement
        return None, min(places.overhang(places.corners(shift)) for shift in _shifts(offsets))
    limit = t * places.scale * (1 + SLACK)
    # the points' distances to their cell centres do not depend on the placement (the
    # grid moves with the block) but for rounding: settled once unless within 1e-6
    shifts = _shifts(offsets)
    worst = max(places.distances(points, offsets, shifts[0]))
    settled = not limit * (1 - 1e-6) < worst <= limit * (1 + 1e-6)
    for shift in shifts:
        if settled:
            close = worst <= limit
        else:
            close = max(places.distances(points, offsets, shift)) <= limit
        corners = places.corners(shift)
        if close and all(table.holds(x, y) for x, y in corners):
            grid = _grid(q, b, offsets, shift)
            if _fault(grid, points, t, table) is None:
                return grid, 0.0
        overhang = min(overhang, places.overhang(corners))
    return None, overhang


class _Placements:
    """``_grid(q, b, offsets, shift)`` and ``Grid.point`` for every ``shift`` of one
    similarity, without building the grids: the rotation, scale and quarter turns are
    worked out once; each placement's origin, cell centres and corners come out of the
    same operations, in the same order, as ``_grid`` and ``Grid.point`` perform (so the
    same floats)."""

    def __init__(self, q: complex, b: complex, table: Table) -> None:
        z = 1 / q
        self.z, self.b = z, b
        angle = cmath.phase(z) % (2 * math.pi)
        self.scale = scale = abs(z)
        self.moves: list[complex] = []
        while angle >= math.pi / 2 - 1e-12:
            angle -= math.pi / 2
            if angle < 0:
                angle = 0.0
            self.moves.append(SIZE * scale * cmath.exp(1j * angle))
        self.turns = len(self.moves)
        self.cos, self.sin = math.cos(angle), math.sin(angle)
        self.table = table
        self.half = table.side / 2

    def origin(self, shift: complex) -> tuple[float, float]:
        origin = (-shift - self.b) * self.z
        for move in self.moves:
            origin -= move
        return origin.real, origin.imag

    def point(self, origin: tuple[float, float], u: float, v: float) -> tuple[float, float]:
        c, s = self.cos, self.sin
        u, v = u * self.scale, v * self.scale
        return origin[0] + u * c - v * s, origin[1] + u * s + v * c

    def cell(self, d: complex, shift: complex) -> tuple[int, int]:
        c, r = int(d.real + shift.real), int(d.imag + shift.imag)
        for _ in range(self.turns):
            c, r = SIZE - 1 - r, c
        return c, r

    def distances(
        self, points: Sequence[Point], offsets: Sequence[complex], shift: complex
    ) -> list[float]:
        origin = self.origin(shift)
        found = []
        for (x, y), d in zip(points, offsets, strict=True):
            c, r = self.cell(d, shift)
            cx, cy = self.point(origin, c + 0.5, r + 0.5)
            found.append(math.hypot(x - cx, y - cy))
        return found

    def corners(self, shift: complex) -> list[tuple[float, float]]:
        origin = self.origin(shift)
        return [self.point(origin, k.real, k.imag) for k in _CORNERS]

    def overhang(self, corners: list[tuple[float, float]]) -> float:
        """How far these corners reach over the table's edge (``_placed``'s order key)."""
        cx, cy = self.table.centre
        return max(max(abs(x - cx), abs(y - cy)) - self.half for x, y in corners)


def _squeezed(
    ps: Sequence[complex],
    offsets: Sequence[complex],
    found: tuple[complex, complex],
    t: float,
    table: Table,
    box: tuple[float, float, float, float] | None,
) -> Grid | None:
    """A grid for the assignment that stays on the table when the solved one does not:
    the translation solved exactly for a few rotations and scales (see the module)."""
    ws = [d + HALF for d in offsets]
    points = [(p.real, p.imag) for p in ps]
    shifts = [
        s for s in _shifts(offsets)
        if all(_may_fit_table(p, w, s, t, table, box) for p, w in zip(ps, ws, strict=True))
    ]
    if not shifts:
        return None
    samples = _table_samples(found[0], box)
    for k in np.flatnonzero(_may_slide(samples, ps, ws, shifts, t, table)).tolist():
        qq = samples[k]
        for shift, b2 in _slide(qq, ps, ws, shifts, t, table):
            grid = _grid(qq, b2, offsets, shift)
            if _fault(grid, points, t, table) is None:
                return grid
    return None


def _may_fit_table(
    p: complex,
    w: complex,
    shift: complex,
    t: float,
    table: Table,
    box: tuple[float, float, float, float] | None,
) -> bool:
    """Whether a grid with this placement could lie on the table (a necessary condition).

    Every corner ``k`` of such a grid is at ``p + (k - shift - w - e) / q`` for the
    first point ``p`` in relative cell centre ``w``, an error ``|e| <= t`` and ``q``
    in the box; that lies within ``(t |q_c| + |v| r) / (m |q_c|)`` of
    ``p + v / q_c`` (``v = k - shift - w``, ``q_c`` the box centre, ``r`` its
    half-diagonal, ``m`` the least ``|q|`` in it), and must reach the table.
    """
    if box is None:
        return True
    x0, x1, y0, y1 = box
    qc = complex((x0 + x1) / 2, (y0 + y1) / 2)
    r = math.hypot(x1 - x0, y1 - y0) / 2
    m = math.hypot(max(x0, 0.0, -x1), max(y0, 0.0, -y1))
    if m <= 0 or qc == 0:
        return True
    half = table.side / 2
    cx, cy = table.centre
    for k in _CORNERS:
        v = k - shift - w
        centre = p + v / qc
        reach = (t * abs(qc) + abs(v) * r) / (m * abs(qc)) * (1 + SLACK) + SLACK
        gap_x = max(abs(centre.real - cx) - half, 0.0)
        gap_y = max(abs(centre.imag - cy) - half, 0.0)
        if math.hypot(gap_x, gap_y) > reach:
            return False
    return True


def _may_slide(
    samples: Sequence[complex],
    ps: Sequence[complex],
    ws: Sequence[complex],
    shifts: Sequence[complex],
    t: float,
    table: Table,
) -> npt.NDArray[np.bool_]:
    """For each rotation and scale ``q`` in ``samples``, whether ``_slide`` might find a
    translation for some placement: its bounding-square tests, for every sample and
    placement at once in NumPy, each passed unless it fails by more than ``1e-9`` (NumPy's
    rounding differs from Python's by far less), so a ``q`` marked ``False`` is one for
    which ``_slide`` yields nothing. The squeeze runs ``_slide`` itself on the others."""
    q = np.asarray(samples, dtype=np.complex128)
    m = np.abs(q)
    back = np.conj(q / m)
    p = np.asarray(ps, dtype=np.complex128)
    w = np.asarray(ws, dtype=np.complex128)
    discs = (w[None, :] - q[:, None] * p[None, :]) * back[:, None]
    dx0 = discs.real.max(axis=1) - t
    dx1 = discs.real.min(axis=1) + t
    dy0 = discs.imag.max(axis=1) - t
    dy1 = discs.imag.min(axis=1) + t
    slack = 1e-9
    possible = (dx0 <= dx1 + slack) & (dy0 <= dy1 + slack)
    half = (table.side / 2 * m)[:, None]
    corners = np.asarray(_CORNERS, dtype=np.complex128)
    start = np.asarray(shifts, dtype=np.complex128)
    qcentre = q * complex(*table.centre)
    c = ((corners[None, None, :] - start[None, :, None] - qcentre[:, None, None])
         * back[:, None, None])
    x0 = np.maximum(c.real.max(axis=2) - half, dx0[:, None])
    x1 = np.minimum(c.real.min(axis=2) + half, dx1[:, None])
    y0 = np.maximum(c.imag.max(axis=2) - half, dy0[:, None])
    y1 = np.minimum(c.imag.min(axis=2) + half, dy1[:, None])
    inside = (x0 <= x1 + slack) & (y0 <= y1 + slack)
    result: npt.NDArray[np.bool_] = possible & inside.any(axis=1)
    return result


def _table_samples(q: complex, box: tuple[float, float, float, float] | None) -> list[complex]:
    """Rotations and scales to try when the best-fitting grid hangs off the table: the
    best one and smaller grids of it first, then samples of the allowed box, 5x5 and
    then the 9x9 points not yet tried."""
    found = [q * f for f in (1.0, 1.05, 1.12, 1.25)]
    if box is not None:
        x0, x1, y0, y1 = box
        coarse = [(i, j) for i in range(0, 9, 2) for j in range(0, 9, 2)]
        fine = [(i, j) for i in range(9) for j in range(9) if i % 2 or j % 2]
        for group in (coarse, fine):
            level = [complex(x0 + (x1 - x0) * i / 8, y0 + (y1 - y0) * j / 8) for i, j in group]
            level.sort(key=lambda z: abs(z - q))
            found.extend(level)
    return [z for z in found if 0 < abs(z) <= 1]


def _shifts(offsets: Sequence[complex]) -> list[complex]:
    """Translations putting the occupied block inside the 4x4, most central first."""
    xs = [int(d.real) for d in offsets]
    ys = [int(d.imag) for d in offsets]
    found = [
        complex(x, y)
        for x in range(-min(xs), SIZE - max(xs))
        for y in range(-min(ys), SIZE - max(ys))
    ]
    mid = complex((SIZE - 1 - max(xs) - min(xs)) / 2, (SIZE - 1 - max(ys) - min(ys)) / 2)
    found.sort(key=lambda s: (abs(s - mid), s.real, s.imag))
    return found


def _grid(q: complex, b: complex, offsets: Sequence[complex], shift: complex) -> Grid:
    """The grid of the similarity ``u = q p + b`` with cells ``offset + shift``."""
    z = 1 / q
    origin = (-shift - b) * z
    angle = cmath.phase(z) % (2 * math.pi)
    cells = [(int(d.real + shift.real), int(d.imag + shift.imag)) for d in offsets]
    scale = abs(z)
    while angle >= math.pi / 2 - 1e-12:
        # a quarter turn of the labels: cell (c, r) becomes (3 - r, c)
        angle -= math.pi / 2
        if angle < 0:
            angle = 0.0
        origin -= SIZE * scale * cmath.exp(1j * angle)
        cells = [(SIZE - 1 - r, c) for c, r in cells]
    return Grid((origin.real, origin.imag), angle, scale, tuple(cells))


def _slide(
    q: complex,
    ps: Sequence[complex],
    ws: Sequence[complex],
    shifts: Sequence[complex],
    t: float,
    table: Table,
) -> Iterator[tuple[complex, complex]]:
    """For each placement (shift) in turn, a translation ``b`` that keeps every error within
    ``t`` and the grid with rotation and scale ``q`` on the table, where one exists."""
    m = abs(q)
    if m == 0:
        return
    unit = q / m
    back = unit.conjugate()
    discs = [(w - q * p) * back for p, w in zip(ps, ws, strict=True)]
    # the discs' common bounding square: a quick refusal for every placement
    dx0 = max(c.real for c in discs) - t
    dx1 = min(c.real for c in discs) + t
    dy0 = max(c.imag for c in discs) - t
    dy1 = min(c.imag for c in discs) + t
    if dx0 > dx1 or dy0 > dy1:
        return
    centre = complex(*table.centre)
    half = table.side / 2 * m
    k0, k1, k2, k3 = _CORNERS
    qcentre = q * centre
    for shift in shifts:
        # the four corners' centres (k - shift - q centre) * back, written out: this loop
        # runs for every sampled rotation and placement
        c0 = (k0 - shift - qcentre) * back
        c1 = (k1 - shift - qcentre) * back
        c2 = (k2 - shift - qcentre) * back
        c3 = (k3 - shift - qcentre) * back
        x0 = max(max(c0.real, c1.real, c2.real, c3.real) - half, dx0)
        x1 = min(min(c0.real, c1.real, c2.real, c3.real) + half, dx1)
        if x0 > x1:
            continue
        y0 = max(max(c0.imag, c1.imag, c2.imag, c3.imag) - half, dy0)
        y1 = min(min(c0.imag, c1.imag, c2.imag, c3.imag) + half, dy1)
        if y0 > y1:
            continue
        found = _disc_box_point(discs, t, (x0, x1, y0, y1))
        if found is not None:
            yield shift, found * unit


def _disc_box_point(
    discs: list[complex], r: float, box: tuple[float, float, float, float]
) -> complex | None:
    """A point in the box and in every disc of radius ``r``, or ``None`` if there is none."""
    x0, x1, y0, y1 = box
    limit = r * (1 + SLACK)

    def inside(z: complex) -> bool:
        if not (x0 - SLACK <= z.real <= x1 + SLACK and y0 - SLACK <= z.imag <= y1 + SLACK):
            return False
        return all(abs(z - c) <= limit for c in discs)

    candidates: list[complex] = [complex(x0, y0), complex(x1, y0), complex(x0, y1), complex(x1, y1)]
    candidates.extend(c - 1j * r for c in discs)
    for c in discs:
        for x in (x0, x1):
            dx = x - c.real
            if abs(dx) <= r:
                h = math.sqrt(r * r - dx * dx)
                candidates.extend((complex(x, c.imag - h), complex(x, c.imag + h)))
        for y in (y0, y1):
            dy = y - c.imag
            if abs(dy) <= r:
                h = math.sqrt(r * r - dy * dy)
                candidates.extend((complex(c.real - h, y), complex(c.real + h, y)))
    for i, a in enumerate(discs):
        for c in discs[i + 1:]:
            gap = abs(c - a)
            if gap == 0 or gap > 2 * r:
                continue
            mid = (a + c) / 2
            h = math.sqrt(max(r * r - gap * gap / 4, 0.0))
            perp = (c - a) / gap * 1j
            candidates.extend((mid + h * perp, mid - h * perp))
    for z in candidates:
        if inside(z):
            return z
    return None


def _single(ps: list[complex], table: Table) -> Grid | None:
    """No point: the scale-1 grid in the middle of the table. One point: a scale-1 grid
    with the point at a cell centre, the most central cell that keeps it on the table."""
    if not ps:
        cx, cy = table.centre
        grid = Grid((cx - SIZE / 2, cy - SIZE / 2), 0.0, 1.0, ())
        return grid if check(grid, [], TOLERANCE, table) is None else None
    p = ps[0]
    cells = sorted(
        ((c, r) for c in range(SIZE) for r in range(SIZE)),
        key=lambda cell: (abs(cell[0] - 1.5) + abs(cell[1] - 1.5), cell),
    )
    for cell in cells:
        grid = Grid((p.real - cell[0] - 0.5, p.imag - cell[1] - 0.5), 0.0, 1.0, (cell,))
        if check(grid, [(p.real, p.imag)], TOLERANCE, table) is None:
            return grid
    return None
