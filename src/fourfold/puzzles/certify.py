"""Certify a puzzle with the game's solver: the position is won and exactly one move
wins at every step of the line (or it is not lost and exactly one move avoids losing).

Every value comes from the game's solver (its bundle's ``solver`` part). A move the
solver could not prove either way (a bounded solver's ``unknown``) might be another
solution, so a step with one is refused: only fully proven positions make puzzles.
The defender plays the solver's best defence (the slowest loss; the first of equals).

A game whose ``puzzles`` part has its own ``certify`` (a game with a bounded solver:
Ice Dao) is certified by it instead, to the same standard within its bound
(``fourfold.puzzles.hooks``). Either way the puzzle's themes are derived from the
certified line (``fourfold.puzzles.themes``).
"""

from __future__ import annotations

import math
from typing import Any

from fourfold.core.errors import FourfoldError
from fourfold.core.game import Game
from fourfold.puzzles.hooks import HOLD, WIN, Certified, hooks_for
from fourfold.puzzles.puzzle import Puzzle
from fourfold.puzzles.themes import themes_of
from fourfold.solve.position import Solution, SolverEntry, Value, solver_for

#: the longest line mined: the solver's moves in a "win in N"
MAX_WIN_IN = 4


def _solve(entry: SolverEntry, game: Game[Any, Any], state: Any,
           seconds: float) -> Solution | None:
    try:
        return entry.solve(game, state, seconds)
    except FourfoldError:
        return None


def _only(solution: Solution, good: set[Value]) -> Any | None:
    """The one move of ``solution`` whose value is in ``good``, if exactly one is and
    every move's value is proven."""
    if any(m.value is Value.UNKNOWN for m in solution.moves):
        return None
    found = [m.move for m in solution.moves if m.value in good]
    return found[0] if len(found) == 1 else None


def rating(goal: str, win_in: int, choices: int) -> int:
    """A starting rating (Glicko-2 scale, refined later by attempts): longer lines and more
    legal moves to choose from make a harder puzzle; holding is rated as a win in 2."""
    length = win_in if goal == WIN else 2
    return round(1000 + 250 * (length - 1) + 60 * math.log2(max(choices, 2)))


def certify(game: Game[Any, Any], state: Any, seconds: float) -> Puzzle | None:
    """The puzzle of ``state`` if the solver certifies one within ``seconds`` per
    position, else ``None``."""
    own = hooks_for(game).certify
    found = (own or certify_exact)(game, state, seconds)
    return None if found is None else puzzle_of(found)


def puzzle_of(certified: Certified) -> Puzzle:
    """The puzzle of a certified line: its notation, themes and starting rating."""
    game, here = certified.game, certified.state
    line = []
    for move in certified.line:
        line.append(game.format_move(here, move))
        here = game.next_state(here, move)
    return Puzzle(game.name, game.info.variant, game.info.option_strings(),
                  game.format_position(certified.state), tuple(line), themes_of(certified),
                  rating(certified.goal, certified.win_in, len(certified.values)),
                  certified.goal, certified.win_in, certified.bound)


def _values(solution: Solution) -> tuple[tuple[Any, Value], ...]:
    return tuple((m.move, m.value) for m in solution.moves)


def certify_exact(game: Game[Any, Any], state: Any, seconds: float) -> Certified | None:
    """The line of ``state`` certified by the game's solver, every value proven."""
    entry = solver_for(game)
    if entry is None or game.outcome(state) is not None:
        return None
    first = _solve(entry, game, state, seconds)
    if first is None:
        return None
    choices = len(first.moves)
    if choices < 2:
        return None  # one legal move is no puzzle
    if first.value is Value.DRAW:
        move = _only(first, {Value.DRAW, Value.WIN})
        if move is None:
            return None
        return Certified(game, state, (move,), HOLD, 1, _values(first))
    if first.value is not Value.WIN or first.distance is None:
        return None
    line: list[Any] = []
    solver_moves = 0
    here, solution = state, first
    while True:
        move = _only(solution, {Value.WIN})
        if move is None or solver_moves == MAX_WIN_IN:
            return None
        line.append(move)
        solver_moves += 1
        here = game.next_state(here, move)
        if game.outcome(here) is not None:
            break
        defence = _solve(entry, game, here, seconds)
        if defence is None or defence.value is not Value.LOSS or not defence.moves:
            return None
        reply = defence.moves[0].move
        line.append(reply)
        here = game.next_state(here, reply)
        if game.outcome(here) is not None:
            return None  # the defender ended the game: not the win the solver promised
        again = _solve(entry, game, here, seconds)
        if again is None:
            return None
        solution = again
    if len(line) != first.distance:
        return None
    return Certified(game, state, tuple(line), WIN, solver_moves, _values(first))
