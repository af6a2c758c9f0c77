"""Folio (David Morgan-Mar): the grid variants standard, fixed-grid and no-grid."""

from __future__ import annotations

from fourfold.core.spec import GameInfo
from fourfold.games.folio.pieces import FolioPieces
from fourfold.games.placement.game import PlacementGame
from fourfold.games.placement.geometry import BOX, Board, Geometry, Lattice

CENTRAL = ((3, 3), (4, 3), (3, 4), (4, 4))  # d4, e4, d5, e5


def geometry_for(variant: str) -> Geometry:
    if variant == "standard":
        return Board(8, 8, first=CENTRAL, box=BOX)
    if variant == "fixed-grid":
        return Board(4, 4)
    if variant == "no-grid":
        return Lattice()
    raise ValueError(f"no geometry for Folio variant {variant!r}")


class FolioGame(PlacementGame):
    """Folio on a grid: place the piece your opponent chose; complete a winning line."""

    def __init__(self, info: GameInfo) -> None:
        super().__init__(
            info,
            geometry_for(info.variant),
            FolioPieces(info.options["line-rule"], info.options["extra"]),
        )
