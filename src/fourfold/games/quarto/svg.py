"""Quarto's pieces in SVG, seen from above: round or square, hollow or flat, dark or
light, tall (large, double outline) or short, with their four letters beneath. The
board is the placement games' (``games/placement/svg.py``)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from fourfold.games.placement.game import PlacementGame
from fourfold.games.placement.svg import PlacementDrawer
from fourfold.render.svg.canvas import Canvas
from fourfold.render.svg.common import LABEL_FONT, PieceDrawer

QUARTO_DARK = "#6b3e26"
QUARTO_LIGHT = "#f3dcb2"


def quarto_piece(canvas: Canvas, parent: ET.Element, cx: float, cy: float, unit: float,
                 kind: int, name: str) -> None:
    """Tall/short: large with a double outline, or small; dark/light fill; round or
    square; hollow (a hole on top) or flat; the four letters beneath as well (at
    LABEL_FONT, under the shape, never on it)."""
    tall, dark, round_, hollow = (bool(kind >> i & 1) for i in range(4))
    code_y = cy + unit / 2 - 6  # the code's baseline, near the bottom of the cell or slot
    space_top = cy - unit / 2 + 2
    space_bottom = code_y - LABEL_FONT * 0.8 - 2
    room = (space_bottom - space_top) / 2  # the largest radius that fits over the code
    r = min(room, unit * 0.31) * (1.0 if tall else 0.7)
    fill = QUARTO_DARK if dark else QUARTO_LIGHT
    cy = (space_top + space_bottom) / 2

    def shape(radius: float, cls: str, **attrs: str | float) -> None:
        if round_:
            canvas.circle(cx, cy, radius, cls=cls, parent=parent, **attrs)
        else:
            canvas.rect(cx - radius, cy - radius, 2 * radius, 2 * radius, cls=cls,
                        parent=parent, rx=radius * 0.12, **attrs)

    shape(r, "body", fill=fill)
    if tall:
        shape(r * 0.82, "edge", fill="none", stroke_width=1.5, stroke_opacity=0.7,
              stroke="#fff" if dark else "#000")
    if hollow:
        shape(r * 0.4, "edge", fill="#fbf8f1", stroke_width=1.5, stroke_opacity=0.8)
    canvas.text(cx, code_y, name, cls="code", parent=parent)


def quarto_pieces(game: PlacementGame) -> PieceDrawer:
    names = game.pieces.name

    def draw(canvas: Canvas, parent: ET.Element, cx: float, cy: float, unit: float,
             kind: int) -> None:
        quarto_piece(canvas, parent, cx, cy, unit, kind, names(kind))
    return draw


#: the ``drawer`` part of Quarto's extension bundle
DRAWER = PlacementDrawer(quarto_pieces, labelled=LABEL_FONT)
