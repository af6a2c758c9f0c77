"""The compiled placement kernel behind the ``Engine`` interface."""

from __future__ import annotations

from typing import Any

import numpy as np

from fourfold.core.game import Game
from fourfold.games.placement import kernel as k
from fourfold.games.placement import kernel_search as s
from fourfold.games.placement.game import PlacementGame
from fourfold.games.placement.kernel_tables import (
    P_ACTIONS,
    P_KINDS,
    NoKernelError,
    PlacementTables,
    build_tables,
    flatten,
)
from fourfold.games.placement.state import PlacementState
from fourfold.kernels import search
from fourfold.kernels.engine import Engine, SearchResult
from fourfold.kernels.rng import rng_state

_TABLES: dict[tuple[Any, ...], PlacementTables] = {}


def tables_for(game: PlacementGame) -> PlacementTables:
    """Tables are built once per ruleset (variant and options)."""
    key = (game.name, game.info.variant, tuple(sorted(game.info.option_strings().items())))
    if key not in _TABLES:
        _TABLES[key] = build_tables(game)
    return _TABLES[key]


def compiled_engine(game: Game[Any, Any]) -> Engine | None:
    """The game's ``kernel`` part: the compiled engine of a grid placement game, or
    ``None`` (Folio's freeform variant, or pieces or a board the kernel cannot hold)."""
    if not isinstance(game, PlacementGame):
        return None
    try:
        return PlacementEngine(game)
    except NoKernelError:
        return None


class PlacementEngine(Engine):
    """Folio grid variants and Quarto on the compiled kernel."""

    def __init__(self, game: PlacementGame, table_bits: int = 18) -> None:
        super().__init__(game)
        self.placement_game = game
        self.tables = tables_for(game)
        self.t = flatten(self.tables)
        self.board, self.supply, self.st, self.hist = k.new_position(self.t)
        actions = int(self.t[P_ACTIONS])
        self.moves = np.zeros((k.MAX_PLIES + 1, actions), dtype=np.int64)
        self.scores = np.zeros((k.MAX_PLIES + 1, actions), dtype=np.int64)
        self.buffer = np.zeros(actions, dtype=np.int64)
        self.table_bits = table_bits
        self._tt: np.ndarray | None = None
        self.history = np.zeros(actions, dtype=np.int64)
        self.stats = search.new_stats()
        self.frames = search.new_frames(k.MAX_PLIES + 1)

    @property
    def tt(self) -> np.ndarray:
        if self._tt is None:
            self._tt = search.new_table(self.table_bits)
        return self._tt

    def load(self, state: PlacementState) -> None:
        t, st = self.tables, self.st
        k.reset(self.t, self.board, self.supply, st)
        kinds = int(t.params[P_KINDS])
        geometry = self.placement_game.geometry
        for cell, kind in state.board:
            i = geometry.index(cell)
            self.board[i] = kind
            st[k.S_OCC] |= np.int64(1) << np.int64(i)
            st[k.S_ADJ] |= t.neighbours[i]
            st[k.S_MINX] = min(st[k.S_MINX], t.cell_x[i])
            st[k.S_MAXX] = max(st[k.S_MAXX], t.cell_x[i])
            st[k.S_MINY] = min(st[k.S_MINY], t.cell_y[i])
            st[k.S_MAXY] = max(st[k.S_MAXY], t.cell_y[i])
            st[k.S_HASH] ^= t.zobrist[i * kinds + kind]
        st[k.S_PLACED] = state.placed
        self.supply[:] = state.supply
        if state.hand is not None:
            st[k.S_HAND] = state.hand
            st[k.S_HASH] ^= t.zobrist_hand[state.hand]
        if state.line is not None:
            st[k.S_WINNER] = (state.placed - 1) % 2

    def legal(self) -> list[int]:
        n = k.legal_actions(self.t, self.board, self.supply, self.st, self.buffer)
        return [int(a) for a in self.buffer[:n]]

    def push(self, action: int) -> None:
        k.push(self.t, self.board, self.supply, self.st, self.hist, action)

    def pop(self) -> None:
        k.pop(self.t, self.board, self.supply, self.st, self.hist)

    def to_move(self) -> int:
        return int(k.to_move(self.t, self.st))

    def winner(self) -> int:
        return int(self.st[k.S_WINNER])

    def mover_wins_now(self) -> bool:
        return bool(k.winning_cell(self.t, self.board, self.st) >= 0)

    def playout(self, seed: int) -> int:
        rs = rng_state(seed)
        return int(k.playout(self.t, self.board, self.supply, self.st, self.hist, self.buffer, rs))

    def greedy_playout(self, seed: int, max_plies: int = 64) -> int:  # ends by itself
        rs = rng_state(seed)
        return int(k.greedy_playout(self.t, self.board, self.supply, self.st, self.hist,
                                    self.buffer, rs))

    def playouts(self, games: int, seed: int) -> tuple[int, int, int]:
        results = np.zeros(3, dtype=np.int64)
        k.playouts(self.t, self.board, self.supply, self.st, self.hist, self.buffer,
                   rng_state(seed), games, results)
        return int(results[0]), int(results[1]), int(results[2])

    def c_playout(self) -> str | None:
        """Folio fixed-grid with its default options has a C twin of ``playouts``."""
        info = self.placement_game.info
        if info.spec.name == "folio" and info.variant == "fixed-grid" and (
                not info.non_default_options()):
            return "fourfold.games.placement:folio_playout.c"
        return None

    def perft(self, depth: int) -> int:
        moves = np.zeros((max(depth, 1), self.buffer.shape[0]), dtype=np.int64)
        return int(k.perft(self.t, self.board, self.supply, self.st, self.hist, moves, depth))

    def forget(self) -> None:
        if self._tt is not None:
            self._tt[:] = 0
            self._tt[:, search.TT_KEY] = -1
        self.history[:] = 0

    def search(self, root: list[int], depth: int, node_limit: int) -> SearchResult:
        stats = self.stats
        stats[:] = 0
        stats[search.LIMIT] = node_limit
        root_arr = np.array(root, dtype=np.int64)
        values = np.zeros(len(root), dtype=np.int64)
        best = s.search_root(self.t, self.board, self.supply, self.st, self.hist, self.moves,
                             self.scores, self.frames, self.tt, self.history, stats, root_arr,
                             len(root), depth, values)
        return SearchResult(int(best), [int(v) for v in values], int(stats[search.NODES]),
                            not stats[search.HORIZON])


#: the kernel part of the game's bundle (``core.extensions``): the engine of a
#: configured game
ENGINE = compiled_engine
