"""Both null-window searches of an early position on two cores, the second split by moves.

An exact value takes "at least a draw?" (window ``(-1, 0)``) and "a win?" (``(0, 1)``).
From the empty Quarto board the second is several times the work of the first
(docs/solutions.md), so it is split at its root: its score is the best over the
mover's moves, and each move's score is a search of the position it leads to (in
the window ``(-1, 0)``, negated). The first search and one search per move make one
list, which this process and the helper work through together (``helper``): each
takes the next search no one has taken, so both stay busy until the list is done
however unequal the searches are. A move scoring a win ends the list at once (the
searches in progress are finished: their nodes count, their scores are not needed;
the first search, always taken first, is always finished).

The scores are exactly what a search of the whole position would prove: the first
is a fail-soft score of the position; the second, when no move reaches 1, is the
best of upper bounds of every move (an upper bound of the position, at most 0), and
otherwise the score of a move proven to reach it (a lower bound). ``Solver.exact``
needs nothing else, so values and distances are unchanged (tests compare them with
one process). Moves equal under the symmetries are searched once; moves that end
the game are scored by the rules.
"""

from __future__ import annotations

import time
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

    deadline = None
    if solver.work.st[k4.HAS_DEADLINE]:
        left = float(solver.work.deadline[0]) - time.perf_counter()
        deadline = time.time() + max(left, 0.001)
    second, children = move_positions(game, solver, state)
    positions = [state, *children]  # the first search, then one per move
    first: int | None = None

    def count(index: int, score: int | None) -> None:
        nonlocal first, second
        if score is None:
            raise SolveLimitReached(solver.nodes, solver.elapsed())
        if index == 0:
            first = score
            return
        second = max(second, -score)
        if second >= 1:
            helper.stop_taking()

    def count_answers(wait: bool) -> None:
        for index, score, nodes in helper.answers(wait):
            solver.extra_nodes += nodes
            count(index, score)

    helper.start([(game.format_position(p), -1, 0) for p in positions], deadline)
    try:
        while True:
            count_answers(False)
            index = helper.take()
            if index >= len(positions):
                break
            count(index, solver.search(positions[index], -1, 0))
        while helper.busy:
            count_answers(True)
    except BaseException:
        helper.close()
        raise
    assert first is not None
    return first, second
