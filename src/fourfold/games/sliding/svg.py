"""SVG of the sliding games: the board Ice Dao and classic Dao share.

``board_svg`` draws the cells with coordinates on the left and below, the last move (an arrow
from the square it left to a frame on the square it reached), a winning line (a thick
bar with a ring on each of its squares; other winning squares get rings) and a
``Last move`` note; each game's drawer (``games/icedao/svg.py``, ``games/dao/svg.py``)
draws what stands on each square.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import Any

from fourfold.core.game import View
from fourfold.core.outcome import Outcome
from fourfold.games.sliding.game import SlidingGame
from fourfold.games.sliding.geometry import Square
from fourfold.games.sliding.moves import Pass, Slide
from fourfold.render.svg.canvas import Canvas
from fourfold.render.svg.common import (
    COORD_FOOT,
    PAD,
    WIDTH,
    SeatNames,
    board_fit,
    coordinates,
    header,
    header_height,
    title_of,
)

#: the largest side of a square (Dao's 4x4 board; Ice Dao's 5x5 fills the picture's width)
MAX_UNIT = 80.0
#: the band under the coordinates that holds the last move
FOOT = 20.0
#: how far short of the arrival square's centre the last move's arrow stops (in squares)
ARROW_GAP = 0.42

SquareDrawer = Callable[[Canvas, ET.Element, float, float, Square], None]


def fit(game: SlidingGame[Any]) -> tuple[float, float]:
    """``(unit, left)``: the side of a square and the board's left edge."""
    return board_fit(game.board.size, [str(i + 1) for i in range(game.board.size)], MAX_UNIT)


def unit_of(game: SlidingGame[Any]) -> float:
    """The side of a square of ``game``'s picture (what a square's drawer scales to)."""
    return fit(game)[0]


def board_svg(game: SlidingGame[Any], view: View, outcome: Outcome | None, size: int | None,
              last_move: Any | None, extra: str, kind: str, draw_square: SquareDrawer,
              square_data: Callable[[Square], dict[str, str]],
              win: tuple[tuple[Square, ...] | None, bool], names: SeatNames = None) -> str:
    """The common board: cells, coordinates, the last move, the win, and the contents
    of each square drawn by ``draw_square``. ``extra`` is a note under the status line,
    ``kind`` the picture's CSS class (``game-<kind>``), ``square_data`` the data
    attributes of each square, ``win`` the winning squares and whether they are one
    straight line (drawn as a bar); ``names`` the seats' names at the table."""
    state = view.observation
    board = game.board
    n = board.size
    unit, left = fit(game)
    width = WIDTH
    top = header_height(game, view, outcome, width, extra, names) + 4
    height = top + n * unit + COORD_FOOT + (FOOT if last_move is not None else 4)
    canvas = Canvas(width, height, f"{title_of(game)}: {game.format_position(state)}",
                    size=size, kind=kind)
    header(canvas, game, view, outcome, extra, names)

    def at(sq: Square) -> tuple[float, float]:
        x, y = board.coords(sq)
        return left + x * unit, top + (n - 1 - y) * unit

    cells = canvas.group(cls="board")
    for sq in range(board.num_squares):
        px, py = at(sq)
        x, y = board.coords(sq)
        g = canvas.group(cells, cls="square", data={"cell": board.name(sq), **square_data(sq)})
        canvas.rect(px, py, unit, unit, cls="cell dark" if (x + y) % 2 == 0 else "cell",
                    parent=g)
    coordinates(canvas, left, top, unit, board.files[:n], [str(i + 1) for i in range(n)])
    squares, straight = win
    if squares and straight:
        (x1, y1), (x2, y2) = at(squares[0]), at(squares[-1])
        canvas.line(x1 + unit / 2, y1 + unit / 2, x2 + unit / 2, y2 + unit / 2, cls="win",
                    data_line=" ".join(board.name(sq) for sq in squares))
    pieces = canvas.group(cls="pieces")
    for sq in range(board.num_squares):
        px, py = at(sq)
        draw_square(canvas, pieces, px + unit / 2, py + unit / 2, sq)
    for sq in squares or ():
        px, py = at(sq)
        canvas.rect(px + 3, py + 3, unit - 6, unit - 6, cls="win-ring", rx=8)
    arrival = getattr(state, "arrival", None)
    if isinstance(last_move, Slide):
        ox, oy = at(last_move.origin)
        canvas.rect(ox + 2, oy + 2, unit - 4, unit - 4, cls="last", stroke_opacity=0.5,
                    data_cell=board.name(last_move.origin))
        if arrival is not None:
            tx, ty = at(arrival)
            canvas.rect(tx + 1, ty + 1, unit - 2, unit - 2, cls="last",
                        data_cell=board.name(arrival))
            # the arrow stops at the edge of the piece that arrived, not on its letter
            dx, dy = tx - ox, ty - oy
            length = math.hypot(dx, dy)
            short = 1 - min(ARROW_GAP * unit / length, 1.0) if length else 1.0
            canvas.line(ox + unit / 2, oy + unit / 2, ox + unit / 2 + dx * short,
                        oy + unit / 2 + dy * short, cls="arrow", opacity=0.7)
    if last_move is not None:
        what = "pass" if isinstance(last_move, Pass) else _move_text(game, state, last_move)
        canvas.text(PAD, height - 7, f"Last move: {what}", cls="note")
    return canvas.to_string()


def _move_text(game: SlidingGame[Any], state: Any, move: Any) -> str:
    arrival = getattr(state, "arrival", None)
    if isinstance(move, Slide) and arrival is not None:
        return f"{game.board.name(move.origin)}-{game.board.name(arrival)}"
    return str(game.describe_move(state, move))
