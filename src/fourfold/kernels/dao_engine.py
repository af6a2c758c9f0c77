"""The compiled classic Dao kernel behind the ``Engine`` interface."""

from __future__ import annotations

from typing import Any

import numpy as np

from fourfold.games.dao.state import SIDE_LETTERS, DaoState
from fourfold.kernels import dao as k
from fourfold.kernels.engine import Engine, SearchResult
from fourfold.kernels.placement import rng_state
from fourfold.kernels.placement_search import HORIZON, LIMIT, NODES, NUM_STATS, new_table

NUM_ACTIONS = k.SQUARES * k.DIRECTIONS
PLAYOUT_CAP = 400  # random Dao games can wander; a playout longer than this counts as a draw
GREEDY_PLAYOUT_CAP = 60  # greedy playouts cost more per ply; cut sooner (a draw) for MCTS


def key_from_text(text: str) -> int:
    """The kernel key of a reference position key (16 cells then the side letter)."""
    x = sum(1 << i for i, c in enumerate(text[:16]) if c == SIDE_LETTERS[0])
    o = sum(1 << i for i, c in enumerate(text[:16]) if c == SIDE_LETTERS[1])
    return k.key_of(x, o, SIDE_LETTERS.index(text[16]))


class DaoEngine(Engine):
    def __init__(self, game: Any, table_bits: int = 18) -> None:
        super().__init__(game)
        self.t = k.build_tables(game)
        self.st = np.zeros(k.NUM_FIELDS, dtype=np.int64)
        self.hist = np.zeros((k.MAX_HISTORY, k.NUM_FIELDS + 1), dtype=np.int64)
        self.keys = np.zeros(k.MAX_HISTORY + 1, dtype=np.int64)
        self.buffer = np.zeros(NUM_ACTIONS, dtype=np.int64)
        self.moves = np.zeros((k.MAX_HISTORY, NUM_ACTIONS), dtype=np.int64)
        self.scores = np.zeros((k.MAX_HISTORY, NUM_ACTIONS), dtype=np.int64)
        self.frames = np.zeros((k.MAX_HISTORY, k.NUM_FRAME), dtype=np.int64)
        self.history = np.zeros(NUM_ACTIONS, dtype=np.int64)
        self.stats = np.zeros(NUM_STATS, dtype=np.int64)
        self.table_bits = table_bits
        self._tt: np.ndarray | None = None

    @property
    def tt(self) -> np.ndarray:
        if self._tt is None:
            self._tt = new_table(self.table_bits)
        return self._tt

    def load(self, state: DaoState) -> None:
        st = self.st
        st[:] = 0
        st[k.S_X] = sum(1 << i for i, p in enumerate(state.board) if p == 0)
        st[k.S_O] = sum(1 << i for i, p in enumerate(state.board) if p == 1)
        st[k.S_SIDE] = state.to_play
        st[k.S_PLIES] = state.plies
        history = state.history[-(k.MAX_HISTORY // 2):]
        for i, text in enumerate(history):
            self.keys[i] = key_from_text(text)
        st[k.S_KEYS] = len(history)
        outcome = self.game.outcome(state)
        st[k.S_WINNER] = -1
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
        return bool(k.mover_wins_now(self.t, self.st, self.hist, self.keys, self.moves[-1]))

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
        moves = np.zeros((max(depth, 1), NUM_ACTIONS), dtype=np.int64)
        return int(k.perft(self.t, self.st, self.hist, self.keys, moves, depth))

    def search(self, root: list[int], depth: int, node_limit: int) -> SearchResult:
        stats = self.stats
        stats[:] = 0
        stats[LIMIT] = node_limit
        values = np.zeros(len(root), dtype=np.int64)
        depth_before = int(self.st[k.S_DEPTH])
        best = k.search_root(self.t, self.st, self.hist, self.keys, self.moves, self.scores,
                             self.frames, self.tt, self.history, stats,
                             np.array(root, dtype=np.int64), len(root), depth, values)
        while self.st[k.S_DEPTH] > depth_before:  # an aborted search leaves its line pushed
            self.pop()
        return SearchResult(int(best), [int(v) for v in values], int(stats[NODES]),
                            not stats[HORIZON])
