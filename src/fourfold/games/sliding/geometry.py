"""Square boards for the sliding games (Ice Dao 5x5, classic Dao 4x4).

Squares are numbered rank by rank from ``a1 = 0``: on a board of side ``n``
the square on file ``x`` and rank ``y`` (both from 0) is ``y * n + x``. A
piece slides along a *ray*: the squares met, in order, walking from a square
in one of the eight directions until the edge. Rays, names and lines are
computed once per board size.
"""

from __future__ import annotations

from functools import cache

Square = int

#: The eight directions as ``(dx, dy)``, clockwise from north; a direction is its index.
DIRECTIONS: tuple[tuple[int, int], ...] = (
    (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1),
)
DIRECTION_NAMES = (
    "north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west",
)
NUM_DIRECTIONS = len(DIRECTIONS)


def _sign(v: int) -> int:
    return (v > 0) - (v < 0)


class SquareBoard:
    """An ``n`` x ``n`` board: square names, rays in the 8 directions, lines of squares."""

    def __init__(self, size: int) -> None:
        if not 2 <= size <= 9:
            raise ValueError("a board side must be 2..9 (one letter and one digit per square)")
        self.size = size
        self.num_squares = size * size
        self.files = "abcdefghi"[:size]
        self.rays: tuple[tuple[tuple[Square, ...], ...], ...] = tuple(
            tuple(self._ray(sq, d) for d in range(NUM_DIRECTIONS))
            for sq in range(self.num_squares)
        )
        self.names = tuple(self._name(sq) for sq in range(self.num_squares))

    # -- coordinates and names ----------------------------------------------------------
    def square(self, x: int, y: int) -> Square:
        return y * self.size + x

    def coords(self, square: Square) -> tuple[int, int]:
        return square % self.size, square // self.size

    def on_board(self, x: int, y: int) -> bool:
        return 0 <= x < self.size and 0 <= y < self.size

    def _name(self, square: Square) -> str:
        x, y = self.coords(square)
        return f"{self.files[x]}{y + 1}"

    def name(self, square: Square) -> str:
        return self.names[square]

    @property
    def hint(self) -> str:
        return f"squares are a1 to {self.files[-1]}{self.size} (files a-{self.files[-1]}, " \
               f"ranks 1-{self.size})"

    def parse_square(self, text: str) -> Square:
        """``c4`` -> its number; ``ValueError`` saying why for anything else."""
        t = text.strip().lower()
        if len(t) != 2 or not t[0].isascii() or not t[1].isascii() or not t[0].isalpha() \
                or not t[1].isdigit():
            raise ValueError(f"{text!r} is not a square; {self.hint}")
        x, y = ord(t[0]) - ord("a"), int(t[1]) - 1
        if not self.on_board(x, y):
            raise ValueError(f"{t} is off the board; {self.hint}")
        return self.square(x, y)

    # -- rays, directions and lines -------------------------------------------------------
    def _ray(self, square: Square, direction: int) -> tuple[Square, ...]:
        dx, dy = DIRECTIONS[direction]
        x, y = self.coords(square)
        ray = []
        x, y = x + dx, y + dy
        while self.on_board(x, y):
            ray.append(self.square(x, y))
            x, y = x + dx, y + dy
        return tuple(ray)

    def direction_between(self, origin: Square, target: Square) -> int | None:
        """The direction from ``origin`` that reaches ``target``, or ``None`` if none does."""
        ox, oy = self.coords(origin)
        tx, ty = self.coords(target)
        dx, dy = tx - ox, ty - oy
        if (dx, dy) == (0, 0) or (dx and dy and abs(dx) != abs(dy)):
            return None
        return DIRECTIONS.index((_sign(dx), _sign(dy)))

    def lines(self, length: int, diagonals: bool = True) -> tuple[tuple[Square, ...], ...]:
        """Every run of ``length`` consecutive squares in a row, column (and diagonal)."""
        steps = [(1, 0), (0, 1)] + ([(1, 1), (1, -1)] if diagonals else [])
        found = []
        for dx, dy in steps:
            for sq in range(self.num_squares):
                x, y = self.coords(sq)
                cells = [(x + i * dx, y + i * dy) for i in range(length)]
                if all(self.on_board(cx, cy) for cx, cy in cells):
                    found.append(tuple(self.square(cx, cy) for cx, cy in cells))
        return tuple(found)

    def neighbours(self, square: Square) -> tuple[Square, ...]:
        """The squares one step away in the 8 directions."""
        return tuple(ray[0] for ray in self.rays[square] if ray)

    def corners(self) -> tuple[Square, ...]:
        last = self.size - 1
        return (self.square(0, 0), self.square(last, 0), self.square(0, last),
                self.square(last, last))

    def describe_line(self, line: tuple[Square, ...]) -> str:
        """``a1-d4`` for a line written from its first to its last square."""
        return f"{self.name(line[0])}-{self.name(line[-1])}"


@cache
def board_of_size(size: int) -> SquareBoard:
    """The shared (immutable) board of one size."""
    return SquareBoard(size)
