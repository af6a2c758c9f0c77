"""The immutable Ice Dao state.

Equality and hashing use the position only (board and side to move), as
python-chess's ``Board`` does: a position string round-trips to an equal
state. The history that decides repetition and the length cap (``history``,
``plies``) is carried along but not compared.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from fourfold.core.display import Displayable
from fourfold.games.icedao.pieces import STACK_CODE, Stack, colour
from fourfold.games.sliding.geometry import Square


@dataclass(frozen=True, repr=False)
class IceDaoState(Displayable):
    """An Ice Dao position and the history needed to judge repetition.

    ``board`` holds the 25 stacks (bottom to top) by square number, a1 = 0, b1 = 1,
    ..., e5 = 24; ``to_play`` is the side to move (0 Blue, 1 Green), written in the
    position string even once the game is over. ``line`` is the line of four that
    the side that just moved completed, if any. ``history`` holds the keys of every
    earlier position since the start (or set-up), oldest first; ``plies`` counts the
    plies played since then. ``arrival`` is the square where the last slide stopped
    (``None`` at the start and after a pass), so that a display can mark the move: the
    position after a slide does not show which piece moved.
    """

    board: tuple[Stack, ...]
    to_play: int
    line: tuple[Square, ...] | None = None
    plies: int = field(default=0, compare=False)
    history: tuple[str, ...] = field(default=(), compare=False)
    arrival: Square | None = field(default=None, compare=False)

    @cached_property
    def key(self) -> str:
        """A short string naming the position and side to move, for repetition counts."""
        return "".join(STACK_CODE[s] for s in self.board) + str(self.to_play)

    @cached_property
    def repetitions(self) -> int:
        """How many times this position, with this side to move, has occurred (1 = first)."""
        return 1 + self.history.count(self.key)

    @cached_property
    def stuck(self) -> bool:
        """True when the side to move has no piece on top of a stack (so no move at all)."""
        return not any(s and colour(s[-1]) == self.to_play for s in self.board)
