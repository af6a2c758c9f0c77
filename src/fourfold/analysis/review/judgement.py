"""What a review says about one position or one move: a value for the player who
moves, with its distance, and whether it is exact (the solver's) or an estimate.

The vocabulary is that of ``fourfold solve --json``: ``value`` is ``win``, ``draw``,
``loss`` or ``unknown``, and ``distance`` is the plies to the end under perfect play
(``None`` where the solver gives none). An estimate also carries ``score``, the
mover's expected score in [0, 1] from a bounded search; its ``value`` is read off the
score and is never presented as exact.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fourfold.solve.position import MoveValue, Value, preference

#: an estimated score at least this is read as a win, at most ``1 - WIN_SCORE`` a loss
WIN_SCORE = 2 / 3


@dataclass(frozen=True)
class Judgement:
    """A value for the player who moves (before a move: the best they can get)."""

    value: str
    distance: int | None
    exact: bool
    #: an estimate's expected score for the mover in [0, 1] (``None`` when exact)
    score: float | None = None

    def to_json(self) -> dict[str, Any]:
        found: dict[str, Any] = {"value": self.value, "distance": self.distance,
                                 "exact": self.exact}
        if self.score is not None:
            found["estimate"] = True
            found["score"] = round(self.score, 3)
        return found

    def rank(self) -> tuple[int, int]:
        """``solve.position.preference`` of an exact value (smallest best)."""
        return preference(Value(self.value), self.distance)


def exact(value: Value, distance: int | None) -> Judgement:
    """The solver's value (a bounded solver's ``unknown`` is not exact)."""
    return Judgement(value.value, distance, value is not Value.UNKNOWN)


def of_move(move: MoveValue) -> Judgement:
    return exact(move.value, move.distance)


def estimated(score: float) -> Judgement:
    """An estimate from a search's expected score for the mover."""
    if score >= WIN_SCORE:
        value = Value.WIN
    elif score <= 1 - WIN_SCORE:
        value = Value.LOSS
    else:
        value = Value.DRAW
    return Judgement(value.value, None, False, score)


UNKNOWN = Judgement(Value.UNKNOWN.value, None, False)
