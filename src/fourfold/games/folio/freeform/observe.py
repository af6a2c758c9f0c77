"""Folio freeform's observation planes: the ``observation`` part of its bundle.

The continuous table is drawn on its action lattice (points 0.5 apart): the same piece
planes as the grids (``fourfold.games.placement.observe.PiecePlanes``), then the legal
placements, the challenge, "give only", "to act" and the seat (docs/envs.md).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from fourfold.core.game import View
from fourfold.envs.observe import DEFAULT_MAX_STEPS, Mask, Observation, Tensor
from fourfold.games.placement.giving import available_gives
from fourfold.games.placement.observe import PiecePlanes


class FreeformEncoder(PiecePlanes):
    """Folio freeform: pieces at the nearest point of the action lattice (0.5 apart),
    the same kind, attribute, hand and supply planes as the grids, the lattice points
    where a placement is legal, whether a challenge is possible (the grid is broken),
    whether this ply only gives, whether the viewer acts and which seat it is."""

    game: Any

    def __init__(self, game: Any, max_steps: int = DEFAULT_MAX_STEPS) -> None:
        super().__init__(game, tail=5)
        self.side = game.side

    @property
    def shape(self) -> tuple[int, ...]:
        return (self.planes, self.side, self.side)

    def plane_names(self) -> list[str]:
        return [*self.piece_plane_names(), "legal placement", "challenge possible",
                "give only", "to act", "seat"]

    def _rc(self, x: float, y: float) -> tuple[int, int] | None:
        step = 0.5
        half = self.game.radius
        c = round(x / step) + half
        r = round(y / step) + half
        if 0 <= r < self.side and 0 <= c < self.side:
            return r, c
        return None

    def _lattice_rc(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """Row and column of each action-lattice point (-1 off the planes), computed once."""
        if not hasattr(self, "_rc_table"):
            rows, cols = [], []
            for x, y in self.game.lattice:
                rc = self._rc(x, y)
                rows.append(-1 if rc is None else rc[0])
                cols.append(-1 if rc is None else rc[1])
            self._rc_table = (np.array(rows, dtype=np.int64), np.array(cols, dtype=np.int64))
        return self._rc_table

    def _lattice_flat(self) -> npt.NDArray[np.int64]:
        """Each action-lattice point's place in a flattened plane (-1 off the planes)."""
        if not hasattr(self, "_flat_table"):
            rows, cols = self._lattice_rc()
            self._flat_table = np.where(rows >= 0, rows * self.side + cols, -1)
        return self._flat_table

    def observe(self, view: View) -> tuple[Tensor, Mask]:
        """``encode`` and the mask in one pass over the legal placements (no move objects:
        a mid-game position has thousands of legal moves, twelve gives per placement)."""
        game = self.game
        state = view.observation
        out = self._pieces(view)
        mask = np.zeros(game.num_actions, dtype=np.int8)
        if view.player is None or view.player not in game.view_actors(view):
            return out, mask
        k = self.kinds
        gives = np.array(available_gives(state.supply), dtype=np.int64)
        nowhere = len(game.lattice)
        if state.hand is None:
            mask[nowhere * (k + 1) + gives] = 1
        else:
            # the rules' own legal placements (cached per position by the game)
            index, wins = game.placement_arrays(state)
            # the mask as one row per lattice point (its k + 1 gives): a winning placement
            # only places (the last column), any other gives one of the kinds left
            rows_of = mask[:-1].reshape(nowhere + 1, k + 1)
            if len(gives) == 0:
                rows_of[index, k] = 1
            else:
                rows_of[index[wins], k] = 1
                row = np.zeros(k + 1, dtype=np.int8)
                row[gives] = 1
                rows_of[index[~wins]] = row
            flat = self._lattice_flat()
            place = flat[index]
            out[self.o_place].reshape(-1)[place[place >= 0]] = 1.0
            if state.pieces:
                mask[-1] = 1
                out[self.o_place + 1] = 1.0
        out[self.o_place + 3] = 1.0
        return out, mask

    def encode(self, view: View) -> Tensor:
        return self.observe(view)[0]

    def _pieces(self, view: View) -> Tensor:
        """Every plane but the legal placements, the challenge and "to act"."""
        game = self.game
        state = view.observation
        out = np.zeros(self.shape, dtype=np.float32)
        for x, y, kind in state.pieces:
            rc = self._rc(x, y)
            if rc is not None:
                out[kind, rc[0], rc[1]] = 1.0
                out[self.o_attr:self.o_hand, rc[0], rc[1]] = self.attr_table[:, kind]
        if state.hand is not None:
            out[self.o_hand + state.hand] = 1.0
        supply = np.asarray(state.supply, dtype=np.float32) / self.counts
        out[self.o_supply:self.o_place] = supply[:, None, None]
        if state.hand is None and game.outcome(state) is None:
            out[self.o_place + 2] = 1.0
        if view.player:
            out[self.o_place + 4] = float(view.player)
        return out


#: Folio freeform: no kernel (the table is continuous), so no vector env
OBSERVATION = Observation(encoder=FreeformEncoder)
