"""SVG of the placement games on cells: Folio standard, fixed-grid and no-grid, and Quarto.

Folio standard shades the squares the floating 4x4 area may still cover (the rest
of the 8x8 board is hatched) and frames that area, dashed while it can still move,
solid once it is fixed. No-grid has no board: it draws the cells the notional 4x4
grid may still cover around the pieces, with x,y labels. Where the rules restrict
the next piece, a dot marks every cell it may go on. Pieces are pyramids seen from
above (Folio) or Quarto's pieces seen from above: round or square, hollow or flat,
dark or light, tall (large, double outline) or short, each with its code beneath
(``games/folio/svg.py``, ``games/quarto/svg.py``: each game's ``PlacementDrawer`` says
how its pieces look).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fourfold.core.game import Game, View
from fourfold.core.outcome import Outcome
from fourfold.games.placement.game import PlacementGame
from fourfold.games.placement.geometry import BOX, Board, Cell, Lattice
from fourfold.games.placement.state import PlacementState, Ply
from fourfold.render.svg.canvas import Canvas
from fourfold.render.svg.common import (
    COORD_FOOT,
    PAD,
    WIDTH,
    PieceDrawer,
    SeatNames,
    board_fit,
    coordinates,
    header,
    header_height,
    seat_name,
    title_of,
)
from fourfold.render.svg.tray import beside, tray, tray_height

#: the largest side of a cell (a 4x4 board); an 8x8 board's cells are as wide as the
#: picture allows, over ``TAP`` units (44 CSS px on a phone)
MAX_UNIT = 80.0

#: ``game -> PieceDrawer``: how a placement game's pieces look from above
PiecesOf = Callable[[PlacementGame], PieceDrawer]


def plain_pieces(game: PlacementGame) -> PieceDrawer:
    """A grey disc with the piece's name: for a placement game without a look of its own."""
    pieces = game.pieces

    def plain(canvas: Canvas, parent: ET.Element, cx: float, cy: float, unit: float,
              kind: int) -> None:
        canvas.circle(cx, cy, unit * 0.35, cls="body", parent=parent, fill="#ccc")
        canvas.text(cx, cy, pieces.name(kind), cls="code", parent=parent)
    return plain


def open_area(game: PlacementGame, state: PlacementState) -> tuple[int, int, int, int] | None:
    """``(x0, y0, x1, y1)``: the cells the 4x4 area may still cover, or ``None`` when the
    geometry has no floating area (fixed-grid, Quarto)."""
    geometry = game.geometry
    cells = state.occupied
    if isinstance(geometry, Lattice):
        cells = cells or frozenset({(0, 0)})
    elif not (isinstance(geometry, Board) and geometry.box is not None):
        return None
    if cells:
        xs = [c[0] for c in cells]
        ys = [c[1] for c in cells]
        x0, x1 = max(xs) - (BOX - 1), min(xs) + (BOX - 1)
        y0, y1 = max(ys) - (BOX - 1), min(ys) + (BOX - 1)
    else:  # an empty standard board: the first piece goes on a central square
        assert isinstance(geometry, Board) and geometry.first is not None
        x0 = min(c[0] for c in geometry.first) - (BOX - 1)
        x1 = max(c[0] for c in geometry.first) + (BOX - 1)
        y0 = min(c[1] for c in geometry.first) - (BOX - 1)
        y1 = max(c[1] for c in geometry.first) + (BOX - 1)
    if isinstance(geometry, Board):
        x0, y0 = max(x0, 0), max(y0, 0)
        x1, y1 = min(x1, geometry.width - 1), min(y1, geometry.height - 1)
    return x0, y0, x1, y1


def draw_placement(game: Game[Any, Any], view: View, *, last_move: Any | None,
                   outcome: Outcome | None, size: int | None,
                   pieces: PiecesOf = plain_pieces, names: SeatNames = None,
                   labelled: float = 0.0) -> str:
    """A placement game's picture (a ``Drawer``), its pieces drawn by ``pieces(game)``,
    its seats called by ``names`` (the table's; None: the rules'); ``labelled`` is the
    height a piece's own label takes under it (the tray makes its slots that taller)."""
    assert isinstance(game, PlacementGame)
    state = view.observation
    assert isinstance(state, PlacementState)
    geometry = game.geometry
    area = open_area(game, state)
    if isinstance(geometry, Board):
        xs = list(range(geometry.width))
        ys = list(range(geometry.height))
        column = [chr(ord("a") + x) for x in xs]
        row = [str(y + 1) for y in ys]
    elif isinstance(geometry, Lattice):
        assert area is not None
        xs = list(range(area[0], area[2] + 1))
        ys = list(range(area[1], area[3] + 1))
        column = [str(x) for x in xs]
        row = [str(y) for y in ys]
    else:
        raise TypeError(f"no SVG for the geometry {type(geometry).__name__}")
    over = outcome is not None or game.outcome(state) is not None
    legal = set() if over else set(geometry.placeable(state.occupied))
    empty = {(x, y) for x in xs for y in ys} - state.occupied
    mark_legal = bool(legal) and not (isinstance(geometry, Board) and legal >= empty)

    unit, left = board_fit(len(xs), row, MAX_UNIT)
    width = WIDTH
    extra = _legend(game, area, mark_legal)
    top = header_height(game, view, outcome, width, extra, names)
    mover = game.to_move(state)
    label = "In hand" if mover is None else f"In hand ({seat_name(game, mover, names)})"
    below = top + 4 + len(ys) * unit + COORD_FOOT + 8
    height = below + tray_height(PAD, width - 2 * PAD, state.supply, label, labelled) + PAD
    canvas = Canvas(width, height, f"{title_of(game)}: {game.format_position(state)}",
                    size=size, kind="placement")
    # on a wide window the tray goes beside the board, from the board's top
    wide = beside(PAD, width - 2 * PAD, state.supply, label, at=(width + PAD, top + 4),
                  below=below - 8, labelled=labelled)
    canvas.wide(wide.x + wide.width + PAD, max(below - 8, wide.y + wide.height) + PAD)
    header(canvas, game, view, outcome, extra, names)
    top += 4

    def at(c: Cell) -> tuple[float, float]:
        return left + (c[0] - xs[0]) * unit, top + (ys[-1] - c[1]) * unit

    lattice = isinstance(geometry, Lattice)
    board = canvas.group(cls="board")
    for y in ys:
        for x in xs:
            px, py = at((x, y))
            inside = area is None or (area[0] <= x <= area[2] and area[1] <= y <= area[3])
            cls = "cell" + ("" if area is None else " open" if inside else " closed")
            g = canvas.group(board, cls="square", data={"cell": geometry.format_cell((x, y))})
            attrs: dict[str, str | float] = {}
            if lattice:
                attrs = {"stroke_dasharray": "4 3"}
            canvas.rect(px, py, unit, unit, cls=cls, parent=g, **attrs)
            if mark_legal and (x, y) in legal:
                canvas.circle(px + unit / 2, py + unit / 2, unit * 0.09, cls="legal", parent=g)
    if area is not None and (not lattice or state.occupied):
        ax, ay = at((area[0], area[3]))
        w, h = (area[2] - area[0] + 1) * unit, (area[3] - area[1] + 1) * unit
        fixed = area[2] - area[0] + 1 == BOX and area[3] - area[1] + 1 == BOX
        canvas.rect(ax, ay, w, h, cls="area fixed" if fixed else "area")
    coordinates(canvas, left, top, unit, column, row)
    if state.line:
        (x1, y1), (x2, y2) = at(state.line[0]), at(state.line[-1])
        canvas.line(x1 + unit / 2, y1 + unit / 2, x2 + unit / 2, y2 + unit / 2, cls="win",
                    data_line=" ".join(geometry.format_cell(c) for c in state.line))
    draw = pieces(game)
    for cell, kind in state.board:
        px, py = at(cell)
        name = game.pieces.name(kind)
        g = canvas.group(cls="piece", data={"piece": name, "cell": geometry.format_cell(cell)},
                         tip=f"{game.pieces.describe(kind)} on {geometry.format_cell(cell)}")
        draw(canvas, g, px + unit / 2, py + unit / 2, unit, kind)
    if state.line:
        for cell in state.line:
            px, py = at(cell)
            canvas.rect(px + 3, py + 3, unit - 6, unit - 6, cls="win-ring", rx=6)
    last = last_move if isinstance(last_move, Ply) else None
    if last is not None and last.place is not None:
        px, py = at(last.place)
        canvas.rect(px + 1, py + 1, unit - 2, unit - 2, cls="last",
                    data_cell=geometry.format_cell(last.place))
    tray(canvas, PAD, top + len(ys) * unit + COORD_FOOT + 8, width - 2 * PAD,
         hand=state.hand, hand_label=label, supply=state.supply, names=game.pieces.name,
         describe=game.pieces.describe, draw_piece=draw,
         hand_given=last is not None and last.give is not None, labelled=labelled,
         wide=wide)
    return canvas.to_string()


def _legend(game: PlacementGame, area: tuple[int, int, int, int] | None,
            mark_legal: bool) -> str:
    parts = []
    if area is not None:
        parts.append("Green: where the 4x4 area may still lie.")
    if mark_legal:
        parts.append("Dots: where the piece in hand may go.")
    return " ".join(parts)


@dataclass(frozen=True)
class PlacementDrawer:
    """The ``Drawer`` of a placement game whose pieces ``pieces(game)`` draws, with
    a label ``labelled`` units tall under each (Quarto's code; 0: none)."""

    pieces: PiecesOf = plain_pieces
    labelled: float = 0.0

    def __call__(self, game: Game[Any, Any], view: View, *, last_move: Any | None,
                 outcome: Outcome | None, size: int | None, names: SeatNames = None) -> str:
        return draw_placement(game, view, last_move=last_move, outcome=outcome, size=size,
                              pieces=self.pieces, names=names, labelled=self.labelled)


#: the drawer of a placement game whose pieces have no look of their own
DRAWER = PlacementDrawer()
