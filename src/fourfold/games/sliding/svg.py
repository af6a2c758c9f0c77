"""SVG of the sliding games: Ice Dao's stacks of pyramids and classic Dao's board.

Ice Dao stacks are seen from above: the bottom pyramid is the outermost square and
each smaller one sits inside it, so every piece of a stack shows its colour letter
and its pips (1 small, 2 medium, 3 large) and its place in the stack. The last move
is an arrow from the square it left to a dashed frame on the square it reached; a
winning line is a thick bar with a ring on each of its squares (Dao's squares,
corners and traps get rings).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import Any

from fourfold.core.game import Game, View
from fourfold.core.outcome import Outcome
from fourfold.games.dao.game import DaoGame
from fourfold.games.dao.state import SIDE_LETTERS, DaoState
from fourfold.games.icedao.game import IceDaoGame
from fourfold.games.icedao.pieces import COLOURS, colour, describe, piece_name, stack_name
from fourfold.games.icedao.pieces import size as piece_size
from fourfold.games.icedao.state import IceDaoState
from fourfold.games.sliding.game import SlidingGame
from fourfold.games.sliding.geometry import Square
from fourfold.games.sliding.moves import Pass, Slide
from fourfold.render.svg.canvas import Canvas, pyramid
from fourfold.render.svg.common import header, header_height, title_of

UNIT = 84.0
MARGIN = 26.0
MIN_WIDTH = 420.0
FOOT = 16.0

#: Ice Dao Blue and Green (letters B and G are always drawn too).
ICEDAO_FILLS = ("#1f6fd1", "#2a9d3f")
DAO_FILLS = ("#262626", "#fafafa")

SquareDrawer = Callable[[Canvas, ET.Element, float, float, Square], None]


def _board(game: SlidingGame[Any], view: View, outcome: Outcome | None, size: int | None,
           last_move: Any | None, extra: str, kind: str, draw_square: SquareDrawer,
           square_data: Callable[[Square], dict[str, str]],
           win: tuple[tuple[Square, ...] | None, bool]) -> str:
    """The common board: cells, coordinates, the last move, the win, and the contents
    of each square drawn by ``draw_square``."""
    state = view.observation
    board = game.board
    n = board.size
    width = max(MIN_WIDTH, n * UNIT + 2 * MARGIN)
    top = header_height(game, view, outcome, width, extra)
    height = top + n * UNIT + 2 * MARGIN + FOOT
    canvas = Canvas(width, height, f"{title_of(game)}: {game.format_position(state)}",
                    size=size, kind=kind)
    header(canvas, game, view, outcome, extra)
    left = (width - n * UNIT) / 2
    top += MARGIN

    def at(sq: Square) -> tuple[float, float]:
        x, y = board.coords(sq)
        return left + x * UNIT, top + (n - 1 - y) * UNIT

    cells = canvas.group(cls="board")
    for sq in range(board.num_squares):
        px, py = at(sq)
        x, y = board.coords(sq)
        g = canvas.group(cells, cls="square", data={"cell": board.name(sq), **square_data(sq)})
        canvas.rect(px, py, UNIT, UNIT, cls="cell dark" if (x + y) % 2 == 0 else "cell",
                    parent=g)
    for i in range(n):
        cx = left + (i + 0.5) * UNIT
        canvas.text(cx, top - MARGIN / 2, board.files[i], cls="coord")
        canvas.text(cx, top + n * UNIT + MARGIN / 2, board.files[i], cls="coord")
        cy = top + (n - 1 - i + 0.5) * UNIT
        canvas.text(left - MARGIN / 2, cy, str(i + 1), cls="coord")
        canvas.text(left + n * UNIT + MARGIN / 2, cy, str(i + 1), cls="coord")
    squares, straight = win
    if squares and straight:
        (x1, y1), (x2, y2) = at(squares[0]), at(squares[-1])
        canvas.line(x1 + UNIT / 2, y1 + UNIT / 2, x2 + UNIT / 2, y2 + UNIT / 2, cls="win",
                    data_line=" ".join(board.name(sq) for sq in squares))
    pieces = canvas.group(cls="pieces")
    for sq in range(board.num_squares):
        px, py = at(sq)
        draw_square(canvas, pieces, px + UNIT / 2, py + UNIT / 2, sq)
    for sq in squares or ():
        px, py = at(sq)
        canvas.rect(px + 3, py + 3, UNIT - 6, UNIT - 6, cls="win-ring", rx=8)
    arrival = getattr(state, "arrival", None)
    if isinstance(last_move, Slide):
        ox, oy = at(last_move.origin)
        canvas.rect(ox + 2, oy + 2, UNIT - 4, UNIT - 4, cls="last", stroke_opacity=0.5,
                    data_cell=board.name(last_move.origin))
        if arrival is not None:
            tx, ty = at(arrival)
            canvas.rect(tx + 1, ty + 1, UNIT - 2, UNIT - 2, cls="last",
                        data_cell=board.name(arrival))
            canvas.line(ox + UNIT / 2, oy + UNIT / 2, tx + UNIT / 2, ty + UNIT / 2,
                        cls="arrow", opacity=0.7)
    if last_move is not None:
        what = "pass" if isinstance(last_move, Pass) else _move_text(game, state, last_move)
        canvas.text(left, height - FOOT / 2 - 4, f"Last move: {what}", cls="note")
    return canvas.to_string()


def _move_text(game: SlidingGame[Any], state: Any, move: Any) -> str:
    arrival = getattr(state, "arrival", None)
    if isinstance(move, Slide) and arrival is not None:
        return f"{game.board.name(move.origin)}-{game.board.name(arrival)}"
    return str(game.describe_move(state, move))


def draw_icedao(game: Game[Any, Any], view: View, *, last_move: Any | None,
                outcome: Outcome | None, size: int | None) -> str:
    assert isinstance(game, IceDaoGame)
    state = view.observation
    assert isinstance(state, IceDaoState)
    board = game.board

    def data(sq: Square) -> dict[str, str]:
        return {"stack": stack_name(state.board[sq])}

    def draw(canvas: Canvas, parent: ET.Element, cx: float, cy: float, sq: Square) -> None:
        stack = state.board[sq]
        if not stack:
            return
        where = board.name(sq)
        words = ", ".join(describe(p) for p in stack)
        g = canvas.group(parent, cls="stack",
                         data={"stack": stack_name(stack), "cell": where},
                         tip=f"{where}: {words} (bottom to top)")
        for level, piece in enumerate(stack):
            pg = canvas.group(g, cls="piece", data={"piece": piece_name(piece),
                                                    "level": str(level)})
            pyramid(canvas, pg, cx, cy, UNIT, piece_size(piece), ICEDAO_FILLS[colour(piece)],
                    COLOURS[colour(piece)], covered=level < len(stack) - 1)

    extra = "Stacks seen from above: the outer square is the bottom piece; pips give sizes."
    return _board(game, view, outcome, size, last_move, extra, "icedao", draw, data,
                  (state.line, True))


def draw_dao(game: Game[Any, Any], view: View, *, last_move: Any | None,
             outcome: Outcome | None, size: int | None) -> str:
    assert isinstance(game, DaoGame)
    state = view.observation
    assert isinstance(state, DaoState)
    board = game.board

    def data(sq: Square) -> dict[str, str]:
        owner = state.board[sq]
        return {} if owner is None else {"piece": SIDE_LETTERS[owner]}

    def draw(canvas: Canvas, parent: ET.Element, cx: float, cy: float, sq: Square) -> None:
        owner = state.board[sq]
        if owner is None:
            return
        letter = SIDE_LETTERS[owner]
        g = canvas.group(parent, cls="piece", data={"piece": letter, "cell": board.name(sq)},
                         tip=f"{letter} on {board.name(sq)}")
        canvas.circle(cx, cy, UNIT * 0.36, cls="body", parent=g, fill=DAO_FILLS[owner])
        canvas.text(cx, cy, letter, cls="letter" + (" dark" if owner else ""), parent=g,
                    font_size=UNIT * 0.34)

    squares = state.formation
    straight = False
    if squares is not None:
        xs = {board.coords(sq)[0] for sq in squares}
        ys = {board.coords(sq)[1] for sq in squares}
        straight = len(xs) == 1 or len(ys) == 1
    elif state.trapped is not None:
        squares = (state.trapped, *board.neighbours(state.trapped))
    return _board(game, view, outcome, size, last_move, "", "dao", draw, data,
                  (squares, straight))

