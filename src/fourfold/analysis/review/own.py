"""A game's own review, where the per-ply values of two-player games do not apply.

A cooperative game has no side to value a move for: its team wins or loses together,
and what a move changes is what the team can know and how few actions are left. Such
a game names its own review in its bundle's ``solver`` part
(``GameSolvers.review``, a ``"package.module:attribute"`` reference to an
``OwnReview``). ``fourfold review``, the server's reviews and the replay page reach
it only that way; no generic code names a game.

The review is JSON in the shape the replay page and the server share with the
two-player review (docs/review.md): ``{"kind", "plies": [{"ply", "move", "player",
"before", "after", "label", "best", "line"}], ...}``, where ``line`` is a sequence of
moves from the position before the ply, stepped through on the board. A game with
hidden cards reviews only a finished game (its cards are face up by then): asked
earlier, ``review`` raises ``ConfigurationError``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fourfold.core.errors import ConfigurationError
from fourfold.core.extensions import resolve
from fourfold.core.game import Game
from fourfold.core.match import Match
from fourfold.solve.position import game_solvers


@dataclass(frozen=True)
class OwnReview:
    """What a game's own review gives: its JSON body and its terminal form."""

    #: one line: what the review measures and with which solver
    summary: str
    #: ``(match) -> body``: the review of a finished match as JSON; ``ConfigurationError``
    #: (one line) when the match cannot be reviewed, e.g. before its end
    review: Callable[[Match[Any, Any, Any]], dict[str, Any]]
    #: ``(body, console)``: prints the review in the terminal (a ``rich`` console)
    show: Callable[[dict[str, Any], Any], None]


def own_review(game: Game[Any, Any]) -> OwnReview | None:
    """The configured game's own review (``None``: it has none)."""
    solvers = game_solvers(game)
    if solvers is None or solvers.review is None:
        return None
    found = resolve(solvers.review)
    if not isinstance(found, OwnReview):
        raise ConfigurationError(
            f"the review of {game.info.label()} ({solvers.review!r}) is a"
            f" {type(found).__name__}, not a fourfold.analysis.review.own.OwnReview")
    return found
