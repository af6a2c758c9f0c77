"""State and move values of Folio freeform (RULES.md §1, "Freeform No Grid")."""

from __future__ import annotations

from dataclasses import dataclass

from fourfold.core.display import Displayable
from fourfold.core.outcome import Outcome

Point = tuple[float, float]


@dataclass(frozen=True)
class FreeformPly:
    """One ply: place the piece in hand at ``place`` and give kind ``give``, or challenge.

    The first ply only gives (``place is None``); a placement that ends the game
    (a win, or the last piece) only places (``give is None``); a challenge has
    neither.
    """

    place: Point | None
    give: int | None
    challenge: bool = False


CHALLENGE = FreeformPly(None, None, True)


@dataclass(frozen=True, repr=False)
class FreeformState(Displayable):
    """An immutable position.

    ``pieces`` holds ``(x, y, kind)`` in the order they were placed (the order
    decides who broke the grid first). ``hand`` is the kind the player to move
    must place (``None`` at the start, before the first give, and once the
    game is over by a line or the last piece; after a challenge the piece stays
    in hand). ``supply`` counts the copies of each kind neither placed nor in
    hand. ``broken`` is the number of pieces on the table when no grid first
    fitted them (``None`` while one fits). ``ended`` is the outcome of a
    winning line or a challenge; a draw by the last piece is not stored.
    """

    pieces: tuple[tuple[float, float, int], ...]
    hand: int | None
    supply: tuple[int, ...]
    broken: int | None = None
    ended: Outcome | None = None

    @property
    def placed(self) -> int:
        return len(self.pieces)

    @property
    def points(self) -> list[Point]:
        return [(x, y) for x, y, _ in self.pieces]
