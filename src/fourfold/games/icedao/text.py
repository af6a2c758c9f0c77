"""Ice Dao as text: each square shows its stack from the bottom up (``GlBs`` is a small
blue on a large green); a slide is told with the pieces it moves onto and uncovers.
The board, marks and move lists are the sliding games' (``games/sliding/text.py``)."""

from __future__ import annotations

from typing import Any

from fourfold.games.icedao.pieces import colour, describe, stack_name
from fourfold.games.sliding.geometry import Square
from fourfold.games.sliding.moves import Slide
from fourfold.games.sliding.text import AnySliding, SlidingPresenter

SIDE_STYLES = ("bold blue", "bold green")  # Blue, Green


class IceDaoPresenter(SlidingPresenter):
    """Ice Dao's stacks of pyramids, top pieces and passes."""

    cell_width = 6  # a stack of three
    win_name = "line"
    movable = "top pieces"
    move_rules = (
        "Only the top piece of a stack moves.",
        "pass is the zero-square move (when one of your top pieces is blocked somewhere).",
    )
    key = "B Blue, G Green; s small, m medium, l large; stacks bottom to top"

    def square_text(self, game: AnySliding, state: Any, square: Square) -> list[tuple[str, str]]:
        return [(stack_name((p,)), SIDE_STYLES[colour(p)]) for p in state.board[square]]

    def winning_squares(self, state: Any) -> tuple[Square, ...]:
        line: tuple[Square, ...] = state.line or ()
        return line

    def mover_letter(self, game: AnySliding, player: int) -> str:
        return "BG"[player]

    def slid(self, game: AnySliding, before: Any, move: Slide, target: Square, way: str) -> str:
        stack = before.board[move.origin]
        words = f"the {describe(stack[-1])} slid {way}"
        if before.board[target]:
            words += f", onto the {describe(before.board[target][-1])}"
        if len(stack) > 1:
            words += f", uncovering the {describe(stack[-2])}"
        return words


#: the ``presenter`` part of Ice Dao's extension bundle
PRESENTER = IceDaoPresenter()
