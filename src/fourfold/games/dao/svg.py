"""SVG of classic Dao: black X and white O discs on the sliding board; a straight
formation gets a bar, squares, corners and traps get rings. The board, last move and
win are the sliding games' (``games/sliding/svg.py``).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from fourfold.core.game import Game, View
from fourfold.core.outcome import Outcome
from fourfold.games.dao.game import DaoGame
from fourfold.games.dao.state import SIDE_LETTERS, DaoState
from fourfold.games.sliding.geometry import Square
from fourfold.games.sliding.svg import board_svg, unit_of
from fourfold.render.svg.canvas import Canvas
from fourfold.render.svg.common import SeatNames

DAO_FILLS = ("#262626", "#fafafa")


def draw_dao(game: Game[Any, Any], view: View, *, last_move: Any | None,
             outcome: Outcome | None, size: int | None, names: SeatNames = None) -> str:
    assert isinstance(game, DaoGame)
    state = view.observation
    assert isinstance(state, DaoState)
    board = game.board
    unit = unit_of(game)

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
        canvas.circle(cx, cy, unit * 0.36, cls="body", parent=g, fill=DAO_FILLS[owner])
        canvas.text(cx, cy, letter, cls="letter" + (" dark" if owner else ""), parent=g,
                    font_size=unit * 0.34)

    squares = state.formation
    straight = False
    if squares is not None:
        xs = {board.coords(sq)[0] for sq in squares}
        ys = {board.coords(sq)[1] for sq in squares}
        straight = len(xs) == 1 or len(ys) == 1
    elif state.trapped is not None:
        squares = (state.trapped, *board.neighbours(state.trapped))
    return board_svg(game, view, outcome, size, last_move, "", "dao", draw, data,
                  (squares, straight), names)


#: the drawer part of the game's bundle (``core.extensions``)
DRAWER = draw_dao
