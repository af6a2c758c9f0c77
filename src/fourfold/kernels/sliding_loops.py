"""The loops of the sliding games' kernels (Dao and Ice Dao), written once for both.

Both kernels keep a position in ``st`` (``S_DEPTH`` plies pushed, ``S_WINNER``
-1 while nobody has won) and step it with their own ``legal_actions``,
``push`` and ``pop``; their searches settle a position with ``settle`` and key
it with ``search_key`` (the hooks of ``fourfold.kernels.search``). A kernel
module ends with ``playouts, perft, search_root = sliding_entry_points(__name__)``,
which compiles the templates below as functions of that module
(``fourfold.kernels.jit.specialise``) with ``kernel`` bound to it: numba inlines
the loop and, through it, the kernel's helpers, so the compiled code is that of
a copy written in the kernel, and numba's cache, keyed by the kernel's file, is
rebuilt when the kernel's ``push`` changes. Their ``push`` and ``pop`` save and restore
``st`` the same way (``save_position``, ``restore_position``).
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
from numba import njit

from fourfold.kernels.jit import inlined, no_refcount, specialise
from fourfold.kernels.rng import rng_below
from fourfold.kernels.search import arrange_by_history, choose_by_score, root_search

#: The kernel module that a compiled copy of the templates below reads (a placeholder:
#: ``sliding_entry_points`` binds each kernel's own).
kernel: Any = None


def sliding_entry_points(module: str) -> tuple[Any, Any, Any]:
    """``playouts``, ``perft`` and ``search_root`` of the kernel ``module`` (which defines
    ``legal_actions``, ``push``, ``pop``, ``settle``, ``search_key``, ``S_DEPTH`` and
    ``S_WINNER``), compiled as functions of that module."""
    bound = {"kernel": sys.modules[module]}
    hooks = {name: specialise(template, module, name, inlined, **bound)
             for name, template in (("search_legal", _search_legal),
                                    ("search_push", _search_push),
                                    ("search_pop", _search_pop))}
    return (specialise(_playouts, module, "playouts", no_refcount, **bound),
            specialise(_perft, module, "perft", njit(cache=True), **bound),
            specialise(_search_root, module, "search_root", no_refcount, **bound, **hooks))


# -- the templates of ``sliding_entry_points`` ------------------------------------------------

# The search's hooks (``search_root`` binds them): placeholders here.
search_legal: Any = None
search_push: Any = None
search_pop: Any = None


def _playouts(t, st, hist, keys, moves, rs, games, max_plies, results):  # type: ignore[no-untyped-def]
    """Random playouts (each cut at ``max_plies`` plies, counted a draw), undone after."""
    random_playouts(t, st, hist, keys, moves, rs, games, max_plies, results,
                    kernel.legal_actions, kernel.push, kernel.pop, kernel.S_DEPTH,
                    kernel.S_WINNER)


def _perft(t, st, hist, keys, moves, depth):  # type: ignore[no-untyped-def]
    """The number of move sequences of ``depth`` plies (``moves``: a row per ply)."""
    return count_leaves(t, st, hist, keys, moves, depth, kernel.legal_actions, kernel.push,
                        kernel.pop)


def _search_root(  # type: ignore[no-untyped-def]
    t, st, hist, keys, moves, scores, frames, tt, history, stats, root, count, depth, values
):
    """Search the root actions ``root[:count]`` in that order to ``depth`` plies
    (``fourfold.kernels.search``): ``values[i]`` gets each action's score (exact for the
    best, a bound for the others); returns the index of the best action, or -1 if
    aborted."""
    return root_search((t, st, hist, keys), moves, scores, frames, tt, history, stats,
                       root, count, depth, values,
                       kernel.settle, kernel.search_key, search_legal, search_push,
                       search_push, search_pop, arrange_by_history, choose_by_score)


def _search_legal(p, row):  # type: ignore[no-untyped-def]
    return kernel.legal_actions(p[0], p[1], row)


def _search_push(p, action):  # type: ignore[no-untyped-def]
    kernel.push(p[0], p[1], p[2], p[3], action)


def _search_pop(p):  # type: ignore[no-untyped-def]
    kernel.pop(p[0], p[1], p[2])


# -- the loops (inlined, with the kernel's functions as arguments) -----------------------------


@inlined
def ray_stop(t, block, origin, d, rays, directions, ray_len):  # type: ignore[no-untyped-def]
    """The square a slide from ``origin`` in direction ``d`` stops on (``origin`` if none):
    the last square of its ray (``t[rays + (origin * directions + d) * ray_len:]``, ended
    by -1) before the first in ``block``."""
    last = origin
    base = rays + (origin * directions + d) * ray_len
    for i in range(ray_len):
        sq = t[base + i]
        if sq < 0 or (block >> sq) & 1:
            break
        last = sq
    return last


@inlined
def save_position(st, hist, keys, action, num_fields, depth_field, keys_field):  # type: ignore[no-untyped-def]
    """The start of a kernel's ``push``: ``st`` saved, with ``action`` after it, as the
    next row of ``hist`` (which ``restore_position`` takes back)."""
    d = st[depth_field]
    if d >= hist.shape[0] or st[keys_field] >= keys.shape[0]:
        # invariant: engines size hist and keys for the plies they push
        raise IndexError("sliding kernel: too many plies pushed")
    for i in range(num_fields):
        hist[d, i] = st[i]
    hist[d, num_fields] = action
    st[depth_field] = d + 1


@inlined
def restore_position(st, hist, num_fields, depth_field):  # type: ignore[no-untyped-def]
    """A kernel's ``pop``: ``st`` as the last row ``save_position`` saved."""
    d = st[depth_field] - 1
    for i in range(num_fields):
        st[i] = hist[d, i]



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
