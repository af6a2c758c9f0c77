"""What the Dao and Ice Dao kernels share behind the ``Engine`` interface.

Both kernels keep a position in ``st`` (with the same ``S_WINNER``, ``S_DRAW``,
``S_SIDE``, ``S_DEPTH`` fields), a ``hist`` of saved rows for ``pop`` and a
``keys`` history for repetition, and expose the same compiled entry points
(``legal_actions``, ``push``, ``pop``, ``playouts``, ``greedy_playout``,
``perft``, ``search_root``). A subclass names its kernel module, sizes the
arrays and loads reference states.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np

from fourfold.core.outcome import Outcome
from fourfold.kernels.engine import Engine, SearchResult
from fourfold.kernels.rng import rng_state
from fourfold.kernels.search import (
    HORIZON,
    LIMIT,
    NODES,
    TT_KEY,
    new_frames,
    new_stats,
    new_table,
)

PLAYOUT_CAP = 400  # as ReferenceEngine.playout: a random game longer than this is a draw
GREEDY_PLAYOUT_CAP = 60  # greedy playouts cost more per ply; cut sooner (a draw) for MCTS


class SlidingEngine(Engine):
    """A sliding game on its compiled kernel ``k``."""

    k: ModuleType
    keys: np.ndarray  # earlier positions, for repetition (shape set by the subclass)

    def __init__(self, game: Any, width: int, num_actions: int, table_bits: int = 18) -> None:
        """``width``: the longest move list; ``num_actions``: the size of the action space."""
        super().__init__(game)
        k = self.k
        self.t = k.build_tables(game)
        self.st = np.zeros(k.NUM_FIELDS, dtype=np.int64)
        self.hist = np.zeros((k.MAX_HISTORY, k.NUM_FIELDS + 1), dtype=np.int64)
        self.buffer = np.zeros(width, dtype=np.int64)
        self.moves = np.zeros((k.MAX_HISTORY, width), dtype=np.int64)
        self.scores = np.zeros((k.MAX_HISTORY, width), dtype=np.int64)
        self.frames = new_frames(k.MAX_HISTORY)
        self.history = np.zeros(num_actions, dtype=np.int64)
        self.stats = new_stats()
        self.table_bits = table_bits
        self._tt: np.ndarray | None = None

    @property
    def tt(self) -> np.ndarray:
        if self._tt is None:
            self._tt = new_table(self.table_bits)
        return self._tt

    def load_outcome(self, outcome: Outcome | None) -> None:
        """Mark a loaded position that is already over."""
        k = self.k
        self.st[k.S_WINNER] = -1
        if outcome is not None:
            if outcome.winner is None:
                self.st[k.S_DRAW] = 1
            else:
                self.st[k.S_WINNER] = outcome.winner

    def legal(self) -> list[int]:
        n = self.k.legal_actions(self.t, self.st, self.buffer)
        return [int(a) for a in self.buffer[:n]]

    def push(self, action: int) -> None:
        self.k.push(self.t, self.st, self.hist, self.keys, action)

    def pop(self) -> None:
        self.k.pop(self.t, self.st, self.hist)

    def to_move(self) -> int:
        k = self.k
        if self.st[k.S_WINNER] >= 0 or self.st[k.S_DRAW]:
            return -1
        return int(self.st[k.S_SIDE])

    def winner(self) -> int:
        return int(self.st[self.k.S_WINNER])

    def greedy_playout(self, seed: int, max_plies: int = GREEDY_PLAYOUT_CAP) -> int:
        return int(self.k.greedy_playout(self.t, self.st, self.hist, self.keys, self.moves,
                                         rng_state(seed), max_plies))

    def playout(self, seed: int) -> int:
        wins0, wins1, _ = self.playouts(1, seed)
        return 0 if wins0 else (1 if wins1 else -1)

    def playouts(self, games: int, seed: int) -> tuple[int, int, int]:
        results = np.zeros(3, dtype=np.int64)
        self.k.playouts(self.t, self.st, self.hist, self.keys, self.buffer, rng_state(seed),
                        games, PLAYOUT_CAP, results)
        return int(results[0]), int(results[1]), int(results[2])

    def perft(self, depth: int) -> int:
        moves = np.zeros((max(depth, 1), self.buffer.shape[0]), dtype=np.int64)
        return int(self.k.perft(self.t, self.st, self.hist, self.keys, moves, depth))

    def forget(self) -> None:
        if self._tt is not None:
            self._tt[:] = 0
            self._tt[:, TT_KEY] = -1
        self.history[:] = 0

    def search(self, root: list[int], depth: int, node_limit: int) -> SearchResult:
        k, stats = self.k, self.stats
        stats[:] = 0
        stats[LIMIT] = node_limit
        values = np.zeros(len(root), dtype=np.int64)
        best = k.search_root(self.t, self.st, self.hist, self.keys, self.moves, self.scores,
                             self.frames, self.tt, self.history, stats,
                             np.array(root, dtype=np.int64), len(root), depth, values)
        return SearchResult(int(best), [int(v) for v in values], int(stats[NODES]),
                            not stats[HORIZON])
