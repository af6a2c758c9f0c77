"""The compiled classic Dao kernel behind the ``Engine`` interface."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from fourfold.games.dao import kernel as k
from fourfold.games.dao.state import SIDE_LETTERS, DaoState
from fourfold.games.sliding.kernel_engine import SlidingEngine

NUM_ACTIONS = k.SQUARES * k.DIRECTIONS


@lru_cache(maxsize=1 << 16)
def key_from_text(text: str) -> int:
    """The kernel key of a reference position key (16 cells then the side letter);
    remembered, as a position's whole history is loaded again at every step of an env."""
    x = sum(1 << i for i, c in enumerate(text[:16]) if c == SIDE_LETTERS[0])
    o = sum(1 << i for i, c in enumerate(text[:16]) if c == SIDE_LETTERS[1])
    return k.key_of(x, o, SIDE_LETTERS.index(text[16]))


class DaoEngine(SlidingEngine):
    k = k

    def __init__(self, game: Any, table_bits: int = 18) -> None:
        super().__init__(game, NUM_ACTIONS, NUM_ACTIONS, table_bits)
        self.keys = np.zeros(k.MAX_HISTORY + 1, dtype=np.int64)

    def load(self, state: DaoState) -> None:
        st = self.st
        st[:] = 0
        st[k.S_X] = sum(1 << i for i, p in enumerate(state.board) if p == 0)
        st[k.S_O] = sum(1 << i for i, p in enumerate(state.board) if p == 1)
        st[k.S_SIDE] = state.to_play
        st[k.S_PLIES] = state.plies
        history = state.history[-(k.MAX_HISTORY // 2):]
        self.keys[:len(history)] = [key_from_text(text) for text in history]
        st[k.S_KEYS] = len(history)
        self.load_outcome(self.game.outcome(state))

    def mover_wins_now(self) -> bool:
        return bool(k.mover_wins_now(self.t, self.st, self.hist, self.keys, self.moves[-1]))


#: the kernel part of the game's bundle (``core.extensions``): the engine of a
#: configured game
ENGINE = DaoEngine
