"""What the compiled kernel's tables (``kernel_tables.py``) and the exact solver's tables
(``solver/tables.py``) both build from the same facts of a placement ruleset.

* A line rule as a code, and each piece kind as a feature word, so that a line test
  is two bit operations: ``RULE_SHARE``, the AND of the four words is not zero (Quarto,
  Folio's same-colour-or-size); ``RULE_COVER``, their OR holds every colour bit or
  every size bit (Folio's colours-or-sizes).
* On a ``width x height`` grid, cells numbered ``y * width + x``: the lines of four,
  the lines through each cell, and each cell's neighbours (its 8-neighbourhood).
"""

from __future__ import annotations

from itertools import product

import numpy as np
import numpy.typing as npt

from fourfold.games.folio.pieces import colour, size
from fourfold.games.placement.lines import DIRECTIONS, LENGTH
from fourfold.games.quarto.pieces import FULL

IntArray = npt.NDArray[np.int64]

RULE_SHARE = 0  # the AND of the four feature words is not zero
RULE_COVER = 1  # the OR covers every colour bit or every size bit
COVER_COLOURS = 0b1111
COVER_SIZES = 0b111 << 4


def quarto_features() -> list[int]:
    """Each Quarto kind's attributes in the low four bits and their complements in the
    next four: four pieces share a feature bit exactly when they share an attribute."""
    return [k | ((~k & FULL) << 4) for k in range(FULL + 1)]


def folio_features(kinds: int) -> list[int]:
    """Each Folio kind's colour bit (0-3) and size bit (4-6)."""
    return [(1 << colour(k)) | (1 << (4 + size(k))) for k in range(kinds)]


def grid_lines(width: int, height: int) -> list[list[int]]:
    """Every line of four cells on the grid, by first cell then direction."""
    lines: list[list[int]] = []
    for y, x in product(range(height), range(width)):
        for dx, dy in DIRECTIONS:
            cells = [(x + j * dx, y + j * dy) for j in range(LENGTH)]
            if all(0 <= cx < width and 0 <= cy < height for cx, cy in cells):
                lines.append([cy * width + cx for cx, cy in cells])
    return lines


def lines_through(lines: list[list[int]] | list[tuple[int, ...]], cells: int,
                  width: int) -> tuple[IntArray, IntArray]:
    """Per cell, the numbers of the lines through it in a row of ``width`` (``-1`` after
    the last), and how many there are."""
    table = np.full((cells, width), -1, dtype=np.int64)
    count = np.zeros(cells, dtype=np.int64)
    for number, line in enumerate(lines):
        for c in line:
            table[c, count[c]] = number
            count[c] += 1
    return table, count


def neighbour_masks(width: int, height: int) -> list[int]:
    """Per cell, the bits of the cells next to it (diagonally too)."""
    masks = []
    for c in range(width * height):
        x, y = c % width, c // width
        masks.append(sum(1 << ((y + dy) * width + x + dx)
                         for dx, dy in product((-1, 0, 1), repeat=2)
                         if (dx or dy) and 0 <= x + dx < width and 0 <= y + dy < height))
    return masks
