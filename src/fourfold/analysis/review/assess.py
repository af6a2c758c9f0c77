"""The value of one position and of each of its legal moves, for the side to move.

The game's solver (its bundle's ``solver`` part, through ``solve.position.solver_for``)
answers first, within ``seconds``. Where it cannot (no solver for this game or
variant, or no answer in time) a bounded search estimates instead: the MCTS search of
the bots (``fourfold.ai.mcts``, the search of level 4, the strongest level whose
search yields an expected score per move) with a fixed number of iterations and a
fixed seed, so the same review gives the same estimates. Its answers are marked as
estimates (``Judgement.exact`` is False), never as exact. A game whose bots part gives
its own estimate (``GameBots.estimate``: Folio freeform's, its strongest bot's
look-ahead) is estimated by it instead; one whose bots part lists MCTS as too slow and
gives none gets no estimate: ``unknown``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fourfold.analysis.review.judgement import UNKNOWN, Judgement, estimated, exact, of_move
from fourfold.core.errors import FourfoldError
from fourfold.core.game import Game
from fourfold.solve.position import Solution, Value, solver_for

#: MCTS iterations of an estimate (per position)
DEFAULT_ITERATIONS = 4_000
#: the best moves an estimate lists at most (a coarse estimate ties hundreds of moves)
BEST_ESTIMATED = 8


@dataclass(frozen=True)
class Assessment:
    """A position's value for the side to move, each legal move's (by the move itself, in
    the order given), and the best moves."""

    value: Judgement
    moves: tuple[tuple[Any, Judgement], ...]
    best: tuple[Any, ...]
    #: ``"solver"`` or ``"estimate"``
    source: str

    def of(self, move: Any) -> Judgement:
        for candidate, judged in self.moves:
            if candidate == move:
                return judged
        return UNKNOWN

    def best_value(self) -> Judgement:
        return self.of(self.best[0]) if self.best else self.value


def from_solution(solution: Solution) -> Assessment:
    moves = tuple((m.move, of_move(m)) for m in solution.moves)
    proven = [(move, judged) for move, judged in moves if judged.exact]
    top = min((judged.rank() for _, judged in proven), default=None)
    best = tuple(move for move, judged in proven if judged.rank() == top)
    return Assessment(exact(solution.value, solution.distance), moves, best, "solver")


def prepare(game: Game[Any, Any]) -> None:
    """Let the game's solver load or build its tables once (``SolverEntry.prepare``), so
    that the time per position is spent on positions."""
    entry = solver_for(game)
    if entry is not None and entry.prepare is not None:
        entry.prepare(game)


def solve(game: Game[Any, Any], state: Any, seconds: float) -> Assessment | None:
    """The solver's answer, or ``None`` (no solver, no answer in time, or a solver limit)."""
    entry = solver_for(game)
    if entry is None:
        return None
    try:
        solution = entry.solve(game, state, seconds)
    except FourfoldError:  # a position beyond the solver's reach stays open
        return None
    return None if solution is None else from_solution(solution)


def estimate(game: Game[Any, Any], state: Any, iterations: int, seed: int,
             asked: tuple[Any, ...] = ()) -> Assessment:
    """A bounded search from ``state``: each move's expected score for the mover (the
    game's own estimate if its bots part gives one, else MCTS), the moves in ``asked``
    (the move played) among them."""
    from fourfold.ai.game_bots import game_bots
    from fourfold.ai.mcts import MCTSBot

    mover = game.to_move(state)
    if mover is None:
        raise FourfoldError("the game is over: there is no move to estimate")
    bots = game_bots(game)
    if bots.estimate is not None:
        return scored(bots.estimate(game, state, asked, iterations, seed))
    if MCTSBot.name in bots.too_slow:
        return Assessment(UNKNOWN, (), (), "estimate")  # its bots say: far too slow here
    return searched(game, state, mover, iterations, seed, asked)


def scored(scores: tuple[tuple[Any, float], ...]) -> Assessment:
    """An estimate from each move's expected score for the mover, best first."""
    moves = tuple((move, estimated(score)) for move, score in scores)
    if not moves:
        return Assessment(UNKNOWN, (), (), "estimate")
    top = max(judged.score or 0.0 for _, judged in moves)
    best = tuple(move for move, judged in moves if judged.score == top)[:BEST_ESTIMATED]
    return Assessment(estimated(top), moves, best, "estimate")


def searched(game: Game[Any, Any], state: Any, mover: int, iterations: int,
             seed: int, asked: tuple[Any, ...] = ()) -> Assessment:
    """The MCTS search of the bots (level 4's) from ``state``, ``iterations`` long.

    The best move is the one the search visited most (its mean is the position's
    value): the highest mean of all the moves would mostly be a thinly visited move's
    luck. A move asked about (the move played) is valued against the best one in a
    second search between those two alone, so that both means rest on many visits of
    one tree, from one side: a thin mean is no grounds for a label.
    """
    legal = game.legal_moves(state)
    root = _search(game, state, mover, None, max(iterations, 2 * len(legal)), seed)
    visited = [child for child in root.children if child.visits]
    if not visited:
        return Assessment(UNKNOWN, (), (), "estimate")
    top = max(visited, key=lambda child: (child.visits, child.reward / child.visits))
    scores = {child.action: _score(child) for child in visited}
    value = estimated(scores[top.action])
    for move in asked:
        action = game.encode(move)
        if action == top.action or action not in scores:
            continue
        duel = _search(game, state, mover, [top.action, action], iterations, seed + 1)
        dueled = {child.action: _score(child) for child in duel.children if child.visits}
        if top.action in dueled and action in dueled:
            scores[action] = dueled[action]
            value = estimated(max(dueled[action], dueled[top.action]))
    ranked = sorted(scores.items(), key=lambda item: -item[1])
    moves = tuple((game.decode(action), estimated(score)) for action, score in ranked)
    best = (game.decode(top.action),)
    return Assessment(value, moves, best, "estimate")


def _search(game: Game[Any, Any], state: Any, mover: int, actions: list[int] | None,
            iterations: int, seed: int) -> Any:
    """The root of the bots' MCTS from ``state`` over ``actions`` alone (all legal
    moves when ``None``)."""
    from fourfold.ai.base import Limit
    from fourfold.ai.mcts import MCTSBot

    bot = MCTSBot(game, mover, seed, Limit(iterations=iterations))
    engine = bot.engine
    engine.load(game.view(state, mover).observation)
    return bot.search(engine.to_move(), engine.legal() if actions is None else actions)


def _score(child: Any) -> float:
    """A child's expected score for the mover: rewards are +1 won, 0 drawn, -1 lost."""
    return float((1 + child.reward / child.visits) / 2)


def assess(game: Game[Any, Any], state: Any, seconds: float, iterations: int,
           seed: int, played: Any = None) -> Assessment:
    """The solver's values where it answers within ``seconds``, else an estimate (which
    values ``played``, the move played there, when given)."""
    solved = solve(game, state, seconds)
    if solved is not None:
        return solved
    return estimate(game, state, iterations, seed, () if played is None else (played,))


__all__ = ["Assessment", "Value", "assess", "estimate", "prepare", "solve"]
