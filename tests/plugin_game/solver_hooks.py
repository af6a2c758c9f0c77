"""The exact solver of noughts and crosses: negamax over every position (a few thousand),
remembered, with the distance to the end under perfect play (the quickest win, the
slowest loss)."""

from __future__ import annotations

import time
from functools import cache
from typing import Any

from fourfold.core.game import Game
from fourfold.solve.position import GameSolvers, MoveValue, Solution, SolverEntry, Value, sort_moves
from plugin_game.game import NoughtsState

#: a value for the player to move: +1 win, 0 draw, -1 loss, and plies to the end
Score = tuple[int, int]


def _after(game: Game[Any, Any], state: NoughtsState, move: Any) -> Score:
    """The value of ``move`` for the player making it."""
    child = game.next_state(state, move)
    ended = game.outcome(child)
    if ended is not None:
        return (0 if ended.winner is None else 1), 1
    score, plies = _score(game, child)
    return -score, plies + 1


@cache
def _score(game: Game[Any, Any], state: NoughtsState) -> Score:
    best: Score | None = None
    for move in game.legal_moves(state):
        score, plies = _after(game, state, move)
        key = (score, -plies if score > 0 else plies)
        if best is None or key > (best[0], -best[1] if best[0] > 0 else best[1]):
            best = (score, plies)
    assert best is not None, "a finished position has no score to search"
    return best


VALUES = {1: Value.WIN, 0: Value.DRAW, -1: Value.LOSS}


def solve(game: Game[Any, Any], state: NoughtsState, seconds: float | None) -> Solution | None:
    """The value of ``state`` for the side to move, and of each legal move."""
    start = time.perf_counter()
    moves = []
    for move in game.legal_moves(state):
        score, plies = _after(game, state, move)
        moves.append(MoveValue(move, VALUES[score], plies))
    if not moves:
        return None
    ordered = sort_moves(moves)
    best = ordered[0]
    return Solution(best.value, best.distance, ordered,
                    seconds=time.perf_counter() - start)


SOLVERS = GameSolvers(positions=(
    SolverEntry(solve, None, "negamax over every position, remembered (about 5,500)"),
))
