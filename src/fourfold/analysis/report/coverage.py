"""Board coverage (Ludii's ``BoardCoverageUsed``): the share of the board's sites that
held a piece at some point of a game, the start included.

Which sites a state occupies is game knowledge, so it is registered here by game name
(``games.SITES``), as the state counters and the solvers are: a board with a fixed set
of sites gives their number and a function from a state to the sites holding a piece.
Folio's no-grid and freeform variants have no fixed set of sites: no coverage there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fourfold.analysis.report.games import SITES
from fourfold.core.game import Game

Board = tuple[int, Callable[[Any], frozenset[Any]]]


def _sliding(game: Game[Any, Any]) -> Board | None:
    board = getattr(game, "board", None)
    squares = getattr(board, "num_squares", None)
    if squares is None:
        return None

    def occupied(state: Any) -> frozenset[int]:
        # Dao holds an owner (0, 1) or None per square; Ice Dao a stack, empty when bare
        return frozenset(i for i, x in enumerate(state.board) if x is not None and x != ())

    return squares, occupied


def _placement(game: Game[Any, Any]) -> Board | None:
    from fourfold.games.placement.geometry import Board as Grid

    geometry = getattr(game, "geometry", None)
    if not isinstance(geometry, Grid):  # no-grid's lattice, freeform's table: no board
        return None
    return geometry.num_cells, lambda state: frozenset(state.occupied)


SITES.update({"dao": _sliding, "icedao": _sliding, "quarto": _placement,
              "folio": _placement})
