"""Alpha-beta for the placement games: the hooks of the one search core.

``fourfold.kernels.search`` runs the loop; here are the placement kernel's
terminal rules and move order. A side that holds a piece it can win with wins
at once, so every node first looks for such a cell; that also refutes "gives"
that hand the opponent a win at the cost of one cheap scan. Every push below
the root happens after that scan found no winning placement, so it skips the
win test (``push_quiet``). Move lists are long (a cell and a piece to give), so
only the move with the best history score is brought forward.
"""

from __future__ import annotations

from fourfold.games.placement.kernel import (
    S_HASH,
    S_PLACED,
    S_WINNER,
    generate,
    pop,
    push,
    push_quiet,
    winning_cell,
)
from fourfold.games.placement.kernel_tables import P_TOTAL
from fourfold.kernels.jit import inlined, no_refcount
from fourfold.kernels.search import (
    AT_HORIZON,
    OPEN,
    WIN,
    arrange_best_first,
    choose_in_order,
    root_search,
)


@inlined
def _settle(p, row, ply, depth):  # type: ignore[no-untyped-def]
    t, board, st = p[0], p[1], p[3]
    if st[S_WINNER] >= 0:
        return -(WIN - ply)  # the player who just placed won
    if st[S_PLACED] == t[P_TOTAL]:
        return 0
    if winning_cell(t, board, st) >= 0:
        return WIN - ply - 1
    if depth <= 0:
        return AT_HORIZON
    return OPEN


@inlined
def _key(p):  # type: ignore[no-untyped-def]
    return p[3][S_HASH]


@inlined
def _legal(p, row):  # type: ignore[no-untyped-def]
    return generate(p[0], p[1], p[2], p[3], row, False)


@inlined
def _push(p, action):  # type: ignore[no-untyped-def]
    push(p[0], p[1], p[2], p[3], p[4], action)


@inlined
def _push_quiet(p, action):  # type: ignore[no-untyped-def]
    push_quiet(p[0], p[1], p[2], p[3], p[4], action)


@inlined
def _pop(p):  # type: ignore[no-untyped-def]
    pop(p[0], p[1], p[2], p[3], p[4])


@no_refcount
def search_root(  # type: ignore[no-untyped-def]
    t, board, supply, st, hist, moves, scores, frames, tt, history, stats, root, count,
    depth, values,
):
    """Search the root actions ``root[:count]`` in that order to ``depth`` plies.

    ``values[i]`` gets each action's score (exact for the best, a bound for the
    others); returns the index of the best action, or -1 if aborted.
    """
    return root_search((t, board, supply, st, hist), moves, scores, frames, tt, history,
                       stats, root, count, depth, values,
                       _settle, _key, _legal, _push, _push_quiet, _pop,
                       arrange_best_first, choose_in_order)
