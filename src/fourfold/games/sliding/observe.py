"""What the sliding games' observation planes share (Dao's and Ice Dao's encoders,
``fourfold.games.dao.observe`` and ``fourfold.games.icedao.observe``): the episode cap,
the planes over the board's squares, and the last four planes (``sliding_tail``);
docs/envs.md lists every plane.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any, ClassVar

import numpy as np

from fourfold.core.game import View
from fourfold.envs.observe import Encoder, Tensor

#: The cap on an episode's plies (sliding games can go on for ever) unless the game's own
#: ``max-plies`` option ends it first, as a draw by the rules.
MAX_STEPS = 300


class SlidingEncoder(Encoder):
    """A sliding game from the viewer's side: ``PLANES`` planes over the board's squares,
    the game's own (``board_planes``) and then the four of ``sliding_tail``."""

    PLANES: ClassVar[int]

    def __init__(self, game: Any, max_steps: int = MAX_STEPS) -> None:
        super().__init__(game)
        self.size = game.board.size

    @property
    def shape(self) -> tuple[int, ...]:
        return (self.PLANES, self.size, self.size)

    def encode(self, view: View) -> Tensor:
        state = view.observation
        out = np.zeros(self.shape, dtype=np.float32)
        me = 0 if view.player is None else view.player
        self.board_planes(state, me, out.reshape(self.PLANES, -1))
        sliding_tail(self.game, view, state, out[self.PLANES - 4:])
        return out

    @abstractmethod
    def board_planes(self, state: Any, me: int, flat: Tensor) -> None:
        """Write the game's own planes (one row of ``flat`` per plane, a column per
        square) from seat ``me``'s side."""


def sliding_tail(game: Any, view: View, state: Any, out: Tensor) -> None:
    """Repetition (2 planes), to act, plies over the cap: the last four planes."""
    seen = min(state.repetitions - 1, 2)
    if seen >= 1:
        out[0] = 1.0
    if seen >= 2:
        out[1] = 1.0
    if view.player is not None and view.player in game.view_actors(view):
        out[2] = 1.0
    if game.max_plies:
        out[3] = min(state.plies / game.max_plies, 1.0)
