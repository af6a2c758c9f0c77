"""Reading the Dao table: a position's value, and every legal move's (``solve``).

Repetition: the table ignores the game's history. A winning line along which
the distance falls by one every ply never repeats a position, so the table's
wins and losses are also the values under threefold repetition, and its draws
are exactly the positions from which play can cycle forever. (The one thing a
history can change: a position already seen twice before the current one is a
draw if reached again, which could in rare cases force the winner to a
different or longer win. ``solve`` values each move by the table, except a move
that repeats a position for the third time, which is a draw; the position's value
is then its best move's, which can differ from the table's.)
"""

from __future__ import annotations

import time
from typing import Any

from fourfold.core.errors import FourfoldError
from fourfold.core.game import Game
from fourfold.games.dao.solver.index import (
    DISTANCE_BITS,
    DRAW,
    INVALID,
    LOSS,
    MAX_DISTANCE,
    WIN,
    index_of,
)
from fourfold.games.dao.solver.storage import full_table, table
from fourfold.games.dao.state import DaoState
from fourfold.solve.position import MoveValue, Solution, Value, ended_solution, sort_moves

_VALUES = {DRAW: Value.DRAW, WIN: Value.WIN, LOSS: Value.LOSS}

#: a solve with a time limit below this does not start building the table (the build
#: takes 8-20 s on a shared 2-core machine: see docs/solutions.md)
BUILD_BUDGET = 30.0


def lookup(state: DaoState) -> tuple[Value, int | None]:
    """The value for the side to move and the plies to the end (``None`` for a draw)."""
    entry = int(full_table()[index_of(state)])
    code, distance = entry >> DISTANCE_BITS, entry & MAX_DISTANCE
    if code == INVALID:
        raise FourfoldError("this position cannot occur in a game of Dao")
    return _VALUES[code], None if code == DRAW else distance


def solve(game: Game[Any, Any], state: Any, seconds: float | None = None) -> Solution | None:
    """The exact value of a Dao position and of every legal move, from the table.

    ``None`` when the table is not built yet and ``seconds`` is below ``BUILD_BUDGET``
    (a look-up itself takes microseconds). Each move's value is the table's, unless the
    move ends the game at once (a formation, or a threefold repetition given the game's
    history); the position's value is its best move's, so the two always agree. History
    further ahead and any length cap are not taken into account (see above).
    """
    start = time.perf_counter()
    ended = ended_solution(game, state, state.to_play)
    if ended is not None:
        return ended
    if table(build=seconds is None or seconds >= BUILD_BUDGET) is None:
        return None
    value, distance = lookup(state)
    moves = []
    for move in game.legal_moves(state):
        child = game.next_state(state, move)
        done = ended_solution(game, child, child.to_play)
        if done is not None:
            reply, d = done.value, done.distance
        else:
            reply, d = lookup(child)
        mine = {Value.WIN: Value.LOSS, Value.LOSS: Value.WIN}.get(reply, reply)
        moves.append(MoveValue(move, mine, None if d is None or mine is Value.DRAW else d + 1))
    ordered = sort_moves(moves)
    if ordered:  # the best move's value: it sees a repetition the table cannot
        value, distance = ordered[0].value, ordered[0].distance
    return Solution(value, distance, ordered, len(moves) + 1, time.perf_counter() - start)
