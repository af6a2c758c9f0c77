"""Both null-window searches of an early position on two cores, the second split into tasks.

An exact value takes "at least a draw?" (window ``(-1, 0)``) and "a win?" (``(0, 1)``).
From the empty Quarto board the second is many times the work of the first
(docs/solutions.md), so the helper runs the first while this process starts on the
second, and then both take tasks of the second from one queue, one at a time each.

The second search's score is the best over the mover's moves, each move's score a
search of the position it leads to (in the window ``(-1, 0)``, negated). Where the
bitboard search applies (Quarto), a move is split once more, through the reply the
search would try first there (``Solver.first_move``): the move scores at most what
that reply leaves the mover, the best of the mover's answers, each answer a task of
its own. A few hundred small tasks instead of a few large ones keep both cores busy
to the end. An answer that wins for the mover shows the reply does not hold; that
move is then searched whole, as a task put first. A move scoring a win ends the
split at once (the helper's task in progress is waited for: its nodes count, its
score is not needed).

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
from dataclasses import dataclass
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


@dataclass
class Through:
    """A move of the "a win?" search proved through one reply: ``child`` is the position the
    move leads to; each of the mover's answers to the reply is a task, ``left`` of them
    still open; ``bound`` is the best of the answers' negated scores so far (an upper
    bound of the position after the reply once all are in)."""

    child: PlacementState
    left: int
    bound: int
    failed: bool = False


#: a task: ``(None, child)`` searches a move's position whole, ``(through, answer)`` one
#: answer of a move split through its reply
Task = tuple[Through | None, PlacementState]


def split_moves(game: PlacementGame, solver: Solver, children: list[PlacementState]
                ) -> deque[Task]:
    """The tasks of the "a win?" search over the positions ``children`` its moves lead to."""
    tasks: deque[Task] = deque()
    for child in children:
        reply = solver.first_move(child)
        after = None if reply is None else game.next_state(child, reply)
        if after is None or game.outcome(after) is not None:
            tasks.append((None, child))
            continue
        ends, answers = move_positions(game, solver, after)
        if ends > 0 or not answers:
            tasks.append((None, child))
            continue
        through = Through(child, len(answers), ends)
        tasks.extend((through, answer) for answer in answers)
    return tasks


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
    on_helper: Task | None = None  # the task the helper is searching (None: the first search)
    helper_busy = True
    try:
        second, children = move_positions(game, solver, state)
        todo = split_moves(game, solver, children)

        def finish(task: Task, score: int) -> None:
            """Count a task's score (a search in ``(-1, 0)``) toward ``second``."""
            nonlocal second
            through = task[0]
            if through is None:
                second = max(second, -score)
                return
            if through.failed:
                return
            through.bound = max(through.bound, -score)
            through.left -= 1
            if through.bound > 0:  # the mover wins after the reply: it does not hold
                through.failed = True
                todo.appendleft((None, through.child))
            elif through.left == 0:
                second = max(second, through.bound)

        def next_task() -> Task | None:
            while todo:
                task = todo.popleft()
                if task[0] is None or not task[0].failed:
                    return task
            return None

        def collect() -> None:
            nonlocal first, on_helper, helper_busy
            score, nodes, _ = helper.result()
            solver.extra_nodes += nodes
            helper_busy = False
            if score is None:
                raise SolveLimitReached(solver.nodes, solver.elapsed())
            if on_helper is None:
                first = score
            else:
                finish(on_helper, score)
            on_helper = None

        while second < 1:
            if helper_busy and helper.ready():
                collect()
            if not helper_busy and second < 1:
                task = next_task()
                if task is not None:
                    helper.submit(game.format_position(task[1]), -1, 0, left())
                    on_helper = task
                    helper_busy = True
            task = next_task() if second < 1 else None
            if task is not None:
                finish(task, solver.search(task[1], -1, 0))
            elif helper_busy:
                collect()
            else:
                break
        while helper_busy:
            collect()
    except BaseException:
        helper.close()
        raise
    assert first is not None
    return first, second
