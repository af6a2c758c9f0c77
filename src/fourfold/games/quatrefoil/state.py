"""Quatrefoil's values: the deal, the moves, the referee's state and a seat's observation.

The state is the referee's: it holds every card. What a seat may know is an
``Observation``, built only by ``QuatrefoilGame.view``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from fourfold.core.display import Displayable
from fourfold.core.outcome import Outcome
from fourfold.games.quatrefoil.arrangement import (
    FREE,
    Arrangement,
    act,
    format_arrangement,
)


@dataclass(frozen=True)
class Deal:
    """The hidden cards.

    ``solution`` is the correct arrangement (the token that belongs on each corner and
    the free one). ``positions[seat]`` is the corner of that seat's position card. The
    cards follow from these two: a seat's colour card is the token that belongs on its
    position card's corner, and the north card is the solution's free token.
    """

    solution: Arrangement
    positions: tuple[int, int, int, int]

    def colour(self, seat: int) -> int:
        """The token of ``seat``'s colour card."""
        return self.solution[self.positions[seat]]

    @property
    def north(self) -> int:
        return self.solution[FREE]

    def __repr__(self) -> str:  # the arrangement letters are easier to read than numbers
        return f"Deal({format_arrangement(self.solution)}, positions={self.positions})"


@dataclass(frozen=True)
class Action:
    """One of the eleven actions (``arrangement.ACTION_NAMES``).

    In the real-time Dual variant an action also names its ``seat`` and the state
    ``version`` it was chosen on. The version is a stamp, not part of the move's
    identity (it is left out of ``==`` and ``hash``): the same push by the same seat is
    one move, and ``apply`` refuses it if it was chosen on an older version than the
    current one. ``version=None`` means "on the current state" (dense actions decode so).
    """

    action: int
    seat: int | None = None
    version: int | None = field(default=None, compare=False)


Move = Action


@dataclass(frozen=True, repr=False)
class QuatrefoilState(Displayable):
    """The referee's state: the deal, the start and every action so far.

    ``history`` holds ``(seat, action)`` pairs in the order they landed; its length is
    the state's version. Time is not part of the state: a timed game's clock is real
    time, kept by the table, and its running out is an ending declared from outside.
    """

    deal: Deal
    start: Arrangement
    history: tuple[tuple[int, int], ...] = ()

    @cached_property
    def arrangements(self) -> tuple[Arrangement, ...]:
        """The arrangement before the first action and after each one."""
        seq = [self.start]
        for _, action in self.history:
            seq.append(act(seq[-1], action))
        return tuple(seq)

    @property
    def arrangement(self) -> Arrangement:
        return self.arrangements[-1]

    @property
    def version(self) -> int:
        return len(self.history)

    def signals(self, arrangement: Arrangement) -> tuple[bool, bool, bool, bool]:
        """Each seat's signal: is the token of its colour card on its position card's corner?"""
        d = self.deal
        s, p = d.solution, d.positions
        return (
            arrangement[p[0]] == s[p[0]],
            arrangement[p[1]] == s[p[1]],
            arrangement[p[2]] == s[p[2]],
            arrangement[p[3]] == s[p[3]],
        )


@dataclass(frozen=True)
class Observation:
    """Everything one seat (or a spectator, ``seat=None``) may know, and nothing else.

    Card fields hold ``None`` where the card is face down to this viewer. ``solution``
    is set only when the variant shows the whole solution (Nothing to Hide, Dual) or
    the game is over (then every card is face up). ``signals[i]`` are the four seats'
    signals after ``i`` actions (``None`` in Dual, where the face-up solution makes
    signals pointless). ``clock`` is the timer's length in seconds (``None`` in untimed
    games); the time left is the table's, not the rules'. ``to_move`` is ``None`` in
    Dual and once the game is over.
    """

    seat: int | None
    variant: str
    colour_cards: tuple[int | None, int | None, int | None, int | None]
    position_cards: tuple[int | None, int | None, int | None, int | None]
    north: int | None
    solution: Arrangement | None
    start: Arrangement
    arrangement: Arrangement
    history: tuple[tuple[int, int], ...]
    signals: tuple[tuple[bool, bool, bool, bool], ...] | None
    to_move: int | None
    clock: int | None
    outcome: Outcome | None

    @property
    def version(self) -> int:
        return len(self.history)
