"""Placement machinery shared by Folio (grid variants) and Quarto."""

from fourfold.games.placement.game import PlacementGame
from fourfold.games.placement.geometry import Board, Cell, Geometry, Lattice
from fourfold.games.placement.pieces import PieceSet
from fourfold.games.placement.state import PlacementState, Ply

__all__ = [
    "Board",
    "Cell",
    "Geometry",
    "Lattice",
    "PieceSet",
    "PlacementGame",
    "PlacementState",
    "Ply",
]
