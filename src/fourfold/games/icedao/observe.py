"""Ice Dao's observation planes: the ``observation`` part of its bundle (the compiled
copy is ``fourfold.games.icedao.observe_vector``; docs/envs.md lists the planes).
"""

from __future__ import annotations

from typing import Any

from fourfold.envs.observe import Observation, Tensor
from fourfold.games.sliding.observe import MAX_STEPS, SlidingEncoder


class IceDaoEncoder(SlidingEncoder):
    """Ice Dao, from the viewer's side: for each size, the viewer's and the opponent's
    pieces (covered or not), the top pieces by owner and size, stack heights (one-hot
    1, 2, 3), how often the position occurred before, whether the viewer acts and the
    plies played as a fraction of the length cap."""

    SIZES = ("small", "medium", "large")
    PLANES = 19

    def plane_names(self) -> list[str]:
        return (
            [f"mine {s}" for s in self.SIZES] + [f"theirs {s}" for s in self.SIZES]
            + [f"top mine {s}" for s in self.SIZES] + [f"top theirs {s}" for s in self.SIZES]
            + ["height 1", "height 2", "height 3", "seen before", "seen twice before",
               "to act", "plies / cap"]
        )

    def board_planes(self, state: Any, me: int, flat: Tensor) -> None:
        for sq, stack in enumerate(state.board):
            for piece in stack:
                side = 0 if piece // 3 == me else 1
                flat[side * 3 + piece % 3, sq] = 1.0
            if stack:
                top = stack[-1]
                flat[6 + (0 if top // 3 == me else 1) * 3 + top % 3, sq] = 1.0
                flat[11 + len(stack), sq] = 1.0


OBSERVATION = Observation(
    encoder=IceDaoEncoder, max_steps=MAX_STEPS,
    vector="fourfold.games.icedao.observe_vector:family")
