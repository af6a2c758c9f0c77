"""The review's work in a worker process of the job pool (arguments and answers are
pickled): one ply's review, the best line from the position before a mistake, and a
game's own review of a whole game."""

from __future__ import annotations

from typing import Any

from fourfold.analysis.review import Ply
from fourfold.analysis.review.assess import prepare
from fourfold.analysis.review.own import own_review
from fourfold.analysis.review.review import review_ply
from fourfold.core.errors import FourfoldError
from fourfold.core.game import Game
from fourfold.core.match import Match
from fourfold.solve.position import Value, solver_for

#: the longest best line shown after a mistake (plies, the mistake's own ply included)
LINE_PLIES = 8


def review_one(match: Match[Any, Any, Any], index: int, seconds: float, iterations: int,
               seed: int) -> Ply:
    """Ply ``index`` (from 0) of a finished game, as ``fourfold review`` values it."""
    prepare(match.game)  # a solver's tables load once per worker process
    return review_ply(match, index, seconds, iterations, seed)


def own_body(match: Match[Any, Any, Any]) -> dict[str, Any]:
    """The game's own review of a finished game (``analysis.review.own``), as JSON."""
    own = own_review(match.game)
    if own is None:
        raise FourfoldError(f"{match.game.info.label()} has no review of its own")
    return own.review(match)


def best_line(game: Game[Any, Any], state: Any, first: str, seconds: float,
              plies: int = LINE_PLIES) -> list[str]:
    """``first`` (a best move of ``state``), then each side's best move by the solver
    while it answers exactly, up to ``plies`` moves or the end of the game."""
    entry = solver_for(game)
    line = [first]
    state = game.apply(state, game.parse_move(state, first))
    while entry is not None and len(line) < plies and game.outcome(state) is None:
        try:
            solution = entry.solve(game, state, seconds)
        except FourfoldError:  # beyond the solver's reach: the line stops here
            break
        if solution is None or not solution.moves or solution.moves[0].value is Value.UNKNOWN:
            break
        move = solution.moves[0].move
        line.append(game.format_move(state, move))
        state = game.apply(state, move)
    return line
