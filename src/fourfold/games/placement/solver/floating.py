"""Folio standard and no-grid before the 4x4 area is fixed: the search on a floating box.

In Folio standard every piece goes within 3 squares of every placed piece, so
all pieces always fit in a 4x4 box; the board's edges never bind (the first
piece is central, so a box holding every piece always lies on the board). In
no-grid the same holds and each piece also touches a placed one. Both games
are therefore the same under translation, and a position is its pieces
relative to their bounding box.

This search plays on a 7x7 window: with every piece inside a 4x4 box, the
cells any later piece can reach lie within 3 of the box, and the window is
anchored so that they all fit. As soon as the pieces span four columns and
four rows the box is fixed: the position is handed to the 4x4 search
(``kernel.search``) with the box as its board, and both searches share one
transposition table. Floating positions are keyed by their shape relative to
the bounding box under the 8 square symmetries (and all piece symmetries),
with a flag bit that keeps them apart from fixed-box keys.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit

from fourfold.games.placement.fast_tables import grid_lines, lines_through, neighbour_masks
from fourfold.games.placement.solver import kernel as k4
from fourfold.games.placement.solver.tables import (
    P_KINDS,
    P_TOTAL,
    SIDE,
    square_maps,
)
from fourfold.kernels.jit import inlined, no_refcount
from fourfold.kernels.search import take_best

IntArray = npt.NDArray[np.int64]

WINDOW = 2 * SIDE - 1  # 7: every cell a later piece can reach, around a box of placed pieces
WCELLS = WINDOW * WINDOW
FLOATING = np.int64(1) << 60  # flag in the key's high word
MAX_FLOAT_MOVES = WCELLS * 12


class FloatTables(NamedTuple):
    """Lines and neighbourhoods of the 7x7 window and the square maps of every box shape."""

    line_mask: IntArray  # (lines,) window bitboards
    cell_lines: IntArray  # (49, 16)
    cell_nlines: IntArray
    neighbours: IntArray  # (49,)
    cell_x: IntArray
    cell_y: IntArray
    shape_map: IntArray  # (4, 4, 8, 16): box width-1, height-1, map, cell -> cell
    shape_inverse: IntArray
    touch: IntArray  # (1,)


def build_float_tables(touch: bool) -> FloatTables:
    lines = grid_lines(WINDOW, WINDOW)
    cell_lines, cell_nlines = lines_through(lines, WCELLS, 16)
    maps = square_maps()
    shape_map = np.zeros((SIDE, SIDE, len(maps), SIDE * SIDE), dtype=np.int64)
    shape_inverse = np.zeros_like(shape_map)
    for wd in range(1, SIDE + 1):
        for ht in range(1, SIDE + 1):
            box = [y * SIDE + x for y in range(ht) for x in range(wd)]
            for m, perm in enumerate(maps):
                images = [perm[c] for c in box]
                x0 = min(i % SIDE for i in images)
                y0 = min(i // SIDE for i in images)
                for c, i in zip(box, images, strict=True):
                    moved = (i // SIDE - y0) * SIDE + (i % SIDE - x0)
                    shape_map[wd - 1, ht - 1, m, c] = moved
                    shape_inverse[wd - 1, ht - 1, m, moved] = c
    return FloatTables(
        np.array([sum(1 << c for c in line) for line in lines], dtype=np.int64),
        cell_lines,
        cell_nlines,
        np.array(neighbour_masks(WINDOW, WINDOW), dtype=np.int64),
        np.array([c % WINDOW for c in range(WCELLS)], dtype=np.int64),
        np.array([c // WINDOW for c in range(WCELLS)], dtype=np.int64),
        shape_map,
        shape_inverse,
        np.array([int(touch)], dtype=np.int64),
    )


# fields of ``FloatWork.st``
F_OCC = 0
F_HAND = 1
F_PLACED = 2
F_NUM = 3


class FloatWork(NamedTuple):
    board: IntArray  # (49,) kind per window cell, -1 empty
    supply: IntArray
    line_count: IntArray
    line_and: IntArray
    line_or: IntArray
    saved: IntArray  # (17, 16, 2)
    st: IntArray
    moves: IntArray  # (17, MAX_FLOAT_MOVES)
    order: IntArray


def new_float_work(t: FloatTables, kinds: int) -> FloatWork:
    lines = len(t.line_mask)
    return FloatWork(
        np.full(WCELLS, -1, dtype=np.int64),
        np.zeros(kinds, dtype=np.int64),
        np.zeros(lines, dtype=np.int64),
        np.full(lines, (1 << 8) - 1, dtype=np.int64),
        np.zeros(lines, dtype=np.int64),
        np.zeros((SIDE * SIDE + 1, 16, 2), dtype=np.int64),
        np.zeros(F_NUM, dtype=np.int64),
        np.zeros((SIDE * SIDE + 1, MAX_FLOAT_MOVES), dtype=np.int64),
        np.zeros((SIDE * SIDE + 1, MAX_FLOAT_MOVES), dtype=np.int64),
    )


@njit(cache=True)
def float_clear(ft, fw):
    k4.clear_lines(fw)
    fw.st[F_OCC] = 0
    fw.st[F_PLACED] = 0
    fw.st[F_HAND] = -1


@inlined
def float_place(t, ft, fw, cell, kind):
    d = fw.st[F_PLACED]
    k4.push_lines(ft, fw, cell, d, t.features[kind])
    fw.board[cell] = kind
    fw.st[F_OCC] |= np.int64(1) << cell
    fw.st[F_PLACED] = d + 1


@inlined
def float_unplace(ft, fw, cell):
    d = fw.st[F_PLACED] - 1
    k4.pop_lines(ft, fw, cell, d)
    fw.board[cell] = -1
    fw.st[F_OCC] &= ~(np.int64(1) << cell)
    fw.st[F_PLACED] = d


@inlined
def bounds(ft, occ):
    """``(min x, max x, min y, max y)`` of the occupied window cells.

    The four start as int64, not as integer literals: numba types a call as soon as it
    knows its arguments' types, so ``load_box(..., x0, y0)`` was compiled once for the
    literal start values and again for int64 (a wasted cold compile)."""
    x0 = np.int64(WINDOW)
    x1 = np.int64(-1)
    y0 = np.int64(WINDOW)
    y1 = np.int64(-1)
    for c in range(WCELLS):
        if (occ >> c) & 1:
            x = ft.cell_x[c]
            y = ft.cell_y[c]
            x0 = min(x0, x)
            x1 = max(x1, x)
            y0 = min(y0, y)
            y1 = max(y1, y)
    return x0, x1, y0, y1


@inlined
def float_placeable(ft, occ):
    """Empty window cells that keep every piece in a 4x4 box (and touch one, in no-grid)."""
    if occ == 0:
        return np.int64(1) << ((SIDE - 1) * WINDOW + SIDE - 1)
    x0, x1, y0, y1 = bounds(ft, occ)
    out = np.int64(0)
    for c in range(WCELLS):
        if (occ >> c) & 1:
            continue
        x = ft.cell_x[c]
        y = ft.cell_y[c]
        if max(x1, x) - min(x0, x) < SIDE and max(y1, y) - min(y0, y) < SIDE:
            out |= np.int64(1) << c
    if ft.touch[0] == 1:
        out &= k4.touching(ft.neighbours, occ, WCELLS)
    return out


@inlined
def float_winning_kinds(t, ft, fw, cells, only):
    """Kinds (among ``only``) that complete a winning line on an empty cell in ``cells``."""
    out = 0
    occ = fw.st[F_OCC]
    for line in range(ft.line_mask.shape[0]):
        if fw.line_count[line] != 3:
            continue
        if (ft.line_mask[line] & ~occ & cells) == 0:
            continue
        out |= t.unsafe_by_word[k4.three_word(t, fw.line_and[line], fw.line_or[line])] & only
    return out


@njit(cache=True)
def load_box(t, w, ft, fw, x0, y0):
    """Copy the window position, whose pieces span 4x4 from ``(x0, y0)``, into the 4x4 search."""
    k4.clear_position(t, w)
    occ = fw.st[F_OCC]
    for c in range(WCELLS):
        if (occ >> c) & 1:
            cell = (ft.cell_y[c] - y0) * SIDE + (ft.cell_x[c] - x0)
            k4.place(t, w, cell, fw.board[c])
    for g in range(fw.supply.shape[0]):
        w.supply[g] = fw.supply[g]
    w.st[k4.HAND] = fw.st[F_HAND]


@no_refcount
def _shape_key(t, w, ft, fw):
    """The canonical key of a floating position (its shape relative to the bounding box).

    ``kernel.least_key`` with no dead cell and every feature bit relevant, which is always
    so here: its comparison of the candidates field by field (``_board_images``,
    ``_least_by_fields``) without the packing of every candidate that other cases need,
    which compiled into this function for nothing (half its cold compile)."""
    occ = fw.st[F_OCC]
    x0, x1, y0, y1 = bounds(ft, occ)
    w.board[:] = -1
    rel = 0
    for c in range(WCELLS):
        if (occ >> c) & 1:
            cell = (ft.cell_y[c] - y0) * SIDE + (ft.cell_x[c] - x0)
            w.board[cell] = fw.board[c]
            rel |= 1 << cell
    w.st[k4.OCC] = rel
    w.st[k4.HAND] = fw.st[F_HAND]
    for g in range(fw.supply.shape[0]):
        w.supply[g] = fw.supply[g]
    if occ == 0:
        wd = 1
        ht = 1
    else:
        wd = x1 - x0 + 1
        ht = y1 - y0 + 1
    maps = ft.shape_map[wd - 1, ht - 1]
    nb = maps.shape[0]
    least = k4._board_images(w, maps, nb, w.st[k4.OCC], 0)
    hi, lo, _, _ = k4._least_by_fields(t, w, ft.shape_inverse[wd - 1, ht - 1], nb, least,
                                       k4.all_bits(t))
    return hi | FLOATING, lo


@no_refcount
def float_search(t, w, ft, fw, alpha, beta):
    """The score of the floating position in ``fw`` for the side to move (as ``kernel.search``)."""
    st = w.st
    st[k4.NODES] += 1
    if st[k4.ABORTED] == 1:
        return 0
    if (st[k4.NODES] & (k4.CHECK_EVERY - 1)) == 0 and k4.out_of_budget(w):
        st[k4.ABORTED] = 1
        return 0
    n = fw.st[F_PLACED]
    hand = fw.st[F_HAND]
    total = t.params[P_TOTAL]
    occ = fw.st[F_OCC]
    cells = float_placeable(ft, occ)
    if float_winning_kinds(t, ft, fw, cells, 1 << hand) != 0:
        return k4.WIN - (n + 1)
    ceiling = k4.WIN - (n + 3) if n + 3 <= total else 0
    floor = -(k4.WIN - (n + 2))
    if ceiling <= alpha:
        return ceiling
    if floor >= beta:
        return floor
    hi, lo = _shape_key(t, w, ft, fw)
    data = k4.probe(w, hi, lo)
    if data >= 0:
        decided, known, alpha, beta = k4.narrow(data, alpha, beta)
        if decided:
            return known

    avail = 0
    for g in range(t.params[P_KINDS]):
        if fw.supply[g] > 0:
            avail |= 1 << g
    prune = st[k4.PRUNE] == 1
    moves = fw.moves[n]
    order = fw.order[n]
    count = 0
    best = -k4.INF
    for c in range(WCELLS):
        if not (cells >> c) & 1:
            continue
        float_place(t, ft, fw, c, hand)
        after = fw.st[F_OCC]
        if prune:
            safe = avail & ~float_winning_kinds(t, ft, fw, float_placeable(ft, after), avail)
        else:
            safe = avail
        float_unplace(ft, fw, c)
        if safe == 0:
            best = max(best, -(k4.WIN - (n + 2)))
            continue
        left = k4.bit_count(safe)
        for g in range(t.params[P_KINDS]):
            if (safe >> g) & 1:
                moves[count] = (c << k4.MOVE_SHIFT) | g
                order[count] = 20 - left
                count += 1
    alpha_used = alpha
    beta_used = beta
    if best >= beta:
        count = 0
    for a in range(count):
        mv = take_best(moves, order, a, count)
        c = mv >> k4.MOVE_SHIFT
        g = mv & 31
        float_place(t, ft, fw, c, hand)
        fw.supply[g] -= 1
        fw.st[F_HAND] = g
        x0, x1, y0, y1 = bounds(ft, fw.st[F_OCC])
        if x1 - x0 == SIDE - 1 and y1 - y0 == SIDE - 1:
            load_box(t, w, ft, fw, x0, y0)
            score = -k4.search(t, w, -beta, -max(alpha, best))
        else:
            score = -float_search(t, w, ft, fw, -beta, -max(alpha, best))
        fw.st[F_HAND] = hand
        fw.supply[g] += 1
        float_unplace(ft, fw, c)
        if st[k4.ABORTED] == 1:
            return 0
        if score > best:
            best = score
            if best >= beta:
                break
    lower = best if best > alpha_used else -k4.INF
    upper = best if best < beta_used else k4.INF
    k4.store(w, hi, lo, lower, upper, -1, total - n)
    return best
