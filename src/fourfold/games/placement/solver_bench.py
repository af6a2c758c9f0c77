"""The solver benchmark sets of Quarto and Folio (``fourfold bench --solvers``).

The exact value and distance of the root (``solve_position(..., rank_moves=False)``)
of positions with N pieces placed and a piece in hand, reached by careful random
play (``random_position``; position i with N pieces uses seed ``1000 N + i``, as
benchmarks/bench_solve_placement.py does); every solve starts from a fresh
transposition table, allocated before the clock starts. Quarto's full run also
solves the start as ``fourfold solve quarto`` does.
"""

from __future__ import annotations

import random
import time
from functools import partial

import fourfold
from fourfold.bench.solvers import Answer, SolverSet, answer
from fourfold.core.errors import FourfoldError
from fourfold.games.placement.game import PlacementGame
from fourfold.games.placement.geometry import Cell
from fourfold.games.placement.lines import winning_line
from fourfold.games.placement.solver import SolveResult, solve_position, solver_for
from fourfold.games.placement.solver import solver as placement_solver
from fourfold.games.placement.solver.tables import ruleset_of
from fourfold.games.placement.state import PlacementState, Ply

#: (pieces placed, positions with --quick, positions in the full run; 0: skipped)
SetSizes = tuple[int, int, int]
#: every placement ruleset benchmarked: (set name prefix, game, variant, options, its sets)
PLACEMENT_RULESETS: tuple[tuple[str, str, str | None, dict[str, str], tuple[SetSizes, ...]],
                          ...] = (
    ("quarto", "quarto", None, {}, ((6, 4, 8), (5, 8, 12), (4, 0, 6))),
    ("folio-fixed", "folio", "fixed-grid", {}, ((5, 4, 8), (4, 8, 12), (3, 0, 4))),
    ("folio-fixed-same", "folio", "fixed-grid", {"line_rule": "same-colour-or-size"},
     ((7, 4, 8), (6, 4, 8), (5, 0, 2))),
    ("folio-standard", "folio", "standard", {}, ((5, 4, 8), (4, 4, 8))),
    ("folio-no-grid", "folio", "no-grid", {}, ((5, 4, 8), (4, 4, 8))),
)


def table_bits_for(placed: int) -> int:
    """Transposition table size: 2^22 entries (about 80 MB), 2^24 from 3 pieces down."""
    return 24 if placed <= 3 else 22


# -- Quarto and Folio ----------------------------------------------------------------------

def careful_move(
    game: PlacementGame, state: PlacementState, rng: random.Random,
    cells: frozenset[Cell] | None = None,
) -> Ply:
    """A random move that does not win at once and gives no winning piece, if one exists
    (placing only on ``cells``, when given)."""
    moves = [m for m in game.legal_moves(state)
             if cells is None or m.place is None or m.place in cells]
    rng.shuffle(moves)
    for move in moves:
        child = game.next_state(state, move)
        if game.outcome(child) is not None or child.hand is None:
            continue
        places = game.geometry.placeable(child.occupied)
        if any(
            winning_line(child.pieces, c, game.pieces.winning_reason, child.hand) for c in places
        ):
            continue
        return move
    return moves[0]


def random_position(
    game: PlacementGame, placed: int, seed: int, cells: frozenset[Cell] | None = None
) -> PlacementState:
    """A position with ``placed`` pieces down and a piece in hand, reached by careful play
    (so that it is not trivially decided), on ``cells`` only when given."""
    rng = random.Random(seed)
    for _ in range(1000):
        state = game.initial_state()
        while game.outcome(state) is None and (state.hand is None or state.placed < placed):
            state = game.next_state(state, careful_move(game, state, rng, cells))
        if game.outcome(state) is None and state.placed == placed:
            return state
    raise FourfoldError(f"no position with {placed} pieces from seed {seed}")


def fresh_table(game: PlacementGame, table_bits: int) -> None:
    """Drop the cached placement solvers and allocate one with an empty table for ``game``
    (the next ``solve_position`` with these ``table_bits`` uses it)."""
    placement_solver.forget_solvers()
    solver_for(game, table_bits)


def solve_fresh(
    game: PlacementGame, state: PlacementState, *, distance: bool = True,
    limit: float | None = None, table_bits: int = 22,
) -> tuple[SolveResult, float]:
    """The root's exact value (and distance) from a fresh table, and the seconds the
    search took (the table's allocation excluded). Raises ``SolveLimitReached``."""
    fresh_table(game, table_bits)
    start = time.perf_counter()
    result = solve_position(game, state, limit, rank_moves=False, distance=distance,
                            table_bits=table_bits)
    return result, time.perf_counter() - start


def warm_up(game: PlacementGame) -> None:
    """Load (or compile) the search kernels before anything is timed: on a position with
    12 pieces, and for Folio standard and no-grid also on 9 pieces in three columns of
    four cells (the 4x4 area still floats and placements inside the columns keep it
    floating, so the floating search runs too)."""
    solve_position(game, random_position(game, 12, 0), table_bits=12)
    if ruleset_of(game)[1] != "grid":
        x, y = game.geometry.placeable(frozenset())[0]
        columns = frozenset((x + dx, y + dy) for dx in range(3) for dy in range(-1, 3))
        solve_position(game, random_position(game, 9, 0, columns), table_bits=12)


PLACEMENT_VALUES = {1: "win", 0: "draw", -1: "loss"}


def _solve_placement(game: PlacementGame, bits: int, state: PlacementState) -> Answer:
    result = solve_position(game, state, rank_moves=False, table_bits=bits)
    return answer(PLACEMENT_VALUES[result.value], result.distance, result.nodes)


def placement_set(
    prefix: str, game: PlacementGame, placed: int, count: int, table_bits: int | None = None
) -> SolverSet:
    """``count`` positions with ``placed`` pieces (seeds ``1000 placed + i``)."""
    bits = table_bits or table_bits_for(placed)
    seeds = [1000 * placed + i for i in range(count)]
    return SolverSet(
        name=f"{prefix}-n{placed}",
        game=game,
        method=f"exact value and distance, {placed} placed",
        positions=lambda: [random_position(game, placed, s) for s in seeds],
        solve=partial(_solve_placement, game, bits),
        setup=partial(warm_up, game),
        before=lambda _: fresh_table(game, bits),
    )


def _solve_start(game: PlacementGame, state: PlacementState) -> Answer:
    result = solve_position(game, state, table_bits=placement_solver.DEFAULT_TABLE_BITS,
                            workers=2)
    return answer(PLACEMENT_VALUES[result.value], result.distance, result.nodes)


def start_set(prefix: str, game: PlacementGame) -> SolverSet:
    """The empty board solved as ``fourfold solve`` does: every opening give's value and
    distance, the default table, a helper thread on the second core."""
    return SolverSet(
        name=f"{prefix}-start",
        game=game,
        method="the start as fourfold solve (every give, 2 processes)",
        positions=lambda: [game.initial_state()],
        solve=partial(_solve_start, game),
        setup=partial(warm_up, game),
        before=lambda _: fresh_table(game, placement_solver.DEFAULT_TABLE_BITS),
    )


def placement_sets(quick: bool, game_name: str | None = None) -> list[SolverSet]:
    """The sets of every placement ruleset (of one game, when ``game_name`` is given)."""
    out = []
    for prefix, name, variant, options, sets in PLACEMENT_RULESETS:
        if game_name is not None and name != game_name:
            continue
        game = fourfold.load(name, variant, **options)
        assert isinstance(game, PlacementGame)
        for placed, quick_count, full_count in sets:
            count = quick_count if quick else full_count
            if count:
                out.append(placement_set(prefix, game, placed, count))
    return out


def quarto_sets(quick: bool) -> list[SolverSet]:
    """Quarto's sets (``GameSolvers.bench``); the full run also solves the start."""
    quarto = fourfold.load("quarto")
    assert isinstance(quarto, PlacementGame)
    return [*placement_sets(quick, "quarto"), *([] if quick else [start_set("quarto", quarto)])]


def folio_sets(quick: bool) -> list[SolverSet]:
    """Folio's sets (``GameSolvers.bench``)."""
    return placement_sets(quick, "folio")
