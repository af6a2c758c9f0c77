"""A bot for Folio freeform: it keeps a notional grid fitting and challenges only to win.

It never breaks the grid: every placement it considers is the centre of a
free cell of a grid that fits the pieces, kept only if a grid still fits with
the piece there. It takes a winning placement when one exists; otherwise it
prefers a placement and a give after which no free cell centre of any fitting
grid lets the opponent complete a winning line with the piece given (a cheap
check of the cell centres, not of every point). It challenges exactly when a
challenge wins: when the grid is broken and the opponent broke it.

Strength knobs, for the levels (``BOTS`` at the end: Folio freeform's ``bots`` part):

- ``careful=False``: the beginner. It still takes a win at once and challenges when
  the opponent broke the grid, but places on a random cell centre and gives a random
  piece.
- ``depth`` >= 2: look ahead. A negamax over the same moves (cell-centre
  placements times the gives that are safe at once), deepened one ply at a time
  up to ``depth`` plies while the node budget (``Limit.nodes``: placements
  examined) lasts; positions at the horizon count as even. Depth 2 finds moves
  that leave the opponent only gives that lose; depth 3 also avoids the
  opponent's such moves. The move is chosen at random among the best of the
  deepest finished iteration.
"""

from __future__ import annotations

import math
from dataclasses import KW_ONLY, dataclass
from typing import Any

from fourfold.ai.base import Bot, Limit, game_for
from fourfold.ai.game_bots import GameBots, NamedBot
from fourfold.ai.levels import Level
from fourfold.core.errors import FourfoldError
from fourfold.core.game import Game, View
from fourfold.core.outcome import Result
from fourfold.games.folio.freeform import fitting
from fourfold.games.folio.freeform.game import FreeformGame, line_through, too_close
from fourfold.games.folio.freeform.notation import PLACES
from fourfold.games.folio.freeform.state import CHALLENGE, FreeformPly, FreeformState, Point

MAX_CANDIDATES = 24  # placements examined for safety, per move
FALLBACK_POINTS = 300  # lattice points tried when no free cell centre keeps a grid
DEFAULT_NODES = 400  # placements examined per move by the look-ahead (depth >= 2)
WIN, EVEN, LOSS = 1, 0, -1


class _OutOfNodes(Exception):
    """The look-ahead used its budget: the iteration in progress is discarded."""


@dataclass(eq=False)
class FreeformBot(Bot):
    name = "freeform"

    _: KW_ONLY
    careful: bool = True
    depth: int = 1

    def __post_init__(self) -> None:
        self.freeform = game_for("freeform", self.game, FreeformGame, "Folio freeform")
        super().__post_init__()
        self.nodes = 0
        #: what the last look-ahead reached: depth finished, value, nodes
        self.last: dict[str, Any] = {}

    def choose(self, view: View) -> Any:
        game = self.freeform
        state: FreeformState = view.observation
        if game.outcome(state) is not None:
            raise FourfoldError("no legal move: the game is over")
        gives = [k for k, n in enumerate(state.supply) if n > 0]
        if state.hand is None:
            return FreeformPly(None, gives[self.rng.randrange(len(gives))])
        if state.broken is not None:
            if (state.broken - 1) % 2 != state.placed % 2:
                return CHALLENGE  # the opponent broke the grid: the challenge wins
            return self._fallback(state)
        candidates = self._candidates(state)
        if not candidates:
            return self._fallback(state)
        for point in candidates:
            if game.after(state, point)[0] is not None:
                return FreeformPly(point, None)
        if not gives:
            return FreeformPly(candidates[0], None)
        if not self.careful:
            placeable = [p for p in candidates if game.after(state, p)[1] is None]
            point = self.rng.choice(placeable) if placeable else candidates[0]
            return FreeformPly(point, gives[self.rng.randrange(len(gives))])
        if self.depth >= 2:
            ahead = self._look_ahead(state, candidates, gives)
            if ahead is not None:
                return ahead
        self.rng.shuffle(candidates)
        fallback: FreeformPly | None = None
        examined = 0
        for point in candidates:
            if examined == MAX_CANDIDATES and fallback is not None:
                break
            if game.after(state, point)[1] is not None:
                continue  # the grid would hang over the table's edge
            examined += 1
            pieces = (*state.pieces, (point[0], point[1], state.hand))
            threats = self._threats(pieces)
            safe = [k for k in gives if k not in threats]
            if safe:
                return FreeformPly(point, safe[self.rng.randrange(len(safe))])
            if fallback is None:
                fallback = FreeformPly(point, gives[self.rng.randrange(len(gives))])
        return fallback if fallback is not None else self._fallback(state)

    # -- look-ahead ---------------------------------------------------------------------------
    def _look_ahead(
        self, state: FreeformState, candidates: list[Point], gives: list[int]
    ) -> FreeformPly | None:
        """A best move of the deepest finished iteration (``None`` if not even depth 2
        finished, or no move is safe at once: the one-ply choice then stands)."""
        budget = self.budget.nodes if self.budget.nodes is not None else DEFAULT_NODES
        self.nodes = 0
        try:
            root = self._safe_moves(state, candidates, gives, budget)
        except _OutOfNodes:
            return None
        if not root:
            return None
        self.rng.shuffle(root)
        chosen: list[FreeformPly] | None = None
        for depth in range(2, self.depth + 1):
            try:
                values = [-self._value(self.freeform.next_state(state, m), depth - 1, budget)
                          for m in root]
            except _OutOfNodes:
                break
            top = max(values)
            chosen = [m for m, v in zip(root, values, strict=True) if v == top]
            self.last = {"depth": depth, "value": top, "nodes": self.nodes}
            if top != EVEN:
                break  # a forced result: deeper search cannot change it
        if chosen is None:
            return None
        return chosen[self.rng.randrange(len(chosen))]

    def _placeable(self, state: FreeformState) -> list[Point]:
        game = self.freeform
        return [p for p in self._candidates(state) if game.after(state, p)[1] is None]

    def _safe_moves(
        self, state: FreeformState, points: list[Point], gives: list[int], budget: int
    ) -> list[FreeformPly]:
        """Placements (keeping the grid on the table) with each give that is safe at once."""
        game = self.freeform
        moves: list[FreeformPly] = []
        for point in points:
            if game.after(state, point)[1] is not None:
                continue
            self._spend(budget)
            threats = self._threats((*state.pieces, (point[0], point[1], state.hand or 0)))
            moves.extend(FreeformPly(point, k) for k in gives if k not in threats)
        return moves

    def _spend(self, budget: int) -> None:
        self.nodes += 1
        if self.nodes > budget:
            raise _OutOfNodes

    def _value(self, state: FreeformState, depth: int, budget: int) -> int:
        """WIN, EVEN or LOSS for the player to move, looking ``depth`` plies ahead over
        cell-centre placements and the gives that are safe at once."""
        game = self.freeform
        if state.ended is not None:  # the placement that led here won, or filled the table
            return LOSS if state.ended.result is Result.WIN else EVEN
        points = self._placeable(state)
        for point in points:
            self._spend(budget)
            if game.after(state, point)[0] is not None:
                return WIN
        gives = [k for k, n in enumerate(state.supply) if n > 0]
        if depth <= 0 or not gives or not points:
            return EVEN
        best = LOSS
        for point in points:
            self._spend(budget)
            threats = self._threats((*state.pieces, (point[0], point[1], state.hand or 0)))
            for kind in gives:
                if kind in threats:
                    continue
                if depth == 1:
                    return EVEN  # a safe move; nothing deeper is looked at
                value = -self._value(game.next_state(state, FreeformPly(point, kind)),
                                     depth - 1, budget)
                if value == WIN:
                    return WIN
                best = max(best, value)
        return best

    def _fallback(self, state: FreeformState) -> FreeformPly:
        """A legal placement (not a losing challenge) when no free cell centre will do:
        one that keeps a grid fitting if the nearest few hundred lattice points hold one."""
        game = self.freeform
        moves = [m for m in game.legal_moves(state) if not m.challenge]
        if not moves:
            return CHALLENGE
        if state.broken is None and state.pieces:
            cx = sum(x for x, _ in state.points) / state.placed
            cy = sum(y for _, y in state.points) / state.placed
            places = sorted({m.place for m in moves if m.place is not None},
                            key=lambda p: (math.hypot(p[0] - cx, p[1] - cy), p))
            for point in places[:FALLBACK_POINTS]:
                if game.after(state, point)[1] is None:
                    keeping = [m for m in moves if m.place == point]
                    return keeping[self.rng.randrange(len(keeping))]
        move: FreeformPly = moves[self.rng.randrange(len(moves))]
        return move

    def _candidates(self, state: FreeformState) -> list[Point]:
        """Free cell centres of the grids fitting the pieces, legal to place on, no repeats."""
        if not state.pieces:
            return [(0.0, 0.0)]
        found: dict[Point, None] = {}
        for _, cell, (q, b) in self._free_cells(state.points):
            centre = (cell + fitting.HALF - b) / q
            point = (round(centre.real, PLACES) + 0.0, round(centre.imag, PLACES) + 0.0)
            if point not in found and self.freeform.place_reason(state, point) is None:
                found[point] = None
        return list(found)

    def _free_cells(
        self, points: list[Point]
    ) -> list[tuple[tuple[complex, ...], complex, tuple[complex, complex]]]:
        """(cells of the points, a free cell, similarity ``(q, b)``) for every assignment of
        the points to relative cells that a grid realises (ignoring the table's edge)."""
        t = self.freeform.tolerance
        ps = [complex(x, y) for x, y in points]
        if len(ps) == 1:
            similarity = (1 + 0j, fitting.HALF - ps[0])
            return [((0j,), d, similarity) for d in (1 + 0j, 1j, 1 + 1j, -1 + 1j)]
        return [(leaf.offsets, w, solved) for leaf, w, solved in fitting.free_cells(ps, t)]

    def _threats(self, pieces: tuple[tuple[float, float, int], ...]) -> set[int]:
        """Kinds that would let the player to move complete a winning line at a free cell
        centre of some fitting grid of ``pieces``."""
        game = self.freeform
        points = [(x, y) for x, y, _ in pieces]
        kinds = [k for _, _, k in pieces]
        threats: set[int] = set()
        if len(points) < 3:
            return threats
        for offsets, cell, (q, b) in self._free_cells(points):
            centre = (cell + fitting.HALF - b) / q
            if not game.table.holds(centre.real, centre.imag) or any(
                too_close(math.hypot(centre.real - x, centre.imag - y)) for x, y in points
            ):
                continue
            cells = fitting.normalised([*offsets, cell])
            for kind in range(game.pieces.num_kinds):
                if kind not in threats and line_through(
                    cells, [*kinds, kind], len(points), game.pieces
                ):
                    threats.add(kind)
        return threats


# -- the bots part of Folio freeform (``fourfold.ai.game_bots``) ---------------------------

class FreeformLevel:
    """The freeform bot as a level plays it: ``Level.depth`` 0 is the beginner, 1 the
    careful bot, 2 and more the look-ahead with ``Level.nodes`` placements per move."""

    def build(self, level: Level, game: Game[Any, Any], player: int, seed: int | None,
              limit: Limit | None) -> Bot:
        seconds = limit.seconds if limit is not None else None
        nodes = limit.nodes if limit and limit.nodes else level.nodes
        depth = 1 if level.depth is None else level.depth
        return FreeformBot(game, player, seed, Limit(seconds=seconds, nodes=nodes),
                           careful=depth > 0, depth=max(depth, 1))

    def describe(self, level: Level) -> str:
        depth, nodes = level.depth, level.nodes
        if depth == 0:
            return ("freeform beginner: wins at once, challenges a broken grid, else a random "
                    "cell centre and a random give")
        if depth is None or depth == 1:
            return ("freeform: wins at once, gives no piece that wins at a cell centre, "
                    "challenges exactly when a challenge wins")
        return (f"freeform look-ahead: {depth} plies over cell-centre placements and safe"
                f" gives, {nodes or DEFAULT_NODES:,} placements per move")


LEVEL = FreeformLevel()


def estimate(game: Game[Any, Any], state: Any, asked: tuple[Any, ...], iterations: int,
             seed: int) -> tuple[tuple[Any, float], ...]:
    """The reviews' estimate: level 5's look-ahead, bounded (``review.estimate``)."""
    from fourfold.games.folio.freeform.review import estimate as look_ahead

    return look_ahead(game, state, asked, iterations, seed)


#: Folio freeform places on a continuous table (about a thousand candidate points per
#: ply, each needing a grid fit), where the generic bots take minutes per game, so every
#: level above random is the freeform bot at a different depth. One placement by
#: greedy, alpha-beta or MCTS on the reference rules (no kernel) took over two minutes
#: (measured, a 0.2 s time limit given): ``make_bot`` refuses them here.
BOTS = GameBots(
    named={"freeform": NamedBot(
        FreeformBot, "Folio freeform: places on fitting grids, challenges exactly when it wins")},
    levels={
        2: Level(2, "freeform", depth=0, own=LEVEL),
        3: Level(3, "freeform", depth=1, own=LEVEL),
        4: Level(4, "freeform", depth=2, nodes=400, own=LEVEL),
        5: Level(5, "freeform", depth=3, nodes=1_500, own=LEVEL),
    },
    too_slow=frozenset({"greedy", "alphabeta", "mcts"}),
    too_slow_reason="over two minutes a placement on a freeform table, where a ply has about"
                    " a thousand candidate placements; play freeform or a level",
    estimate=estimate,
)
