"""Ice Dao puzzles, certified by an exhaustive bounded search (the game is solved from
its start only, by stored certificates).

The search is the solver's proof search (``solver.ProofSearch``: *can the side to move
force a win within n of its moves?*), answered exactly or not at all: it runs under a
budget of nodes, and a search that runs out of budget answers nothing, so the position
is no puzzle. No claim below rests on an unfinished search.

**Win puzzle: the only move that wins within N.** The side to move can force a win
within N of its moves and not within N - 1 (N at most ``MAX_WIN_IN``); exactly one of
its moves forces a win within N, and every other move is proven not to. The defender
then plays its slowest loss: the reply after which the attacker's quickest forced win
is longest (the first such reply in legal-move order); at each later step the same
holds with one move fewer. A longer win by another move is *not* excluded: the puzzle
says "wins within N", never "the only winning move".

**Hold puzzle (defend): the only move that does not lose within M.** The side to move
cannot force a win within ``MAX_WIN_IN`` moves; after every move but one the opponent
can force a win within ``HOLD_WITHIN`` moves, and after that one it is proven that it
cannot. M, the bound the puzzle states, is the largest of the other moves' quickest
forced losses (M <= ``HOLD_WITHIN``). A loss later than that is not excluded.

The position is certified as its puzzle is played: from its position string, with no
history. Along a forced line no position recurs (the attacker's bound falls by one each
move), so the repetition rule cannot draw it, and the search needs no history.
"""

from __future__ import annotations

from typing import Any

from fourfold.core.game import Game
from fourfold.games.icedao.game import IceDaoGame
from fourfold.games.icedao.solver import ProofSearch
from fourfold.games.icedao.state import IceDaoState
from fourfold.puzzles.hooks import HOLD, WIN, Certified
from fourfold.solve.position import Value

#: the longest win certified: the attacker's moves in the line
MAX_WIN_IN = 3
#: how far a hold is proven: the opponent's moves within which every other move loses
HOLD_WITHIN = 2
#: the search's nodes (positions whose bound it decides) per second of ``--seconds``:
#: about 800 a second were measured on one core of a busy 2-core machine. The budget is
#: in nodes, not seconds, so the same seed mines the same puzzles on every machine
NODES_PER_SECOND = 1_000


class OutOfBudget(Exception):
    """The search used its budget of nodes: nothing it was asking is known."""


class BudgetedSearch(ProofSearch):
    """``ProofSearch`` that stops after ``budget`` nodes (instead of at a clock time)."""

    def __init__(self, game: IceDaoGame, budget: int) -> None:
        super().__init__(game)
        self.budget = budget

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes > self.budget:
            raise OutOfBudget


def _win_now(game: IceDaoGame, child: IceDaoState, mover: int) -> bool:
    outcome = game.outcome(child)
    return outcome is not None and outcome.winner == mover


def _wins_within(game: IceDaoGame, search: BudgetedSearch, child: IceDaoState, mover: int,
                 n: int) -> bool:
    """Whether the move that led to ``child`` wins within ``n`` of the mover's moves."""
    if game.outcome(child) is not None:
        return _win_now(game, child, mover)
    board, side = search.key_of(child)
    return n > 1 and search.all_lose(board, side, n - 1)


def _quickest(search: BudgetedSearch, state: IceDaoState, most: int) -> int | None:
    """The fewest moves within which the side to move forces a win (at most ``most``),
    ``None`` when it proven cannot within ``most``."""
    board, side = search.key_of(state)
    return next((n for n in range(1, most + 1) if search.win_within(board, side, n)), None)


def _values(game: IceDaoGame, state: IceDaoState, good: Any, value: Value,
            other: Value) -> tuple[tuple[Any, Value], ...]:
    return tuple((m, value if m == good else other) for m in game.legal_moves(state))


def _win_line(game: IceDaoGame, search: BudgetedSearch, state: IceDaoState,
              n: int) -> list[Any] | None:
    """The line from ``state`` (a forced win in exactly ``n``), or ``None`` where some
    step has more than one move winning within its bound."""
    mover = state.to_play
    line: list[Any] = []
    while True:
        winners = [m for m in game.legal_moves(state)
                   if _wins_within(game, search, game.next_state(state, m), mover, n)]
        if len(winners) != 1:
            return None
        line.append(winners[0])
        state = game.next_state(state, winners[0])
        if game.outcome(state) is not None:
            return line if _win_now(game, state, mover) else None
        slowest, reply = 0, None
        for candidate in game.legal_moves(state):
            after = game.next_state(state, candidate)
            if game.outcome(after) is not None:
                return None  # the proof said every reply loses: a reply may not end it
            k = _quickest(search, after, n - 1)
            if k is None:
                return None
            if k > slowest:
                slowest, reply = k, candidate
        if reply is None or slowest != n - 1:
            return None
        line.append(reply)
        state = game.next_state(state, reply)
        n -= 1


def certify_within(game: IceDaoGame, state: IceDaoState, budget: int) -> Certified | None:
    """The puzzle of ``state`` proven within ``budget`` nodes of search, else ``None``."""
    state = game.parse_position(game.format_position(state))  # as the puzzle is played
    moves = game.legal_moves(state)
    if len(moves) < 2:
        return None
    search = BudgetedSearch(game, budget)
    try:
        n = _quickest(search, state, MAX_WIN_IN)
        if n is not None:
            line = _win_line(game, search, state, n)
            if line is None:
                return None
            values = _values(game, state, line[0], Value.WIN, Value.UNKNOWN)
            return Certified(game, state, tuple(line), WIN, n, values, bound=n)
        return _hold(game, search, state, moves)
    except OutOfBudget:
        return None


def _hold(game: IceDaoGame, search: BudgetedSearch, state: IceDaoState,
          moves: list[Any]) -> Certified | None:
    safe, worst = [], 0
    for move in moves:
        child = game.next_state(state, move)
        if game.outcome(child) is not None:
            return None  # a move that ends the game (a win was excluded above): no hold
        k = _quickest(search, child, HOLD_WITHIN)
        if k is None:
            safe.append(move)
            if len(safe) > 1:
                return None
        else:
            worst = max(worst, k)
    if len(safe) != 1:
        return None
    values = _values(game, state, safe[0], Value.UNKNOWN, Value.LOSS)
    return Certified(game, state, (safe[0],), HOLD, 1, values, bound=worst)


def certify(game: Game[Any, Any], state: Any, seconds: float) -> Certified | None:
    """The ``certify`` hook: a budget of ``seconds`` x ``NODES_PER_SECOND`` nodes."""
    if not isinstance(game, IceDaoGame) or game.max_plies is not None:
        return None  # a length cap could draw a line the search counts as won
    return certify_within(game, state, max(1, round(seconds * NODES_PER_SECOND)))
