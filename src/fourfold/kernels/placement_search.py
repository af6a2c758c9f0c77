"""Compiled alpha-beta for the placement games.

Negamax with alpha-beta over the kernel's in-place position, a transposition
table keyed by the Zobrist hash (always-replace, one slot per index), the
table's move tried first, then moves ordered by a history heuristic. A side
that holds a piece it can win with wins at once, so every node first looks
for such a cell; that also refutes "gives" that hand the opponent a win at
the cost of one cheap scan.

Scores are from the side to move: ``WIN - plies`` for a win (faster wins
score higher), ``0`` for a draw and for positions at the horizon. ``stats``
carries counters in and out (nodes, node limit, abort flag, horizon flag);
when the node limit is hit the search unwinds and its result is discarded.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fourfold.kernels.jit import inlined, no_refcount
from fourfold.kernels.placement import (
    S_HASH,
    S_PLACED,
    S_WINNER,
    generate,
    pop,
    push,
    push_quiet,
    winning_cell,
)
from fourfold.kernels.placement_tables import P_TOTAL

WIN = 10_000
INF = 1 << 30
MATE_BOUND = WIN - 1000  # scores beyond this are proven wins or losses

# fields of ``stats``
NODES = 0
LIMIT = 1
ABORTED = 2
HORIZON = 3  # set when some line was cut off by the depth limit (the result is not exact)
NUM_STATS = 4

# bound kinds in the transposition table
EXACT = 0
LOWER = 1
UPPER = 2

TT_KEY = 0
TT_MOVE = 1
TT_VALUE = 2
TT_INFO = 3  # depth * 8 + 4 if exact (no horizon below) + bound
TT_FIELDS = 4


def new_frames(plies: int) -> np.ndarray:
    return np.zeros((plies, NUM_FRAME), dtype=np.int64)


def new_table(bits: int) -> np.ndarray:
    """A transposition table of ``2**bits`` entries (allocated once per bot)."""
    table = np.zeros((1 << bits, TT_FIELDS), dtype=np.int64)
    table[:, TT_KEY] = -1
    return table


@njit(cache=True)
def _to_table(value, ply):  # type: ignore[no-untyped-def]
    if value > MATE_BOUND:
        return value + ply
    if value < -MATE_BOUND:
        return value - ply
    return value


@njit(cache=True)
def _from_table(value, ply):  # type: ignore[no-untyped-def]
    if value > MATE_BOUND:
        return value - ply
    if value < -MATE_BOUND:
        return value + ply
    return value


# fields of a search frame (one per ply of the current line)
F_DEPTH = 0
F_ALPHA = 1
F_BETA = 2
F_ALPHA0 = 3
F_BEST = 4
F_BEST_MOVE = 5
F_COUNT = 6
F_NEXT = 7
F_KEY = 8
F_TT_MOVE = 9  # the table's move, tried before the others are generated
F_CURRENT = 10  # the move being searched
F_HORIZON = 11  # the caller's horizon flag, saved while this node's subtree runs
NUM_FRAME = 12


# steps of the search loop
ENTER = 0
NEXT = 1
RETURN = 2


@no_refcount
def negamax(  # type: ignore[no-untyped-def]
    t, board, supply, st, hist, moves, frames, tt, history, stats, depth, alpha, beta, ply
):
    """The negamax value of the current position searched ``depth`` plies deep.

    Written as a loop over an explicit stack of frames rather than as a
    recursive function: numba cannot reload recursive functions from its
    cache, and the loop allocates nothing. Compiled without numba's reference
    counting (``_nrt=False``): every inlined helper would otherwise pay atomic
    increments on its array arguments at every node. Every push below the root
    happens after ``winning_cell`` found no winning placement, so it skips the
    win test (``push_quiet``). When the node limit is hit it returns at once,
    leaving the line pushed: the caller reloads the position.
    """
    base = ply
    step = ENTER
    value = 0
    frames[ply, F_DEPTH] = depth
    frames[ply, F_ALPHA] = alpha
    frames[ply, F_BETA] = beta
    mask = tt.shape[0] - 1
    nodes = stats[NODES]  # counted in a local, written back on return
    limit = stats[LIMIT]
    while True:
        if step == ENTER:
            depth = frames[ply, F_DEPTH]
            alpha = frames[ply, F_ALPHA]
            beta = frames[ply, F_BETA]
            nodes += 1
            step = RETURN
            if nodes >= limit:
                stats[NODES] = nodes
                stats[ABORTED] = 1
                return 0
            if st[S_WINNER] >= 0:
                value = -(WIN - ply)  # the player who just placed won
                continue
            if st[S_PLACED] == t[P_TOTAL]:
                value = 0
                continue
            if winning_cell(t, board, st) >= 0:
                value = WIN - ply - 1
                continue
            if depth <= 0:
                stats[HORIZON] = 1
                value = 0
                continue
            key = st[S_HASH]
            frames[ply, F_KEY] = key
            slot = key & mask
            tt_move = -1
            if tt[slot, TT_KEY] == key:
                tt_move = tt[slot, TT_MOVE]
                info = tt[slot, TT_INFO]
                if info >> 3 >= depth:
                    stored = _from_table(tt[slot, TT_VALUE], ply)
                    bound = info & 3
                    if (bound == EXACT or (bound == LOWER and stored >= beta)
                            or (bound == UPPER and stored <= alpha)):
                        if not info & 4:
                            stats[HORIZON] = 1  # the stored value was cut by a horizon
                        value = stored
                        continue
            frames[ply, F_HORIZON] = stats[HORIZON]
            stats[HORIZON] = 0
            frames[ply, F_ALPHA0] = alpha
            frames[ply, F_BEST] = -INF
            frames[ply, F_BEST_MOVE] = -1
            frames[ply, F_COUNT] = -1  # not generated yet
            frames[ply, F_NEXT] = 0
            frames[ply, F_TT_MOVE] = tt_move
            step = NEXT
            if tt_move >= 0:
                frames[ply, F_CURRENT] = tt_move
                push_quiet(t, board, supply, st, hist, tt_move)
                frames[ply + 1, F_DEPTH] = depth - 1
                frames[ply + 1, F_ALPHA] = -beta
                frames[ply + 1, F_BETA] = -alpha
                ply += 1
                step = ENTER
        elif step == NEXT:
            count = frames[ply, F_COUNT]
            if count < 0:
                count = generate(t, board, supply, st, moves[ply], False)
                tt_move = frames[ply, F_TT_MOVE]
                if tt_move >= 0:  # already searched: drop it (the last move takes its place)
                    for i in range(count):
                        if moves[ply, i] == tt_move:
                            count -= 1
                            moves[ply, i] = moves[ply, count]
                            break
                # the move with the best history score (the first such) goes first;
                # the rest keep the generated order
                pick = 0
                top = history[moves[ply, 0]] if count > 0 else 0
                for j in range(1, count):
                    h = history[moves[ply, j]]
                    if h > top:
                        top = h
                        pick = j
                if pick > 0:
                    action = moves[ply, pick]
                    moves[ply, pick] = moves[ply, 0]
                    moves[ply, 0] = action
                frames[ply, F_COUNT] = count
            i = frames[ply, F_NEXT]
            if i >= count:
                value = _store(tt, frames, ply, stats)
                step = RETURN
                continue
            action = moves[ply, i]
            frames[ply, F_NEXT] = i + 1
            frames[ply, F_CURRENT] = action
            push_quiet(t, board, supply, st, hist, action)
            frames[ply + 1, F_DEPTH] = frames[ply, F_DEPTH] - 1
            frames[ply + 1, F_ALPHA] = -frames[ply, F_BETA]
            frames[ply + 1, F_BETA] = -frames[ply, F_ALPHA]
            ply += 1
            step = ENTER
        else:  # RETURN: ``value`` is the value of the node at ``ply``
            if ply == base:
                stats[NODES] = nodes
                return value
            pop(t, board, supply, st, hist)
            ply -= 1
            value = -value
            action = frames[ply, F_CURRENT]
            step = NEXT
            if value > frames[ply, F_BEST]:
                frames[ply, F_BEST] = value
                frames[ply, F_BEST_MOVE] = action
                if value > frames[ply, F_ALPHA]:
                    frames[ply, F_ALPHA] = value
                    if value >= frames[ply, F_BETA]:
                        history[action] += frames[ply, F_DEPTH] * frames[ply, F_DEPTH]
                        value = _store(tt, frames, ply, stats)
                        step = RETURN


@inlined
def _store(tt, frames, ply, stats):  # type: ignore[no-untyped-def]
    """Save the finished node at ``ply`` in the transposition table; return its value."""
    best = frames[ply, F_BEST]
    bound = EXACT
    if best <= frames[ply, F_ALPHA0]:
        bound = UPPER
    elif best >= frames[ply, F_BETA]:
        bound = LOWER
    key = frames[ply, F_KEY]
    slot = key & (tt.shape[0] - 1)
    tt[slot, TT_KEY] = key
    tt[slot, TT_MOVE] = frames[ply, F_BEST_MOVE]
    tt[slot, TT_VALUE] = _to_table(best, ply)
    exact = 4 if stats[HORIZON] == 0 else 0  # no line below was cut by the depth limit
    tt[slot, TT_INFO] = frames[ply, F_DEPTH] * 8 + exact + bound
    stats[HORIZON] |= frames[ply, F_HORIZON]
    return best


@no_refcount
def search_root(  # type: ignore[no-untyped-def]
    t, board, supply, st, hist, moves, frames, tt, history, stats, root, count, depth,
    values,
):
    """Search the root actions ``root[:count]`` in that order to ``depth`` plies.

    ``values[i]`` gets each action's score (exact for the best, a bound for the
    others); returns the index of the best action, or -1 if aborted.
    """
    alpha = -INF
    best = -1
    for i in range(count):
        push(t, board, supply, st, hist, root[i])
        value = -negamax(t, board, supply, st, hist, moves, frames, tt, history, stats,
                         depth - 1, -INF, -alpha, 1)
        pop(t, board, supply, st, hist)
        if stats[ABORTED]:
            return -1
        values[i] = value
        if value > alpha:
            alpha = value
            best = i
    return best

