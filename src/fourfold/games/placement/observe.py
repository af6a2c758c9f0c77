"""Observation planes of the placement games (Quarto, Folio's grids; Folio freeform
builds on ``PiecePlanes``): the ``observation`` part of their extension bundles.

The planes are listed by ``plane_names`` and described in docs/envs.md; the compiled
copy of ``PlacementEncoder`` is ``fourfold.games.placement.observe_vector``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fourfold.core.errors import ConfigurationError
from fourfold.core.game import View
from fourfold.envs.observe import DEFAULT_MAX_STEPS, Encoder, Observation, Tensor
from fourfold.games.folio.pieces import COLOUR_NAMES, SIZE_NAMES, FolioPieces, colour, size
from fourfold.games.placement.geometry import Board, Lattice
from fourfold.games.quarto.pieces import WORDS, QuartoPieces


def piece_attributes(pieces: Any) -> list[tuple[str, list[bool]]]:
    """``(name, has[kind])`` for each attribute plane of a piece set."""
    kinds = range(pieces.num_kinds)
    if isinstance(pieces, QuartoPieces):
        out = []
        for i, (yes, no) in enumerate(WORDS):
            out.append((yes, [bool(k >> i & 1) for k in kinds]))
            out.append((no, [not k >> i & 1 for k in kinds]))
        return out
    if isinstance(pieces, FolioPieces):
        return [(c, [colour(k) == i for k in kinds]) for i, c in enumerate(COLOUR_NAMES)] + [
            (s, [size(k) == i for k in kinds]) for i, s in enumerate(SIZE_NAMES)
        ]
    return []


class PiecePlanes(Encoder):
    """The planes every placement encoder shares: a plane per kind and per attribute,
    the piece in hand and the supply, then ``tail`` planes of the encoder's own."""

    def __init__(self, game: Any, tail: int) -> None:
        super().__init__(game)
        self.pieces = game.pieces
        self.kinds = self.pieces.num_kinds
        self.attributes = piece_attributes(self.pieces)
        self.attr_table = np.array([has for _, has in self.attributes], dtype=np.float32)
        self.counts = np.array(self.pieces.counts, dtype=np.float32)
        k, a = self.kinds, len(self.attributes)
        self.o_attr, self.o_hand, self.o_supply, self.o_place = k, k + a, 2 * k + a, 3 * k + a
        self.planes = 3 * k + a + tail

    def piece_plane_names(self) -> list[str]:
        names = [self.pieces.name(k) for k in range(self.kinds)]
        return (
            [f"piece {n}" for n in names]
            + [f"attribute {n}" for n, _ in self.attributes]
            + [f"in hand {n}" for n in names]
            + [f"supply {n}" for n in names]
        )


class PlacementEncoder(PiecePlanes):
    """Quarto and Folio grids: a plane per kind, per attribute, the piece in hand, the
    supply, the cells the next piece may go on (Folio standard's floating 4x4 area),
    whether this ply only gives, whether the viewer acts and which seat it is."""

    game: Any

    def __init__(self, game: Any, max_steps: int = DEFAULT_MAX_STEPS) -> None:
        super().__init__(game, tail=4)
        geo = game.geometry
        if isinstance(geo, Board):
            self.rows, self.cols = geo.height, geo.width
        elif isinstance(geo, Lattice):
            self.rows = self.cols = geo.side
        else:  # pragma: no cover - every placement geometry is one of the two
            raise ConfigurationError(f"no observation planes for {type(geo).__name__}")
        self.cells = [divmod(i, self.cols) for i in range(game.geometry.num_cells)]

    @property
    def shape(self) -> tuple[int, ...]:
        return (self.planes, self.rows, self.cols)

    def plane_names(self) -> list[str]:
        return [*self.piece_plane_names(), "placeable", "give only", "to act", "seat"]

    def encode(self, view: View) -> Tensor:
        game = self.game
        state = view.observation
        out = np.zeros(self.shape, dtype=np.float32)
        geo = game.geometry
        for cell, kind in state.board:
            r, c = self.cells[geo.index(cell)]
            out[kind, r, c] = 1.0
            if self.attributes:
                out[self.o_attr:self.o_hand, r, c] = self.attr_table[:, kind]
        over = game.outcome(state) is not None
        if state.hand is not None:
            out[self.o_hand + state.hand] = 1.0
        supply = np.asarray(state.supply, dtype=np.float32) / self.counts
        out[self.o_supply:self.o_place] = supply[:, None, None]
        if not over:
            for cell in geo.placeable(state.occupied):
                r, c = self.cells[geo.index(cell)]
                out[self.o_place, r, c] = 1.0
            if state.hand is None:
                out[self.o_place + 1] = 1.0
        if view.player is not None and view.player in game.view_actors(view):
            out[self.o_place + 2] = 1.0
        if view.player:
            out[self.o_place + 3] = float(view.player)
        return out


#: Quarto and Folio's grid variants (every plane of ``PlacementEncoder``; the vector env
#: and the AEC env's compiled tensors from ``observe_vector``)
OBSERVATION = Observation(
    encoder=PlacementEncoder, vector="fourfold.games.placement.observe_vector:family")
