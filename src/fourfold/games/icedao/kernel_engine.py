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

from fourfold.games.icedao import kernel as k
from fourfold.games.icedao.pieces import STACK_CODE
from fourfold.games.icedao.state import IceDaoState
from fourfold.games.sliding.kernel_engine import SlidingEngine

_STACK_OF_CODE = {code: stack for stack, code in STACK_CODE.items()}


class IceDaoEngine(SlidingEngine):
    """Ice Dao (every option) on the compiled kernel."""

    k = k

    def __init__(self, game: Any, table_bits: int = 18) -> None:
        super().__init__(game, k.MAX_MOVES, k.NUM_ACTIONS, table_bits)
        self.keys = np.zeros((k.MAX_HISTORY + 1, k.KEY_FIELDS), dtype=np.int64)
        # (hash, exact words) of reference keys, per engine (the hash depends on ``t``)
        self._key_row = lru_cache(maxsize=1 << 16)(self._row_of_key)

    def __getstate__(self) -> dict[str, Any]:
        """The engine without its key cache (a bound method's cache does not pickle)."""
        state = dict(self.__dict__)
        del state["_key_row"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._key_row = lru_cache(maxsize=1 << 16)(self._row_of_key)

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
        self.load_outcome(self.game.outcome(state))

    def mover_wins_now(self) -> bool:
        return bool(k.mover_wins_now(self.t, self.st, self.buffer))


#: the kernel part of the game's bundle (``core.extensions``): the engine of a
#: configured game
ENGINE = IceDaoEngine
