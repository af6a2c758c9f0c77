"""Where a Dao position sits in the table: the index, the entry format and the rule arrays.

The table is indexed from the point of view of the side to move (the rules are
the same for X and O): ``C(16,4) * C(12,4) = 900,900`` entries. The index is a
perfect hash, the combinatorial number system: the rank of the mover's 4-square
set among the 1,820 subsets of 16 squares, times 495, plus the rank of the other
side's set among the 495 subsets of the 12 squares left.

An entry is one byte: the value code in the top two bits and the distance in
plies in the low six.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache
from math import comb

import numpy as np

from fourfold.games.dao.game import DaoGame
from fourfold.games.dao.state import DaoState
from fourfold.games.sliding.geometry import NUM_DIRECTIONS
from fourfold.kernels.jit import cached

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


@cached
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


@cached
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


@cached
def _index(mover: int, other: int, rank16: np.ndarray, rank12: np.ndarray) -> int:
    return int(rank16[mover] * 495 + rank12[_compress(other, mover)])


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
