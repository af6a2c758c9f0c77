"""The board sites of the sliding games (Dao, Ice Dao), for the report's board coverage
(``fourfold.analysis.report.facts``)."""

from __future__ import annotations

from typing import Any

from fourfold.analysis.report.facts import Sites
from fourfold.core.game import Game


def sliding_sites(game: Game[Any, Any]) -> Sites | None:
    """Every square of the board; a square holds a piece when it is not empty."""
    board = getattr(game, "board", None)
    squares = getattr(board, "num_squares", None)
    if squares is None:
        return None

    def occupied(state: Any) -> frozenset[int]:
        # Dao holds an owner (0, 1) or None per square; Ice Dao a stack, empty when bare
        return frozenset(i for i, x in enumerate(state.board) if x is not None and x != ())

    return squares, occupied
