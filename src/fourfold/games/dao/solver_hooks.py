"""Dao's ``solver`` part: the retrograde table (``fourfold.games.dao.solver``).

Light on purpose: ``fourfold solve`` reads it to build its command line; the table
code (numba) is imported by the first solve.
"""

from __future__ import annotations

from typing import Any

from fourfold.core.game import Game
from fourfold.solve.position import GameSolvers, Solution, SolverEntry


def _solve(game: Game[Any, Any], state: Any, seconds: float | None) -> Solution | None:
    from fourfold.games.dao.solver.lookup import solve

    return solve(game, state, seconds)


def _prepare(game: Game[Any, Any]) -> None:
    from fourfold.games.dao.solver.storage import table

    table(build=True)


SOLVERS = GameSolvers(positions=(
    SolverEntry(
        _solve,
        None,
        "retrograde table of all 900,900 positions (from the mover's view), built once on"
        " first use (8-20 s; `fourfold solve dao` builds it) and cached",
        prepare=_prepare,
    ),
), bench="fourfold.games.dao.solver_bench:dao_sets")
