"""Exact endgames for the stronger levels: never throw a won or drawn position, and press.

A level with an ``EndgamePlan`` asks ``Endgame.choose`` before it searches. Once
the position is small enough (at most ``max_moves`` legal moves) and the exact
solver proves the value of every move within ``nodes``, the level plays a move
of the best value, so from there on it never turns a win into a draw or a draw
into a loss. Two sources of exact values, chosen by what the game has:

- the game's own ``ExactEndgame`` (the ``endgame`` of its ``bots`` part,
  ``fourfold.ai.game_bots``): a search solver with a node budget (the placement
  games'). It must answer from the position and the budget alone, never from what
  was solved before (``fresh`` solves start from an empty table), so that a seeded
  match replays move for move whatever ran earlier in the process.
- else the game's registered solver (``fourfold.solve.position.solver_for``), when
  it is exact and answers by table look-up (a retrograde table, built once and
  cached on disk).

Games with neither (one whose solver is only bounded) have no endgame here.

**Pressing (the squeeze).** Among moves of equal value a perfect player is
indifferent; against a fallible one they are not equal. With a ``squeeze`` budget
the level solves the opponent's replies after each of its drawing moves and
plays the one that leaves the opponent the largest share of losing replies among
the *plausible* ones, those that do not hand over a win at once (any opponent
sees those; a reply that loses ten plies later is another matter). Where a
perfect player would only hold the draw, this is what wins games.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Protocol

from fourfold.ai.game_bots import game_bots
from fourfold.core.game import Game
from fourfold.kernels import engine_for
from fourfold.solve.position import Value, solver_for

WIN, DRAW, LOSS = 1, 0, -1
_VALUES = {Value.WIN: WIN, Value.DRAW: DRAW, Value.LOSS: LOSS}


@dataclass(frozen=True)
class EndgamePlan:
    """When a level solves exactly, with what budget, and how hard it presses."""

    #: node budget of the exact solve of the position (every move valued)
    nodes: int
    #: try the exact solve only when at most this many moves are legal
    max_moves: int
    #: node budget for solving the opponent's replies to choose among the best moves
    squeeze: int = 0


@dataclass(frozen=True)
class Solved:
    """Exact values for the player to move: the position's, and each listed action's.

    ``moves`` holds every legal action when ``complete``; otherwise only a best one.
    ``distances`` (when asked for) are plies to the end under perfect play.
    """

    value: int
    moves: list[tuple[int, int]]
    complete: bool
    nodes: int = 0
    distances: list[int | None] | None = None

    def best(self) -> list[int]:
        """The actions of the best value (among those listed)."""
        return [a for a, v in self.moves if v == self.value]


class ExactEndgame(Protocol):
    """A game's exact solver within a node budget (the ``endgame`` of its ``bots`` part)."""

    def solve(self, state: Any, nodes: int, *, every_move: bool, fresh: bool,
              distance: bool) -> Solved | None:
        """The exact values of ``state`` and its moves (encoded actions), or ``None`` when
        ``nodes`` are not enough. Without ``every_move`` it may stop at the first move of
        the best value; ``fresh`` empties what the previous solve learnt (``fresh=False``
        keeps it, within one decision); ``distance`` asks for plies to the end."""
        ...


class Endgame:
    """The exact endgame of one configured game (``available`` is False if it has none)."""

    def __init__(self, game: Game[Any, Any]) -> None:
        self.game = game
        make = game_bots(game).endgame
        self.exact: ExactEndgame | None = make(game) if make is not None else None
        entry = None if self.exact is not None else solver_for(game)
        self.entry = entry if entry is not None and entry.exact else None
        self.available = self.exact is not None or self.entry is not None
        self.engine = engine_for(game)
        #: what the last ``choose`` did: "solved", "squeezed", or absent
        self.last: dict[str, Any] = {}

    # -- playing ----------------------------------------------------------------------------
    def choose(self, state: Any, legal: int, plan: EndgamePlan, rng: random.Random) -> int | None:
        """A move of the best exact value (pressing the opponent if the plan says so), or
        ``None``: no solver, too many legal moves (``legal``), out of budget, or lost (where
        the caller's search resists better than a random losing move)."""
        self.last = {}
        if not self.available or legal > plan.max_moves:
            return None
        solved = self.solve(state, plan.nodes)
        if solved is None or solved.value == LOSS:
            return None
        if plan.squeeze and solved.value == DRAW and not solved.complete:
            # every drawing move, to choose among them (the table is kept: same decision)
            ranked = self.solve(state, plan.nodes - solved.nodes, every_move=True, fresh=False)
            if ranked is not None:
                solved = ranked
        best = solved.best()
        self.last = {"value": solved.value, "nodes": solved.nodes, "best": len(best)}
        if plan.squeeze and solved.value == DRAW and len(best) > 1:
            best = self._squeeze(state, best, plan)
        return best[rng.randrange(len(best))]

    def _squeeze(self, state: Any, best: list[int], plan: EndgamePlan) -> list[int]:
        """The moves among ``best`` (all drawn) leaving the opponent the largest share of
        losing replies among its plausible ones (those that do not hand over a win at
        once); ``best`` unchanged if the budget runs out."""
        game = self.game
        engine = self.engine
        left = plan.squeeze
        scored: list[tuple[float, int]] = []
        for action in best:
            child = game.next_state(state, game.decode(action))
            if game.outcome(child) is not None:
                scored.append((-1.0, action))  # drawn at once (e.g. a repetition): no chances
                continue
            replies = None
            if left > 0:
                replies = self.solve(child, left, every_move=True, fresh=False)
            if replies is None:
                return best
            left -= max(replies.nodes, 1)
            engine.load(child)
            plausible = traps = 0
            for reply, value in replies.moves:
                engine.push(reply)
                obvious = engine.winner() < 0 and engine.mover_wins_now()
                engine.pop()
                if not obvious:
                    plausible += 1
                    traps += value == LOSS
            scored.append((traps / plausible if plausible else 0.0, action))
        top = max(score for score, _ in scored)
        self.last["squeezed"] = top
        return [a for score, a in scored if score == top]

    # -- solving ----------------------------------------------------------------------------
    def solve(
        self,
        state: Any,
        nodes: int,
        *,
        every_move: bool = False,
        fresh: bool = True,
        distance: bool = False,
    ) -> Solved | None:
        """The exact values, or ``None`` if the budget of ``nodes`` is not enough.

        Without ``every_move`` a budgeted solve may stop at the first move of the best
        value (much cheaper: a won position needs one winning move proven).
        ``fresh=False`` keeps the table of the previous solve: for a series of solves
        within one decision, which is still determined by its first position.
        """
        if self.exact is not None:
            return self.exact.solve(state, nodes, every_move=every_move, fresh=fresh,
                                    distance=distance)
        if self.entry is None:
            return None
        solution = self.entry.solve(self.game, state, None)
        if solution is None or not solution.moves:
            return None
        moves = [(self.game.encode(m.move), _VALUES[m.value]) for m in solution.moves]
        distances = [m.distance for m in solution.moves]
        return Solved(_VALUES[solution.value], moves, True, len(moves), distances)
