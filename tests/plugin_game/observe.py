"""The observation tensor of noughts and crosses for RL environments: three 3x3 planes
(the mover's marks, the other side's marks, empty cells)."""

from __future__ import annotations

from typing import Any

import numpy as np

from fourfold.core.game import Game, View
from fourfold.envs.observe import Encoder, Observation, Tensor
from plugin_game.game import CELLS, SIDE


class NoughtsEncoder(Encoder):
    """Planes from the point of view of the seat to move: its marks, the other's, empty."""

    @property
    def shape(self) -> tuple[int, ...]:
        return (3, SIDE, SIDE)

    def plane_names(self) -> list[str]:
        return ["marks of the seat to move", "marks of the other seat", "empty cells"]

    def encode(self, view: View[Any]) -> Tensor:
        state = view.observation
        out = np.zeros((3, CELLS), dtype=np.float32)
        for cell, mark in enumerate(state.board):
            plane = 2 if mark is None else (0 if mark == state.to_play else 1)
            out[plane, cell] = 1.0
        return out.reshape(self.shape)


def _encoder(game: Game[Any, Any], max_steps: int) -> Encoder:
    return NoughtsEncoder(game)


OBSERVATION = Observation(encoder=_encoder, max_steps=CELLS)
