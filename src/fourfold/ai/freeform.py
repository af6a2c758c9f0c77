"""A bot for Folio freeform: it keeps a notional grid fitting and challenges only to win.

It never breaks the grid: every placement it considers is the centre of a
free cell of a grid that fits the pieces, kept only if a grid still fits with
the piece there. It takes a winning placement when one exists; otherwise it
prefers a placement and a give after which no free cell centre of any fitting
grid lets the opponent complete a winning line with the piece given (a cheap
check of the cell centres, not of every point). It challenges exactly when a
challenge wins: when the grid is broken and the opponent broke it.
"""

from __future__ import annotations

import math
from typing import Any

from fourfold.ai.base import Bot, Limit
from fourfold.core.errors import ConfigurationError
from fourfold.core.game import Game, View
from fourfold.games.folio.freeform import fitting
from fourfold.games.folio.freeform.game import FreeformGame, line_through, too_close
from fourfold.games.folio.freeform.notation import PLACES
from fourfold.games.folio.freeform.state import CHALLENGE, FreeformPly, FreeformState, Point

MAX_CANDIDATES = 24  # placements examined for safety, per move
FALLBACK_POINTS = 300  # lattice points tried when no free cell centre keeps a grid


class FreeformBot(Bot):
    name = "freeform"

    def __init__(
        self, game: Game[Any, Any], player: int, seed: int | None = None, limit: Limit | None = None
    ) -> None:
        if not isinstance(game, FreeformGame):
            raise ConfigurationError(
                f"the freeform bot plays only Folio freeform, not {game.info.label()}"
            )
        super().__init__(game, player, seed, limit)
        self.freeform = game

    def choose(self, view: View) -> Any:
        game = self.freeform
        state: FreeformState = view.observation
        if game.outcome(state) is not None:
            raise ValueError("no legal move: the game is over")
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
        found: list[tuple[tuple[complex, ...], complex, tuple[complex, complex]]] = []
        for leaf in fitting.leaves(ps, t):
            solved = fitting.solve(ps, [d + fitting.HALF for d in leaf.offsets], t)
            if solved is None:
                continue
            xs = [int(d.real) for d in leaf.offsets]
            ys = [int(d.imag) for d in leaf.offsets]
            used = set(leaf.offsets)
            for x in range(max(xs) - 3, min(xs) + 4):
                for y in range(max(ys) - 3, min(ys) + 4):
                    if complex(x, y) not in used:
                        found.append((leaf.offsets, complex(x, y), solved))
        return found

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
