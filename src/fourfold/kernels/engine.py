"""One small interface over a position that bots search: push, pop, playouts, search.

Bots work on action numbers (the game's dense encoding) through an ``Engine``:
``PlacementEngine`` drives the compiled placement kernel; ``ReferenceEngine``
drives any game's readable rules, so every bot also plays games that have no
kernel yet (and the benchmarks can compare the two).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from fourfold.core.game import Game
from fourfold.core.outcome import Result

WIN = 10_000
MATE_BOUND = WIN - 1000


@dataclass(frozen=True)
class SearchResult:
    """One fixed-depth search of the given root actions.

    ``best`` indexes the root list (-1 if the node limit stopped the search);
    ``values`` are scores from the mover's side (exact for the best move,
    bounds for the others); ``exact`` means no line was cut by the depth limit.
    """

    best: int
    values: list[int]
    nodes: int
    exact: bool


class Engine(ABC):
    """A mutable position of one game, with the operations search needs."""

    def __init__(self, game: Game[Any, Any]) -> None:
        self.game = game

    @abstractmethod
    def load(self, state: Any) -> None:
        """Set the position to a reference state."""

    @abstractmethod
    def legal(self) -> list[int]:
        """Legal actions, in the reference order."""

    @abstractmethod
    def push(self, action: int) -> None: ...

    @abstractmethod
    def pop(self) -> None: ...

    @abstractmethod
    def to_move(self) -> int:
        """The player to move, or -1 once the game is over."""

    @abstractmethod
    def winner(self) -> int:
        """The winner, or -1 (game on, or drawn)."""

    def is_over(self) -> bool:
        return self.to_move() < 0

    def mover_wins_now(self) -> bool:
        """Whether the side to move has a move that wins at once."""
        me = self.to_move()
        if me < 0:
            return False
        for action in self.legal():
            self.push(action)
            won = self.winner() == me
            self.pop()
            if won:
                return True
        return False

    @abstractmethod
    def playout(self, seed: int) -> int:
        """Play random legal moves to the end and take them back; return the winner or -1."""

    def greedy_playout(self, seed: int, max_plies: int = 400) -> int:
        """A playout where each side wins at once when it can and otherwise avoids moves
        that let the opponent win at once (random among the rest); returns the winner or
        -1 (a draw, or still going after ``max_plies`` plies)."""
        rng = random.Random(seed)
        pushed = 0
        while not self.is_over() and pushed < max_plies:
            me = self.to_move()
            actions = self.legal()
            rng.shuffle(actions)
            chosen = actions[-1]
            for action in actions:
                self.push(action)
                winner = self.winner()
                good = winner == me or (winner < 0 and not self.mover_wins_now())
                self.pop()
                if good:
                    chosen = action
                    break
            self.push(chosen)
            pushed += 1
        winner = self.winner()
        for _ in range(pushed):
            self.pop()
        return winner

    @abstractmethod
    def playouts(self, games: int, seed: int) -> tuple[int, int, int]:
        """``games`` random playouts from here: wins of player 0, of player 1, draws."""

    def c_playout(self) -> str | None:
        """A plain C program of the same playout loop for this ruleset, as a reference
        ``"package:file.c"`` (``fourfold bench`` times it as the speed-of-light row), or
        ``None``. The program takes ``GAMES SEED`` and prints ``GAMES WINS0 WINS1 DRAWS
        SECONDS``; with one seed it must play the games ``playouts`` plays."""
        return None

    @abstractmethod
    def search(self, root: list[int], depth: int, node_limit: int) -> SearchResult:
        """Alpha-beta to ``depth`` plies over the root actions in the given order."""

    @abstractmethod
    def forget(self) -> None:
        """Forget what earlier searches learnt (transposition table, history scores): the
        next search runs as a new engine's would."""

    @abstractmethod
    def perft(self, depth: int) -> int: ...


class ReferenceEngine(Engine):
    """The readable rules behind the engine interface (a stack of immutable states)."""

    def __init__(self, game: Game[Any, Any], table_size: int = 1 << 18) -> None:
        super().__init__(game)
        self.states: list[Any] = [game.initial_state()]
        self.table: dict[Any, tuple[int, int, int, int, bool]] = {}
        self.table_size = table_size
        self.history: dict[int, int] = {}

    @property
    def state(self) -> Any:
        return self.states[-1]

    def load(self, state: Any) -> None:
        self.states = [state]

    def legal(self) -> list[int]:
        return [self.game.encode(m) for m in self.game.legal_moves(self.state)]

    def push(self, action: int) -> None:
        self.states.append(self.game.next_state(self.state, self.game.decode(action)))

    def pop(self) -> None:
        self.states.pop()

    def to_move(self) -> int:
        player = self.game.to_move(self.state)
        return -1 if player is None else player

    def winner(self) -> int:
        outcome = self.game.outcome(self.state)
        if outcome is None or outcome.result is not Result.WIN or outcome.winner is None:
            return -1
        return outcome.winner

    def playout(self, seed: int, max_plies: int = 400) -> int:
        rng = random.Random(seed)
        game = self.game
        state = self.state
        for _ in range(max_plies):
            moves = game.legal_moves(state)
            if not moves:
                break
            state = game.next_state(state, moves[rng.randrange(len(moves))])
        outcome = game.outcome(state)  # None when the playout was cut: counted as a draw
        if outcome is None or outcome.winner is None:
            return -1
        return outcome.winner

    def playouts(self, games: int, seed: int) -> tuple[int, int, int]:
        results = [0, 0, 0]
        rng = random.Random(seed)
        for _ in range(games):
            w = self.playout(rng.getrandbits(63))
            results[w if w >= 0 else 2] += 1
        return results[0], results[1], results[2]

    def forget(self) -> None:
        self.table.clear()
        self.history.clear()

    def perft(self, depth: int) -> int:
        from fourfold.core.perft import perft

        return perft(self.game, self.state, depth)

    def search(self, root: list[int], depth: int, node_limit: int) -> SearchResult:
        searcher = _ReferenceSearch(self, node_limit)
        best, values = searcher.root(root, depth)
        return SearchResult(best, values, searcher.nodes, not searcher.horizon)


class _SearchAborted(Exception):
    """The node limit was reached: unwind and discard the iteration."""


class _ReferenceSearch:
    """Negamax with alpha-beta over the readable rules (the kernel's slow twin)."""

    def __init__(self, engine: ReferenceEngine, node_limit: int) -> None:
        self.engine = engine
        self.game = engine.game
        self.limit = node_limit
        self.nodes = 0
        self.horizon = False

    def root(self, root: list[int], depth: int) -> tuple[int, list[int]]:
        alpha = -(1 << 30)
        best = -1
        values = [0] * len(root)
        state = self.engine.state
        me = self.engine.to_move()
        try:
            for i, action in enumerate(root):
                child = self.game.next_state(state, self.game.decode(action))
                value = -self.negamax(child, depth - 1, -(1 << 30), -alpha, 1, 1 - me)
                values[i] = value
                if value > alpha:
                    alpha, best = value, i
        except _SearchAborted:
            return -1, values
        return best, values

    def negamax(self, state: Any, depth: int, alpha: int, beta: int, ply: int, me: int) -> int:
        """The value of ``state`` for ``me``, the player to move there (two players alternate)."""
        self.nodes += 1
        if self.nodes >= self.limit:
            raise _SearchAborted
        game = self.game
        outcome = game.outcome(state)
        if outcome is not None:
            if outcome.winner is None:
                return 0
            return WIN - ply if outcome.winner == me else -(WIN - ply)
        if depth <= 0:
            self.horizon = True
            return 0
        table = self.engine.table
        entry = table.get(state)
        tt_move = -1
        if entry is not None:
            e_depth, e_bound, e_value, tt_move, e_exact = entry
            if e_depth >= depth:
                value = _from_table(e_value, ply)
                if e_bound == 0 or (e_bound == 1 and value >= beta) or (
                    e_bound == 2 and value <= alpha
                ):
                    self.horizon = self.horizon or not e_exact
                    return value
        saved_horizon = self.horizon
        self.horizon = False
        history = self.engine.history
        moves = [game.encode(m) for m in game.legal_moves(state)]
        moves.sort(key=lambda a: (a != tt_move, -history.get(a, 0)))
        alpha0, best, best_move = alpha, -(1 << 30), -1
        for action in moves:
            child = game.next_state(state, game.decode(action))
            value = -self.negamax(child, depth - 1, -beta, -alpha, ply + 1, 1 - me)
            if value > best:
                best, best_move = value, action
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        history[action] = history.get(action, 0) + depth * depth
                        break
        bound = 2 if best <= alpha0 else (1 if best >= beta else 0)
        if len(table) >= self.engine.table_size:
            table.clear()
        table[state] = (depth, bound, _to_table(best, ply), best_move, not self.horizon)
        self.horizon = self.horizon or saved_horizon
        return best


def _to_table(value: int, ply: int) -> int:
    if value > MATE_BOUND:
        return value + ply
    if value < -MATE_BOUND:
        return value - ply
    return value


def _from_table(value: int, ply: int) -> int:
    if value > MATE_BOUND:
        return value - ply
    if value < -MATE_BOUND:
        return value + ply
    return value


def as_list(actions: npt.NDArray[np.int64], count: int) -> list[int]:
    return [int(a) for a in actions[:count]]
