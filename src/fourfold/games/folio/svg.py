"""Folio's pieces in SVG: pyramids seen from above, in their colour with their size's
pips (``render.svg.canvas.pyramid``). The grid variants use the placement games'
board with these pieces; freeform draws them on its table (``freeform/svg.py``)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from fourfold.games.folio.pieces import COLOURS
from fourfold.games.folio.pieces import colour as folio_colour
from fourfold.games.folio.pieces import size as folio_size
from fourfold.games.placement.game import PlacementGame
from fourfold.games.placement.svg import PlacementDrawer
from fourfold.render.svg.canvas import Canvas, pyramid
from fourfold.render.svg.common import PieceDrawer

#: Folio colours red, yellow, green, blue (the letter R Y G B is always drawn too).
FOLIO_FILLS = ("#d62828", "#f2c500", "#2a9d3f", "#1f6fd1")


def folio_piece(canvas: Canvas, parent: ET.Element, cx: float, cy: float, unit: float,
                kind: int) -> None:
    c = folio_colour(kind)
    pyramid(canvas, parent, cx, cy, unit, folio_size(kind), FOLIO_FILLS[c], COLOURS[c])


def folio_pieces(game: PlacementGame) -> PieceDrawer:
    return folio_piece


#: the ``drawer`` part of Folio's extension bundle (the grid variants)
DRAWER = PlacementDrawer(folio_pieces)
