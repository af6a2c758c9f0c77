"""The compiled Ice Dao kernel behind the ``Engine`` interface.

Every option of Ice Dao plays on the kernel: ``first`` and ``start`` only
change the loaded position, and ``max-plies`` is a field of the table. The
repetition history of a loaded state is read from its reference keys, so a
position that occurred twice before the load draws on its third occurrence in
the kernel too.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from fourfold.games.icedao.pieces import STACK_CODE
from fourfold.games.icedao.state import IceDaoState
from fourfold.kernels import icedao as k
from fourfold.kernels.engine import Engine, SearchResult
from fourfold.kernels.placement import rng_state
from fourfold.kernels.placement_search import HORIZON, LIMIT, NODES, NUM_STATS, new_table

PLAYOUT_CAP = 400  # as ReferenceEngine.playout: a random game longer than this is a draw
GREEDY_PLAYOUT_CAP = 60  # greedy playouts cost more per ply; cut sooner (a draw) for MCTS

_STACK_OF_CODE = {code: stack for stack, code in STACK_CODE.items()}


class IceDaoEngine(Engine):
    """Ice Dao (every option) on the compiled kernel."""

    def __init__(self, game: Any, table_bits: int = 18) -> None:
        super().__init__(game)
        self.t = k.build_tables(game)
        self.st = np.zeros(k.NUM_FIELDS, dtype=np.int64)
        self.hist = np.zeros((k.MAX_HISTORY, k.NUM_FIELDS + 1), dtype=np.int64)
        self.keys = np.zeros((k.MAX_HISTORY + 1, k.KEY_FIELDS), dtype=np.int64)
        self.buffer = np.zeros(k.MAX_MOVES, dtype=np.int64)
        self.moves = np.zeros((k.MAX_HISTORY, k.MAX_MOVES), dtype=np.int64)
        self.scores = np.zeros((k.MAX_HISTORY, k.MAX_MOVES), dtype=np.int64)
        self.frames = np.zeros((k.MAX_HISTORY, k.NUM_FRAME), dtype=np.int64)
        self.history = np.zeros(k.NUM_ACTIONS, dtype=np.int64)
        self.stats = np.zeros(NUM_STATS, dtype=np.int64)
        self.table_bits = table_bits
        self._tt: np.ndarray | None = None
        # (hash, exact words) of reference keys, per engine (the hash depends on ``t``)
        self._key_row = lru_cache(maxsize=1 << 16)(self._row_of_key)

    @property
    def tt(self) -> np.ndarray:
        if self._tt is None:
            self._tt = new_table(self.table_bits)
        return self._tt

    def _row_of_key(self, text: str) -> tuple[int, int, int, int]:
        """The ``keys`` row of a reference position key (25 stack codes, then the side)."""
        bbs = k.bitboards_of([_STACK_OF_CODE[c] for c in text[:k.SQUARES]])
        side = int(text[k.SQUARES:])
        return (k.zobrist_of(self.t, bbs, side), *k.words_of(bbs, side))

    def load(self, state: IceDaoState) -> None:
        st = self.st
        st[:] = 0
        bbs = k.bitboards_of(state.board)
        st[k.S_BB:k.S_BB + k.PIECES] = bbs
        st[k.S_SIDE] = state.to_play
        st[k.S_PLIES] = state.plies
        st[k.S_HASH] = k.zobrist_of(self.t, bbs, state.to_play)
        history = state.history
        if self.keys.shape[0] < len(history) + k.MAX_HISTORY + 1:
            self.keys = np.zeros((len(history) + k.MAX_HISTORY + 1, k.KEY_FIELDS), dtype=np.int64)
        for i, text in enumerate(history):
            self.keys[i] = self._key_row(text)
        st[k.S_KEYS] = len(history)
        st[k.S_WINNER] = -1
        outcome = self.game.outcome(state)
        if outcome is not None:
            if outcome.winner is None:
                st[k.S_DRAW] = 1
            else:
                st[k.S_WINNER] = outcome.winner

    def legal(self) -> list[int]:
        n = k.legal_actions(self.t, self.st, self.buffer)
        return [int(a) for a in self.buffer[:n]]

    def push(self, action: int) -> None:
        k.push(self.t, self.st, self.hist, self.keys, action)

    def pop(self) -> None:
        k.pop(self.t, self.st, self.hist)

    def to_move(self) -> int:
        if self.st[k.S_WINNER] >= 0 or self.st[k.S_DRAW]:
            return -1
        return int(self.st[k.S_SIDE])

    def winner(self) -> int:
        return int(self.st[k.S_WINNER])

    def mover_wins_now(self) -> bool:
        return bool(k.mover_wins_now(self.t, self.st, self.buffer))

    def greedy_playout(self, seed: int, max_plies: int = GREEDY_PLAYOUT_CAP) -> int:
        return int(k.greedy_playout(self.t, self.st, self.hist, self.keys, self.moves,
                                    rng_state(seed), max_plies))

    def playout(self, seed: int) -> int:
        results = np.zeros(3, dtype=np.int64)
        k.playouts(self.t, self.st, self.hist, self.keys, self.buffer, rng_state(seed), 1,
                   PLAYOUT_CAP, results)
        return 0 if results[0] else (1 if results[1] else -1)

    def playouts(self, games: int, seed: int) -> tuple[int, int, int]:
        results = np.zeros(3, dtype=np.int64)
        k.playouts(self.t, self.st, self.hist, self.keys, self.buffer, rng_state(seed), games,
                   PLAYOUT_CAP, results)
        return int(results[0]), int(results[1]), int(results[2])

    def perft(self, depth: int) -> int:
        moves = np.zeros((max(depth, 1), k.MAX_MOVES), dtype=np.int64)
        return int(k.perft(self.t, self.st, self.hist, self.keys, moves, depth))

    def search(self, root: list[int], depth: int, node_limit: int) -> SearchResult:
        stats = self.stats
        stats[:] = 0
        stats[LIMIT] = node_limit
        values = np.zeros(len(root), dtype=np.int64)
        best = k.search_root(self.t, self.st, self.hist, self.keys, self.moves, self.scores,
                             self.frames, self.tt, self.history, stats,
                             np.array(root, dtype=np.int64), len(root), depth, values)
        return SearchResult(int(best), [int(v) for v in values], int(stats[NODES]),
                            not stats[HORIZON])
