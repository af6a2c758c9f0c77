"""Lines of four on a square lattice: rows, columns and both diagonals.

Lines may lie anywhere (Folio standard allows them anywhere on the 8x8
board), so a line is any four consecutive lattice cells in one direction.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache

from fourfold.games.placement.geometry import Cell

DIRECTIONS: tuple[Cell, ...] = ((1, 0), (0, 1), (1, 1), (1, -1))
LENGTH = 4


@lru_cache(maxsize=4096)
def lines_through(cell: Cell) -> tuple[tuple[Cell, ...], ...]:
    """The 16 lines of four cells that contain ``cell`` (4 directions x 4 offsets)."""
    x, y = cell
    return tuple(tuple((x + (start + i) * dx, y + (start + i) * dy) for i in range(LENGTH))
                 for dx, dy in DIRECTIONS for start in range(-(LENGTH - 1), 1))


def winning_line(
    board: Mapping[Cell, int],
    cell: Cell,
    rule: Callable[[Sequence[int]], str | None],
    piece: int | None = None,
    lines: Sequence[tuple[Cell, ...]] | None = None,
) -> tuple[tuple[Cell, ...], str] | None:
    """A full line through ``cell`` that the rule accepts, with the rule's reason.

    With ``piece`` given, ``cell`` is taken to hold it (a placement being tried),
    whatever ``board`` says, so callers need not copy the board. ``lines``: the lines
    through ``cell`` to look at, in ``lines_through`` order (by default all of them; a
    caller may leave out lines that can never be full).
    """
    for line in lines_through(cell) if lines is None else lines:
        kinds = []
        for c in line:
            if c == cell and piece is not None:
                kinds.append(piece)
            elif c in board:
                kinds.append(board[c])
            else:
                break
        else:
            reason = rule(kinds)
            if reason is not None:
                return line, reason
    return None
