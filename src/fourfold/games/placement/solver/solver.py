"""Exact values of Quarto and Folio positions: ``solve_position(game, state)``.

The compiled searches (``kernel`` on a fixed 4x4 board, ``floating`` for Folio
standard and no-grid before the 4x4 area is fixed) score positions in which a
piece is in hand. Here the root is played with the readable rules: every legal
move is applied with ``game.next_state`` and its resulting position scored, so
the moves reported are exactly the rules' moves. Moves leading to positions
equal under the symmetries share one search.

Values are for the player to move: ``1`` win, ``0`` draw, ``-1`` loss, with the
distance in plies to the end of the game under perfect play (the winner
hurrying, the loser delaying). Exact values use null-window searches: first
whether the value is at least a draw, then at least a win, then, for decided
positions, the distance by bisection; the table keeps every bound found.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from fourfold.core.errors import FourfoldError
from fourfold.core.outcome import Result
from fourfold.games.placement.game import PlacementGame
from fourfold.games.placement.geometry import Cell
from fourfold.games.placement.solver import bitboard as bb
from fourfold.games.placement.solver import floating as fl
from fourfold.games.placement.solver import kernel as k4
from fourfold.games.placement.solver.helper import HELPER_MAX_PLACED, SearchHelper, helper_allowed
from fourfold.games.placement.solver.paired import paired_scores
from fourfold.games.placement.solver.tables import (
    SIDE,
    UnsupportedRuleset,
    build_tables,
    cell_index,
    ruleset_of,
)
from fourfold.games.placement.state import PlacementState, Ply
from fourfold.kernels.interrupt import deferred_interrupt

DEFAULT_TABLE_BITS = 22  # 4M entries, about 80 MB
DEFAULT_CANON_MAX = 9  # canonical keys for positions with at most this many pieces
# nodes with fewer pieces placed look up their children before searching them (``kernel``)
DEFAULT_ETC_MAX = 6
# nodes with at least this many pieces left try first the moves leaving the opponent
# fewest replies (``bitboard``; measured on Quarto: docs/solutions.md)
DEFAULT_FEWEST_REPLIES = 6


class SolveLimitReached(FourfoldError):
    """The search hit its time or node limit before the value was proven."""

    def __init__(self, nodes: int, seconds: float) -> None:
        super().__init__(f"no exact value within the limit ({nodes} nodes in {seconds:.1f} s)")
        self.nodes = nodes
        self.seconds = seconds


@dataclass(frozen=True)
class SolveResult:
    """The exact value of a position for the player to move, and of each legal move.

    ``value`` is 1 (win), 0 (draw) or -1 (loss); ``distance`` is the number of plies
    to the end under perfect play (``None`` when only the value was asked for).
    ``moves`` lists ``(move, value, distance)`` for every legal move, best first,
    or only a best move when ``rank_moves=False``.
    """

    value: int
    distance: int | None
    moves: list[tuple[Ply, int, int | None]]
    nodes: int
    seconds: float

    @property
    def best_move(self) -> Ply:
        return self.moves[0][0]


class Solver:
    """The compiled search for one ruleset, with its transposition table (kept between calls)."""

    def __init__(
        self,
        pieces: str,
        geometry: str,
        counts: tuple[int, ...],
        table_bits: int = DEFAULT_TABLE_BITS,
        canon_max: int = DEFAULT_CANON_MAX,
        etc_max: int = DEFAULT_ETC_MAX,
        table: npt.NDArray[np.int64] | None = None,
    ) -> None:
        self.geometry = geometry
        self.ruleset = (pieces, geometry, counts)
        touch = geometry == "touch"
        self.tables = build_tables(pieces, touch, counts)
        self.work = k4.new_workspace(len(counts), table_bits, table)
        self.work.st[k4.CANON_MAX] = canon_max
        self.work.st[k4.ETC_MAX] = etc_max
        self.work.st[k4.FEWEST_REPLIES] = DEFAULT_FEWEST_REPLIES
        self.work.st[k4.PRUNE] = 1
        # the bitboard search where it can stand for ``kernel.search`` (Quarto)
        self.bits: tuple[bb.BitTables, bb.BitWork] | None = None
        if geometry == "grid" and bb.applies(self.tables):
            self.bits = (bb.build_bit_tables(self.tables), bb.new_bit_work())
        # dead lines pay only where lines die early (measured: same-colour-or-size takes
        # 36-210 times fewer nodes from 4 pieces placed; Quarto and colours-or-sizes
        # 0.5-7% fewer nodes but up to 50% more time: docs/solutions.md)
        self.work.st[k4.DEAD_LINES] = int(pieces == "folio-share")
        self.float_tables = fl.build_float_tables(touch)
        self.float_work = fl.new_float_work(self.float_tables, len(counts))
        self.total = sum(counts)
        self.extra_nodes = 0  # nodes searched by a helper thread since ``start``

    # -- loading positions ----------------------------------------------------------------
    def _frame(self, cells: list[Cell]) -> tuple[bool, int, int]:
        """``(fixed, x0, y0)``: whether the 4x4 board is known, and where it (or the window)
        starts. Fixed grids always are; floating games once the pieces span 4x4."""
        if self.geometry == "grid":
            return True, 0, 0
        if not cells:
            return False, -(SIDE - 1), -(SIDE - 1)
        xs = [c[0] for c in cells]
        ys = [c[1] for c in cells]
        if max(xs) - min(xs) == SIDE - 1 and max(ys) - min(ys) == SIDE - 1:
            return True, min(xs), min(ys)
        return False, max(xs) - (SIDE - 1), max(ys) - (SIDE - 1)

    def load(self, state: PlacementState) -> bool:
        """Put ``state`` (a piece in hand) into the search's arrays; ``True`` if fixed-box."""
        assert state.hand is not None
        fixed, x0, y0 = self._frame([c for c, _ in state.board])
        t, w = self.tables, self.work
        if fixed:
            k4.clear_position(t, w)
            for (x, y), kind in state.board:
                k4.place(t, w, cell_index((x - x0, y - y0)), kind)
            w.supply[:] = state.supply
            w.st[k4.HAND] = state.hand
            return True
        ft, fw = self.float_tables, self.float_work
        fl.float_clear(ft, fw)
        for (x, y), kind in state.board:
            fl.float_place(t, ft, fw, (y - y0) * fl.WINDOW + (x - x0), kind)
        fw.supply[:] = state.supply
        fw.st[fl.F_HAND] = state.hand
        return False

    def key(self, state: PlacementState) -> tuple[int, int]:
        """The canonical key of a position with a piece in hand (equal for symmetric ones)."""
        if self.load(state):
            hi, lo, _, _ = k4.position_key(self.tables, self.work)
            return int(hi), int(lo)
        hi, lo = fl._shape_key(self.tables, self.work, self.float_tables, self.float_work)
        return int(hi), int(lo)

    # -- searching --------------------------------------------------------------------------
    def search(self, state: PlacementState, alpha: int, beta: int) -> int:
        """Fail-soft score of ``state`` within ``(alpha, beta)``; raise if the limit is hit."""
        fixed = self.load(state)
        # Ctrl-C stops the kernel like its budget does, then raises KeyboardInterrupt here
        with deferred_interrupt(self.work.st, k4.INTERRUPTED):
            if fixed and self.bits is not None and bb.in_use(self.work):
                bt, bw = self.bits
                score = bb.root_search(self.tables, bt, self.work, bw.words, alpha, beta)
            elif fixed:
                score = k4.search(self.tables, self.work, alpha, beta)
            else:
                score = fl.float_search(
                    self.tables, self.work, self.float_tables, self.float_work, alpha, beta
                )
        if self.work.st[k4.ABORTED]:
            raise SolveLimitReached(self.nodes, self.elapsed())
        return int(score)

    def first_move(self, state: PlacementState) -> Ply | None:
        """The move the bitboard search would try first at ``state`` in ``(-1, 0)``, with the
        table and history as they are; ``None`` where that search is not in use, or when
        the node is decided before a move is tried."""
        if not self.load(state) or self.bits is None or not bb.in_use(self.work):
            return None
        bt, bw = self.bits
        move = int(bb.first_move(self.tables, bt, self.work, bw.words, -1, 0))
        if move < 0:
            return None
        cell = move >> k4.MOVE_SHIFT
        return Ply(place=(cell % SIDE, cell // SIDE), give=move & 31)

    def exact(self, state: PlacementState, distance: bool,
              helper: tuple[SearchHelper, PlacementGame] | None = None) -> int:
        """The score of ``state``: exact, or (``distance=False``) only its sign.

        With ``helper`` (a helper thread and the game) the searches "at least a draw?"
        and "a win?" run at once on two cores (``paired``)."""
        placed = state.placed
        low = -(k4.WIN - (placed + 2))
        high = k4.WIN - (placed + 1)
        if helper is not None:
            first, second = paired_scores(self, helper[1], state, helper[0])
            if first < 0:
                high = min(high, first)
            else:
                low = max(low, first)
                if second <= 0:
                    return 0
                low = max(low, second)
        else:
            r = self.search(state, -1, 0)
            if r < 0:
                high = min(high, r)
            else:
                low = max(low, r)
                r = self.search(state, 0, 1)
                if r <= 0:
                    return 0
                low = max(low, r)
        if not distance:
            return 1 if low > 0 else -1
        while low < high:
            gamma = (low + high + 1) // 2
            r = self.search(state, gamma - 1, gamma)
            if r >= gamma:
                low = r
            else:
                high = r
        return low

    def start(self, seconds: float | None, nodes: int | None) -> None:
        self.extra_nodes = 0
        st = self.work.st
        st[k4.NODES] = 0
        st[k4.ABORTED] = 0
        st[k4.NODE_LIMIT] = nodes or 0
        self._t0 = time.perf_counter()
        st[k4.HAS_DEADLINE] = 0 if seconds is None else 1
        self.work.deadline[0] = self._t0 + (seconds or 0.0)

    def elapsed(self) -> float:
        return time.perf_counter() - self._t0

    @property
    def nodes(self) -> int:
        """Nodes searched since ``start``, a helper thread's included."""
        return int(self.work.st[k4.NODES]) + self.extra_nodes

    def set_prune(self, prune: bool) -> None:
        self.work.st[k4.PRUNE] = int(prune)

    def use_dead_lines(self, on: bool) -> None:
        """Whether the search merges positions differing only on dead cells, gives kinds
        equal on the bits that still matter once, and calls a position with no winnable
        line a draw (see ``kernel``); the tests compare values both ways."""
        self.work.st[k4.DEAD_LINES] = int(on)


_SOLVERS: dict[tuple[Any, ...], Solver] = {}


def forget_solvers() -> None:
    """Drop every cached solver and its table (the next solve starts from an empty one)."""
    _SOLVERS.clear()


def solver_for(game: PlacementGame, table_bits: int | None = None) -> Solver:
    """The cached solver of a game's ruleset (one transposition table per ruleset)."""
    pieces, geometry, counts = ruleset_of(game)
    bits = table_bits or DEFAULT_TABLE_BITS
    key = (pieces, geometry, counts, bits)
    if key not in _SOLVERS:
        _SOLVERS[key] = Solver(pieces, geometry, counts, bits)
    return _SOLVERS[key]


def _score_to_value(score: int, placed: int, opening: bool, total: int) -> tuple[int, int]:
    """``(value, plies to the end)`` of a score seen from a position with ``placed`` pieces."""
    extra = 1 if opening else 0
    if score == 0:
        return 0, total - placed + extra
    end = k4.WIN - abs(score)
    return (1 if score > 0 else -1), end - placed + extra


def solve_position(
    game: PlacementGame,
    state: PlacementState,
    limit: float | None = None,
    *,
    rank_moves: bool = True,
    distance: bool = True,
    nodes: int | None = None,
    table_bits: int | None = None,
    workers: int = 1,
) -> SolveResult:
    """The exact value of ``state`` for the player to move, and the value of every move.

    Works for Quarto and Folio fixed-grid (either line rule), and for Folio standard
    and no-grid (whose 4x4 area floats until the pieces span it). ``limit`` is a
    time budget in seconds and ``nodes`` a node budget; when either runs out the
    call raises ``SolveLimitReached``. ``rank_moves=False`` stops at a best move
    instead of valuing every move; ``distance=False`` finds only win/draw/loss.
    ``workers=2`` lets the long searches of early positions use a second core
    (``helper``; not with a node budget); the values are the same.
    """
    if not isinstance(game, PlacementGame):
        raise FourfoldError(f"{game.name} is not a placement game")
    try:
        solver = solver_for(game, table_bits)
    except UnsupportedRuleset as exc:
        raise FourfoldError(f"cannot solve {game.info.label()}: {exc}") from None
    if game.outcome(state) is not None:
        raise FourfoldError("the game is over; there is nothing to solve")
    solver.start(limit, nodes)
    paired = _Pairing(game, solver, workers >= 2 and nodes is None)
    opening = state.hand is None
    placed = state.placed
    mover_end = k4.WIN - (placed + 1)  # the score of winning with this placement
    cache: dict[tuple[int, int], int] = {}
    scored: list[tuple[Ply, int]] = []
    best = -k4.INF
    try:
        for move in game.legal_moves(state):
            child = game.next_state(state, move)
            outcome = game.outcome(child)
            if outcome is not None:
                score = mover_end if outcome.result is Result.WIN else 0
            else:
                key = solver.key(child)
                if key not in cache:
                    if rank_moves:
                        cache[key] = -solver.exact(child, distance, paired.helper_for(child))
                    else:
                        cache[key] = -_bounded(solver, child, best, distance, paired)
                score = cache[key]
            scored.append((move, score))
            best = max(best, score)
            if not rank_moves and _is_best_possible(best, placed, distance, opening):
                break
    finally:
        paired.close()
    scored.sort(key=lambda item: -item[1])
    if not rank_moves:
        scored = scored[:1]
    moves = []
    for move, score in scored:
        value, plies = _score_to_value(score, placed, opening, solver.total)
        moves.append((move, value, plies if distance else None))
    return SolveResult(moves[0][1], moves[0][2], moves, solver.nodes, solver.elapsed())


class _Pairing:
    """The helper thread of one ``solve_position`` call, started for the first position
    worth it (``helper``: few pieces placed, a fixed 4x4 board) and closed at the end."""

    def __init__(self, game: PlacementGame, solver: Solver, wanted: bool):
        self.game = game
        self.solver = solver
        self.wanted = wanted and solver.geometry == "grid" and helper_allowed()
        self.helper: SearchHelper | None = None

    def helper_for(self, state: PlacementState) -> tuple[SearchHelper, PlacementGame] | None:
        """The helper and the game, if ``state`` is worth a second core."""
        if not self.wanted or state.placed > HELPER_MAX_PLACED:
            return None
        if self.helper is None:
            self.helper = SearchHelper(self.solver)
        return self.helper, self.game

    def close(self) -> None:
        if self.helper is not None:
            self.helper.close()
            self.helper = None


def _bounded(solver: Solver, child: PlacementState, best: int, distance: bool,
             paired: _Pairing) -> int:
    """The child's score if it can beat ``best`` for the parent, else a bound that cannot."""
    if best == -k4.INF:
        return solver.exact(child, distance, paired.helper_for(child))
    if not distance:
        if best < 0:
            return solver.exact(child, distance)
        # only a win (a child scoring below 0) improves on a draw
        r = solver.search(child, -1, 0)
        return -1 if r < 0 else max(r, 0)
    r = solver.search(child, -best - 1, -best)
    if r >= -best:
        return r
    return solver.exact(child, distance)


def _is_best_possible(best: int, placed: int, distance: bool, opening: bool) -> bool:
    if not distance:
        return best > 0
    return best == k4.WIN - (placed + 1) and not opening
