"""Freeform Folio positions for the rules and bot tests: points on a turned, scaled
grid, a position string from points and pieces, and a row of four that does not win."""

from __future__ import annotations

import math

from fourfold.games.folio.freeform.fitting import Grid
from fourfold.games.folio.freeform.notation import format_point


def on_grid(angle_degrees: float, scale: float, cells: list[tuple[int, int]]) -> list[str]:
    """Cell centres of a turned, scaled grid whose first cell's centre is at 0,0."""
    angle = math.radians(angle_degrees)
    base = Grid((0.0, 0.0), angle, scale, ())
    x0, y0 = base.centre(cells[0])
    grid = Grid((-x0, -y0), angle, scale, ())
    return [format_point((round(x, 6), round(y, 6))) for x, y in map(grid.centre, cells)]


def position(points: list[str], kinds: list[str], hand: str) -> str:
    return ";".join(f"{p}={k}" for p, k in zip(points, kinds, strict=True)) + f" {hand}"

# four in a row that do not win (two colours, two sizes); a fifth in the row breaks the grid
ROW = "0.0,0.0=Rs;1.0,0.0=Rs;2.0,0.0=Ym;3.0,0.0=Ym Yl"
