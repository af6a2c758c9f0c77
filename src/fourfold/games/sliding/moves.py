"""Move values and move notation of the sliding games (Ice Dao and classic Dao).

A move picks a piece and a direction; how far the piece goes is forced by the
rules, so a ``Slide`` is ``(origin, direction)``. Notation names the stop
square (``c4-e2``) because players think in squares. ``parse_move`` reads the
text against the position: when the written stop square is where the piece
really stops, the result is the plain ``Slide``; otherwise the written square
is kept in ``written`` so that ``illegal_reason`` can say where the piece
would really go. Legal moves never carry ``written``.

Ice Dao's zero-square moves all leave the same position, so they are one move,
``Pass`` (notation ``pass``).
"""

from __future__ import annotations

from dataclasses import dataclass

from fourfold.core.errors import NotationError
from fourfold.games.sliding.geometry import DIRECTION_NAMES, NUM_DIRECTIONS, Square, SquareBoard

PASS_TEXT = "pass"


@dataclass(frozen=True)
class Slide:
    """Move the top piece on ``origin`` in ``direction`` (an index of ``DIRECTIONS``).

    ``written`` is set only for a move read from text that names a stop square the
    piece does not stop on: such a move is never legal, and the square is kept to
    explain why.
    """

    origin: Square
    direction: int
    written: Square | None = None

    @property
    def direction_name(self) -> str:
        return DIRECTION_NAMES[self.direction] if 0 <= self.direction < NUM_DIRECTIONS else "?"


@dataclass(frozen=True)
class Pass:
    """Ice Dao's zero-square move: every zero-square move is this one move."""


def read_move_text(
    text: str, board: SquareBoard, *, allow_pass: bool
) -> tuple[Square, Square] | Pass:
    """The squares of ``FROM-TO`` (or ``Pass``); ``NotationError`` saying how to write it."""
    example = "c4-e2" if board.size >= 5 else "b2-b4"
    how = f"write a move as FROM-TO, e.g. {example}" + (", or pass" if allow_pass else "")
    if not isinstance(text, str):
        raise NotationError("move", repr(text), "a move must be text")
    t = text.strip().lower()
    if not t:
        raise NotationError("move", text, f"empty move; {how}")
    if t == PASS_TEXT:
        if allow_pass:
            return Pass()
        raise NotationError(
            "move", text, "there is no pass in this game: a piece must move at least one square"
        )
    origin_text, sep, target_text = t.partition("-")
    if not sep:
        raise NotationError("move", text, how)
    squares = []
    for part in (origin_text, target_text):
        try:
            squares.append(board.parse_square(part))
        except ValueError as exc:
            at = text.lower().find(part) if part else None
            raise NotationError("move", text, f"{exc}; {how}", at if at != -1 else None) from None
    origin, target = squares
    if origin == target:
        hint = "a move of zero squares is written pass" if allow_pass else (
            "a piece must move at least one square"
        )
        raise NotationError("move", text, f"{board.name(origin)} to itself: {hint}")
    if board.direction_between(origin, target) is None:
        raise NotationError(
            "move", text,
            f"{board.name(origin)} to {board.name(target)} is not a straight line: pieces move "
            "along a row, a column or a diagonal",
        )
    return origin, target


def check_slide_fields(move: Slide, board: SquareBoard) -> str | None:
    """Why a hand-built ``Slide`` names no square or direction of this board, or ``None``."""
    if not 0 <= move.origin < board.num_squares:
        return f"there is no square number {move.origin} on a {board.size}x{board.size} board"
    if not 0 <= move.direction < NUM_DIRECTIONS:
        return f"there is no direction number {move.direction} (0..{NUM_DIRECTIONS - 1})"
    if move.written is not None and move.written not in board.rays[move.origin][move.direction]:
        return (f"square number {move.written} does not lie {move.direction_name} of"
                f" {board.name(move.origin)}")
    return None
