"""Where pieces may go in the placement games (Folio's grids and Quarto).

A ``Cell`` is an ``(x, y)`` pair of integers: on boards ``a1`` is ``(0, 0)``;
in Folio no-grid, cells are lattice points relative to the first piece.
Each geometry says which cells a piece may go on, explains why a cell is
refused, reads and writes cell names, and numbers cells for dense actions.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Iterable

Cell = tuple[int, int]

BOX = 4  # every Folio position fits in a 4x4 box
_BOARD_CELL = re.compile(r"^([a-z])([1-9][0-9]?)$")
_LATTICE_CELL = re.compile(r"^(-?[0-9]+),(-?[0-9]+)$")


def span_after(occupied: Iterable[Cell], cell: Cell) -> tuple[int, int]:
    """Width and height of the bounding box of ``occupied`` plus ``cell``."""
    xs = [cell[0]] + [c[0] for c in occupied]
    ys = [cell[1]] + [c[1] for c in occupied]
    return max(xs) - min(xs) + 1, max(ys) - min(ys) + 1


class Geometry(ABC):
    """The placement rule and cell notation of one board shape."""

    #: cells are numbered ``0 .. num_cells - 1`` for action encoding
    num_cells: int

    @abstractmethod
    def index(self, cell: Cell) -> int:
        """The number of a cell; ``ValueError`` for a cell no legal move can use."""

    @abstractmethod
    def cell(self, index: int) -> Cell: ...

    @abstractmethod
    def placeable(self, occupied: frozenset[Cell]) -> list[Cell]:
        """Every cell the next piece may go on, in index order."""

    @abstractmethod
    def why_not(self, cell: Cell, occupied: frozenset[Cell]) -> str | None:
        """Why the next piece may not go on ``cell``, or ``None`` if it may."""

    @abstractmethod
    def parse_cell(self, text: str) -> Cell:
        """Read a cell name; ``ValueError`` with the reason on bad text."""

    @abstractmethod
    def format_cell(self, cell: Cell) -> str: ...

    @abstractmethod
    def why_unreachable(self, cells: frozenset[Cell]) -> str | None:
        """Why no game could have put pieces on exactly these cells, or ``None``."""

    def can_hold(self, cell: Cell) -> bool:
        """Whether any game could ever put a piece on ``cell``."""
        return True

    @property
    @abstractmethod
    def cell_hint(self) -> str:
        """How cells are written, for error messages (``a1..h8``)."""


class Board(Geometry):
    """A rectangular board. ``first`` restricts the first piece; ``box`` bounds all pieces."""

    def __init__(
        self, width: int, height: int, first: tuple[Cell, ...] | None = None, box: int | None = None
    ) -> None:
        self.width = width
        self.height = height
        self.first = first
        self.box = box
        self.num_cells = width * height

    def on_board(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.width and 0 <= cell[1] < self.height

    def can_hold(self, cell: Cell) -> bool:
        return self.on_board(cell)

    def index(self, cell: Cell) -> int:
        if not self.on_board(cell):
            raise ValueError(f"{cell} is off the board")
        return cell[1] * self.width + cell[0]

    def cell(self, index: int) -> Cell:
        return index % self.width, index // self.width

    @property
    def cell_hint(self) -> str:
        return f"a1..{self.format_cell((self.width - 1, self.height - 1))}"

    def format_cell(self, cell: Cell) -> str:
        return f"{chr(ord('a') + cell[0])}{cell[1] + 1}"

    def parse_cell(self, text: str) -> Cell:
        m = _BOARD_CELL.match(text.strip().lower())
        if not m:
            raise ValueError(f"a square is a file letter and a rank number ({self.cell_hint})")
        cell = (ord(m.group(1)) - ord("a"), int(m.group(2)) - 1)
        if not self.on_board(cell):
            raise ValueError(f"{text.strip()} is not on the board ({self.cell_hint})")
        return cell

    def placeable(self, occupied: frozenset[Cell]) -> list[Cell]:
        if not occupied and self.first is not None:
            return sorted(self.first, key=self.index)
        cells = []
        if self.box is not None and occupied:
            xs = [c[0] for c in occupied]
            ys = [c[1] for c in occupied]
            x0, x1 = max(max(xs) - self.box + 1, 0), min(min(xs) + self.box - 1, self.width - 1)
            y0, y1 = max(max(ys) - self.box + 1, 0), min(min(ys) + self.box - 1, self.height - 1)
        else:
            x0, x1, y0, y1 = 0, self.width - 1, 0, self.height - 1
        for y in range(y0, y1 + 1):
            for x in range(x0, x1 + 1):
                if (x, y) not in occupied:
                    cells.append((x, y))
        return cells

    def why_not(self, cell: Cell, occupied: frozenset[Cell]) -> str | None:
        name = self.format_cell(cell)
        if not self.on_board(cell):
            return f"{name} is not on the board ({self.cell_hint})"
        if cell in occupied:
            return f"{name} is already occupied"
        if not occupied and self.first is not None and cell not in self.first:
            squares = ", ".join(self.format_cell(c) for c in sorted(self.first, key=self.index))
            return f"the first piece must go on one of the central squares {squares}"
        if self.box is not None:
            far = [c for c in occupied if max(abs(c[0] - cell[0]), abs(c[1] - cell[1])) >= self.box]
            if far:
                c = min(far, key=self.index)
                d = max(abs(c[0] - cell[0]), abs(c[1] - cell[1]))
                return (
                    f"{name} is {d} squares from the piece on {self.format_cell(c)}; every piece"
                    f" must be within {self.box - 1} squares of all pieces already placed"
                )
        return None

    def why_unreachable(self, cells: frozenset[Cell]) -> str | None:
        for c in sorted(cells, key=lambda c: (c[1], c[0])):
            if not self.on_board(c):
                return f"{c} is not on the board"
        if cells and self.first is not None and not cells & set(self.first):
            return "no piece stands on a central square, where the first piece must go"
        if cells and self.box is not None:
            w, h = span_after(cells, next(iter(cells)))
            if w > self.box or h > self.box:
                return f"the pieces span {w}x{h} squares; they must fit in {self.box}x{self.box}"
        return None


class Lattice(Geometry):
    """Folio no-grid: an unbounded lattice; the first piece at ``0,0``, each later one
    8-adjacent to a placed piece, all within a 4x4 box. Only cells within 3 of the
    origin can ever be used, so those 7x7 are numbered for actions."""

    RADIUS = BOX - 1

    def __init__(self) -> None:
        self.side = 2 * self.RADIUS + 1
        self.num_cells = self.side * self.side

    @property
    def cell_hint(self) -> str:
        return "x,y integers relative to the first piece at 0,0, e.g. -1,2"

    def index(self, cell: Cell) -> int:
        r = self.RADIUS
        if not (-r <= cell[0] <= r and -r <= cell[1] <= r):
            raise ValueError(f"{self.format_cell(cell)} is more than {r} from the first piece")
        return (cell[1] + r) * self.side + (cell[0] + r)

    def cell(self, index: int) -> Cell:
        return index % self.side - self.RADIUS, index // self.side - self.RADIUS

    def can_hold(self, cell: Cell) -> bool:
        return abs(cell[0]) <= self.RADIUS and abs(cell[1]) <= self.RADIUS

    def format_cell(self, cell: Cell) -> str:
        return f"{cell[0]},{cell[1]}"

    def parse_cell(self, text: str) -> Cell:
        m = _LATTICE_CELL.match(text.strip().replace(" ", ""))
        if not m:
            raise ValueError(f"a cell is written {self.cell_hint}")
        x, y = int(m.group(1)), int(m.group(2))
        if abs(x) > 10**6 or abs(y) > 10**6:
            raise ValueError("coordinates that large can never be reached")
        return x, y

    def placeable(self, occupied: frozenset[Cell]) -> list[Cell]:
        if not occupied:
            return [(0, 0)]
        found = {
            (x + dx, y + dy)
            for x, y in occupied
            for dx in (-1, 0, 1)
            for dy in (-1, 0, 1)
        }
        cells = [c for c in found - occupied if max(span_after(occupied, c)) <= BOX]
        return sorted(cells, key=self.index)

    def why_not(self, cell: Cell, occupied: frozenset[Cell]) -> str | None:
        name = self.format_cell(cell)
        if not occupied:
            return None if cell == (0, 0) else "the first piece goes at the origin 0,0"
        if cell in occupied:
            return f"{name} is already occupied"
        if not any(max(abs(c[0] - cell[0]), abs(c[1] - cell[1])) == 1 for c in occupied):
            return f"{name} does not touch any placed piece (diagonal contact counts)"
        w, h = span_after(occupied, cell)
        if w > BOX or h > BOX:
            return f"with a piece on {name} the pieces would span {w}x{h}; they must fit in 4x4"
        return None

    def why_unreachable(self, cells: frozenset[Cell]) -> str | None:
        if not cells:
            return None
        if (0, 0) not in cells:
            return "no piece stands at 0,0, where the first piece goes"
        w, h = span_after(cells, (0, 0))
        if w > BOX or h > BOX:
            return f"the pieces span {w}x{h}; they must fit in 4x4"
        seen = {(0, 0)}
        todo = [(0, 0)]
        while todo:
            x, y = todo.pop()
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    n = (x + dx, y + dy)
                    if n in cells and n not in seen:
                        seen.add(n)
                        todo.append(n)
        if seen != cells:
            apart = min(cells - seen, key=self.index)
            return f"the piece at {self.format_cell(apart)} is not connected to the others"
        return None
