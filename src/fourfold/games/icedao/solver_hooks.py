"""Ice Dao's ``solver`` part: the stored certificates and the bounded proof search
(``fourfold.games.icedao.solver``).

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
        "the start's value (Blue wins in exactly 11 plies) and the bounds its stored proof"
        " certificates prove; any other position: proves forced wins and losses within N"
        " moves, deepening N until the time limit",
        exact=False,
    ),
), bench="fourfold.games.icedao.solver_bench:icedao_sets",
   proofs="fourfold.games.icedao.proof_hooks:PROOFS")
