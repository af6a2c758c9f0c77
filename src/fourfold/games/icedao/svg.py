"""SVG of Ice Dao: stacks of pyramids seen from above on the sliding board.

The bottom pyramid is the outermost square and each smaller one sits inside it,
towards its bottom right corner, so every piece of a stack shows an L-shaped strip
with its colour letter and its pips (1 small, 2 medium, 3 large), and its place in
the stack; the letters stay 12 units tall (12 CSS px on a phone). The board, last
move and win are the sliding games' (``games/sliding/svg.py``).
"""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET
from typing import Any

from fourfold.core.game import Game, View
from fourfold.core.outcome import Outcome
from fourfold.games.icedao.game import IceDaoGame
from fourfold.games.icedao.pieces import COLOURS, colour, describe, piece_name, stack_name
from fourfold.games.icedao.pieces import size as piece_size
from fourfold.games.icedao.state import IceDaoState
from fourfold.games.sliding.geometry import Square
from fourfold.games.sliding.svg import board_svg, unit_of
from fourfold.render.svg.canvas import PYRAMID_SIDES, Canvas, pyramid
from fourfold.render.svg.common import SeatNames

#: Blue and Green (letters B and G are always drawn too).
ICEDAO_FILLS = ("#1f6fd1", "#2a9d3f")
#: how far a piece in a stack sits in from the bottom and right edges of the one below
STEP_IN = 1.5


def draw_icedao(game: Game[Any, Any], view: View, *, last_move: Any | None,
                outcome: Outcome | None, size: int | None, names: SeatNames = None) -> str:
    assert isinstance(game, IceDaoGame)
    state = view.observation
    assert isinstance(state, IceDaoState)
    board = game.board
    unit = unit_of(game)

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
        for level, (piece, (px, py), strip) in enumerate(zip(stack, *nested(stack, cx, cy),
                                                             strict=True)):
            pg = canvas.group(g, cls="piece", data={"piece": piece_name(piece),
                                                    "level": str(level)})
            pyramid(canvas, pg, px, py, unit, piece_size(piece), ICEDAO_FILLS[colour(piece)],
                    COLOURS[colour(piece)], strip=strip)

    def nested(stack: tuple[int, ...], cx: float, cy: float
               ) -> tuple[list[tuple[float, float]], list[float | None]]:
        """Each piece's centre, and the strip of it left in sight by the piece above
        (None for the top piece): each piece sits in the bottom right corner of the one
        below, STEP_IN from its edges, so the one below shows an L of its own."""
        centres = [(cx, cy)]
        strips: list[float | None] = []
        for below, above in itertools.pairwise(stack):
            outer = unit * PYRAMID_SIDES[piece_size(below)]
            inner = unit * PYRAMID_SIDES[piece_size(above)]
            bx, by = centres[-1]
            centres.append((bx + outer / 2 - STEP_IN - inner / 2,
                            by + outer / 2 - STEP_IN - inner / 2))
            strips.append(outer - inner - STEP_IN)
        return centres, [*strips, None]

    extra = "Stacks seen from above: each piece sits on the one below, whose letter shows"\
        " at its top left; pips give sizes."
    return board_svg(game, view, outcome, size, last_move, extra, "icedao", draw, data,
                  (state.line, True), names)


#: the drawer part of the game's bundle (``core.extensions``)
DRAWER = draw_icedao
