"""Both null-window searches of an early position on two cores, split into many small searches.

An exact value takes "at least a draw?" (window ``(-1, 0)``) and "a win?" (``(0, 1)``).
The second is the best over the mover's moves: each move's score is a search of the
position it leads to, in the window ``(-1, 0)``, negated. So the value needs a list of
``(-1, 0)`` searches, the *items*: the position itself, then one per move (moves equal
under the symmetries are searched once; moves that end the game are scored by the
rules). This process and the helper work through them together (``helper``): each
takes the next search no one has taken, so both stay busy until the list is done.

The items are few and unequal (from the empty Quarto board, 9 of up to 69 million
nodes: one side waited 20 s for the other's last), so each is split in turn:

* An item expected to hold (score at least 0) needs only one good move of its mover,
  whose position must then fail for the opponent. That position is a *group*: it
  fails if every reply there leads to a position that holds for the item's mover (its
  *parts*, again ``(-1, 0)`` searches, independent of one another). With every part
  holding, the least of their fail-soft scores (and of the replies that end the game)
  is a lower bound of the item's score, at least 0.
* The move is one whose position is already a group (another item's: the searches
  of the items overlap, and a search of the whole item would find that group's
  position in its table), else its *guess*, the move the search itself would try
  first (``Solver.first_move``). Parts equal under the symmetries are searched once.
* A part scoring below 0 means the guess was wrong (or the item does not hold): the
  items of that group are searched whole in a second round, whose scores are their own.
* An item decided before a move is tried (the rules or the table settle it), or whose
  guess lets the opponent win at once, is searched whole in the first round.

A whole item scoring a win for the position's mover (below 0) ends the list at once
(the searches in progress are finished: their nodes count, their scores are not
needed). The position's own first score is then that win, a lower bound too, if its
own search or group had not finished.

The scores are what ``Solver.exact`` needs, so values and distances are unchanged
(tests compare them with one process): the position's first score is a lower bound at
least 0 or its fail-soft score below 0; the second, when no move reaches 1, is at most
0, and otherwise the score of a move proven to reach it (docs/solutions.md has the
figures from the empty Quarto board).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from fourfold.core.outcome import Result
from fourfold.games.placement.game import PlacementGame
from fourfold.games.placement.solver import kernel as k4
from fourfold.games.placement.solver.helper import SearchHelper
from fourfold.games.placement.state import PlacementState

# items with more pieces placed are searched whole: their searches are short, and
# splitting them (in Python) costs more than it evens out (measured on Quarto from 8
# placed: 0.8 s of splitting for 452 nodes)
SPLIT_MAX_PLACED = 2

if TYPE_CHECKING:
    from collections.abc import Callable

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
class Group:
    """A position that must fail for its mover (score at most 0): proven when every part
    (the positions its moves lead to) holds for the other side in ``(-1, 0)``."""

    parts: list[int]  # indices into ``Parts``
    ends: int  # the best score of its moves that end the game (-INF if none)


class Parts:
    """The parts of every group, each position once (equal under the symmetries), with
    their scores as they come."""

    def __init__(self, solver: Solver):
        self.solver = solver
        self.states: list[PlacementState] = []
        self.scores: list[int | None] = []
        self._index: dict[tuple[int, int], int] = {}

    def add(self, state: PlacementState) -> int:
        key = self.solver.key(state)
        if key not in self._index:
            self._index[key] = len(self.states)
            self.states.append(state)
            self.scores.append(None)
        return self._index[key]

    def bound(self, group: Group) -> int | None:
        """A lower bound (at least 0) of the score of a move into ``group``, once every
        part held; ``None`` while a part is missing, or if one failed."""
        scores = [self.scores[p] for p in group.parts]
        if any(score is None or score < 0 for score in scores):
            return None
        return min([-group.ends, *(score for score in scores if score is not None)])


@dataclass
class Item:
    """One ``(-1, 0)`` search the value needs: by its group's parts or whole."""

    state: PlacementState
    group: Group | None = None  # None: searched whole
    score: int | None = None  # searched whole: its fail-soft score

    def known(self, parts: Parts) -> int | None:
        """Its score, or a lower bound from its group's parts; ``None`` until known."""
        if self.score is not None:
            return self.score
        return None if self.group is None else parts.bound(self.group)


def split_item(game: PlacementGame, solver: Solver, state: PlacementState,
               groups: dict[tuple[int, int], Group], parts: Parts) -> Item:
    """``state`` as an item: joined to the group of a move's position already in
    ``groups`` (as the table would find it), else to a new group for its guess, else
    whole (also when it has more than ``SPLIT_MAX_PLACED`` pieces placed)."""
    if state.placed > SPLIT_MAX_PLACED:
        return Item(state)
    for move in game.legal_moves(state):
        replied = game.next_state(state, move)
        if game.outcome(replied) is None:
            group = groups.get(solver.key(replied))
            if group is not None:
                return Item(state, group)
    guess = solver.first_move(state)
    if guess is None:
        return Item(state)
    replied = game.next_state(state, guess)
    if game.outcome(replied) is not None:
        return Item(state)
    ends, children = move_positions(game, solver, replied)
    if ends > 0 or not children:  # the opponent wins at once there, or has only ends
        return Item(state)
    group = groups[solver.key(replied)] = Group([parts.add(c) for c in children], ends)
    return Item(state, group)


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
    groups: dict[tuple[int, int], Group] = {}
    parts = Parts(solver)
    # the moves' items first: the position's own parts (which share little with theirs)
    # come last in the list, small searches that even out the two sides' ends
    moves = [split_item(game, solver, child, groups, parts) for child in children]
    items = [split_item(game, solver, state, groups, parts), *moves]
    # the first round: the items searched whole, then every part
    whole = [i for i, item in enumerate(items) if item.group is None]

    def count(index: int, score: int | None) -> None:
        if score is None:
            raise SolveLimitReached(solver.nodes, solver.elapsed())
        if index >= len(whole):
            parts.scores[index - len(whole)] = score
            return
        i = whole[index]
        items[i].score = score
        if i > 0 and score < 0:  # the position's mover wins by this move
            helper.stop_taking()

    def position(index: int) -> PlacementState:
        return items[whole[index]].state if index < len(whole) else parts.states[index - len(whole)]

    def best_move() -> int:
        scores = [item.known(parts) for item in items[1:]]
        return max([second, *(-s for s in scores if s is not None)])

    try:
        _work_through(solver, helper, deadline, len(whole) + len(parts.states),
                      position, count)
        if best_move() < 1:  # no move is a win yet: the items whose group failed, whole
            whole = [i for i, item in enumerate(items) if item.known(parts) is None]
            if whole:
                _work_through(solver, helper, deadline, len(whole), position, count)
    except BaseException:
        helper.close()
        raise
    second = best_move()
    first = items[0].known(parts)
    if first is None:  # stopped by a winning move: that win is a lower bound too
        assert second >= 1
        first = second
    return first, second


def _work_through(solver: Solver, helper: SearchHelper, deadline: float | None, size: int,
                  position: Callable[[int], PlacementState],
                  count: Callable[[int, int | None], None]) -> None:
    """Search the list of ``size`` positions (``position``) with the helper, each in
    ``(-1, 0)``: each side takes the next search no one has taken; ``count`` hears every
    score, the helper's as they come."""

    def count_answers(wait: bool) -> None:
        for index, score, nodes in helper.answers(wait):
            solver.extra_nodes += nodes
            count(index, score)

    helper.start([position(i) for i in range(size)], deadline)
    while True:
        count_answers(False)
        index = helper.take()
        if index >= size:
            break
        count(index, solver.search(position(index), -1, 0))
    while helper.busy:
        count_answers(True)
