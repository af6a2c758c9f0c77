"""The alpha-beta bot: iterative-deepening negamax on the fastest engine for the game.

Each iteration searches one ply deeper, root moves ordered best-first from the
previous iteration (the first iteration in a shuffled order, so that equal
moves vary from game to game). The engine keeps a transposition table
(Zobrist keys in the kernels) and history scores between moves. The search
stops at the depth limit, the node limit, the time limit, or as soon as an
iteration is exact: no line was cut off by the depth limit, so the remaining
tree was searched to the end, or a forced win or loss was found.

With an ``EndgamePlan`` (``fourfold.ai.endgame``) the bot first asks the game's
exact solver, once the position is small enough, and plays a move of the best
proven value (pressing the opponent among drawn moves); the search decides
everywhere else, and in positions proven lost (where it resists longest).
"""

from __future__ import annotations

import time
from dataclasses import KW_ONLY, dataclass
from typing import Any

from fourfold.ai._engine import check_two_player, engine_of
from fourfold.ai.base import Bot
from fourfold.ai.endgame import Endgame, EndgamePlan
from fourfold.core.errors import FourfoldError
from fourfold.core.game import View
from fourfold.kernels.engine import MATE_BOUND

DEFAULT_NODES = 200_000
FIRST_RATE = 1_000_000.0  # nodes per second assumed before the first iteration is timed


@dataclass(eq=False)
class AlphaBetaBot(Bot):
    name = "alphabeta"

    _: KW_ONLY
    max_depth: int = 64
    compiled: bool = True
    #: when the exact endgame solver takes over (``None``: never)
    endgame: EndgamePlan | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        check_two_player(self.game, self.name)
        self.engine = engine_of(self.game, self.compiled)
        self.solver = Endgame(self.game) if self.endgame is not None else None
        #: what the last ``choose`` found: depth reached, score, nodes, exact
        self.last: dict[str, Any] = {}

    def _node_budget(self) -> int:
        if self.budget.nodes is not None:
            return self.budget.nodes
        return DEFAULT_NODES if self.budget.seconds is None else 1 << 62

    def choose(self, view: View) -> Any:
        engine = self.engine
        engine.load(view.observation)
        order = engine.legal()
        if not order:
            raise FourfoldError("no legal move: the game is over")
        if self.solver is not None and self.endgame is not None:
            exact = self.solver.choose(view.observation, len(order), self.endgame, self.rng)
            if exact is not None:
                self.last = {"depth": 0, "score": 0, "nodes": 0, "exact": True,
                             "solved": self.solver.last}
                return self.game.decode(exact)
            engine.load(view.observation)
        self.rng.shuffle(order)
        best, score, reached, exact = order[0], 0, 0, False
        budget = self._node_budget()
        used = 0
        start = time.perf_counter()
        deadline = None if self.budget.seconds is None else start + self.budget.seconds
        rate = FIRST_RATE
        for depth in range(1, self.max_depth + 1):
            allowed = budget - used
            if deadline is not None:
                left = deadline - time.perf_counter()
                allowed = min(allowed, int(rate * left))
            if allowed <= 0:
                break
            t0 = time.perf_counter()
            result = engine.search(order, depth, allowed)
            used += result.nodes
            elapsed = time.perf_counter() - t0
            if elapsed > 0.002:
                rate = result.nodes / elapsed
            if result.best < 0:
                break  # out of nodes or time: keep the last complete iteration
            best, score, reached, exact = order[result.best], result.values[result.best], depth, (
                result.exact
            )
            ranked = sorted(range(len(order)), key=lambda i: (i != result.best, -result.values[i]))
            order = [order[i] for i in ranked]
            if exact or abs(score) > MATE_BOUND or len(order) == 1:
                break
        self.last = {"depth": reached, "score": score, "nodes": used, "exact": exact}
        return self.game.decode(best)
