"""Boards of the placement games (Folio standard, fixed-grid, no-grid; Quarto).

``cells`` are the placed pieces; ``placeable`` the cells the piece in hand may go on
now (for Folio standard, the open cells of the floating 4x4 area); ``supply`` the
pieces left to give; ``line`` the winning line once there is one.
"""

from __future__ import annotations

from typing import Any

from fourfold.games.placement.game import PlacementGame
from fourfold.games.placement.geometry import Board, Cell, Geometry
from fourfold.games.placement.state import PlacementState
from fourfold.wire.codec import AnyGame, BoardCodec, served
from fourfold.wire.errors import JsonDict


def geometry_json(geometry: Geometry) -> JsonDict:
    if isinstance(geometry, Board):
        return {"kind": "board", "width": geometry.width, "height": geometry.height,
                "box": geometry.box}
    return {"kind": "lattice", "box": 4}


def cell_json(geometry: Geometry, cell: Cell) -> JsonDict:
    return {"cell": geometry.format_cell(cell), "x": cell[0], "y": cell[1]}


def _game(game: AnyGame) -> PlacementGame:
    return served(game, PlacementGame, "a placement game")


def encode(game: AnyGame, state: Any) -> JsonDict:
    g = _game(game)
    assert isinstance(state, PlacementState)
    geo, pieces = g.geometry, g.pieces
    over = g.outcome(state) is not None
    return {
        "geometry": geometry_json(geo),
        "pieces": [{"piece": pieces.name(k), "description": pieces.describe(k)}
                   for k in range(pieces.num_kinds)],
        "cells": [{**cell_json(geo, c), "piece": pieces.name(k)} for c, k in state.board],
        "hand": None if state.hand is None else pieces.name(state.hand),
        "supply": [{"piece": pieces.name(k), "count": n}
                   for k, n in enumerate(state.supply) if n],
        "placeable": [] if over else [cell_json(geo, c)
                                      for c in geo.placeable(state.occupied)],
        "line": None if state.line is None else [cell_json(geo, c) for c in state.line],
        "line_reason": state.line_reason,
        "to_move": g.to_move(state),
    }


def parts(game: AnyGame, state: Any, move: Any) -> JsonDict:
    """A ply as ``{"cell", "give"}`` (either may be ``None``)."""
    g = _game(game)
    return {"cell": None if move.place is None else g.geometry.format_cell(move.place),
            "give": None if move.give is None else g.pieces.name(move.give)}


#: the ``codec`` part of the placement games' extension bundles
CODEC = BoardCodec(encode, parts=parts)
