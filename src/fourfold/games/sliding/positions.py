"""The position-string layout shared by Ice Dao and classic Dao (RULES.md §4).

Ranks from the top (rank ``n``) down to rank 1, separated by ``/``; each rank
is ``n`` comma-separated squares, each ``.`` or the square's contents; then
one space and the letter of the side to move. The games say what a square's
contents look like; this module only splits and joins, with errors that name
the rank and square at fault.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from fourfold.core.errors import NotationError
from fourfold.games.sliding.geometry import SquareBoard

EMPTY = "."
T = TypeVar("T")


def parse_layout(
    text: str,
    board: SquareBoard,
    side_letters: str,
    read_square: Callable[[str], T],
    example: str,
) -> tuple[list[T], int]:
    """The contents of every square (by square number) and the side to move.

    ``read_square`` turns one square's text into its contents, raising
    ``ValueError`` with the reason; the error is reported with the square's name
    and the character where that square starts.
    """
    if not isinstance(text, str):
        raise NotationError("position", repr(text), "a position must be text")
    n = board.size

    def fail(reason: str, index: int | None = None) -> NotationError:
        return NotationError("position", text, reason, index)

    fields = text.split()
    if len(fields) != 2:
        raise fail(
            f"expected the board, one space and the side to move ({' or '.join(side_letters)}),"
            f" e.g. {example!r}"
        )
    layout, side_text = fields
    offset = text.index(layout)
    if len(side_text) != 1 or side_text.upper() not in side_letters:
        raise fail(
            f"the side to move must be {' or '.join(side_letters)}, got {side_text!r}",
            text.rindex(side_text),
        )
    ranks = layout.split("/")
    if len(ranks) != n:
        raise fail(f"expected {n} ranks ({n} down to 1) separated by '/', got {len(ranks)}")
    contents: dict[int, T] = {}
    for row, rank_text in enumerate(ranks):
        y = n - 1 - row
        squares = rank_text.split(",")
        if len(squares) != n:
            raise fail(
                f"rank {y + 1} has {len(squares)} squares, expected {n} separated by commas",
                offset,
            )
        for x, square_text in enumerate(squares):
            sq = board.square(x, y)
            try:
                contents[sq] = read_square(square_text)
            except ValueError as exc:
                raise fail(f"square {board.name(sq)}: {exc}", offset) from None
            offset += len(square_text) + 1
    return [contents[sq] for sq in range(board.num_squares)], side_letters.index(side_text.upper())


def format_layout(board: SquareBoard, squares: Sequence[str], side_letter: str) -> str:
    """Join square texts (by square number) into a position string."""
    n = board.size
    ranks = []
    for y in range(n - 1, -1, -1):
        ranks.append(",".join(squares[board.square(x, y)] or EMPTY for x in range(n)))
    return f"{'/'.join(ranks)} {side_letter}"
