"""SVG of Folio freeform: pieces on the table at their real coordinates, with grids.

The window is a square of the table around the pieces (and the grids drawn), with
unit ticks; the axes through the first piece are dashed. While more than one
notional 4x4 grid fits the pieces, up to ``MAX_CANDIDATES`` of them are drawn
dashed (the grid is undecided); when exactly one fits it is drawn solid; once no
grid fits, the piece whose placement broke the grid gets a red ring and the grid
that fitted the pieces before it is shown. A won game shows the winning grid and
its line. The window rectangle carries ``data-world="x0 y0 span"`` and
``data-px="left top side"`` so a page can turn a click into table coordinates.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

from fourfold.core.game import Game, View
from fourfold.core.outcome import Outcome, Result
from fourfold.games.folio.freeform import fitting
from fourfold.games.folio.freeform.game import FreeformGame
from fourfold.games.folio.freeform.notation import format_number, format_point
from fourfold.games.folio.freeform.state import FreeformPly, FreeformState
from fourfold.games.folio.freeform.window import window
from fourfold.games.folio.svg import folio_piece
from fourfold.render.svg.canvas import Canvas, fmt
from fourfold.render.svg.common import (
    PAD,
    WIDTH,
    SeatNames,
    header,
    header_height,
    seat_name,
    title_of,
)
from fourfold.render.svg.tray import beside, tray, tray_height

#: room on the left of the plot for the y ticks ("-20.0"), and on its right
TICKS_LEFT = 40.0
RIGHT = 14.0
PLOT = WIDTH - TICKS_LEFT - RIGHT  # side of the plotted window, in units
#: the band under the plot that holds the x ticks, and the gap above the plot (room
#: for half of the top y tick)
TICKS_FOOT = 24.0
ABOVE = 8.0
#: the closest two tick labels may be, in units
TICK_PITCH = 44.0
MAX_CANDIDATES = 4


def _grids(game: FreeformGame, state: FreeformState) -> tuple[list[fitting.Grid], str, str,
                                                               tuple[int, ...], int | None]:
    """The grids to draw, their class, a note, the winning line (piece indices) and the
    piece that broke the grid (an index), from the state alone."""
    points = state.points
    ended = state.ended
    if ended is not None and ended.result is Result.WIN and state.hand is None and points:
        x, y, kind = state.pieces[-1]
        before = FreeformState(state.pieces[:-1], kind, state.supply, state.broken)
        won = game.winning_grid(before, (x, y))
        if won is not None:
            grid, line, _ = won
            order = sorted(line, key=lambda i: (grid.cells[i][1], grid.cells[i][0]))
            return [grid], "grid-fit", "The winning grid and its line.", tuple(order), None
    if state.broken is not None:
        k = state.broken
        before_grid = fitting.fit(points[: k - 1], game.tolerance, game.table)
        note = (f"No 4x4 grid fits since placement {k} (red ring);"
                f" {'the dashed grid fitted the pieces before it' if before_grid else ''}")
        return ([before_grid] if before_grid else []), "grid-candidate", note.rstrip("; "), \
            (), k - 1
    if not points:
        return [], "", "", (), None
    found = list(itertools.islice(fitting.grids(points, game.tolerance, game.table),
                                  MAX_CANDIDATES + 1))
    if len(found) == 1:
        columns = {column for column, _ in found[0].cells}
        rows = {row for _, row in found[0].cells}
        if len(columns) == 4 and len(rows) == 4:  # the pieces span it: it cannot shift
            return found, "grid-fit", "One 4x4 grid fits: the grid is decided.", (), None
        return found, "grid-candidate", ("One arrangement of the pieces fits, but the grid"
                                          " can still shift: the dashed grid is one of"
                                          " them."), (), None
    shown = found[:MAX_CANDIDATES]
    more = "+" if len(found) > MAX_CANDIDATES else ""
    return shown, "grid-candidate", (f"Undecided: {len(shown)}{more} candidate 4x4 grids"
                                     " fit (dashed)."), (), None


def draw_freeform(game: Game[Any, Any], view: View, *, last_move: Any | None,
                  outcome: Outcome | None, size: int | None, names: SeatNames = None) -> str:
    assert isinstance(game, FreeformGame)
    state = view.observation
    assert isinstance(state, FreeformState)
    grids, grid_cls, note, line, broken = _grids(game, state)
    x0, y0, span = window(game, state, grids)
    width = WIDTH
    last = last_move if isinstance(last_move, FreeformPly) else None
    if last is not None and last.challenge:
        note = f"Last move: challenge. {note}".strip()
    top = header_height(game, view, outcome, width, note, names) + ABOVE
    mover = game.to_move(state)
    label = "In hand" if mover is None else f"In hand ({seat_name(game, mover, names)})"
    below = top + PLOT + TICKS_FOOT + 4
    height = below + tray_height(PAD, width - 2 * PAD, state.supply, label) + PAD
    canvas = Canvas(width, height, f"{title_of(game)}: {game.format_position(state)}",
                    size=size, kind="freeform")
    # on a wide window the tray goes beside the table, from the table's top
    wide = beside(PAD, width - 2 * PAD, state.supply, label, at=(width + PAD, top),
                  below=below)
    canvas.wide(wide.x + wide.width + PAD, max(below, wide.y + wide.height) + PAD)
    header(canvas, game, view, outcome, note, names)
    left = TICKS_LEFT
    scale = PLOT / span

    def at(x: float, y: float) -> tuple[float, float]:
        return left + (x - x0) * scale, top + (y0 + span - y) * scale

    canvas.rect(left, top, PLOT, PLOT, cls="cell closed",
                data_world=f"{fmt(x0)} {fmt(y0)} {fmt(span)}",
                data_px=f"{fmt(left)} {fmt(top)} {fmt(PLOT)}")
    half = game.table.side / 2
    tx0, ty0 = max(x0, -half), max(y0, -half)
    tx1, ty1 = min(x0 + span, half), min(y0 + span, half)
    (ax, ay), (bx, by) = at(tx0, ty1), at(tx1, ty0)
    canvas.rect(ax, ay, bx - ax, by - ay, cls="table")
    if x0 <= 0 <= x0 + span:
        canvas.line(*at(0, y0), *at(0, y0 + span), cls="axis")
    if y0 <= 0 <= y0 + span:
        canvas.line(*at(x0, 0), *at(x0 + span, 0), cls="axis")
    step = next(s for s in (1.0, 2.0, 5.0, 10.0, 20.0) if s * scale >= TICK_PITCH)
    value = math.ceil(x0 / step) * step
    while value <= x0 + span + 1e-9:
        px, _ = at(value, y0)
        canvas.text(px, top + PLOT + 20, format_number(value), cls="tick")
        value += step
    value = math.ceil(y0 / step) * step
    while value <= y0 + span + 1e-9:
        _, py = at(x0, value)
        canvas.text(left - 5, py + 4, format_number(value), cls="tick", style="text-anchor:end")
        value += step
    for i, grid in enumerate(grids):
        g = canvas.group(cls=f"grid {grid_cls}", data={"grid": str(i + 1)},
                         tip=f"grid: {grid.describe()}")
        outline = [at(*grid.point(u, v)) for u, v in ((0, 0), (4, 0), (4, 4), (0, 4))]
        canvas.polyline(outline, closed=True, cls=grid_cls, parent=g)
        for k in (1, 2, 3):
            inner = "grid-fit inner" if grid_cls == "grid-fit" else grid_cls
            canvas.line(*at(*grid.point(k, 0)), *at(*grid.point(k, 4)), cls=inner, parent=g)
            canvas.line(*at(*grid.point(0, k)), *at(*grid.point(4, k)), cls=inner, parent=g)
    if line:
        (x1, y1), (x2, y2) = at(*state.points[line[0]]), at(*state.points[line[-1]])
        canvas.line(x1, y1, x2, y2, cls="win", stroke_width=scale * 0.3,
                    data_line=" ".join(format_point(state.points[i]) for i in line))
    for i, (x, y, kind) in enumerate(state.pieces):
        px, py = at(x, y)
        name = game.pieces.name(kind)
        g = canvas.group(cls="piece", data={"piece": name, "cell": format_point((x, y)),
                                            "order": str(i + 1)},
                         tip=f"{i + 1}. {game.pieces.describe(kind)} at {format_point((x, y))}")
        folio_piece(canvas, g, px, py, scale, kind)
    for i in line:
        px, py = at(*state.points[i])
        canvas.circle(px, py, scale * 0.55, cls="win-ring")
    if broken is not None and broken < len(state.pieces):
        px, py = at(*state.points[broken])
        canvas.circle(px, py, scale * 0.58, cls="grid-broken")
    if last is not None and last.place is not None:
        px, py = at(*last.place)
        canvas.rect(px - scale * 0.55, py - scale * 0.55, scale * 1.1, scale * 1.1, cls="last",
                    data_cell=format_point(last.place))
    tray(canvas, PAD, top + PLOT + TICKS_FOOT + 4, width - 2 * PAD, hand=state.hand,
         hand_label=label, supply=state.supply, names=game.pieces.name,
         describe=game.pieces.describe, draw_piece=folio_piece,
         hand_given=last is not None and last.give is not None, wide=wide)
    return canvas.to_string()


#: the drawer part of the game's bundle (``core.extensions``)
DRAWER = draw_freeform
