"""Quarto and Folio in the common solver interface (``fourfold.solve.position``).

``fourfold solve``, the terminal player's hint and the perfect-play bot reach the
placement solver through ``solver_for``; this adapter turns a ``SolveResult`` into
a ``Solution`` and a search that runs out of time into ``None``.
"""

from __future__ import annotations

from typing import Any

from fourfold.core.errors import FourfoldError
from fourfold.core.game import Game
from fourfold.games.placement.game import PlacementGame
from fourfold.games.placement.solver.solver import SolveLimitReached, solve_position
from fourfold.solve.position import MoveValue, Solution, Value, sort_moves

VALUES = {1: Value.WIN, 0: Value.DRAW, -1: Value.LOSS}


def solve(game: Game[Any, Any], state: Any, seconds: float | None) -> Solution | None:
    """Every legal move's exact value and distance, or ``None`` past ``seconds``."""
    if not isinstance(game, PlacementGame):
        raise FourfoldError(f"{game.name} is not a placement game")
    try:
        # a second core for the long searches of early positions (same values)
        result = solve_position(game, state, seconds, workers=2)
    except SolveLimitReached:
        return None
    moves = sort_moves([MoveValue(m, VALUES[v], d) for m, v, d in result.moves])
    return Solution(VALUES[result.value], result.distance, moves, result.nodes, result.seconds)
