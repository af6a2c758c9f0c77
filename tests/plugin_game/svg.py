"""The SVG drawer of noughts and crosses, built with Fourfold's public drawing kit."""

from __future__ import annotations

from typing import Any

from fourfold.core.game import Game, View
from fourfold.core.outcome import Outcome
from fourfold.render.svg.canvas import Canvas
from fourfold.render.svg.common import header, header_height
from plugin_game.game import MARKS, SIDE, cell_name

CELL = 80
MARGIN = 24


def draw(game: Game[Any, Any], view: View[Any], *, last_move: Any | None,
         outcome: Outcome | None, size: int | None) -> str:
    """The board of ``view``: each cell a clickable square (``data-cell``), marks as letters,
    the last move framed."""
    width = SIDE * CELL + 2 * MARGIN
    height = header_height(game, view, outcome, width) + SIDE * CELL + 2 * MARGIN
    canvas = Canvas(width, height, game.info.spec.title, size=size)
    top = header(canvas, game, view, outcome)
    state = view.observation
    board = canvas.group(cls="board")
    for cell, mark in enumerate(state.board):
        x = MARGIN + (cell % SIDE) * CELL
        y = top + MARGIN + (SIDE - 1 - cell // SIDE) * CELL
        square = canvas.group(board, cls="square", data={"cell": cell_name(cell)})
        canvas.rect(x, y, CELL, CELL, cls="cell", parent=square)
        if mark is not None:
            canvas.text(x + CELL / 2, y + CELL / 2, MARKS[mark], parent=square,
                        font_size=CELL * 0.6, font_weight="bold", fill="#222",
                        text_anchor="middle", dominant_baseline="central")
        if last_move is not None and last_move.cell == cell:
            canvas.rect(x + 4, y + 4, CELL - 8, CELL - 8, cls="last", parent=square)
    return canvas.to_string()


#: the drawer part, found by convention (a game folder's svg.py holds it as DRAWER)
DRAWER = draw
