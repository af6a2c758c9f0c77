"""Precomputed tables that let the compiled placement kernel play any placement ruleset.

The readable rules (``fourfold.games.placement``) describe a ruleset by a
``Geometry`` and a ``PieceSet``; here they become flat integer arrays:

* cells keep the reference numbering (``geometry.index``), laid out on a
  ``width x height`` grid (Folio no-grid uses the 7x7 window of cells within
  3 of the first piece, which is every cell a game can reach);
* every line of four on that grid is a bitboard (``line_mask``) with its
  cells, and each cell lists the lines through it;
* each piece kind gets a feature word so that a line test is two bit
  operations (``RULE_SHARE``: all four share a feature, as in Quarto and
  Folio's same-colour-or-size; ``RULE_COVER``: together they cover all four
  colours or all three sizes, Folio's colours-or-sizes);
* Zobrist keys for (cell, kind) and for the kind in hand.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from fourfold.core.errors import FourfoldError
from fourfold.games.folio.pieces import COLOURS_OR_SIZES, FolioPieces, colour, size
from fourfold.games.placement.game import PlacementGame
from fourfold.games.placement.geometry import Board, Lattice
from fourfold.games.placement.lines import DIRECTIONS, LENGTH
from fourfold.games.quarto.pieces import FULL, QuartoPieces

IntArray = npt.NDArray[np.int64]

# geometry kinds
GEO_ANY = 0  # any empty cell (fixed 4x4 boards)
GEO_BOX = 1  # first piece on given cells, then all pieces inside a 4x4 box (Folio standard)
GEO_TOUCH = 2  # first piece at the origin, later pieces touch one and fit a 4x4 box (no-grid)

# line rules
RULE_SHARE = 0  # the AND of the four feature words is not zero
RULE_COVER = 1  # the OR covers every colour bit or every size bit

COVER_COLOURS = 0b1111
COVER_SIZES = 0b111 << 4

MAX_LINES_PER_CELL = 16
ZOBRIST_SEED = 0x5EED_F01D


class NoKernelError(FourfoldError):
    """A placement ruleset the compiled kernel cannot play (``kernel_engine`` then falls
    back to the readable rules)."""


class PlacementTables(NamedTuple):
    """Everything the kernel needs to know about one ruleset, as arrays.

    ``params`` holds the scalars: see the ``P_*`` indices.
    """

    params: IntArray
    cell_x: IntArray
    cell_y: IntArray
    neighbours: IntArray
    line_mask: IntArray
    line_cells: IntArray
    cell_lines: IntArray
    cell_nlines: IntArray
    col_mask: IntArray
    row_mask: IntArray
    features: IntArray
    counts: IntArray
    zobrist: IntArray
    zobrist_hand: IntArray


# indices into ``params``
P_CELLS = 0
P_WIDTH = 1
P_HEIGHT = 2
P_GEOMETRY = 3
P_BOX = 4
P_FIRST = 5  # bitboard of the cells the first piece may use
P_KINDS = 6
P_RULE = 7
P_TOTAL = 8
P_ACTIONS = 9
P_FULL = 10  # bitboard of every cell
P_LINES = 11
NUM_PARAMS = 12

# the flat array the kernel reads: ``params``, then these offsets, then the tables
O_CELL_X = NUM_PARAMS
O_CELL_Y = NUM_PARAMS + 1
O_NEIGHBOURS = NUM_PARAMS + 2
O_LINE_MASK = NUM_PARAMS + 3
O_LINE_CELLS = NUM_PARAMS + 4
O_CELL_LINES = NUM_PARAMS + 5
O_CELL_NLINES = NUM_PARAMS + 6
O_COL_MASK = NUM_PARAMS + 7
O_ROW_MASK = NUM_PARAMS + 8
O_FEATURES = NUM_PARAMS + 9
O_COUNTS = NUM_PARAMS + 10
O_ZOBRIST = NUM_PARAMS + 11
O_ZOBRIST_HAND = NUM_PARAMS + 12
HEADER = NUM_PARAMS + 13


def signed(bits: int) -> int:
    """A 64-bit pattern as the int64 that holds it (a 64-cell board uses the sign bit)."""
    bits &= (1 << 64) - 1
    return bits - (1 << 64) if bits >= 1 << 63 else bits


def _features(pieces: object) -> tuple[int, npt.NDArray[np.int64]]:
    if isinstance(pieces, QuartoPieces):
        feats = [k | ((~k & FULL) << 4) for k in range(16)]
        return RULE_SHARE, np.array(feats, dtype=np.int64)
    if isinstance(pieces, FolioPieces):
        feats = [(1 << colour(k)) | (1 << (4 + size(k))) for k in range(len(pieces.counts))]
        rule = RULE_COVER if pieces.line_rule == COLOURS_OR_SIZES else RULE_SHARE
        return rule, np.array(feats, dtype=np.int64)
    raise NoKernelError(f"no kernel features for piece set {type(pieces).__name__}")


def build_tables(game: PlacementGame) -> PlacementTables:
    """Tables for a configured placement game (Folio grid variants or Quarto)."""
    geo = game.geometry
    if isinstance(geo, Lattice):
        width = height = geo.side
        kind, box = GEO_TOUCH, 4
        first = [geo.index((0, 0))]
    elif isinstance(geo, Board):
        width, height = geo.width, geo.height
        if geo.box is None and geo.first is None:
            kind, box, first = GEO_ANY, 0, list(range(geo.num_cells))
        else:
            kind, box = GEO_BOX, geo.box or max(width, height)
            first = [geo.index(c) for c in (geo.first or [])] or list(range(geo.num_cells))
    else:
        raise NoKernelError(f"no kernel for geometry {type(geo).__name__}")
    n = width * height
    if n != geo.num_cells or n > 64:
        raise NoKernelError(f"geometry with {n} cells does not fit a 64-bit board")
    cell_x = np.array([i % width for i in range(n)], dtype=np.int64)
    cell_y = np.array([i // width for i in range(n)], dtype=np.int64)

    neighbours = np.zeros(n, dtype=np.int64)
    for i in range(n):
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                x, y = cell_x[i] + dx, cell_y[i] + dy
                if (dx or dy) and 0 <= x < width and 0 <= y < height:
                    neighbours[i] = signed(int(neighbours[i]) | 1 << int(y * width + x))
    col_mask = np.array(
        [signed(sum(1 << (y * width + x) for y in range(height))) for x in range(width)],
        dtype=np.int64,
    )
    row_mask = np.array(
        [signed(sum(1 << (y * width + x) for x in range(width))) for y in range(height)],
        dtype=np.int64,
    )

    lines: list[list[int]] = []
    for y in range(height):
        for x in range(width):
            for dx, dy in DIRECTIONS:
                cells = [(x + j * dx, y + j * dy) for j in range(LENGTH)]
                if all(0 <= cx < width and 0 <= cy < height for cx, cy in cells):
                    lines.append([cy * width + cx for cx, cy in cells])
    line_cells = np.array(lines, dtype=np.int64).reshape(len(lines), LENGTH)
    line_mask = np.array([signed(sum(1 << c for c in line)) for line in lines], dtype=np.int64)
    cell_lines = np.full((n, MAX_LINES_PER_CELL), -1, dtype=np.int64)
    cell_nlines = np.zeros(n, dtype=np.int64)
    for li, line in enumerate(lines):
        for c in line:
            cell_lines[c, cell_nlines[c]] = li
            cell_nlines[c] += 1

    rule, features = _features(game.pieces)
    kinds = len(features)
    counts = np.array(game.pieces.counts, dtype=np.int64)
    rng = np.random.default_rng(ZOBRIST_SEED)
    zobrist = rng.integers(1, 2**62, size=n * kinds, dtype=np.int64)
    zobrist_hand = np.zeros(kinds + 1, dtype=np.int64)
    zobrist_hand[:kinds] = rng.integers(1, 2**62, size=kinds, dtype=np.int64)

    params = np.zeros(NUM_PARAMS, dtype=np.int64)
    params[P_CELLS] = n
    params[P_WIDTH] = width
    params[P_HEIGHT] = height
    params[P_GEOMETRY] = kind
    params[P_BOX] = box
    params[P_FIRST] = signed(sum(1 << c for c in first))
    params[P_KINDS] = kinds
    params[P_RULE] = rule
    params[P_TOTAL] = int(counts.sum())
    params[P_ACTIONS] = (n + 1) * (kinds + 1)
    params[P_FULL] = signed((1 << n) - 1)
    params[P_LINES] = len(lines)
    return PlacementTables(
        params, cell_x, cell_y, neighbours, line_mask, line_cells, cell_lines, cell_nlines,
        col_mask, row_mask, features, counts, zobrist, zobrist_hand,
    )


def flatten(t: PlacementTables) -> IntArray:
    """All tables in one int64 array (header of scalars and offsets, then the tables).

    The kernel takes this single array: passing a tuple of arrays to every
    compiled helper costs a reference-count update per array per call, which
    dominated the cost of a search node.
    """
    parts = [
        t.cell_x, t.cell_y, t.neighbours, t.line_mask, t.line_cells.ravel(),
        t.cell_lines.ravel(), t.cell_nlines, t.col_mask, t.row_mask, t.features, t.counts,
        t.zobrist, t.zobrist_hand,
    ]
    header = np.zeros(HEADER, dtype=np.int64)
    header[:NUM_PARAMS] = t.params
    offset = HEADER
    for i, part in enumerate(parts):
        header[NUM_PARAMS + i] = offset
        offset += len(part)
    return np.concatenate([header, *parts]).astype(np.int64)
