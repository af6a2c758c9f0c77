"""Classic Dao solved by retrograde analysis: the value of every position.

A Dao position is four pieces of the side to move, four of the other side and
whose turn it is. The rules are the same for X and O (only the start differs),
so a position's value depends only on *which squares the side to move holds*
and *which squares the other side holds*: the table is indexed from the point
of view of the side to move and has ``C(16,4) * C(12,4) = 900,900`` entries; the
1,801,800 positions with a named side to move are these, once with X and once
with O to move.

Index (a perfect hash, the combinatorial number system): the rank of the mover's
4-square set among the 1,820 subsets of 16 squares, times 495, plus the rank of
the other side's set among the 495 subsets of the 12 squares left.

Build (``build_table``), level by level:

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

Repetition: the table ignores the game's history. A winning line along which
the distance falls by one every ply never repeats a position, so the table's
wins and losses are also the values under threefold repetition, and its draws
are exactly the positions from which play can cycle forever. (The one thing a
history can change: a position already seen twice before the current one is a
draw if reached again, which could in rare cases force the winner to a
different or longer win. ``solve`` values each move by the table, except a move
that repeats a position for the third time, which is a draw; the position's value
is then its best move's, which can differ from the table's.)

Positions that cannot occur in play (the side to move already has a formation,
or a piece of the side that just moved is trapped - ``DaoGame.parse_position``
refuses both) are marked invalid and left out of every count.

Storage: one byte per entry, the value in the top two bits and the distance in
plies in the low six (0.9 MB), built on first use and cached in
``$FOURFOLD_CACHE`` (or ``$XDG_CACHE_HOME/fourfold``, or ``~/.cache/fourfold``)
under a name that carries a hash of the rules it was built from; a stored
SHA-256 of the data is checked on every load.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import dataclass
from functools import lru_cache
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from fourfold.core.game import Game
from fourfold.core.outcome import Result
from fourfold.games.dao.game import DaoGame
from fourfold.games.dao.state import DaoState
from fourfold.games.sliding.geometry import NUM_DIRECTIONS
from fourfold.solve.position import MoveValue, Solution, Value, register_solver, sort_moves

SQUARES = 16
PIECES = 4
MOVER_SETS = comb(SQUARES, PIECES)  # 1820
OTHER_SETS = comb(SQUARES - PIECES, PIECES)  # 495
SIZE = MOVER_SETS * OTHER_SETS  # 900,900

#: value codes (top two bits of an entry)
DRAW, WIN, LOSS, INVALID = 0, 1, 2, 3
DISTANCE_BITS = 6
MAX_DISTANCE = (1 << DISTANCE_BITS) - 1

#: bump when the build or the storage format changes
TABLE_VERSION = 1

_VALUES = {DRAW: Value.DRAW, WIN: Value.WIN, LOSS: Value.LOSS}


# -- index --------------------------------------------------------------------------------

def _subsets(n: int, k: int) -> np.ndarray:
    """Every ``k``-subset of ``n`` bits as a mask, in increasing order of the mask."""
    return np.array([m for m in range(1 << n) if bin(m).count("1") == k], dtype=np.int32)


def _ranks(subsets: np.ndarray, n: int) -> np.ndarray:
    rank = np.full(1 << n, -1, dtype=np.int32)
    rank[subsets] = np.arange(len(subsets), dtype=np.int32)
    return rank


@dataclass(frozen=True)
class Tables:
    """The arrays the kernels use: subsets and their ranks, rays, formations, traps."""

    sub16: np.ndarray
    rank16: np.ndarray
    sub12: np.ndarray
    rank12: np.ndarray
    rays: np.ndarray  # [square, direction, step] -> square, -1 past the edge
    formations: np.ndarray  # masks
    trap_corners: np.ndarray
    trap_neighbours: np.ndarray  # masks, same order as trap_corners

    def fingerprint(self) -> str:
        """A hash of the rules the table is built from (and of the format version)."""
        h = hashlib.sha256(f"dao-table-v{TABLE_VERSION}".encode())
        for a in (self.rays, self.formations, self.trap_corners, self.trap_neighbours):
            h.update(np.ascontiguousarray(a, dtype=np.int64).tobytes())
        return h.hexdigest()[:16]


@lru_cache(maxsize=1)
def _game() -> DaoGame:
    from fourfold.core.registry import load

    game = load("dao")
    assert isinstance(game, DaoGame)
    return game


@lru_cache(maxsize=1)
def tables() -> Tables:
    game = _game()
    board = game.board
    rays = np.full((SQUARES, NUM_DIRECTIONS, 4), -1, dtype=np.int32)
    for sq in range(SQUARES):
        for d in range(NUM_DIRECTIONS):
            for k, q in enumerate(board.rays[sq][d]):
                rays[sq, d, k] = q
    sub16, sub12 = _subsets(SQUARES, PIECES), _subsets(SQUARES - PIECES, PIECES)
    return Tables(
        sub16=sub16,
        rank16=_ranks(sub16, SQUARES),
        sub12=sub12,
        rank12=_ranks(sub12, SQUARES - PIECES),
        rays=rays,
        formations=np.array([mask for mask, _, _ in game.formations], dtype=np.int32),
        trap_corners=np.array([c for c, _ in game.traps], dtype=np.int32),
        trap_neighbours=np.array([sum(1 << n for n in ns) for _, ns in game.traps],
                                 dtype=np.int32),
    )


@njit(cache=True)
def _compress(other: int, mover: int) -> int:
    """``other`` as a subset of the squares ``mover`` leaves free (numbered 0..11)."""
    out = 0
    j = 0
    for sq in range(16):
        if mover >> sq & 1:
            continue
        if other >> sq & 1:
            out |= 1 << j
        j += 1
    return out


@njit(cache=True)
def _expand(sub: int, mover: int) -> int:
    out = 0
    j = 0
    for sq in range(16):
        if mover >> sq & 1:
            continue
        if sub >> j & 1:
            out |= 1 << sq
        j += 1
    return out


@njit(cache=True)
def _index(mover: int, other: int, rank16: np.ndarray, rank12: np.ndarray) -> int:
    return int(rank16[mover] * 495 + rank12[_compress(other, mover)])


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
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


# -- the stored table -----------------------------------------------------------------------

def cache_dir() -> Path:
    """``$FOURFOLD_CACHE``, else ``$XDG_CACHE_HOME/fourfold``, else ``~/.cache/fourfold``."""
    explicit = os.environ.get("FOURFOLD_CACHE")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "fourfold"


def table_path() -> Path:
    return cache_dir() / f"dao-table-{tables().fingerprint()}.npy"


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
        raise RuntimeError(f"{stuck} positions in play where the side to move has no move;"
                           " the rules text says there are none")
    if int(dist.max()) > MAX_DISTANCE:
        raise RuntimeError(f"a distance of {int(dist.max())} plies does not fit in"
                           f" {DISTANCE_BITS} bits")
    packed = (value.astype(np.uint8) << DISTANCE_BITS) | dist
    return packed, BuildInfo(seconds, levels)


def _digest(packed: np.ndarray) -> str:
    return hashlib.sha256(packed.tobytes()).hexdigest()


def _load(path: Path) -> np.ndarray | None:
    meta_path = path.with_suffix(".json")
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        packed: np.ndarray = np.load(path, allow_pickle=False)
    except (OSError, ValueError):
        return None
    if (not isinstance(meta, dict) or meta.get("version") != TABLE_VERSION
            or packed.shape != (SIZE,) or packed.dtype != np.uint8
            or meta.get("sha256") != _digest(packed)):
        return None
    return packed


def _store(path: Path, packed: np.ndarray, info: BuildInfo) -> None:
    """Write atomically (a partly written file is never read as a table)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        with open(tmp, "wb") as f:
            np.save(f, packed, allow_pickle=False)
        os.replace(tmp, path)
        meta = {"version": TABLE_VERSION, "sha256": _digest(packed),
                "build_seconds": round(info.seconds, 2), "levels": info.levels}
        meta_tmp = path.with_name(f"{path.stem}.{os.getpid()}.json.tmp")
        meta_tmp.write_text(json.dumps(meta), encoding="utf-8")
        os.replace(meta_tmp, path.with_suffix(".json"))
    except OSError:
        pass  # an unwritable cache only costs a rebuild next time


_TABLE: dict[str, np.ndarray] = {}

#: a solve with a time limit below this does not start building the table (the build
#: takes 8-20 s on a shared 2-core machine: see docs/solutions.md)
BUILD_BUDGET = 30.0


def table(build: bool = True) -> np.ndarray | None:
    """The packed table: from memory, else from the cache, else built (and cached);
    ``None`` if it is neither in memory nor cached and ``build`` is false."""
    path = table_path()
    key = str(path)
    if key not in _TABLE:
        packed = _load(path)
        if packed is None:
            if not build:
                return None
            packed, info = build_table()
            _store(path, packed, info)
        _TABLE[key] = packed
    return _TABLE[key]


def hold_table(packed: np.ndarray | None) -> None:
    """Use ``packed`` as the table for the current cache path (``None``: forget it), without
    touching the cache on disk (benchmarks hand over a table they built)."""
    if packed is None:
        _TABLE.pop(str(table_path()), None)
    else:
        _TABLE[str(table_path())] = packed


def compile_build() -> None:
    """Compile the build kernel (or load it from numba's cache) without running it."""
    import numba

    t = tables()
    args = (t.sub16, t.sub12, t.rank16, t.rank12, t.rays, t.formations, t.trap_corners,
            t.trap_neighbours)
    _build.compile(tuple(numba.typeof(a) for a in args))  # type: ignore[no-untyped-call]


def full_table() -> np.ndarray:
    packed = table()
    assert packed is not None
    return packed


# -- reading the table ------------------------------------------------------------------------

def masks(state: DaoState) -> tuple[int, int]:
    """The squares of the side to move and of the other side."""
    mover = other = 0
    for sq, owner in enumerate(state.board):
        if owner == state.to_play:
            mover |= 1 << sq
        elif owner is not None:
            other |= 1 << sq
    return mover, other


def index_of(state: DaoState) -> int:
    t = tables()
    mover, other = masks(state)
    return int(_index(mover, other, t.rank16, t.rank12))


def lookup(state: DaoState) -> tuple[Value, int | None]:
    """The value for the side to move and the plies to the end (``None`` for a draw)."""
    entry = int(full_table()[index_of(state)])
    code, distance = entry >> DISTANCE_BITS, entry & MAX_DISTANCE
    if code == INVALID:
        raise ValueError("this position cannot occur in a game of Dao")
    return _VALUES[code], None if code == DRAW else distance


def _ended(game: Game[Any, Any], state: DaoState) -> Solution | None:
    outcome = game.outcome(state)
    if outcome is None:
        return None
    if outcome.result is Result.DRAW:
        return Solution(Value.DRAW, 0, ())
    return Solution(Value.WIN if outcome.winner == state.to_play else Value.LOSS, 0, ())


def solve(game: Game[Any, Any], state: Any, seconds: float | None = None) -> Solution | None:
    """The exact value of a Dao position and of every legal move, from the table.

    ``None`` when the table is not built yet and ``seconds`` is below ``BUILD_BUDGET``
    (a look-up itself takes microseconds). Each move's value is the table's, unless the
    move ends the game at once (a formation, or a threefold repetition given the game's
    history); the position's value is its best move's, so the two always agree. History
    further ahead and any length cap are not taken into account: see the module docstring.
    """
    start = time.perf_counter()
    ended = _ended(game, state)
    if ended is not None:
        return ended
    if table(build=seconds is None or seconds >= BUILD_BUDGET) is None:
        return None
    value, distance = lookup(state)
    moves = []
    for move in game.legal_moves(state):
        child = game.next_state(state, move)
        done = _ended(game, child)
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


# -- figures --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Summary:
    """Counts over the positions that can occur (side to move's point of view)."""

    positions: int
    wins: int
    losses: int
    draws: int
    ended: int
    invalid: int
    longest_win: int
    longest_win_positions: tuple[str, ...]


def position_at(index: int, to_play: int = 0) -> str:
    """The position string of a table index, with X (0) or O (1) as the side to move."""
    from fourfold.games.sliding.positions import format_layout

    t = tables()
    mover = int(t.sub16[index // OTHER_SETS])
    other = int(_expand(int(t.sub12[index % OTHER_SETS]), mover))
    letters = "XO" if to_play == 0 else "OX"
    cells = [letters[0] if mover >> sq & 1 else letters[1] if other >> sq & 1 else "."
             for sq in range(SQUARES)]
    return format_layout(_game().board, cells, "XO"[to_play])


@njit(cache=True)
def _all_masks(sub16: np.ndarray, sub12: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    size = len(sub16) * len(sub12)
    movers = np.empty(size, dtype=np.int64)
    others = np.empty(size, dtype=np.int64)
    for i in range(size):
        movers[i] = sub16[i // 495]
        others[i] = _expand(sub12[i % 495], movers[i])
    return movers, others


def symmetry_classes(packed: np.ndarray) -> dict[str, int]:
    """Positions counted up to the 8 rotations and reflections of the board: all that
    can occur, and the won, lost and drawn ones (a check of the table: values are
    constant on each class, see tests)."""
    t = tables()
    movers, others = _all_masks(t.sub16, t.sub12)
    every = np.arange(1 << SQUARES, dtype=np.int64)
    keys = []
    for sym in range(8):
        perm = np.zeros(1 << SQUARES, dtype=np.int64)
        for sq in range(SQUARES):
            x, y = sq % 4, sq // 4
            if sym & 1:
                x = 3 - x
            if sym & 2:
                y = 3 - y
            if sym & 4:
                x, y = y, x
            perm |= ((every >> sq) & 1) << (y * 4 + x)
        keys.append(perm[movers] << SQUARES | perm[others])
    canonical = np.min(np.stack(keys), axis=0)
    code = packed >> DISTANCE_BITS
    masks = {"positions": code != INVALID, "wins": code == WIN, "losses": code == LOSS,
             "draws": code == DRAW}
    return {name: len(np.unique(canonical[m])) for name, m in masks.items()}


def summarize(packed: np.ndarray) -> Summary:
    code = packed >> DISTANCE_BITS
    dist = packed & MAX_DISTANCE
    valid = code != INVALID
    wins = code == WIN
    longest = int(dist[wins].max())
    examples = [position_at(int(i)) for i in np.flatnonzero(wins & (dist == longest))[:4]]
    return Summary(
        positions=int(valid.sum()),
        wins=int(wins.sum()),
        losses=int((code == LOSS).sum()),
        draws=int((code == DRAW).sum()),
        ended=int((valid & (code != DRAW) & (dist == 0)).sum()),
        invalid=int((~valid).sum()),
        longest_win=longest,
        longest_win_positions=tuple(examples),
    )


def benchmark() -> dict[str, Any]:
    """Build the table twice from scratch in a fresh temporary cache (the first build may
    include numba's compilation; the second is the pure build), store it, reload it
    through the cache (checking the stored hash), and return the figures of
    docs/solutions.md. The hook for ``fourfold bench`` and benchmarks/bench_solve_dao.py."""
    import tempfile

    saved = os.environ.get("FOURFOLD_CACHE")
    try:
        with tempfile.TemporaryDirectory() as cache:
            os.environ["FOURFOLD_CACHE"] = cache
            t0 = time.perf_counter()
            build_table()
            first = time.perf_counter() - t0
            packed, info = build_table()
            t0 = time.perf_counter()
            _TABLE.pop(str(table_path()), None)
            stored = full_table()  # nothing cached: builds once more, and stores
            store_seconds = time.perf_counter() - t0
            _TABLE.pop(str(table_path()), None)
            t0 = time.perf_counter()
            loaded = full_table()
            load_seconds = time.perf_counter() - t0
            _TABLE.pop(str(table_path()), None)
            if not ((loaded == packed).all() and (stored == packed).all()):
                raise RuntimeError("the table read back from the cache differs from the build")
    finally:
        if saved is None:
            os.environ.pop("FOURFOLD_CACHE", None)
        else:
            os.environ["FOURFOLD_CACHE"] = saved
    summary = summarize(packed)
    game = _game()
    start = game.initial_state()
    _TABLE[str(table_path())] = packed  # for the start's move values below
    solution = solve(game, start)
    assert solution is not None
    return {
        "first_build_seconds": round(first, 2),
        "build_seconds": round(info.seconds, 2),
        "build_and_store_seconds": round(store_seconds, 2),
        "load_seconds": round(load_seconds, 4),
        "levels": info.levels,
        "table_bytes": int(packed.nbytes),
        "start_value": solution.value.value,
        "start_moves": [[game.format_move(start, m.move), m.value.value, m.distance]
                        for m in solution.moves],
        "positions": summary.positions,
        "invalid_indices": summary.invalid,
        "wins": summary.wins,
        "losses": summary.losses,
        "draws": summary.draws,
        "ended": summary.ended,
        "longest_win_plies": summary.longest_win,
        "longest_win_examples": list(summary.longest_win_positions),
        "wins_by_distance": _by_distance(packed, WIN),
        "losses_by_distance": _by_distance(packed, LOSS),
        "up_to_symmetry": symmetry_classes(packed),
    }


def _by_distance(packed: np.ndarray, code: int) -> dict[int, int]:
    dist = (packed & MAX_DISTANCE)[(packed >> DISTANCE_BITS) == code]
    return {d: int(n) for d, n in enumerate(np.bincount(dist)) if n}


register_solver(
    "dao",
    solve,
    "retrograde table of all 900,900 positions (from the mover's view), built once on"
    " first use (8-20 s; `fourfold solve dao` builds it) and cached",
)
