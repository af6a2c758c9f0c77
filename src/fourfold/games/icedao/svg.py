"""SVG of Ice Dao: stacks of pyramids seen from above on the sliding board.

The bottom pyramid is the outermost square and each smaller one sits inside it, so
every piece of a stack shows its colour letter, its pips (1 small, 2 medium, 3 large)
and its place in the stack. The board, last move and win are the sliding games'
(``games/sliding/svg.py``).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from fourfold.core.game import Game, View
from fourfold.core.outcome import Outcome
from fourfold.games.icedao.game import IceDaoGame
from fourfold.games.icedao.pieces import COLOURS, colour, describe, piece_name, stack_name
from fourfold.games.icedao.pieces import size as piece_size
from fourfold.games.icedao.state import IceDaoState
from fourfold.games.sliding.geometry import Square
from fourfold.games.sliding.svg import UNIT, board_svg
from fourfold.render.svg.canvas import Canvas, pyramid
from fourfold.render.svg.common import SeatNames

#: Blue and Green (letters B and G are always drawn too).
ICEDAO_FILLS = ("#1f6fd1", "#2a9d3f")


def draw_icedao(game: Game[Any, Any], view: View, *, last_move: Any | None,
                outcome: Outcome | None, size: int | None, names: SeatNames = None) -> str:
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
    return board_svg(game, view, outcome, size, last_move, extra, "icedao", draw, data,
                  (state.line, True), names)


#: the drawer part of the game's bundle (``core.extensions``)
DRAWER = draw_icedao
