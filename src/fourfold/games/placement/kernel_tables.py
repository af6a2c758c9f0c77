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
from fourfold.games.folio.pieces import COLOURS_OR_SIZES, FolioPieces
from fourfold.games.placement.fast_tables import (
    COVER_COLOURS,
    COVER_SIZES,
    RULE_COVER,
    RULE_SHARE,
    folio_features,
    grid_lines,
    lines_through,
    neighbour_masks,
    quarto_features,
)
from fourfold.games.placement.game import PlacementGame
from fourfold.games.placement.geometry import Board, Lattice
from fourfold.games.placement.lines import LENGTH
from fourfold.games.quarto.pieces import QuartoPieces

IntArray = npt.NDArray[np.int64]

# geometry kinds
GEO_ANY = 0  # any empty cell (fixed 4x4 boards)
GEO_BOX = 1  # first piece on given cells, then all pieces inside a 4x4 box (Folio standard)
GEO_TOUCH = 2  # first piece at the origin, later pieces touch one and fit a 4x4 box (no-grid)

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


# indices into ``params``: P_FIRST is the bitboard of the cells the first piece may use,
# P_FULL that of every cell
(P_CELLS, P_WIDTH, P_HEIGHT, P_GEOMETRY, P_BOX, P_FIRST, P_KINDS, P_RULE, P_TOTAL, P_ACTIONS,
 P_FULL, P_LINES) = range(12)
NUM_PARAMS = P_LINES + 1

# the flat array the kernel reads (``flatten``): ``params``, then the offset of each table
# after it (the fields of ``PlacementTables`` in order), then the tables
(O_CELL_X, O_CELL_Y, O_NEIGHBOURS, O_LINE_MASK, O_LINE_CELLS, O_CELL_LINES, O_CELL_NLINES,
 O_COL_MASK, O_ROW_MASK, O_FEATURES, O_COUNTS, O_ZOBRIST,
 O_ZOBRIST_HAND) = range(NUM_PARAMS, NUM_PARAMS + len(PlacementTables._fields) - 1)
# and last in the header, the multiplier that decodes an action's place without a division:
# ``action // (kinds + 1) == (action * t[P_PLACE_MUL]) >> PLACE_SHIFT`` (after the offsets,
# so that code compiled against the header without it still reads the same slots)
P_PLACE_MUL = O_ZOBRIST_HAND + 1
PLACE_SHIFT = 32
# then the offset of the kill table (``kill_table``): per line word (the AND of a line's
# other three feature words under ``RULE_SHARE``, their OR under ``RULE_COVER``), the
# bitboard of the kinds that complete the line; empty when there are more than
# ``KILL_KINDS`` kinds
O_KILL = P_PLACE_MUL + 1
HEADER = O_KILL + 1
KILL_KINDS = 62


def signed(bits: int) -> int:
    """A 64-bit pattern as the int64 that holds it (a 64-cell board uses the sign bit)."""
    bits &= (1 << 64) - 1
    return bits - (1 << 64) if bits >= 1 << 63 else bits


def place_multiplier(divisor: int, actions: int) -> int:
    """``m`` with ``a // divisor == (a * m) >> PLACE_SHIFT`` for every action ``a <
    actions``: ``m = 2**32 // divisor + 1`` overshoots ``2**32 / divisor`` by at most
    ``1``, so the quotient is exact while ``a * divisor < 2**32``, and ``a * m`` fits an
    int64 (a 64-cell board has fewer than ``2**16`` actions for up to 1,000 kinds)."""
    if actions * divisor >= 1 << PLACE_SHIFT:
        raise NoKernelError(f"{actions} actions of {divisor} gives are too many to decode")
    return (1 << PLACE_SHIFT) // divisor + 1


def _features(pieces: object) -> tuple[int, npt.NDArray[np.int64]]:
    if isinstance(pieces, QuartoPieces):
        return RULE_SHARE, np.array(quarto_features(), dtype=np.int64)
    if isinstance(pieces, FolioPieces):
        rule = RULE_COVER if pieces.line_rule == COLOURS_OR_SIZES else RULE_SHARE
        return rule, np.array(folio_features(len(pieces.counts)), dtype=np.int64)
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
    neighbours = np.array([signed(m) for m in neighbour_masks(width, height)], dtype=np.int64)
    col_mask = np.array(
        [signed(sum(1 << (y * width + x) for y in range(height))) for x in range(width)],
        dtype=np.int64,
    )
    row_mask = np.array(
        [signed(sum(1 << (y * width + x) for x in range(width))) for y in range(height)],
        dtype=np.int64,
    )
    lines = grid_lines(width, height)
    line_cells = np.array(lines, dtype=np.int64).reshape(len(lines), LENGTH)
    line_mask = np.array([signed(sum(1 << c for c in line)) for line in lines], dtype=np.int64)
    cell_lines, cell_nlines = lines_through(lines, n, MAX_LINES_PER_CELL)

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
    parts = [table.ravel() for table in t[1:]]
    header = np.zeros(HEADER, dtype=np.int64)
    header[:NUM_PARAMS] = t.params
    header[P_PLACE_MUL] = place_multiplier(int(t.params[P_KINDS]) + 1, int(t.params[P_ACTIONS]))
    offset = HEADER
    for i, part in enumerate(parts):
        header[NUM_PARAMS + i] = offset
        offset += len(part)
    header[O_KILL] = offset
    kill = kill_table(int(t.params[P_RULE]), t.features)
    return np.concatenate([header, *parts, kill]).astype(np.int64)


def kill_table(rule: int, features: IntArray) -> IntArray:
    """Per line word ``w`` (below ``2**bits``, ``bits`` the feature words' width): the kinds
    ``g`` whose feature word completes the line, as bits ``1 << g`` (``RULE_SHARE``: ``w``
    is the AND of the other three words and ``w & f[g] != 0``; ``RULE_COVER``: ``w`` is
    their OR and ``w | f[g]`` covers every colour or every size). Empty past
    ``KILL_KINDS`` kinds (the kernel then tests each line itself)."""
    if len(features) > KILL_KINDS:
        return np.zeros(0, dtype=np.int64)
    bits = int(features.max()).bit_length()
    table = np.zeros(1 << bits, dtype=np.int64)
    for word in range(1 << bits):
        for g, f in enumerate(int(v) for v in features):
            if rule == RULE_SHARE:
                completes = word & f != 0
            else:
                both = word | f
                completes = (both & COVER_COLOURS == COVER_COLOURS
                             or both & COVER_SIZES == COVER_SIZES)
            if completes:
                table[word] |= 1 << g
    return table
