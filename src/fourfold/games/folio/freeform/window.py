"""The square of the table a drawing of Folio freeform shows (text and SVG alike):
around the pieces placed and the grids drawn, never beyond the table's edge."""

from __future__ import annotations

import math
from collections.abc import Iterable

from fourfold.games.folio.freeform import fitting
from fourfold.games.folio.freeform.game import FreeformGame
from fourfold.games.folio.freeform.state import FreeformState

MIN_SPAN = 6.0  # the smallest window, in table units


def window(
    game: FreeformGame, state: FreeformState, grids: Iterable[fitting.Grid] = ()
) -> tuple[float, float, float]:
    """``(x0, y0, span)``: the square of the table shown, around the pieces (and grids)."""
    points = state.points or [(0.0, 0.0)]
    for grid in grids:
        points.extend(grid.corners())
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    span = max(MIN_SPAN, max(xs) - min(xs) + 2, max(ys) - min(ys) + 2)
    span = min(math.ceil(span), game.table.side)
    cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
    half = game.table.side / 2
    x0 = min(max(cx - span / 2, -half), half - span)
    y0 = min(max(cy - span / 2, -half), half - span)
    return x0, y0, span
