"""Folio freeform (RULES.md §1, "Freeform No Grid"): no grid at all.

Pieces go anywhere on the table at least 1.0 from every other piece; the
first at ``0,0``. A notional 4x4 grid must be able to hold them all
(``fitting``); a player may challenge instead of placing, and whoever broke
the grid first (or else the challenger) loses. A placement wins when some
grid that fits all the pieces has four of them, the new one included, on one
of its rows, columns or diagonals, and that line satisfies the line rule.

Dense actions: placement is continuous, so the action numbering covers the
points of the table whose coordinates are multiples of ``STEP`` (0.5);
``legal_moves`` lists the legal placements among them, while ``apply``
accepts any point written with up to six decimals.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from fourfold.core.errors import FourfoldError, NotationError, checked_action, read_part
from fourfold.core.game import PerfectInformation
from fourfold.core.outcome import Outcome
from fourfold.core.spec import GameInfo, OptionSpec, bool_option
from fourfold.games.folio.freeform import fit_bounds, fitting
from fourfold.games.folio.freeform.fit_bounds import TargetParts
from fourfold.games.folio.freeform.fitting import Cell, Grid, Table
from fourfold.games.folio.freeform.notation import (
    CHALLENGE_WORD,
    EMPTY,
    format_number,
    format_point,
    is_exact,
    parse_number,
    parse_point,
)
from fourfold.games.folio.freeform.state import CHALLENGE, FreeformPly, FreeformState, Point
from fourfold.games.folio.pieces import FolioPieces
from fourfold.games.placement import giving

MIN_DISTANCE = 1.0  # pieces may not overlap: one large pyramid's base width
STEP = 0.5  # spacing of the action lattice
LINES: tuple[tuple[Cell, ...], ...] = (
    tuple(tuple((c, r) for c in range(4)) for r in range(4))
    + tuple(tuple((c, r) for r in range(4)) for c in range(4))
    + (tuple((k, k) for k in range(4)), tuple((k, 3 - k) for k in range(4)))
)


def _parse_tolerance(value: Any) -> float:
    number = float(parse_number(str(value).strip())) if isinstance(value, str) else value
    if isinstance(number, bool) or not isinstance(number, (int, float)):
        raise ValueError("must be a number such as 0.2")
    return fitting.check_tolerance(float(number))


def _parse_table(value: Any) -> float:
    number = float(parse_number(str(value).strip())) if isinstance(value, str) else value
    if isinstance(number, bool) or not isinstance(number, (int, float)):
        raise ValueError("must be a number such as 16")
    if not 4 <= number <= 40:
        raise ValueError("the table side must be between 4 (one scale-1 grid) and 40")
    return float(number)


OPTIONS = (
    bool_option(
        "strict", False, "refuse placements that no notional grid can fit (casual play);"
        " by default such placements stand until someone challenges",
    ),
    OptionSpec(
        "tolerance", fitting.TOLERANCE,
        "how far a piece may be from the centre of its cell, in cells (0 < t <= 0.3)",
        _parse_tolerance, format=format_number,
    ),
    OptionSpec(
        "table", fitting.TABLE_SIDE,
        "side of the square table, centred on the first piece, in large-pyramid widths",
        _parse_table, format=format_number,
    ),
)


def too_close(distance: float) -> bool:
    """Whether two pieces this far apart overlap (1.0 apart is allowed, rounding aside)."""
    return distance < MIN_DISTANCE * (1 - 1e-12)


def line_through(
    cells: Sequence[Cell], kinds: Sequence[int], new: int, pieces: FolioPieces
) -> tuple[tuple[int, ...], str] | None:
    """A full row, column or diagonal holding point ``new`` that the line rule accepts:
    the indices of its four points and the rule's reason."""
    where = {cell: i for i, cell in enumerate(cells)}
    for line in LINES:
        if cells[new] in line and all(c in where for c in line):
            reason = pieces.winning_reason([kinds[where[c]] for c in line])
            if reason is not None:
                return tuple(where[c] for c in line), reason
    return None


@dataclass(frozen=True)
class Target:
    """Where a new piece could join one assignment of the pieces: the relative cell
    ``cell`` and discs (centre, radius) that must all hold the new point (a necessary
    condition, from the assignment's box of allowed ``q``)."""

    offsets: tuple[complex, ...]
    cell: complex
    discs: tuple[tuple[complex, float], ...]
    box: tuple[float, float, float, float]

    def admits(self, point: Point) -> bool:
        z = complex(*point)
        return all(abs(z - c) <= r for c, r in self.discs)


class FreeformGame(PerfectInformation[FreeformState, FreeformPly]):
    """Folio without a grid: continuous placement, challenges, lines on a notional grid."""

    def __init__(self, info: GameInfo) -> None:
        super().__init__(info)
        self.pieces = FolioPieces(info.options["line-rule"], info.options["extra"])
        self.strict: bool = info.options["strict"]
        self.tolerance: float = info.options["tolerance"]
        self.table = Table((0.0, 0.0), info.options["table"])
        half = math.floor(self.table.side / 2 / STEP + 1e-9)
        self.radius = half
        self.side = 2 * half + 1
        self.lattice: list[Point] = [
            ((i - half) * STEP + 0.0, (j - half) * STEP + 0.0)
            for j in range(self.side)
            for i in range(self.side)
        ]
        self._index = {p: i for i, p in enumerate(self.lattice)}
        self._lattice_xy = np.array(self.lattice, dtype=np.float64)
        self._lattice_z = self._lattice_xy[:, 0] + 1j * self._lattice_xy[:, 1]
        self._num_actions = (len(self.lattice) + 1) * (self.pieces.num_kinds + 1) + 1
        self._decoded: list[FreeformPly] = []
        self._moves_cache: dict[FreeformState, list[FreeformPly]] = {}
        self._after_cache: dict[tuple[FreeformState, Point], tuple[Outcome | None, int | None]] = {}
        self._won_cache: dict[tuple[FreeformState, Point], Outcome | None] = {}
        self._free_cache: dict[tuple[Point, ...], npt.NDArray[np.bool_]] = {}
        self._targets_cache: dict[tuple[FreeformState, bool], list[Target]] = {}
        self._leaf_cache: dict[FreeformState, list[Any]] = {}
        self._placements_cache: dict[
            FreeformState, tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]
        ] = {}

    # -- rules --------------------------------------------------------------------------
    def initial_state(self, seed: int | None = None) -> FreeformState:
        return FreeformState((), None, self.pieces.counts)

    def outcome(self, state: FreeformState) -> Outcome | None:
        if state.ended is not None:
            return state.ended
        return giving.ALL_PLACED if state.placed == self.pieces.total else None

    def to_move(self, state: FreeformState) -> int | None:
        if self.outcome(state) is not None:
            return None
        return giving.player_to_act(state.hand, state.placed)

    def grid(self, state: FreeformState) -> Grid | None:
        """A notional grid that fits every piece on the table, or ``None``."""
        return fitting.fit(state.points, self.tolerance, self.table)

    def _kinds(self, state: FreeformState) -> list[int]:
        return [k for _, _, k in state.pieces]

    def winning_grid(
        self, state: FreeformState, point: Point
    ) -> tuple[Grid, tuple[int, ...], str] | None:
        """A grid fitting all pieces with the one in hand at ``point`` that has a winning
        line through it: the grid, the line's piece indices and the rule's reason."""
        if state.hand is None or state.broken is not None or state.placed + 1 < 4:
            return None
        points = [*state.points, point]
        kinds = [*self._kinds(state), state.hand]
        new = len(points) - 1

        def want(cells: tuple[Cell, ...]) -> bool:
            return line_through(cells, kinds, new, self.pieces) is not None

        for grid in fitting.grids(points, self.tolerance, self.table, want):
            line = line_through(grid.cells, kinds, new, self.pieces)
            if line is not None:
                return grid, line[0], line[1]
        return None

    def won_at(self, state: FreeformState, point: Point) -> Outcome | None:
        """The win if placing the piece in hand at ``point`` wins, else ``None``."""
        key = (state, point)
        if key in self._won_cache:
            return self._won_cache[key]
        won = None
        if state.hand is not None and state.broken is None and state.placed + 1 >= 4 and (
            self._possible(state, point, True)
        ):
            won = self.winning_grid(state, point)
        outcome = None
        if won is not None:
            grid, line, reason = won
            cells = "-".join(fitting.cell_name(grid.cells[i]) for i in sorted(
                line, key=lambda i: (grid.cells[i][1], grid.cells[i][0])))
            outcome = Outcome.win(
                state.placed % 2,
                f"line of four {cells} with {reason} on the grid {grid.describe()}",
            )
        if len(self._won_cache) > 4096:
            self._won_cache.clear()
        self._won_cache[key] = outcome
        return outcome

    def after(self, state: FreeformState, point: Point) -> tuple[Outcome | None, int | None]:
        """The win (if the placement wins) and the ``broken`` count after placing at ``point``."""
        key = (state, point)
        if key in self._after_cache:
            return self._after_cache[key]
        outcome = self.won_at(state, point)
        broken = state.broken
        if outcome is None and broken is None and (
            not self._possible(state, point, False)
            or not fitting.fits([*state.points, point], self.tolerance, self.table)
        ):
            broken = state.placed + 1
        if len(self._after_cache) > 4096:
            self._after_cache.clear()
        self._after_cache[key] = (outcome, broken)
        return outcome, broken

    def place_reason(self, state: FreeformState, point: Point) -> str | None:
        x, y = point
        name = format_point(point)
        if not (is_exact(x) and is_exact(y)):
            return "coordinates are written with at most 6 decimal places; round them"
        if not state.pieces:
            return None if point == (0.0, 0.0) else "the first piece goes at the centre, 0.0,0.0"
        if not self.table.holds(x, y):
            h = format_number(self.table.side / 2)
            return f"{name} is off the table (a square from -{h} to {h} on each axis)"
        for px, py, kind in state.pieces:
            d = math.hypot(x - px, y - py)
            if too_close(d):
                return (
                    f"{name} is {d:.3f} from the {self.pieces.describe(kind)} at"
                    f" {format_point((px, py))}; pieces must be at least 1.0 apart"
                )
        if self.strict and self.after(state, point)[1] is not None:
            return f"no notional grid fits the pieces with one at {name} (strict play)"
        return None

    def _placements(self, state: FreeformState) -> list[tuple[Point, bool]]:
        """Legal placements on the action lattice, each with whether it wins."""
        index, wins = self.placement_arrays(state)
        return [(self.lattice[i], bool(w)) for i, w in zip(index.tolist(), wins.tolist(),
                                                             strict=True)]

    def placement_arrays(
        self, state: FreeformState
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
        """``_placements`` as arrays: the lattice index of each legal placement, in lattice
        order, and whether it wins (cached per position; the env's observation reads them)."""
        if state in self._placements_cache:
            return self._placements_cache[state]
        if not state.pieces:
            index = np.array([self._index[(0.0, 0.0)]], dtype=np.int64)
        else:
            index = self._free_indices(state.points)
        wins = np.zeros(len(index), dtype=bool)
        if state.pieces and state.broken is None and state.placed + 1 >= 4:
            for i in np.flatnonzero(self._near_targets(state, index, True)):
                wins[i] = self.won_at(state, self.lattice[index[i]]) is not None
        if self.strict and state.pieces:
            keep = np.ones(len(index), dtype=bool)
            if state.placed > 1:
                keep = self._near_targets(state, index, False)
            for i in np.flatnonzero(keep):
                keep[i] = self.after(state, self.lattice[index[i]])[1] is None
            index, wins = index[keep], wins[keep]
        if len(self._placements_cache) > 256:
            self._placements_cache.clear()
        self._placements_cache[state] = (index, wins)
        return index, wins

    def _near_targets(
        self, state: FreeformState, index: npt.NDArray[np.int64], lines_only: bool
    ) -> npt.NDArray[np.bool_]:
        """Which of these lattice points some target's discs hold (``fit_bounds.admits``,
        widened once more for NumPy's rounding): every point where a grid (with
        ``lines_only``, a winning line through it) might fit, and a few more."""
        z = self._lattice_z[index]
        near = np.zeros(len(index), dtype=bool)
        margin = fit_bounds.MARGIN
        for target in self.targets(state, lines_only):
            inside = ~near
            for c, r in target.discs:
                inside &= np.abs(z - c) <= (r * (1 + margin) + margin) * (1 + 1e-9)
            near |= inside
        return near

    def _free_points(self, pts: Sequence[Point]) -> list[Point]:
        """The lattice points no piece is ``too_close`` to, in lattice order."""
        return [self.lattice[i] for i in self._free_indices(pts).tolist()]

    def _free_indices(self, pts: Sequence[Point]) -> npt.NDArray[np.int64]:
        """The lattice indices of the points no piece is ``too_close`` to, in order."""
        return np.flatnonzero(self._free_mask(tuple(pts)))

    def _free_mask(self, pts: tuple[Point, ...]) -> npt.NDArray[np.bool_]:
        """Which lattice points no piece is ``too_close`` to: the mask of all but the last
        piece (remembered, as a game adds one piece at a time) less the last one's
        neighbourhood.

        NumPy compares each point's squared distance to the piece with the square of
        ``too_close``'s limit, and settles every point further from it than 1e-13
        (relative: a hundred times NumPy's rounding, far below the limit's own 1e-12
        margin, so a distance of exactly 1.0 is settled); the points within that band, if
        any, get ``too_close`` on ``math.hypot``. The answer is exactly the point-by-point
        test's (tests/test_envs_fast_paths.py compares the two).
        """
        if pts in self._free_cache:
            return self._free_cache[pts]
        if not pts:
            return np.ones(len(self.lattice), dtype=bool)
        keep = self._free_mask(pts[:-1]).copy()
        qx, qy = pts[-1]
        lat = self._lattice_xy
        dist = (lat[:, 0] - qx) ** 2 + (lat[:, 1] - qy) ** 2
        limit = (MIN_DISTANCE * (1 - 1e-12)) ** 2
        clear = dist > limit * (1 + 1e-13)
        for i in np.flatnonzero((dist >= limit * (1 - 1e-13)) & ~clear):
            p = self.lattice[i]
            clear[i] = not too_close(math.hypot(p[0] - qx, p[1] - qy))
        keep &= clear
        if len(self._free_cache) > 1024:
            self._free_cache.clear()
        self._free_cache[pts] = keep
        return keep

    def targets(self, state: FreeformState, lines_only: bool) -> list[Target]:
        """Every (assignment of the pieces, free cell) a new piece could take, with discs
        that must hold it. With ``lines_only``, only cells completing a line of four that
        the line rule accepts with the piece in hand. Needs at least two pieces.

        The assignments are every leaf of ``fitting.leaves`` that is not certainly
        infeasible (``fit_bounds``), so any grid that fits the pieces with a new one
        has its target here (``fit_bounds`` relies on it)."""
        key = (state, lines_only)
        if key not in self._targets_cache:
            if len(self._targets_cache) > 256:
                self._targets_cache.clear()
            kinds = [*self._kinds(state), state.hand if state.hand is not None else 0]
            found: list[Target] = []
            for leaf, discs, _ in self._leaf_discs(state):
                xs = [int(d.real) for d in leaf.offsets]
                ys = [int(d.imag) for d in leaf.offsets]
                # a line of four through a new cell needs three pieces on its row, column
                # or diagonal: count them, and ask ``line_through`` only where there are
                rows, cols = Counter(ys), Counter(xs)
                diagonals = Counter(x - y for x, y in zip(xs, ys, strict=True))
                antidiagonals = Counter(x + y for x, y in zip(xs, ys, strict=True))
                for w in _free_cells(leaf.offsets):
                    x, y = int(w.real), int(w.imag)
                    if lines_only and (
                        max(rows[y], cols[x], diagonals[x - y], antidiagonals[x + y]) < 3
                        or line_through(fitting.normalised([*leaf.offsets, w]), kinds,
                                        len(leaf.offsets), self.pieces) is None
                    ):
                        continue
                    found.append(Target(leaf.offsets, w, discs(w), leaf.box))
            self._targets_cache[key] = found
        return self._targets_cache[key]

    def _targets_at(self, state: FreeformState, z: complex) -> Iterator[TargetParts]:
        """The targets (``targets(state, False)``, as ``fit_bounds.possible`` reads them)
        whose first disc may hold ``z``, one at a time (``possible`` stops at the first
        that may fit): per leaf, only the cells near where ``z`` falls under the leaf's
        middle rotation and scale (every cell whose first disc, widened as
        ``fit_bounds.admits`` widens it, holds ``z`` is among them; the other discs are for
        ``fit_bounds`` to test)."""
        for leaf, discs, reach in self._leaf_discs(state):
            cells = _free_cells(leaf.offsets)
            if reach is not None:
                qc, p0, radius = reach
                c = qc * (z - p0) + leaf.offsets[0]
                cells = [w for w in cells if abs(w.real - c.real) <= radius
                         and abs(w.imag - c.imag) <= radius]
            for w in cells:
                yield leaf.offsets, w, discs(w), leaf.box

    def _leaf_discs(self, state: FreeformState) -> list[tuple[
        fitting.Leaf, Callable[[complex], tuple[tuple[complex, float], ...]],
        tuple[complex, complex, float] | None,
    ]]:
        """Each assignment that is not certainly infeasible, with its discs (``_disc_maker``)
        and, where they bound anything, ``(q_c, p_0, radius)``: a cell ``w`` whose first
        disc holds a point ``z`` is within ``radius`` of ``q_c (z - p_0) + d_0`` on each
        axis (the largest first disc of any cell of the 4x4, widened as ``admits`` does,
        times ``|q_c|``, and a little more)."""
        if state in self._leaf_cache:
            return self._leaf_cache[state]
        pts = [complex(x, y) for x, y in state.points]
        t = self.tolerance
        found = []
        if len(pts) >= 2:
            for leaf in fitting.leaves(pts, t):
                if fit_bounds.infeasible(pts, [d + fitting.HALF for d in leaf.offsets], t):
                    continue
                discs = _disc_maker(pts, leaf, t)
                reach = None
                x0, x1, y0, y1 = leaf.box
                qc = complex((x0 + x1) / 2, (y0 + y1) / 2)
                widest = discs(leaf.offsets[0] + complex(3, 3))
                if widest:
                    margin = fit_bounds.MARGIN
                    radius = (widest[0][1] * (1 + margin) + margin) * abs(qc)
                    reach = (qc, pts[0], radius * (1 + 1e-6) + 1e-6)
                found.append((leaf, discs, reach))
        if len(self._leaf_cache) > 256:
            self._leaf_cache.clear()
        self._leaf_cache[state] = found
        return found

    def _possible(self, state: FreeformState, point: Point, lines_only: bool) -> bool:
        """``False`` when no grid (with ``lines_only``: none with a winning line through the
        new piece) can fit the pieces with the one in hand at ``point`` (``fit_bounds``);
        ``True`` means the full search must decide."""
        if state.placed < 2:
            return True
        z = complex(*point)
        targets: Iterable[TargetParts] = (
            ((tg.offsets, tg.cell, tg.discs, tg.box) for tg in self.targets(state, True))
            if lines_only else self._targets_at(state, z)
        )
        pts = [complex(x, y) for x, y in state.points]
        return fit_bounds.possible(pts, targets, z, self.tolerance, self.table)

    def legal_moves(self, state: FreeformState) -> list[FreeformPly]:
        if state not in self._moves_cache:
            if len(self._moves_cache) > 64:
                self._moves_cache.clear()
            self._moves_cache[state] = self._legal_moves(state)
        return list(self._moves_cache[state])

    def _legal_moves(self, state: FreeformState) -> list[FreeformPly]:
        if self.outcome(state) is not None:
            return []
        gives = giving.available_gives(state.supply)
        if state.hand is None:
            return [FreeformPly(None, k) for k in gives]
        moves: list[FreeformPly] = []
        for point, wins in self._placements(state):
            if wins or not gives:
                moves.append(FreeformPly(point, None))
            else:
                moves.extend(FreeformPly(point, k) for k in gives)
        if state.pieces:
            moves.append(CHALLENGE)
        return moves

    def illegal_reason(self, state: FreeformState, move: FreeformPly) -> str | None:
        if move.challenge:
            if move.place is not None or move.give is not None:
                return "a challenge is a ply of its own: no placement, no give"
            if state.hand is None or not state.pieces:
                return "nothing to challenge: no piece is on the table yet"
            return None
        if state.hand is None:
            return giving.opening_reason(self.pieces, state.supply, move.place, move.give)
        if move.place is None:
            return giving.unplaced_reason(self.pieces, state.hand)
        reason = self.place_reason(state, move.place)
        if reason is not None:
            return reason
        won, _ = self.after(state, move.place)
        return giving.after_placing_reason(
            self.pieces, state.supply, f"at {format_point(move.place)}", won is not None, move.give
        )

    def next_state(self, state: FreeformState, move: FreeformPly) -> FreeformState:
        if move.challenge:
            return FreeformState(
                state.pieces, state.hand, state.supply, state.broken, self._challenge(state)
            )
        supply = giving.supply_after(state.supply, move.give)
        if move.place is None:
            return FreeformState(state.pieces, move.give, supply)
        assert state.hand is not None
        won, broken = self.after(state, move.place)
        x, y = move.place
        return FreeformState(
            (*state.pieces, (x + 0.0, y + 0.0, state.hand)), move.give, supply, broken, won
        )

    def _challenge(self, state: FreeformState) -> Outcome:
        """Resolve a challenge by the player to move (RULES.md §1)."""
        challenger = state.placed % 2
        n = state.placed
        if state.broken is None:
            grid = self.grid(state)
            assert grid is not None, "an unbroken position always has a grid"
            return Outcome.win(
                1 - challenger,
                f"the challenge fails: a grid fits all {n} pieces: {grid.describe()}",
            )
        k = state.broken
        breaker = (k - 1) % 2
        x, y, kind = state.pieces[k - 1]
        before = fitting.fit(state.points[: k - 1], self.tolerance, self.table)
        shown = f"; the grid {before.describe()} fitted the {k - 1} before it" if before else ""
        return Outcome.win(
            1 - breaker,
            f"the challenge succeeds: no grid fits the pieces after placement {k}"
            f" ({self.pieces.name(kind)} at {format_point((x, y))} by"
            f" {self.player_name(breaker)}){shown}",
        )

    # -- dense actions ---------------------------------------------------------------------
    @property
    def num_actions(self) -> int:
        return self._num_actions

    def _lattice_index(self, point: Point) -> int:
        index = self._index.get(point)
        if index is None:
            raise FourfoldError(
                f"{format_point(point)} is not on the action lattice (multiples of {STEP}"
                f" on the table); it can be played but has no action number"
            )
        return index

    def encode(self, move: FreeformPly) -> int:
        if move.challenge:
            return self._num_actions - 1
        place = len(self.lattice) if move.place is None else self._lattice_index(move.place)
        return giving.give_action(place, move.give, self.pieces.num_kinds)

    def decode(self, action: int) -> FreeformPly:
        checked_action(action, self._num_actions)
        if not self._decoded:
            k = self.pieces.num_kinds
            places: list[Point | None] = [*self.lattice, None]
            self._decoded = [
                FreeformPly(place, None if give == k else give)
                for place in places
                for give in range(k + 1)
            ]
            self._decoded.append(CHALLENGE)
        return self._decoded[action]

    # -- notation -------------------------------------------------------------------------
    def parse_move(self, state: FreeformState, text: str) -> FreeformPly:
        tokens = text.split()
        example = "Gs" if state.hand is None else "1.0,0.0 Gs"
        if not tokens:
            raise NotationError("move", text, f"empty move; write for example {example!r}")
        if len(tokens) == 1 and tokens[0].lower() == CHALLENGE_WORD:
            return CHALLENGE
        if len(tokens) > 2:
            raise NotationError(
                "move", text, f"too many parts; write for example {example!r} (no spaces in x,y)"
            )
        if state.hand is None and self.outcome(state) is None:
            if len(tokens) != 1:
                raise NotationError(
                    "move", text, f"the first ply only gives a piece, e.g. {example!r}"
                )
            return FreeformPly(None, self._piece(text, tokens[0]))
        point = read_part(parse_point, text, tokens[0], "point", text.find(tokens[0]))
        give = self._piece(text, tokens[1]) if len(tokens) == 2 else None
        return FreeformPly(point, give)

    def _piece(self, text: str, token: str) -> int:
        return read_part(self.pieces.parse, text, token, "piece", text.rfind(token))

    def format_move(self, state: FreeformState, move: FreeformPly) -> str:
        if move.challenge:
            return CHALLENGE_WORD
        parts = []
        if move.place is not None:
            parts.append(format_point(move.place))
        if move.give is not None:
            parts.append(self.pieces.name(move.give))
        return " ".join(parts)

    def format_position(self, state: FreeformState) -> str:
        pieces = ";".join(
            f"{format_point((x, y))}={self.pieces.name(k)}" for x, y, k in state.pieces
        )
        hand = EMPTY if state.hand is None else self.pieces.name(state.hand)
        text = f"{pieces or EMPTY} {hand}"
        challenged = state.ended is not None and state.hand is not None  # only a challenge
        return f"{text} {CHALLENGE_WORD}" if challenged else text

    def parse_position(self, text: str) -> FreeformState:
        def fail(reason: str, at: str | None = None) -> NotationError:
            index = text.find(at) if at else -1
            return NotationError("position", text, reason, index if index != -1 else None)

        fields = text.split()
        challenged = len(fields) == 3 and fields[2].lower() == CHALLENGE_WORD
        if len(fields) != 2 and not challenged:
            raise fail("expected the pieces and the piece in hand, then optionally 'challenge'"
                       " (e.g. '0.0,0.0=Gs;1.5,0.25=Rl Ym')")
        counts = list(self.pieces.counts)
        state = FreeformState((), None, self.pieces.counts)
        placements: list[tuple[Point, int, str]] = []
        if fields[0] != EMPTY:
            for item in fields[0].split(";"):
                point_text, sep, piece_text = item.partition("=")
                if not sep:
                    raise fail(f"placement {item!r} is not of the form x,y=piece", item)
                try:
                    point = parse_point(point_text)
                    kind = self.pieces.parse(piece_text)
                except ValueError as exc:
                    raise fail(f"in {item!r}: {exc}", item) from None
                counts[kind] -= 1
                if counts[kind] < 0:
                    raise fail(f"more {self.pieces.name(kind)} placed than the set holds", item)
                placements.append((point, kind, item))
        hand = None
        if fields[1] != EMPTY:
            try:
                hand = self.pieces.parse(fields[1])
            except ValueError as exc:
                raise fail(f"piece in hand: {exc}", fields[1]) from None
            counts[hand] -= 1
            if counts[hand] < 0:
                raise fail(f"the {self.pieces.name(hand)} in hand is not left in the set",
                           fields[1])
        # replay the placements: each must have been legal, and none but the last may win
        supply = list(self.pieces.counts)
        for i, (point, kind, item) in enumerate(placements):
            if state.ended is not None:
                raise fail(f"the game was already over before {item!r}", item)
            supply[kind] -= 1
            state = FreeformState(state.pieces, kind, tuple(supply), state.broken)
            reason = self.place_reason(state, point)
            if reason is not None:
                raise fail(f"placement {i + 1} ({item!r}) is impossible: {reason}", item)
            won, broken = self.after(state, point)
            state = FreeformState((*state.pieces, (*point, kind)), None, state.supply, broken, won)
        over = state.ended is not None or len(placements) == self.pieces.total
        if challenged:
            if over or hand is None or not placements:
                raise fail("a challenge needs a game in progress with a piece on the table")
        elif over and hand is not None:
            raise fail("the game is over, so no piece can be in hand")
        elif not over and hand is None and placements:
            raise fail("a piece must be in hand: only the start, before the first give, has none")
        state = FreeformState(state.pieces, hand, tuple(counts), state.broken, state.ended)
        if challenged:
            state = FreeformState(
                state.pieces, hand, state.supply, state.broken, self._challenge(state)
            )
        return state


def _free_cells(offsets: Sequence[complex]) -> list[complex]:
    """The cells, relative like ``offsets``, where one more piece keeps the occupied block
    within four columns and four rows, and that no piece holds."""
    xs = [int(d.real) for d in offsets]
    ys = [int(d.imag) for d in offsets]
    used = set(offsets)
    return [complex(x, y) for x in range(max(xs) - 3, min(xs) + 4)
            for y in range(max(ys) - 3, min(ys) + 4) if complex(x, y) not in used]


def _disc_maker(
    pts: list[complex], leaf: fitting.Leaf, t: float
) -> Callable[[complex], tuple[tuple[complex, float], ...]]:
    """The discs that must hold a new point joining ``leaf`` at a relative cell ``w``,
    as a function of ``w`` (the leaf's constants worked out once).

    For every grid realising the assignment, ``|q (p - p_i) - (w - d_i)| <= 2t``
    for each piece ``i`` with ``q`` in the leaf's box, so ``p`` is within
    ``(2t |q_c| + |w - d_i| r) / (m |q_c|)`` of ``p_i + (w - d_i) / q_c`` (``q_c``
    the box centre, ``r`` its half-diagonal, ``m`` the least ``|q|`` in it).
    """
    x0, x1, y0, y1 = leaf.box
    qc = complex((x0 + x1) / 2, (y0 + y1) / 2)
    r = math.hypot(x1 - x0, y1 - y0) / 2
    m = math.hypot(max(x0, 0.0, -x1), max(y0, 0.0, -y1))
    if m <= 0 or qc == 0:
        return lambda w: ()
    near = 2 * t * abs(qc)
    far = m * abs(qc)
    pairs = list(zip(pts, leaf.offsets, strict=True))

    def discs(w: complex) -> tuple[tuple[complex, float], ...]:
        return tuple(
            (p + (w - d) / qc, (near + abs(w - d) * r) / far * (1 + 1e-9) + 1e-9)
            for p, d in pairs
        )

    return discs
