"""The random-playout and perft loops of the sliding games (Dao and Ice Dao kernels).

Both kernels keep a position in ``st`` (``S_DEPTH`` plies pushed, ``S_WINNER``
-1 while nobody has won) and step it with their own ``legal_actions``,
``push`` and ``pop``. The loops here take those three and the two field
numbers as arguments; each kernel wraps them in its own compiled
``playouts`` and ``perft``, into which numba inlines the loop and, through
it, the kernel's helpers: the compiled code is that of the copies this
replaced (the same number of instructions for playouts, within 10 for perft;
playouts/s and perft nodes/s equal within the noise of a shared machine). The
wrappers stay in the kernel modules so that numba's cache, keyed by the file,
is rebuilt when a kernel's ``push`` changes.
"""

from __future__ import annotations

import numpy as np

from fourfold.kernels.jit import inlined
from fourfold.kernels.rng import rng_below


@inlined
def random_playouts(  # type: ignore[no-untyped-def]
    t, st, hist, keys, moves, rs, games, max_plies, results,
    legal_actions, push, pop, depth_field, winner_field,
):
    """``games`` random playouts from the loaded position (each cut at ``max_plies``
    plies, counted a draw), each undone after; ``results`` counts wins by seat 0,
    wins by seat 1 and draws."""
    for _ in range(games):
        start = st[depth_field]
        plies = 0
        while plies < max_plies:
            count = legal_actions(t, st, moves)
            if count == 0:
                break
            push(t, st, hist, keys, moves[rng_below(rs, count)])
            plies += 1
        w = st[winner_field]
        results[w if w >= 0 else 2] += 1
        while st[depth_field] > start:
            pop(t, st, hist)


@inlined
def count_leaves(  # type: ignore[no-untyped-def]
    t, st, hist, keys, moves, depth, legal_actions, push, pop,
):
    """The number of move sequences of ``depth`` plies from the loaded position (perft),
    walked without recursion; ``moves`` has a row per ply."""
    if depth == 0:
        return 1
    counts = np.zeros(depth, dtype=np.int64)
    index = np.zeros(depth, dtype=np.int64)
    total = 0
    level = 0
    counts[0] = legal_actions(t, st, moves[0])
    while True:
        if level == depth - 1:
            total += counts[level]
            index[level] = counts[level]
        if index[level] < counts[level]:
            push(t, st, hist, keys, moves[level, index[level]])
            index[level] += 1
            level += 1
            counts[level] = legal_actions(t, st, moves[level])
            index[level] = 0
        else:
            if level == 0:
                return total
            pop(t, st, hist)
            level -= 1
