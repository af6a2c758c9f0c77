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
from fourfold.kernels.search import AT_HORIZON, OPEN, WIN
from fourfold.kernels.sliding_loops import (
    ray_stop,
    restore_position,
    save_position,
    sliding_entry_points,
)

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
def occurrences(st, keys, most):  # type: ignore[no-untyped-def]
    """How many earlier positions (up to ``most``) equal the current one, side included:
    every one counted (a loop without an exit, which LLVM vectorises), then capped."""
    key = position_key(st)
    seen = 0
    for i in range(st[S_KEYS]):
        if keys[i] == key:
            seen += 1
    return min(seen, most)


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
    save_position(st, hist, keys, action, NUM_FIELDS, S_DEPTH, S_KEYS)
    keys[st[S_KEYS]] = position_key(st)
    st[S_KEYS] += 1
    origin = action // DIRECTIONS
    target = ray_stop(t, st[S_X] | st[S_O], origin, action % DIRECTIONS, T_RAYS, DIRECTIONS,
                      RAY_LEN)
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
    if occurrences(st, keys, 2) >= 2 or (t[T_MAX_PLIES] >= 0 and st[S_PLIES] >= t[T_MAX_PLIES]):
        st[S_DRAW] = 1


@inlined
def pop(t, st, hist):  # type: ignore[no-untyped-def]
    restore_position(st, hist, NUM_FIELDS, S_DEPTH)


# -- alpha-beta: the hooks of the one search core (``fourfold.kernels.search``), which
# ``sliding_entry_points`` (at the end) compiles with the loops


@inlined
def settle(p, row, ply, depth):  # type: ignore[no-untyped-def]
    """Won, lost or drawn (a repeated position counts as a draw), else the horizon."""
    st = p[1]
    if st[S_WINNER] >= 0:
        return WIN - ply if st[S_WINNER] == st[S_SIDE] else -(WIN - ply)
    if st[S_DRAW] or (ply > 0 and occurrences(st, p[3], 1) > 0):
        return 0
    if depth <= 0:
        return AT_HORIZON
    return OPEN


@inlined
def search_key(p):  # type: ignore[no-untyped-def]
    return position_key(p[1])


@inlined
def wins_at_once(t, st, hist, keys, moves):  # type: ignore[no-untyped-def]
    """Whether the side to move has a move that wins at once."""
    me = st[S_SIDE]
    count = legal_actions(t, st, moves)
    for i in range(count):
        push(t, st, hist, keys, moves[i])
        won = st[S_WINNER] == me
        pop(t, st, hist)
        if won:
            return True
    return False


@no_refcount
def _mover_wins_now(t, st, hist, keys, moves):  # type: ignore[no-untyped-def]
    return wins_at_once(t, st, hist, keys, moves)


@njit(cache=True)
def mover_wins_now(t, st, hist, keys, moves):  # type: ignore[no-untyped-def]
    """Whether the side to move has a move that wins at once."""
    return _mover_wins_now(t, st, hist, keys, moves)


@no_refcount
def greedy_playout(t, st, hist, keys, moves, rs, max_plies):  # type: ignore[no-untyped-def]
    """A playout by the greedy policy (win at once if possible, else a random move that
    neither loses at once nor lets the opponent win at once, else any), cut at
    ``max_plies`` (a draw) and undone; returns the winner or -1.

    Every move, tried or played, goes through one ``push``: each inlined ``push`` is
    compiled again. A tried move that wins stays played (it is the move chosen)."""
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
        while True:
            final = left == 0  # every move tried: play the one chosen
            if final:
                action = chosen if chosen >= 0 else mine[0]
            else:
                i = rng_below(rs, left)
                action = mine[i]
                mine[i] = mine[left - 1]
                left -= 1
            push(t, st, hist, keys, action)
            if final or st[S_WINNER] == me:
                break
            safe = st[S_WINNER] < 0 and not _mover_wins_now(t, st, hist, keys, reply)
            pop(t, st, hist)
            if safe and chosen < 0:
                chosen = action
        plies += 1
        if st[S_WINNER] >= 0 or st[S_DRAW]:
            break
    winner = st[S_WINNER]
    while st[S_DEPTH] > start:
        pop(t, st, hist)
    return winner


playouts, perft, search_root = sliding_entry_points(__name__)
