"""Counts over the Dao table: wins, losses, draws, distances, classes under symmetry."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from fourfold.games.dao.solver.index import (
    DISTANCE_BITS,
    DRAW,
    INVALID,
    LOSS,
    MAX_DISTANCE,
    SQUARES,
    WIN,
    _expand,
    position_at,
    tables,
)
from fourfold.kernels.jit import cached


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


@cached
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


def by_distance(packed: np.ndarray, code: int) -> dict[int, int]:
    """How many entries with value ``code`` lie at each distance."""
    dist = (packed & MAX_DISTANCE)[(packed >> DISTANCE_BITS) == code]
    return {d: int(n) for d, n in enumerate(np.bincount(dist)) if n}
