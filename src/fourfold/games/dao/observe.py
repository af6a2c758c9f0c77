"""Classic Dao's observation planes: the ``observation`` part of its bundle (the
compiled copy is ``fourfold.games.dao.observe_vector``; docs/envs.md lists the planes).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fourfold.core.game import View
from fourfold.envs.observe import Encoder, Observation, Tensor
from fourfold.games.sliding.observe import MAX_STEPS, sliding_tail


class DaoEncoder(Encoder):
    """Classic Dao, from the viewer's side: its pieces, the opponent's, the empty
    squares, how often the position occurred before (once, twice), whether the viewer
    acts, and the plies played as a fraction of the length cap (0 without one)."""

    def __init__(self, game: Any, max_steps: int = MAX_STEPS) -> None:
        super().__init__(game)
        self.size = game.board.size

    @property
    def shape(self) -> tuple[int, ...]:
        return (7, self.size, self.size)

    def plane_names(self) -> list[str]:
        return ["mine", "theirs", "empty", "seen before", "seen twice before", "to act",
                "plies / cap"]

    def encode(self, view: View) -> Tensor:
        game = self.game
        state = view.observation
        me = 0 if view.player is None else view.player
        out = np.zeros(self.shape, dtype=np.float32)
        flat = out.reshape(7, -1)
        for sq, owner in enumerate(state.board):
            flat[2 if owner is None else (0 if owner == me else 1), sq] = 1.0
        sliding_tail(game, view, state, out[3:])
        return out


OBSERVATION = Observation(
    encoder=DaoEncoder, max_steps=MAX_STEPS, vector="fourfold.games.dao.observe_vector:family")
