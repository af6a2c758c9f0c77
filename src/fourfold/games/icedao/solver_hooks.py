"""Ice Dao's ``solver`` part: the bounded proof search (``fourfold.games.icedao.solver``).

Light on purpose: ``fourfold solve`` reads it to build its command line; the search
is imported by the first solve.
"""

from __future__ import annotations

from typing import Any

from fourfold.core.game import Game
from fourfold.solve.position import GameSolvers, Solution, SolverEntry


def _solve(game: Game[Any, Any], state: Any, seconds: float | None) -> Solution | None:
    from fourfold.games.icedao.solver import solve

    return solve(game, state, seconds)


SOLVERS = GameSolvers(positions=(
    SolverEntry(
        _solve,
        None,
        "proves forced wins and losses within N moves, deepening N until the time limit;"
        " Ice Dao itself is not solved",
        exact=False,
    ),
), bench="fourfold.games.icedao.solver_bench:icedao_sets",
   proofs="fourfold.games.icedao.proof_hooks:PROOFS")
