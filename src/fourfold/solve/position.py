"""One interface for exact solvers of two-player positions.

A solver answers "who wins with perfect play, how soon, and what is each legal move
worth?". Games register a solver per game name (optionally limited to some
variants); ``fourfold solve``, the terminal player's ``hint`` and the perfect-play
bots all go through ``solver_for``. Values are from the point of view of the
player to move (for a move: of the player who makes it).

A solver registered with ``exact=False`` is *bounded* (Ice Dao's proof search): it
returns a ``Solution`` only for a position whose value it has proven, and marks a
move it could not prove either way ``Value.UNKNOWN``. The perfect-play bot accepts
only exact solvers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from fourfold.core.game import Game


class Value(Enum):
    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"
    #: a move a bounded solver could not prove won or lost within its bound (never the
    #: value of a ``Solution`` itself, and never given by an exact solver)
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class MoveValue:
    """A legal move, its value for the player making it, and plies to the end (or None)."""

    move: Any
    value: Value
    distance: int | None


@dataclass(frozen=True)
class Solution:
    """The exact value of a position for the side to move, with every move's value."""

    value: Value
    distance: int | None
    moves: tuple[MoveValue, ...]
    nodes: int = 0
    seconds: float = 0.0


#: ``solve(game, state, seconds)``: a ``Solution``, or ``None`` if it cannot finish
#: within ``seconds`` (``None`` = no limit)
PositionSolver = Callable[[Game[Any, Any], Any, "float | None"], "Solution | None"]


@dataclass(frozen=True)
class SolverEntry:
    solve: PositionSolver
    variants: tuple[str, ...] | None  # None: every variant
    summary: str
    #: False for a bounded solver: it answers only what it proves (see ``Value.UNKNOWN``)
    exact: bool = True


SOLVERS: dict[str, list[SolverEntry]] = {}


def register_solver(
    game: str,
    solve: PositionSolver,
    summary: str,
    variants: tuple[str, ...] | None = None,
    *,
    exact: bool = True,
) -> None:
    SOLVERS.setdefault(game, []).append(SolverEntry(solve, variants, summary, exact))


def preference(value: Value, distance: int | None) -> tuple[int, int]:
    """A sort key, smallest best, for the player choosing: the quickest win, then a draw
    (or an unproven move), then the slowest loss."""
    if value is Value.WIN:
        return (0, distance or 0)
    if value is Value.LOSS:
        return (2, -(distance or 0))
    return (1, 0)


def sort_moves(moves: list[MoveValue]) -> tuple[MoveValue, ...]:
    """Moves best first for the player making them (stable: equal moves keep their order)."""
    return tuple(sorted(moves, key=lambda m: preference(m.value, m.distance)))


def solver_for(game: Game[Any, Any]) -> SolverEntry | None:
    """The solver for this configured game, if there is one."""
    _load_solvers()
    for entry in SOLVERS.get(game.name, []):
        if entry.variants is None or game.info.variant in entry.variants:
            return entry
    return None


#: modules that call ``register_solver`` on import
SOLVER_MODULES: tuple[str, ...] = ("dao", "icedao", "placement")


def _load_solvers() -> None:
    import importlib

    for name in SOLVER_MODULES:
        importlib.import_module(f"fourfold.solve.{name}")
