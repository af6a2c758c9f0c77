"""Classic Dao's observation planes: the ``observation`` part of its bundle (the
compiled copy is ``fourfold.games.dao.observe_vector``; docs/envs.md lists the planes).
"""

from __future__ import annotations

from typing import Any

from fourfold.envs.observe import Observation, Tensor
from fourfold.games.sliding.observe import MAX_STEPS, SlidingEncoder


class DaoEncoder(SlidingEncoder):
    """Classic Dao, from the viewer's side: its pieces, the opponent's, the empty
    squares, how often the position occurred before (once, twice), whether the viewer
    acts, and the plies played as a fraction of the length cap (0 without one)."""

    PLANES = 7

    def plane_names(self) -> list[str]:
        return ["mine", "theirs", "empty", "seen before", "seen twice before", "to act",
                "plies / cap"]

    def board_planes(self, state: Any, me: int, flat: Tensor) -> None:
        for sq, owner in enumerate(state.board):
            flat[2 if owner is None else (0 if owner == me else 1), sq] = 1.0


OBSERVATION = Observation(
    encoder=DaoEncoder, max_steps=MAX_STEPS, vector="fourfold.games.dao.observe_vector:family")
