"""The board of a placement game (Folio grids, Quarto) as lines of styled text.

Every cell shows a piece's letters (``Gs``, ``TDRH``) or a mark: ``+`` where
the piece in hand may go when the rules restrict it (Folio standard and
no-grid), ``·`` for any other empty cell. The last placed piece is written
``[Gs]`` and the rest of a winning line ``*Gs*``, so nothing depends on
colour. Boards carry file letters and rank numbers on all four edges; the
no-grid lattice carries x and y coordinates and shows the occupied area plus a
margin of one cell.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from dataclasses import dataclass

from rich.text import Text

from fourfold.games.placement.game import PlacementGame
from fourfold.games.placement.geometry import Board, Cell, Lattice
from fourfold.games.placement.state import PlacementState, Ply
from fourfold.render import marks as board_marks
from fourfold.render.presenter import WIDTH

PLACEABLE = "+"
PLACEABLE_STYLE = "green"


@dataclass(frozen=True)
class Area:
    """The cells drawn, with the labels of their columns and rows."""

    xs: tuple[int, ...]
    ys: tuple[int, ...]  # top row first
    column_label: Callable[[int], str]
    row_label: Callable[[int], str]


#: ``kind -> style``: how a game's pieces look on a terminal (a ``rich`` style); the
#: letters always say what the piece is, the style only adds colour
PieceStyle = Callable[[int], str]


def plain_style(kind: int) -> str:
    """Every piece alike, in bold: for a placement game that gives its pieces no colours."""
    return "bold"


def area_of(game: PlacementGame, state: PlacementState) -> Area:
    """The whole board, or for the lattice the occupied box plus a margin of one."""
    geometry = game.geometry
    if isinstance(geometry, Board):
        return Area(
            tuple(range(geometry.width)),
            tuple(reversed(range(geometry.height))),
            lambda x: chr(ord("a") + x),
            lambda y: str(y + 1),
        )
    if isinstance(geometry, Lattice):
        cells = state.occupied or frozenset({(0, 0)})
        xs = [c[0] for c in cells]
        ys = [c[1] for c in cells]
        return Area(
            tuple(range(min(xs) - 1, max(xs) + 2)),
            tuple(range(max(ys) + 1, min(ys) - 2, -1)),
            str,
            str,
        )
    raise TypeError(f"no drawing for the geometry {type(geometry).__name__}")


def marked_cells(game: PlacementGame, state: PlacementState, area: Area) -> frozenset[Cell]:
    """Cells to mark ``+``: where the next piece may go, unless that is every empty square
    of a board (fixed-grid, Quarto). The unbounded lattice is always marked."""
    if game.outcome(state) is not None:
        return frozenset()
    placeable = frozenset(game.geometry.placeable(state.occupied))
    empty = {(x, y) for x in area.xs for y in area.ys} - state.occupied
    if isinstance(game.geometry, Board) and placeable >= empty:
        return frozenset()
    return placeable


def board_lines(
    game: PlacementGame, state: PlacementState, last_move: Ply | None,
    piece_style: PieceStyle = plain_style,
) -> list[Text]:
    """The board with labels on every edge, top row first, pieces in ``piece_style``."""
    area = area_of(game, state)
    width = len(game.pieces.name(0))
    marks = marked_cells(game, state, area)
    last = last_move.place if last_move is not None else None
    line = set(state.line or ())
    label_width = max(len(area.row_label(y)) for y in area.ys)

    def edge() -> Text:
        text = Text(" " * (label_width + 1))
        for x in area.xs:
            text.append(" " + area.column_label(x).center(width) + " ", board_marks.LABEL_STYLE)
        text.rstrip()
        return text

    def cell(c: Cell) -> Text:
        kind = state.pieces.get(c)
        if kind is None:
            mark = PLACEABLE if c in marks else board_marks.EMPTY
            style = PLACEABLE_STYLE if c in marks else board_marks.EMPTY_STYLE
            return Text(" " + mark.center(width) + " ", style)
        left, right = (board_marks.LAST if c == last else board_marks.LINE if c in line
                       else board_marks.PLAIN)
        style = piece_style(kind)
        if c == last:
            style += " " + board_marks.LAST_STYLE
        elif c in line:
            style += " " + board_marks.LINE_STYLE
        return Text.assemble(left, (game.pieces.name(kind), style), right)

    lines = [edge()]
    for y in area.ys:
        label = area.row_label(y)
        row = Text(label.rjust(label_width) + " ", board_marks.LABEL_STYLE)
        for x in area.xs:
            row.append_text(cell((x, y)))
        row.append(" " + label, board_marks.LABEL_STYLE)
        lines.append(row)
    lines.append(edge())
    return lines


def legend(game: PlacementGame, state: PlacementState, last_move: Ply | None) -> list[str]:
    """What the marks on this board mean (only the marks that appear), wrapped."""
    parts = []
    if last_move is not None and last_move.place is not None:
        name = game.pieces.name(state.pieces[last_move.place])
        parts.append(f"{board_marks.LAST[0]}{name}{board_marks.LAST[1]} last placed")
    if state.line:
        shown = [c for c in state.line if last_move is None or c != last_move.place]
        name = game.pieces.name(state.pieces[shown[0]])
        parts.append(f"{board_marks.LINE[0]}{name}{board_marks.LINE[1]} winning line")
    area = area_of(game, state)
    marks = marked_cells(game, state, area)
    unmarked = {(x, y) for x in area.xs for y in area.ys} - state.occupied - marks
    if marks:
        parts.append(f"{PLACEABLE} the next piece may go here")
    if marks and unmarked:
        parts.append(f"{board_marks.EMPTY} empty, not allowed now")
    elif unmarked:
        parts.append(f"{board_marks.EMPTY} empty")
    lines = textwrap.wrap("   ".join(parts), WIDTH, break_on_hyphens=False)
    if isinstance(game.geometry, Lattice):
        lines.append("Cells are x,y: x grows to the right, y upwards; the first piece is at 0,0")
    return lines
