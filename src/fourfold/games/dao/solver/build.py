"""Building the Dao table by retrograde analysis, level by level.

* level 0: the ended positions, read off the rules (``DaoGame.formations`` and
  ``DaoGame.traps``): the side that just moved has a formation (a loss for the
  side to move), or a piece of the side to move is trapped in a corner (a win
  for it: the trapper loses);
* level ``k``: a position is won in ``k`` plies if some move leads to a
  position lost in ``k - 1``; it is lost in ``k`` if every move leads to a won
  position and the slowest of those is won in ``k - 1``. Each sweep looks only at
  the still unresolved positions and only at successors resolved at an earlier
  level, so the distances are exact (the winner's quickest win, the loser's
  slowest loss) - the same fixed point as counting unresolved successors and
  propagating backwards;
* what no level resolves is a draw: neither side can force a win, so with
  perfect play the game cycles, and the threefold-repetition rule ends it drawn.

Positions that cannot occur in play (the side to move already has a formation,
or a piece of the side that just moved is trapped - ``DaoGame.parse_position``
refuses both) are marked invalid.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from fourfold.games.dao.solver.index import DISTANCE_BITS, MAX_DISTANCE, _expand, _index, tables
from fourfold.kernels.jit import cached


@cached
def _classify(mover: int, other: int, formations: np.ndarray, corners: np.ndarray,
              neighbours: np.ndarray) -> int:
    """``LOSS``/``WIN`` for an ended position (distance 0), ``INVALID``, or -1 (going on)."""
    for f in formations:
        if mover == f:
            return 3  # INVALID: the side to move already has a formation
    for f in formations:
        if other == f:
            return 2  # LOSS: the side that just moved made a formation
    for i in range(len(corners)):
        c = corners[i]
        n = neighbours[i]
        if mover >> c & 1 and other & n == n:
            return 1  # WIN: the mover's piece is trapped, the trapper loses
        if other >> c & 1 and mover & n == n:
            return 3  # INVALID: the trap would have ended the game a ply earlier
    return -1


@cached
def _children(mover: int, other: int, rays: np.ndarray, rank16: np.ndarray,
              rank12: np.ndarray, out: np.ndarray) -> int:
    """The index of every position after a legal move, into ``out``; returns how many."""
    occupied = mover | other
    n = 0
    for s in range(16):
        if not mover >> s & 1:
            continue
        for d in range(8):
            t = s
            for k in range(4):
                q = rays[s, d, k]
                if q < 0 or occupied >> q & 1:
                    break
                t = q
            if t != s:
                moved = mover ^ (1 << s) ^ (1 << t)
                out[n] = _index(other, moved, rank16, rank12)
                n += 1
    return n


@cached
def _build(sub16: np.ndarray, sub12: np.ndarray, rank16: np.ndarray, rank12: np.ndarray,
           rays: np.ndarray, formations: np.ndarray, corners: np.ndarray,
           neighbours: np.ndarray) -> tuple[np.ndarray, np.ndarray, int, int]:
    """Values and distances of every index; also the number of levels and of stuck positions."""
    size = len(sub16) * len(sub12)
    value = np.zeros(size, dtype=np.uint8)
    dist = np.zeros(size, dtype=np.uint8)
    movers = np.zeros(size, dtype=np.int32)
    others = np.zeros(size, dtype=np.int32)
    pending = np.empty(size, dtype=np.int32)
    n_pending = 0
    stuck = 0
    buf = np.empty(32, dtype=np.int32)
    for i in range(size):
        mover = sub16[i // 495]
        other = _expand(sub12[i % 495], mover)
        movers[i] = mover
        others[i] = other
        c = _classify(mover, other, formations, corners, neighbours)
        if c >= 0:
            value[i] = c
        else:
            if _children(mover, other, rays, rank16, rank12, buf) == 0:
                stuck += 1
            pending[n_pending] = i
            n_pending += 1
    level = 0
    while n_pending > 0:
        level += 1
        kept = 0
        resolved = 0
        for j in range(n_pending):
            i = pending[j]
            n = _children(movers[i], others[i], rays, rank16, rank12, buf)
            win = False
            all_won = n > 0
            slowest = 0
            for m in range(n):
                c = buf[m]
                v = value[c]
                if v == 0 or (v != 3 and dist[c] >= level):  # unresolved before this level
                    all_won = False
                    continue
                if v == 2:
                    win = True
                    break
                if v == 1:
                    if dist[c] > slowest:
                        slowest = dist[c]
                else:
                    all_won = False  # an invalid successor never happens; never resolve on it
            if win:
                value[i] = 1
                dist[i] = level
                resolved += 1
            elif all_won and slowest == level - 1:
                value[i] = 2
                dist[i] = level
                resolved += 1
            else:
                pending[kept] = i
                kept += 1
        n_pending = kept
        if resolved == 0:
            break
    return value, dist, level, stuck


@dataclass(frozen=True)
class BuildInfo:
    seconds: float
    levels: int


def build_table() -> tuple[np.ndarray, BuildInfo]:
    """Compute the packed table (value << 6 | distance) from the rules; no cache."""
    t = tables()
    start = time.perf_counter()
    value, dist, levels, stuck = _build(t.sub16, t.sub12, t.rank16, t.rank12, t.rays,
                                        t.formations, t.trap_corners, t.trap_neighbours)
    seconds = time.perf_counter() - start
    if stuck:
        # invariant: the rules never leave the side to move without a move
        raise RuntimeError(f"{stuck} positions in play where the side to move has no move;"
                           " the rules text says there are none")
    if int(dist.max()) > MAX_DISTANCE:
        # invariant: the longest forced win is 11 plies (docs/solutions.md)
        raise RuntimeError(f"a distance of {int(dist.max())} plies does not fit in"
                           f" {DISTANCE_BITS} bits")
    packed = (value.astype(np.uint8) << DISTANCE_BITS) | dist
    return packed, BuildInfo(seconds, levels)


def compile_build() -> None:
    """Compile the build kernel (or load it from numba's cache) without running it."""
    import numba

    t = tables()
    args = (t.sub16, t.sub12, t.rank16, t.rank12, t.rays, t.formations, t.trap_corners,
            t.trap_neighbours)
    _build.compile(tuple(numba.typeof(a) for a in args))  # type: ignore[no-untyped-call]
