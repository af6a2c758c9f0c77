"""Folio freeform's estimate for reviews: the strongest bot's look-ahead, bounded.

Freeform has no solver (a continuous table), and the generic MCTS search is far too
slow on it, so a review values its positions with the search of its strongest bot
(``bots.FreeformBot``, level 5): placements at the free cell centres of the grids that
fit the pieces, each with the gives the opponent cannot win with at once. Every value
is an estimate, never exact: the search looks at cell centres only, and only a few
plies ahead.

Each move gets WIN, EVEN or LOSS for its mover (an expected score of 1, 1/2 or 0):

- at once, by the rules: a placement that wins or ends the game; a move that leaves
  the grid broken (whoever did not break it wins by challenging: RULES.md section 1);
  a give the opponent can complete a line with at a cell centre (``LOSS``);
- then deeper, within the budget: the look-ahead of level 5 (``FreeformBot._value``)
  two, then three plies, the moves asked for (the move played) first. A move whose
  search ran out of budget keeps its last value, so a position is worth the best
  value found so far.

The budget is counted in placements examined (one grid fit each), never in seconds,
so the same review gives the same estimates on any machine: ``iterations // 10``
placements per position (the review's default 4,000 iterations: 400, level 4's budget
per move), the generation of the candidates included.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fourfold.ai.base import Limit
from fourfold.core.game import Game
from fourfold.core.outcome import Result
from fourfold.games.folio.freeform.bots import EVEN, LOSS, WIN, FreeformBot
from fourfold.games.folio.freeform.state import CHALLENGE, FreeformPly, FreeformState, Point

#: review iterations per placement examined
ITERATIONS_PER_PLACEMENT = 10
#: the deepest look-ahead (level 5's)
DEPTH = 3
SCORE = {WIN: 1.0, EVEN: 0.5, LOSS: 0.0}


class OutOfBudget(Exception):
    """The search examined its budget of placements."""


@dataclass(eq=False)
class _Search(FreeformBot):
    """The freeform bot's look-ahead, asked for values rather than a move."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.allowance = 0
        self._threatened: dict[Point, set[int]] = {}

    def _spend(self, budget: int) -> None:
        self.nodes += 1
        if self.nodes > self.allowance:
            raise OutOfBudget

    def threats_after(self, state: FreeformState, point: Point) -> set[int]:
        """The gives the opponent wins with at once after placing at ``point``."""
        found = self._threatened.get(point)
        if found is None:
            self._spend(0)
            found = self._threats((*state.pieces, (point[0], point[1], state.hand or 0)))
            self._threatened[point] = found
        return found

    def at_once(self, state: FreeformState, move: FreeformPly, mover: int) -> int:
        """The move's value by the rules and the one-ply threat check."""
        child = self.freeform.next_state(state, move)
        outcome = self.freeform.outcome(child)
        if outcome is not None:
            if outcome.result is Result.DRAW:
                return EVEN
            return WIN if outcome.winner == mover else LOSS
        if child.broken is not None:  # the player who did not break it challenges and wins
            return WIN if 1 - (child.broken - 1) % 2 == mover else LOSS
        if move.place is not None and move.give is not None and \
                move.give in self.threats_after(state, move.place):
            return LOSS
        return EVEN

    def root(self, state: FreeformState) -> list[FreeformPly]:
        """The moves the search considers: the gives of the opening; a challenge of a
        broken grid; else every cell-centre placement that keeps a grid, with each give
        (a placement that wins or ends the game only places)."""
        gives = [k for k, n in enumerate(state.supply) if n > 0]
        if state.hand is None:
            return [FreeformPly(None, k) for k in gives]
        if state.broken is not None:
            return [CHALLENGE]
        moves: list[FreeformPly] = []
        for point in self._candidates(state):
            won, broken = self.freeform.after(state, point)
            if broken is not None:
                continue
            if won is not None or not gives:
                moves.append(FreeformPly(point, None))
            else:
                moves.extend(FreeformPly(point, k) for k in gives)
        return moves

    def values(self, state: FreeformState, asked: tuple[FreeformPly, ...],
               budget: int) -> list[tuple[FreeformPly, int]]:
        mover = self.freeform.to_move(state)
        assert mover is not None, "no move to value in a finished game"
        moves = list(dict.fromkeys(asked))
        # the moves asked for are always valued at once, whatever that costs (one fit)
        self.allowance, self.nodes = 1 << 30, 0
        found = {move: self.at_once(state, move, mover) for move in moves}
        self.allowance = self.nodes + budget
        try:
            moves.extend(m for m in self.root(state) if m not in found)
            for move in moves:
                if move not in found:
                    found[move] = self.at_once(state, move, mover)
            for depth in range(2, DEPTH + 1):
                for move in moves:
                    if found[move] == EVEN:
                        child = self.freeform.next_state(state, move)
                        found[move] = -self._value(child, depth - 1, budget)
        except OutOfBudget:
            pass
        return [(move, found[move]) for move in moves if move in found]


def estimate(game: Game[Any, Any], state: FreeformState, asked: tuple[Any, ...],
             iterations: int, seed: int) -> tuple[tuple[Any, float], ...]:
    """Each move's expected score for the player to move (1 won, 1/2 open, 0 lost), best
    first, the moves in ``asked`` always among them (the ``estimate`` of Folio
    freeform's ``bots`` part, ``ai.game_bots.GameBots``)."""
    mover = game.to_move(state)
    search = _Search(game, 0 if mover is None else mover, seed, Limit(),
                     careful=True, depth=DEPTH)
    budget = max(1, iterations // ITERATIONS_PER_PLACEMENT)
    valued = search.values(state, tuple(asked), budget)
    ranked = sorted(valued, key=lambda item: -item[1])  # stable: ties keep their order
    return tuple((move, SCORE[value]) for move, value in ranked)
