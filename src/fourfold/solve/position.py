"""One interface for exact solvers of two-player positions.

A solver answers "who wins with perfect play, how soon, and what is each legal move
worth?". ``fourfold solve``, the terminal player's ``hint``, the server's analysis
and the perfect-play bots all go through ``solver_for``. Values are from the point of
view of the player to move (for a move: of the player who makes it).

A game provides its solvers through its extension bundle (the protocol): the part
``solver`` names a ``GameSolvers`` value, which lists its position solvers
(``SolverEntry``, each optionally limited to some variants), optionally its own
``fourfold solve GAME`` sub-command (``SolverCommand``, replacing the position
solver's arguments), and the module of its ``--split`` solves (``split``; see
docs/distributed.md). Keep the module that holds it light: ``fourfold
solve`` reads every game's ``GameSolvers`` to build its command line, so an entry's
``solve`` should import the solver itself only when called. A game without the
part has no solver: ``solver_for`` answers ``None`` and ``fourfold solve`` says so.

A solver registered with ``exact=False`` is *bounded* (Ice Dao's proof search): it
returns a ``Solution`` only for a position whose value it has proven, and marks a
move it could not prove either way ``Value.UNKNOWN``. The perfect-play bot accepts
only exact solvers.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from fourfold.core.extensions import part
from fourfold.core.game import Game
from fourfold.core.outcome import Result


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
    #: a bounded solver's proven bound where the value or distance is not exact (e.g.
    #: "Blue cannot force a win within 11 plies"), else ``None``
    detail: str | None = None


@dataclass(frozen=True)
class Solution:
    """The exact value of a position for the side to move, with every move's value."""

    value: Value
    distance: int | None
    moves: tuple[MoveValue, ...]
    nodes: int = 0
    seconds: float = 0.0
    #: a bounded solver's word on where the answer comes from and what it proves beyond
    #: ``value`` and ``distance`` (``distance`` is ``None`` when only a bound is proven)
    detail: str | None = None
    #: where the answer comes from: ``None`` (the search), or e.g. "stored proof certificates"
    source: str | None = None


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
    #: loads or builds, once and however long it takes, what every later solve needs (a
    #: table): a review or an explorer calls it first, so that a short time limit per
    #: position does not stop a solver that keeps tables (``None``: nothing to prepare)
    prepare: Callable[[Game[Any, Any]], None] | None = None


@dataclass(frozen=True)
class SolverCommand:
    """A game's own ``fourfold solve GAME`` sub-command: its help line, how it adds its
    arguments to its ``argparse`` parser, and how it runs (returning the exit code)."""

    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


#: ``--beat`` of a split solve: test each move against -1 or 0, or first one value and then
#: the best so far
BEAT_CHOICES = ("-1", "0", "auto")


@dataclass(frozen=True)
class GameSolvers:
    """What a game's ``solver`` extension part names."""

    #: two-player position solvers; ``solver_for`` takes the first that fits the variant
    positions: tuple[SolverEntry, ...] = ()
    #: the game's own ``fourfold solve GAME`` sub-command (else the position solver's)
    command: SolverCommand | None = None
    #: the module that runs ``fourfold solve GAME --split`` (``None``: no split solves); it
    #: gives ``SplitOptions``, ``open_journal``, ``plan_split``, ``run_split``, ``task_line``,
    #: ``split_json`` and ``split_lines`` (``fourfold.games.placement.solver.split``)
    split: str | None = None
    #: ``fourfold bench --solvers``: a reference ``"package.module:function"`` to
    #: ``(quick: bool) -> list[fourfold.bench.solvers.SolverSet]``, the game's sets
    bench: str | None = None
    #: ``fourfold.solve.pns.hooks.ProofHooks``: proof-number search and certificates, as a
    #: ``"package.module:attribute"`` reference (``None``: the game has none)
    proofs: str | None = None
    #: ``fourfold.analysis.review.own.OwnReview``: the game's own review of a finished
    #: game, as a reference (``None``: the per-ply values of two-player games, if any)
    review: str | None = None


def game_solvers(game: Game[Any, Any]) -> GameSolvers | None:
    """The solvers a configured game's bundle names (``None``: it has none)."""
    found: GameSolvers | None = part(game, "solver")
    return found


def ended_solution(game: Game[Any, Any], state: Any, to_play: int) -> Solution | None:
    """The ``Solution`` of an ended position for ``to_play`` (the side that would move
    next): won, lost or drawn at distance 0 with no moves; ``None`` if play goes on."""
    outcome = game.outcome(state)
    if outcome is None:
        return None
    if outcome.result is Result.DRAW:
        return Solution(Value.DRAW, 0, ())
    return Solution(Value.WIN if outcome.winner == to_play else Value.LOSS, 0, ())


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
    """The position solver for this configured game, if there is one."""
    solvers = game_solvers(game)
    if solvers is None:
        return None
    for entry in solvers.positions:
        if entry.variants is None or game.info.variant in entry.variants:
            return entry
    return None
