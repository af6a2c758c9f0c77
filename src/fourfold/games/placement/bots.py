"""The bots of the placement games (Quarto, Folio's grid variants): the generic levels,
with the placement solver as the exact endgame of the strongest level.

``PlacementEndgame`` is the ``ExactEndgame`` (``fourfold.ai.endgame``) over
``fourfold.games.placement.solver`` with a node budget. Its transposition table is emptied
at the start of every decision (``fresh``), so whether a solve finishes depends only
on the position and the budget, never on what was solved before: a seeded match
replays move for move whatever ran earlier in the process.
"""

from __future__ import annotations

from typing import Any

from fourfold.ai.endgame import Solved
from fourfold.ai.game_bots import GameBots
from fourfold.core.game import Game
from fourfold.games.placement.game import PlacementGame

#: the placement solver's table for bots: 2**20 entries (about 20 MB), emptied per decision
TABLE_BITS = 20


class PlacementEndgame:
    """Exact values of a placement position within a node budget."""

    def __init__(self, game: Game[Any, Any]) -> None:
        if not isinstance(game, PlacementGame):
            raise TypeError(f"the placement endgame solves placement games, not {game.name}")
        self.game = game

    def solve(self, state: Any, nodes: int, *, every_move: bool, fresh: bool,
              distance: bool) -> Solved | None:
        from fourfold.games.placement.solver.solver import SolveLimitReached, solve_position
        from fourfold.games.placement.solver.solver import solver_for as placement_solver

        game = self.game
        if nodes <= 0:
            return None  # (the solver reads a budget of 0 as none)
        if fresh:
            _clear(placement_solver(game, TABLE_BITS))
        try:
            result = solve_position(game, state, rank_moves=every_move, distance=distance,
                                    nodes=nodes, table_bits=TABLE_BITS)
        except SolveLimitReached:
            return None
        moves = [(game.encode(m), v) for m, v, _ in result.moves]
        distances = [d for _, _, d in result.moves] if distance else None
        return Solved(result.value, moves, every_move, result.nodes, distances)


def _clear(solver: Any) -> None:
    """Empty the solver's transposition table and move-ordering history."""
    from fourfold.games.placement.solver import kernel as k4

    work = solver.work
    k4.clear_table(work)
    work.history[:] = 0


#: the ``bots`` part of Quarto and of Folio's grid variants
BOTS = GameBots(endgame=PlacementEndgame)
