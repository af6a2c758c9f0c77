"""State and move values of the placement games (Folio grids and Quarto)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from fourfold.core.display import Displayable
from fourfold.games.placement.geometry import Cell


@dataclass(frozen=True)
class Ply:
    """One ply: place the piece in hand on ``place``, then give kind ``give``.

    The first ply of a game only gives (``place is None``); a ply that ends the
    game (a win, or the last piece) only places (``give is None``).
    """

    place: Cell | None
    give: int | None


@dataclass(frozen=True, repr=False)
class PlacementState(Displayable):
    """An immutable position.

    ``board`` holds ``(cell, kind)`` pairs sorted by cell; ``hand`` is the kind
    the player to move must place (``None`` only at the start, before the first
    give, and once the game is over); ``supply`` counts the copies of each kind
    neither placed nor in hand; ``line`` is the winning line once there is one.
    """

    board: tuple[tuple[Cell, int], ...]
    hand: int | None
    supply: tuple[int, ...]
    line: tuple[Cell, ...] | None = None
    line_reason: str | None = None

    @cached_property
    def pieces(self) -> dict[Cell, int]:
        """The board as a mapping from cell to kind."""
        return dict(self.board)

    @cached_property
    def occupied(self) -> frozenset[Cell]:
        return frozenset(c for c, _ in self.board)

    @property
    def placed(self) -> int:
        return len(self.board)
