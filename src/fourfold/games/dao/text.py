"""Classic Dao as text: each square shows ``X`` or ``O``; a formation wins. The board,
marks and move lists are the sliding games' (``games/sliding/text.py``)."""

from __future__ import annotations

from typing import Any

from fourfold.games.dao.state import SIDE_LETTERS
from fourfold.games.sliding.geometry import Square
from fourfold.games.sliding.text import AnySliding, SlidingPresenter

SIDE_STYLES = ("bold yellow", "bold magenta")  # X, O


class DaoPresenter(SlidingPresenter):
    """Dao's one-letter pieces and formations; every move goes at least one square."""

    cell_width = 1
    win_name = "formation"
    movable = "pieces"
    move_rules = ("Every move goes at least one square: there is no pass.",)

    def square_text(self, game: AnySliding, state: Any, square: Square) -> list[tuple[str, str]]:
        owner = state.board[square]
        return [] if owner is None else [(SIDE_LETTERS[owner], SIDE_STYLES[owner])]

    def winning_squares(self, state: Any) -> tuple[Square, ...]:
        formation: tuple[Square, ...] = state.formation or ()
        return formation

    def mover_letter(self, game: AnySliding, player: int) -> str:
        return SIDE_LETTERS[player]


#: the ``presenter`` part of Dao's extension bundle
PRESENTER = DaoPresenter()
