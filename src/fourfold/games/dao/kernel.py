"""Compiled classic Dao: move generation, apply/undo, formations, traps, repetition, search.

A position is two 16-bit bitboards (seat 0 = X, seat 1 = O) and the side to
move, so ``x | o << 16 | side << 32`` is an exact key: it serves as the
transposition-table key and for threefold repetition, whose history (every
earlier key since the start) lives in ``keys``. Actions use the reference
encoding ``origin * 8 + direction`` and are generated in increasing order,
which is the order of ``DaoGame.legal_moves``.

Tables (one int64 array ``t``): rays (``RAY_*``), formation masks, and the
corners with their neighbour masks in the reference's order.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from fourfold.kernels.jit import inlined, no_refcount
from fourfold.kernels.rng import rng_below
from fourfold.kernels.search import (
    AT_HORIZON,
    OPEN,
    WIN,
    arrange_by_history,
    choose_by_score,
    root_search,
)
from fourfold.kernels.sliding_loops import count_leaves, random_playouts

SQUARES = 16
DIRECTIONS = 8
RAY_LEN = 4  # up to 3 squares, then -1
T_RAYS = 0  # SQUARES * DIRECTIONS * RAY_LEN
T_FORMATIONS = T_RAYS + SQUARES * DIRECTIONS * RAY_LEN
NUM_FORMATIONS = 18
T_CORNERS = T_FORMATIONS + NUM_FORMATIONS  # 4 x (corner, neighbour mask)
T_MAX_PLIES = T_CORNERS + 8  # -1 for no cap
TABLE_SIZE = T_MAX_PLIES + 1

# fields of ``st``
S_X = 0
S_O = 1
S_SIDE = 2
S_WINNER = 3  # -1 while nobody has won
S_DRAW = 4
S_PLIES = 5
S_DEPTH = 6  # plies pushed
S_KEYS = 7  # entries of ``keys`` in use (earlier positions)
NUM_FIELDS = 8
HIST_ACTION = NUM_FIELDS
MAX_HISTORY = 4096


def build_tables(game: Any) -> np.ndarray:
    """The flat table of a configured ``DaoGame`` (rays, formations, traps, cap)."""
    t = np.full(TABLE_SIZE, -1, dtype=np.int64)
    for sq in range(SQUARES):
        for d in range(DIRECTIONS):
            for i, target in enumerate(game.board.rays[sq][d]):
                t[T_RAYS + (sq * DIRECTIONS + d) * RAY_LEN + i] = target
    masks = [mask for mask, _, _ in game.formations]
    if len(masks) != NUM_FORMATIONS:
        # invariant: DaoGame builds the 18 formations of the rules text
        raise ValueError("unexpected number of Dao formations")
    t[T_FORMATIONS:T_FORMATIONS + NUM_FORMATIONS] = masks
    for i, (corner, neighbours) in enumerate(game.traps):
        t[T_CORNERS + 2 * i] = corner
        t[T_CORNERS + 2 * i + 1] = sum(1 << n for n in neighbours)
    cap = game.info.options.get("max-plies")
    t[T_MAX_PLIES] = -1 if cap is None else cap
    return t


def key_of(x: int, o: int, side: int) -> int:
    return x | o << 16 | side << 32


@inlined
def position_key(st):  # type: ignore[no-untyped-def]
    return st[S_X] | (st[S_O] << 16) | (st[S_SIDE] << 32)


@inlined
def stop(t, occ, origin, d):  # type: ignore[no-untyped-def]
    """The square a slide from ``origin`` in direction ``d`` stops on (``origin`` if none)."""
    last = origin
    base = T_RAYS + (origin * DIRECTIONS + d) * RAY_LEN
    for i in range(RAY_LEN):
        sq = t[base + i]
        if sq < 0 or (occ >> sq) & 1:
            break
        last = sq
    return last


@inlined
def legal_actions(t, st, out):  # type: ignore[no-untyped-def]
    if st[S_WINNER] >= 0 or st[S_DRAW]:
        return 0
    mine = st[S_X] if st[S_SIDE] == 0 else st[S_O]
    occ = st[S_X] | st[S_O]
    count = 0
    for sq in range(SQUARES):
        if (mine >> sq) & 1:
            base = T_RAYS + sq * DIRECTIONS * RAY_LEN
            for d in range(DIRECTIONS):
                first = t[base + d * RAY_LEN]
                if first >= 0 and not (occ >> first) & 1:
                    out[count] = sq * DIRECTIONS + d
                    count += 1
    return count


@inlined
def push(t, st, hist, keys, action):  # type: ignore[no-untyped-def]
    d = st[S_DEPTH]
    if d >= hist.shape[0] or st[S_KEYS] >= keys.shape[0]:
        # invariant: engines size hist and keys for the plies they push
        raise IndexError("Dao kernel: too many plies pushed")
    for i in range(NUM_FIELDS):
        hist[d, i] = st[i]
    hist[d, HIST_ACTION] = action
    st[S_DEPTH] = d + 1
    keys[st[S_KEYS]] = position_key(st)
    st[S_KEYS] += 1
    origin = action // DIRECTIONS
    target = stop(t, st[S_X] | st[S_O], origin, action % DIRECTIONS)
    side = st[S_SIDE]
    moved = (np.int64(1) << origin) | (np.int64(1) << target)
    st[S_X + side] ^= moved
    mine = st[S_X + side]
    st[S_SIDE] = 1 - side
    st[S_PLIES] += 1
    for i in range(NUM_FORMATIONS):
        if mine == t[T_FORMATIONS + i]:
            st[S_WINNER] = side
            return
    for i in range(4):
        corner = t[T_CORNERS + 2 * i]
        around = t[T_CORNERS + 2 * i + 1]
        for owner in range(2):
            if (st[S_X + owner] >> corner) & 1 and (st[S_X + 1 - owner] & around) == around:
                st[S_WINNER] = owner
                return
    key = position_key(st)
    seen = 0
    for i in range(st[S_KEYS]):
        if keys[i] == key:
            seen += 1
    if seen >= 2 or (t[T_MAX_PLIES] >= 0 and st[S_PLIES] >= t[T_MAX_PLIES]):
        st[S_DRAW] = 1


@inlined
def pop(t, st, hist):  # type: ignore[no-untyped-def]
    d = st[S_DEPTH] - 1
    for i in range(NUM_FIELDS):
        st[i] = hist[d, i]


@no_refcount
def playouts(t, st, hist, keys, moves, rs, games, max_plies, results):  # type: ignore[no-untyped-def]
    """Random playouts (each cut at ``max_plies`` plies, counted a draw), undone after."""
    random_playouts(t, st, hist, keys, moves, rs, games, max_plies, results,
                    legal_actions, push, pop, S_DEPTH, S_WINNER)


@njit(cache=True)
def perft(t, st, hist, keys, moves, depth):  # type: ignore[no-untyped-def]
    """The number of move sequences of ``depth`` plies (``moves``: a row per ply)."""
    return count_leaves(t, st, hist, keys, moves, depth, legal_actions, push, pop)


# -- alpha-beta: the hooks of the one search core (``fourfold.kernels.search``) -------------


@inlined
def _repeats(st, keys):  # type: ignore[no-untyped-def]
    """Whether the position occurred before (in the game or on the search path)."""
    key = position_key(st)
    found = False
    for i in range(st[S_KEYS]):
        if keys[i] == key:
            found = True
            break
    return found


@inlined
def _settle(p, row, ply, depth):  # type: ignore[no-untyped-def]
    """Won, lost or drawn (a repeated position counts as a draw), else the horizon."""
    st = p[1]
    if st[S_WINNER] >= 0:
        return WIN - ply if st[S_WINNER] == st[S_SIDE] else -(WIN - ply)
    if st[S_DRAW] or (ply > 0 and _repeats(st, p[3])):
        return 0
    if depth <= 0:
        return AT_HORIZON
    return OPEN


@inlined
def _key(p):  # type: ignore[no-untyped-def]
    return position_key(p[1])


@inlined
def _legal(p, row):  # type: ignore[no-untyped-def]
    return legal_actions(p[0], p[1], row)


@inlined
def _push(p, action):  # type: ignore[no-untyped-def]
    push(p[0], p[1], p[2], p[3], action)


@inlined
def _pop(p):  # type: ignore[no-untyped-def]
    pop(p[0], p[1], p[2])


@no_refcount
def search_root(  # type: ignore[no-untyped-def]
    t, st, hist, keys, moves, scores, frames, tt, history, stats, root, count, depth, values
):
    """Alpha-beta over the root actions ``root[:count]`` (``fourfold.kernels.search``)."""
    return root_search((t, st, hist, keys), moves, scores, frames, tt, history, stats,
                       root, count, depth, values,
                       _settle, _key, _legal, _push, _push, _pop,
                       arrange_by_history, choose_by_score)


@no_refcount
def _mover_wins_now(t, st, hist, keys, moves):  # type: ignore[no-untyped-def]
    me = st[S_SIDE]
    count = legal_actions(t, st, moves)
    for i in range(count):
        push(t, st, hist, keys, moves[i])
        won = st[S_WINNER] == me
        pop(t, st, hist)
        if won:
            return True
    return False


@njit(cache=True)
def mover_wins_now(t, st, hist, keys, moves):  # type: ignore[no-untyped-def]
    """Whether the side to move has a move that wins at once."""
    return _mover_wins_now(t, st, hist, keys, moves)


@no_refcount
def greedy_playout(t, st, hist, keys, moves, rs, max_plies):  # type: ignore[no-untyped-def]
    """A playout by the greedy policy (win at once if possible, else a random move that
    neither loses at once nor lets the opponent win at once, else any), cut at
    ``max_plies`` (a draw) and undone; returns the winner or -1."""
    start = st[S_DEPTH]
    mine = moves[0]
    reply = moves[1]
    plies = 0
    while plies < max_plies:
        count = legal_actions(t, st, mine)
        if count == 0:
            break
        me = st[S_SIDE]
        chosen = -1
        left = count
        while left > 0:
            i = rng_below(rs, left)
            action = mine[i]
            mine[i] = mine[left - 1]
            left -= 1
            push(t, st, hist, keys, action)
            if st[S_WINNER] == me:
                chosen = action
                pop(t, st, hist)
                break
            safe = st[S_WINNER] < 0 and not _mover_wins_now(t, st, hist, keys, reply)
            pop(t, st, hist)
            if safe and chosen < 0:
                chosen = action
        if chosen < 0:
            chosen = mine[0]
        push(t, st, hist, keys, chosen)
        plies += 1
        if st[S_WINNER] >= 0 or st[S_DRAW]:
            break
    winner = st[S_WINNER]
    while st[S_DEPTH] > start:
        pop(t, st, hist)
    return winner
