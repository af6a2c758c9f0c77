"""Exact solver for Quarto and Folio: alpha-beta with symmetry-keyed transposition tables.

``solve_position(game, state)`` gives the value of a position for the player to
move (win, draw or loss, with the distance to the end) and of each legal move.
Quarto and Folio fixed-grid are solved on their 4x4 board; Folio standard and
no-grid are searched on a floating 4x4 box until the pieces fix it, then on
that box. See ``docs/solutions.md`` for measured times and solved values.
"""

from fourfold.games.placement.solver import entry
from fourfold.games.placement.solver.solver import (
    SolveLimitReached,
    Solver,
    SolveResult,
    solve_position,
    solver_for,
)

__all__ = [
    "SolveLimitReached", "SolveResult", "Solver", "entry", "solve_position", "solver_for",
]
