"""The text presenter of noughts and crosses: the board as three ranks of marks."""

from __future__ import annotations

from typing import Any

from fourfold.core.game import Game
from fourfold.render.presenter import Presenter
from plugin_game.game import EMPTY, MARKS, SIDE, NoughtsState, cell_name


class NoughtsPresenter(Presenter):
    """Draws ranks 3 to 1 with file letters below; the last mark is bracketed."""

    def draw(self, game: Game[Any, Any], state: NoughtsState, last_move: Any | None, *,
             colour: bool = False, viewer: int | None = None) -> str:
        last = None if last_move is None else last_move.cell
        rows = []
        for rank in reversed(range(SIDE)):
            cells = []
            for file in range(SIDE):
                cell = rank * SIDE + file
                mark = state.board[cell]
                text = EMPTY if mark is None else MARKS[mark]
                cells.append(f"[{text}]" if cell == last else f" {text} ")
            rows.append(f"{rank + 1} " + "".join(cells))
        rows.append("   " + "".join(f" {f} " for f in "abc"))
        return "\n".join(rows)

    def explain_move(self, game: Game[Any, Any], before: NoughtsState, move: Any) -> str:
        return f"{MARKS[before.to_play]} on {cell_name(move.cell)}"


PRESENTER = NoughtsPresenter()
