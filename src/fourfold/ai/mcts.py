"""Monte Carlo tree search (UCT) with a pluggable leaf evaluator.

Selection by UCB1 on the mover's mean reward, one child expanded per
iteration, the leaf valued by an ``Evaluator``, rewards backed up along the
path; the move played is the most visited child. The default evaluator runs
greedy playouts on the game's engine (compiled where a kernel exists): each
side wins when it can and avoids handing over a win. ``RandomPlayouts`` gives
plain UCT. At the root, a move that wins at once is played without
searching, and moves that let the opponent win at once are dropped while
others remain (decisive and anti-decisive moves).
"""

from __future__ import annotations

import math
import time
from abc import ABC, abstractmethod
from dataclasses import KW_ONLY, dataclass, field
from typing import Any

from fourfold.ai._engine import check_two_player, engine_of
from fourfold.ai.base import Bot
from fourfold.core.errors import FourfoldError
from fourfold.core.game import View
from fourfold.kernels.engine import Engine

DEFAULT_ITERATIONS = 2_000
EXPLORATION = 1.4


class Evaluator(ABC):
    """Values a non-terminal leaf: the expected reward of each player (+1 win, -1 loss)."""

    @abstractmethod
    def evaluate(self, engine: Engine, seed: int) -> tuple[float, float]:
        """Rewards for players 0 and 1 of the engine's current position."""


class RandomPlayouts(Evaluator):
    """The mean result of ``playouts`` uniformly random games to the end."""

    def __init__(self, playouts: int = 1) -> None:
        self.playouts = playouts

    def evaluate(self, engine: Engine, seed: int) -> tuple[float, float]:
        if self.playouts == 1:
            winner = engine.playout(seed)
            return _rewards(winner)
        w0, w1, _ = engine.playouts(self.playouts, seed)
        r0 = (w0 - w1) / self.playouts
        return r0, -r0


class GreedyPlayouts(Evaluator):
    """The mean result of playouts by the cheap greedy policy (``Engine.greedy_playout``)."""

    def __init__(self, playouts: int = 1) -> None:
        self.playouts = playouts

    def evaluate(self, engine: Engine, seed: int) -> tuple[float, float]:
        total = 0.0
        for i in range(self.playouts):
            total += _rewards(engine.greedy_playout(seed + i))[0]
        r0 = total / self.playouts
        return r0, -r0


def _rewards(winner: int) -> tuple[float, float]:
    if winner == 0:
        return 1.0, -1.0
    if winner == 1:
        return -1.0, 1.0
    return 0.0, 0.0


class _Node:
    __slots__ = ("action", "children", "mover", "reward", "untried", "visits")

    def __init__(self, action: int, mover: int) -> None:
        self.action = action
        self.mover = mover  # the player who played ``action`` into this node
        self.children: list[_Node] = []
        self.untried: list[int] | None = None
        self.visits = 0
        self.reward = 0.0


@dataclass(eq=False)
class MCTSBot(Bot):
    name = "mcts"

    _: KW_ONLY
    evaluator: Evaluator = field(default_factory=GreedyPlayouts)
    exploration: float = EXPLORATION

    def __post_init__(self) -> None:
        super().__post_init__()
        check_two_player(self.game, self.name)
        self.engine = engine_of(self.game)
        self.last: dict[str, Any] = {}

    def choose(self, view: View) -> Any:
        engine = self.engine
        engine.load(view.observation)
        me = engine.to_move()
        actions = engine.legal()
        if not actions:
            raise FourfoldError("no legal move: the game is over")
        safe: list[int] = []
        for action in actions:
            engine.push(action)
            winner = engine.winner()
            if winner < 0 and not engine.mover_wins_now():
                safe.append(action)
            engine.pop()
            if winner == me:
                self.last = {"iterations": 0, "decisive": True}
                return self.game.decode(action)
        if safe:
            actions = safe  # anti-decisive: never hand over an immediate win if avoidable
        if len(actions) == 1:
            return self.game.decode(actions[0])
        root = self.search(me, actions)
        best = max(root.children, key=lambda n: (n.visits, n.reward))
        return self.game.decode(best.action)

    def search(self, me: int, actions: list[int]) -> _Node:
        engine = self.engine
        root = _Node(-1, 1 - me)
        root.untried = list(actions)
        iterations = self.budget.iterations
        if iterations is None:
            iterations = DEFAULT_ITERATIONS if self.budget.seconds is None else 1 << 62
        seconds = self.budget.seconds
        deadline = None if seconds is None else time.perf_counter() + seconds
        c = self.exploration
        rng = self.rng
        done = 0
        while done < iterations:
            if deadline is not None and done % 64 == 0 and time.perf_counter() > deadline:
                break
            node = root
            path = [root]
            while True:
                if node.untried is None:
                    node.untried = engine.legal() if not engine.is_over() else []
                if node.untried or not node.children:
                    break
                log_n = math.log(node.visits)
                node = max(
                    node.children,
                    key=lambda ch: ch.reward / ch.visits + c * math.sqrt(log_n / ch.visits),
                )
                engine.push(node.action)
                path.append(node)
            if node.untried:
                action = node.untried.pop(rng.randrange(len(node.untried)))
                mover = engine.to_move()
                engine.push(action)
                child = _Node(action, mover)
                node.children.append(child)
                path.append(child)
            if engine.is_over():
                rewards = _rewards(engine.winner())
            else:
                rewards = self.evaluator.evaluate(engine, rng.getrandbits(63))
            for n in path:
                n.visits += 1
                if n.mover >= 0:
                    n.reward += rewards[n.mover]
            for _ in range(len(path) - 1):
                engine.pop()
            done += 1
        self.last = {"iterations": done, "decisive": False}
        return root
