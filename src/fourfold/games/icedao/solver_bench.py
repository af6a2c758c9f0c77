"""The solver benchmark sets of Ice Dao (``fourfold bench --solvers``): the proof
search ``icedao.prove`` (iterative deepening up to N moves) on positions reached by
random play, for N = 1, 2, 3."""

from __future__ import annotations

from functools import partial
from typing import Any

import fourfold
from fourfold.bench.solvers import Answer, SolverSet, answer, played_position
from fourfold.core.game import Game

#: Ice Dao positions (quick, full): position i is 6 + i % 12 random plies, seed
#: ICEDAO_SEED + i; each set proves them within N = 1, 2, 3 moves
ICEDAO_POSITIONS = (20, 60)
ICEDAO_MOVES = (1, 2, 3)
ICEDAO_SEED = 9_000


# -- Ice Dao -------------------------------------------------------------------------------

def _icedao_prove(game: Game[Any, Any], moves: int, state: Any) -> Answer:
    from fourfold.games.icedao import solver as icedao

    proof = icedao.prove(game, state, moves)
    value = "unproven" if proof.value is None else proof.value.value
    return answer(value, proof.moves if proof.value is not None else None, proof.nodes)


def icedao_positions(count: int) -> list[Any]:
    game = fourfold.load("icedao")
    return [played_position(game, 6 + i % 12, ICEDAO_SEED + i) for i in range(count)]


def icedao_set(moves: int, count: int) -> SolverSet:
    game = fourfold.load("icedao")
    return SolverSet(
        name=f"icedao-n{moves}", game=game,
        method=f"proof search: win or loss within {moves} move{'s' if moves > 1 else ''}",
        positions=partial(icedao_positions, count), solve=partial(_icedao_prove, game, moves),
    )


def icedao_sets(quick: bool) -> list[SolverSet]:
    """Ice Dao's sets (``GameSolvers.bench``)."""
    return [icedao_set(n, ICEDAO_POSITIONS[0 if quick else 1]) for n in ICEDAO_MOVES]
