"""The immutable classic Dao state.

As in Ice Dao, equality and hashing use the position only (board and side to
move); the history that decides repetition and the length cap is carried but
not compared, so a position string round-trips to an equal state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from fourfold.core.display import Displayable
from fourfold.games.sliding.geometry import Square

#: the letter of each side in position strings, by seat (X moves first)
SIDE_LETTERS = "XO"
EMPTY_KEY = "."


@dataclass(frozen=True, repr=False)
class DaoState(Displayable):
    """A Dao position and the history needed to judge repetition.

    ``board`` holds, by square number (a1 = 0, b1 = 1, ..., d4 = 15), the seat whose
    piece stands there or ``None``; ``to_play`` is the side to move (0 X, 1 O), written
    even once the game is over. ``formation`` is the winning formation the side that
    just moved completed (its squares) and ``formation_name`` says which kind;
    ``trapped`` is a corner whose piece is trapped by three opposing pieces.
    ``history`` holds the keys of every earlier position since the start (or
    set-up), oldest first; ``plies`` counts the plies played since then. ``arrival`` is
    the square where the last slide stopped (``None`` at the start), for displays.
    """

    board: tuple[int | None, ...]
    to_play: int
    formation: tuple[Square, ...] | None = None
    formation_name: str | None = None
    trapped: Square | None = None
    plies: int = field(default=0, compare=False)
    history: tuple[str, ...] = field(default=(), compare=False)
    arrival: Square | None = field(default=None, compare=False)

    @cached_property
    def key(self) -> str:
        """A short string naming the position and side to move, for repetition counts."""
        cells = "".join(EMPTY_KEY if p is None else SIDE_LETTERS[p] for p in self.board)
        return cells + SIDE_LETTERS[self.to_play]

    @cached_property
    def repetitions(self) -> int:
        """How many times this position, with this side to move, has occurred (1 = first)."""
        return 1 + self.history.count(self.key)
