"""``fourfold fit "x,y x,y ..." [--tolerance T] [--table SIDE]``: does a notional grid fit?

Folio freeform's own sub-command (the ``commands`` part of its bundle; RULES.md §1):
prints ``fits`` and one grid that fits the points (origin, angle in degrees, scale, and
each point's cell), exit status 0; or ``no fit``, exit status 1. Bad input is refused
with exit status 2.
"""

from __future__ import annotations

import argparse
from typing import Any

from fourfold.core.errors import ConfigurationError, NotationError
from fourfold.games.folio.freeform import fitting
from fourfold.games.folio.freeform.notation import format_point, parse_point

EXIT_NO_FIT = 1


def register(sub: Any) -> None:
    p = sub.add_parser(
        "fit", help="does a 4x4 notional grid fit these points? (Folio freeform)"
    )
    p.add_argument(
        "points", metavar="POINTS",
        help='points "x,y x,y ..." separated by spaces or semicolons, e.g. "0,0 1.1,0.05"',
    )
    p.add_argument(
        "--tolerance", "-t", type=float, default=fitting.TOLERANCE,
        help=f"how far a point may be from its cell centre, in cells (default {fitting.TOLERANCE})",
    )
    p.add_argument(
        "--table", type=float, default=fitting.TABLE_SIDE,
        help="side of the square table centred on the first point"
        f" (default {fitting.TABLE_SIDE:g})",
    )
    p.set_defaults(run=run)


def parse_points(text: str) -> list[fitting.Point]:
    items = text.replace(";", " ").split()
    if not items:
        raise NotationError("points", text, 'no points; write them like "0,0 1.1,0.05"')
    if len(items) > fitting.SIZE * fitting.SIZE:
        raise NotationError("points", text, f"{len(items)} points; a 4x4 grid holds 16 at most")
    points = []
    for item in items:
        try:
            points.append(parse_point(item))
        except ValueError as exc:
            raise NotationError("points", text, str(exc), text.find(item)) from None
    return points


def run(args: argparse.Namespace) -> int:
    points = parse_points(args.points)
    try:
        tolerance = fitting.check_tolerance(args.tolerance)
    except ValueError as exc:
        raise ConfigurationError(f"--tolerance {args.tolerance}: {exc}") from None
    if not 4 <= args.table <= 1000:
        raise ConfigurationError(f"--table {args.table}: the side must be between 4 and 1000")
    table = fitting.Table(points[0], args.table)
    grid = fitting.fit(points, tolerance, table)
    if grid is None:
        print("no fit")
        return EXIT_NO_FIT
    print("fits")
    print(f"origin: {fitting.fmt(grid.origin[0])},{fitting.fmt(grid.origin[1])}")
    print(f"angle: {grid.degrees:.4f} degrees")
    print(f"scale: {grid.scale:.6f}")
    print("cells:")
    for point, cell in zip(points, grid.cells, strict=True):
        print(f"  {format_point(point)} {fitting.cell_name(cell)}")
    return 0


#: the sub-commands this game adds to ``fourfold`` (its bundle's ``commands`` part)
COMMANDS = (register,)
