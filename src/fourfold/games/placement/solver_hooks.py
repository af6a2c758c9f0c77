"""The ``solver`` parts of Quarto and Folio: the placement solver
(``fourfold.games.placement.solver``), which also runs ``--split`` solves.

Light on purpose: ``fourfold solve`` reads it to build its command line; the solver
(numba) is imported by the first solve.
"""

from __future__ import annotations

from typing import Any

from fourfold.core.game import Game
from fourfold.solve.position import GameSolvers, Solution, SolverEntry

#: the Folio variants the solver plays (freeform has no grid to key its tables)
GRID_VARIANTS = ("standard", "fixed-grid", "no-grid")

SUMMARY = (
    "alpha-beta with a transposition table keyed by the {maps} board symmetries and the"
    " piece relabellings; exact from about {reach} pieces placed within seconds;"
    " earlier positions take minutes to hours;{start} docs/solutions.md says what is solved"
)


def _solve(game: Game[Any, Any], state: Any, seconds: float | None) -> Solution | None:
    from fourfold.games.placement.solver.entry import solve

    return solve(game, state, seconds)


QUARTO_SOLVERS = GameSolvers(
    positions=(SolverEntry(
        _solve,
        None,
        SUMMARY.format(maps=32, reach=4,
                       start=" the start, a draw, takes about 280 million nodes and 50"
                             " seconds on two cores (more on a busy machine);"),
    ),),
    split="fourfold.games.placement.solver.split",
    bench="fourfold.games.placement.solver_bench:quarto_sets",
)

FOLIO_SOLVERS = GameSolvers(
    positions=(SolverEntry(
        _solve,
        GRID_VARIANTS,
        SUMMARY.format(maps="32 (no-grid: 8)", reach="3-5", start=""),
    ),),
    split="fourfold.games.placement.solver.split",
    bench="fourfold.games.placement.solver_bench:folio_sets",
)
