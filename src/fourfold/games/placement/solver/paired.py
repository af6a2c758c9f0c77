"""Both null-window searches of an early position on two cores, the second split by moves.

An exact value takes "at least a draw?" (window ``(-1, 0)``) and "a win?" (``(0, 1)``).
From the empty Quarto board the second is about four times the work of the first
(docs/solutions.md), so handing the whole first search to the helper and running
the second here leaves the helper idle most of the time. Here the second search is
split at its root: its score is the best over the mover's moves, and each move's
score is a search of the position it leads to (in the window ``(-1, 0)``, negated).
The helper runs the first search, then takes moves from the same list as this
process does; the moves run one at a time on each side, the best so far is kept,
and a move scoring a win ends the split at once (the helper's move in progress is
waited for: its nodes count, its score is not needed).

The scores are exactly what a search of the whole position would prove: the first
is the helper's fail-soft score; the second, when no move reaches 1, is the best of
upper bounds of every move (an upper bound of the position, at most 0), and
otherwise the score of a move proven to reach it (a lower bound). ``Solver.exact``
needs nothing else, so values and distances are unchanged (tests compare them with
one process). Moves equal under the symmetries are searched once; moves that end
the game are scored by the rules.
"""

from __future__ import annotations

import time
from collections import deque
from typing import TYPE_CHECKING

from fourfold.core.outcome import Result
from fourfold.games.placement.game import PlacementGame
from fourfold.games.placement.solver import kernel as k4
from fourfold.games.placement.solver.helper import SearchHelper
from fourfold.games.placement.state import PlacementState

if TYPE_CHECKING:
    from fourfold.games.placement.solver.solver import Solver


def move_positions(game: PlacementGame, solver: Solver, state: PlacementState
                   ) -> tuple[int, list[PlacementState]]:
    """``(best, children)``: the best score of the moves that end the game (``-INF`` if
    none), and the positions the other moves lead to, one per class of symmetric ones."""
    best = -k4.INF
    mover_end = k4.WIN - (state.placed + 1)
    seen: set[tuple[int, int]] = set()
    children: list[PlacementState] = []
    for move in game.legal_moves(state):
        child = game.next_state(state, move)
        outcome = game.outcome(child)
        if outcome is not None:
            best = max(best, mover_end if outcome.result is Result.WIN else 0)
            continue
        key = solver.key(child)
        if key not in seen:
            seen.add(key)
            children.append(child)
    return best, children


def paired_scores(solver: Solver, game: PlacementGame, state: PlacementState,
                  helper: SearchHelper) -> tuple[int, int]:
    """The scores of ``state`` in ``(-1, 0)`` and in ``(0, 1)`` (see the module's text);
    the helper's nodes count as ``solver``'s. Raises ``SolveLimitReached`` at the limit."""
    from fourfold.games.placement.solver.solver import SolveLimitReached

    def left() -> float | None:
        if not solver.work.st[k4.HAS_DEADLINE]:
            return None
        return max(float(solver.work.deadline[0]) - time.perf_counter(), 0.001)

    helper.submit(game.format_position(state), -1, 0, left())
    first: int | None = None
    on_helper = "first"  # what the helper is searching: "first", "move" or ""
    try:
        second, children = move_positions(game, solver, state)
        todo = deque(children)

        def collect() -> None:
            nonlocal first, second, on_helper
            score, nodes, _ = helper.result()
            solver.extra_nodes += nodes
            if score is None:
                raise SolveLimitReached(solver.nodes, solver.elapsed())
            if on_helper == "first":
                first = score
            else:
                second = max(second, -score)
            on_helper = ""

        while second < 1 and (todo or on_helper):
            if on_helper and helper.ready():
                collect()
            if on_helper == "" and todo and second < 1:
                helper.submit(game.format_position(todo.popleft()), -1, 0, left())
                on_helper = "move"
            if todo and second < 1:
                second = max(second, -solver.search(todo.popleft(), -1, 0))
            elif on_helper:
                collect()
        while on_helper:
            collect()
    except BaseException:
        helper.close()
        raise
    assert first is not None
    return first, second
