"""Solver benchmarks behind ``fourfold bench --solvers``: time and nodes per position set.

Each *set* is a fixed list of positions, generated from explicit seeds, and one way
of solving them:

* **Quarto and Folio** (fixed-grid with both line rules, standard and no-grid): the
  exact value and distance of the root (``solve_position(..., rank_moves=False)``)
  of positions with N pieces placed and a piece in hand, reached by careful random
  play (``random_position``; position i with N pieces uses seed ``1000 N + i``, as
  benchmarks/bench_solve_placement.py does). Every solve starts from a fresh
  transposition table, allocated before the clock starts.
* **Quarto from the start** (full run only): the empty board solved as ``fourfold
  solve quarto`` solves it (every opening give valued, the default table, a helper
  process on the second core); the time is wall time, the nodes are both processes'.
* **Classic Dao**: the retrograde build of the whole table from scratch
  (``dao.build_table``; numba's compilation is done before the clock starts), and a
  probe set: ``dao.solve`` (the value of the position and of every move) on
  positions reached by random play. Both run with ``$FOURFOLD_CACHE`` pointing at a
  temporary folder and keep the table in memory only: the user's cache is neither
  read nor written.
* **Ice Dao**: the proof search ``icedao.prove`` (iterative deepening up to N moves)
  on positions reached by random play, for N = 1, 2, 3.

For each set: positions, seconds (total, mean and max per position), the nodes the
solver counts (alpha-beta nodes; proof-search nodes; table look-ups for the Dao
probe; the Dao build counts none and reports time only) and the values found, with a
checksum of every position and its answer so that two runs can be compared (the same
checksum means the same positions and the same values, and distances where the solver
gives them).
"""

from __future__ import annotations

import hashlib
import os
import platform
import random
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import fourfold
from fourfold.core.errors import FourfoldError
from fourfold.core.game import Game
from fourfold.games.placement.game import PlacementGame
from fourfold.games.placement.geometry import Cell
from fourfold.games.placement.lines import winning_line
from fourfold.games.placement.solver import SolveResult, solve_position, solver_for
from fourfold.games.placement.solver import solver as placement_solver
from fourfold.games.placement.solver.tables import ruleset_of
from fourfold.games.placement.state import PlacementState, Ply

# -- what the sets are made of ------------------------------------------------------------

#: (set name prefix, game, variant, options) of every placement ruleset benchmarked
PLACEMENT_RULESETS: tuple[tuple[str, str, str | None, dict[str, str]], ...] = (
    ("quarto", "quarto", None, {}),
    ("folio-fixed", "folio", "fixed-grid", {}),
    ("folio-fixed-same", "folio", "fixed-grid", {"line_rule": "same-colour-or-size"}),
    ("folio-standard", "folio", "standard", {}),
    ("folio-no-grid", "folio", "no-grid", {}),
)
#: (ruleset, pieces placed, positions with --quick, positions in the full run; 0: skipped)
PLACEMENT_SETS: tuple[tuple[str, int, int, int], ...] = (
    ("quarto", 6, 4, 8),
    ("quarto", 5, 8, 12),
    ("quarto", 4, 0, 6),
    ("folio-fixed", 5, 4, 8),
    ("folio-fixed", 4, 8, 12),
    ("folio-fixed", 3, 0, 4),
    ("folio-fixed-same", 7, 4, 8),
    ("folio-fixed-same", 6, 4, 8),
    ("folio-fixed-same", 5, 0, 2),
    ("folio-standard", 5, 4, 8),
    ("folio-standard", 4, 4, 8),
    ("folio-no-grid", 5, 4, 8),
    ("folio-no-grid", 4, 4, 8),
)
#: Dao probe positions (quick, full): position i is i % 40 random plies, seed DAO_SEED + i
DAO_PROBES = (1_000, 5_000)
DAO_SEED = 7_000
#: Ice Dao positions (quick, full): position i is 6 + i % 12 random plies, seed
#: ICEDAO_SEED + i; each set proves them within N = 1, 2, 3 moves
ICEDAO_POSITIONS = (20, 60)
ICEDAO_MOVES = (1, 2, 3)
ICEDAO_SEED = 9_000


def table_bits_for(placed: int) -> int:
    """Transposition table size: 2^22 entries (about 80 MB), 2^24 from 3 pieces down."""
    return 24 if placed <= 3 else 22


# -- results --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Answer:
    """What solving one position gave: counts of values (one value for one position),
    the text the checksum hashes, and the nodes searched (``None``: not counted)."""

    values: dict[str, int]
    key: str
    nodes: int | None = None


def answer(value: str, distance: int | None, nodes: int | None) -> Answer:
    return Answer({value: 1}, f"{value}:{distance}", nodes)


def position_key(game: Game[Any, Any], position: Any, key: str) -> str:
    """What the checksum hashes for one position: the position string and the answer."""
    return key if position is None else f"{game.format_position(position)}={key}"


def checksum(keys: Iterable[str]) -> str:
    """A short hash of the positions' keys, in order: equal for two runs of a set that
    solved the same positions and found the same answers."""
    digest = hashlib.sha256()
    for key in keys:
        digest.update(f"{key};".encode())
    return digest.hexdigest()[:12]


@dataclass(frozen=True)
class SolverRow:
    """The figures of one set."""

    set: str
    game: str
    method: str
    positions: int
    seconds: float
    max_seconds: float
    nodes: int | None
    values: dict[str, int]
    checksum: str

    @property
    def mean_seconds(self) -> float:
        return self.seconds / self.positions if self.positions else 0.0

    @property
    def nodes_per_s(self) -> float | None:
        if self.nodes is None or self.seconds <= 0:
            return None
        return self.nodes / self.seconds

    def as_dict(self) -> dict[str, Any]:
        rate = self.nodes_per_s
        return {
            "set": self.set, "game": self.game, "method": self.method,
            "positions": self.positions, "seconds": round(self.seconds, 3),
            "mean_seconds": round(self.mean_seconds, 4),
            "max_seconds": round(self.max_seconds, 4), "nodes": self.nodes,
            "nodes_per_s": None if rate is None else round(rate),
            "values": self.values, "checksum": self.checksum,
        }


def _nothing(*_: Any) -> None:
    return None


@dataclass(frozen=True)
class SolverSet:
    """Fixed positions and how to solve them.

    ``setup`` runs once and ``before`` before each position, both off the clock (warm-up,
    fresh tables); ``session`` wraps the whole set (e.g. a private cache folder).
    ``positions`` lists what ``solve`` takes: positions, or ``[None]`` for a set that
    times one whole job (the Dao build).
    """

    name: str
    game: Game[Any, Any]
    method: str
    positions: Callable[[], list[Any]]
    solve: Callable[[Any], Answer]
    setup: Callable[[], None] = _nothing
    before: Callable[[Any], None] = _nothing
    session: Callable[[], AbstractContextManager[Any]] = field(default=nullcontext)


def run_set(solver_set: SolverSet, on_progress: Callable[[str], None] | None = None) -> SolverRow:
    """Solve every position of the set; time each solve alone."""
    with solver_set.session():
        positions = solver_set.positions()
        solver_set.setup()
        total = 0.0
        longest = 0.0
        nodes: int | None = 0
        values: Counter[str] = Counter()
        keys = []
        for i, position in enumerate(positions):
            if on_progress is not None:
                on_progress(f"{solver_set.name}: {i + 1}/{len(positions)}")
            solver_set.before(position)
            start = time.perf_counter()
            done = solver_set.solve(position)
            seconds = time.perf_counter() - start
            total += seconds
            longest = max(longest, seconds)
            nodes = None if nodes is None or done.nodes is None else nodes + done.nodes
            values.update(done.values)
            keys.append(position_key(solver_set.game, position, done.key))
    return SolverRow(solver_set.name, solver_set.game.info.label(), solver_set.method,
                     len(positions), total, longest, nodes, dict(sorted(values.items())),
                     checksum(keys))


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
    distance, the default table, a helper process on the second core."""
    return SolverSet(
        name=f"{prefix}-start",
        game=game,
        method="the start as fourfold solve (every give, 2 processes)",
        positions=lambda: [game.initial_state()],
        solve=partial(_solve_start, game),
        setup=partial(warm_up, game),
        before=lambda _: fresh_table(game, placement_solver.DEFAULT_TABLE_BITS),
    )


# -- Dao and Ice Dao: positions by random play ---------------------------------------------

def played_position(game: Game[Any, Any], plies: int, seed: int) -> Any:
    """The position after ``plies`` random moves from the start, never a move that ends the
    game (it stops early if every move would)."""
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(plies):
        moves = list(game.legal_moves(state))
        rng.shuffle(moves)
        live = (c for c in (game.next_state(state, m) for m in moves) if game.outcome(c) is None)
        child = next(live, None)
        if child is None:
            break
        state = child
    return state


# -- classic Dao -------------------------------------------------------------------------------

#: tables built by this bench, by the fingerprint of the rules (memory only)
_DAO_BUILT: dict[str, Any] = {}


@contextmanager
def private_dao_cache() -> Iterator[None]:
    """Point ``$FOURFOLD_CACHE`` at a temporary folder for the duration, so that the Dao
    solver neither reads nor writes the user's cache; forget the table held for it."""
    from fourfold.games.dao import solver as dao

    saved = os.environ.get("FOURFOLD_CACHE")
    with tempfile.TemporaryDirectory(prefix="fourfold-bench-") as folder:
        os.environ["FOURFOLD_CACHE"] = folder
        try:
            yield
        finally:
            dao.hold_table(None)
            if saved is None:
                os.environ.pop("FOURFOLD_CACHE", None)
            else:
                os.environ["FOURFOLD_CACHE"] = saved


def _dao_compile() -> None:
    """Compile (or load from numba's cache) the build kernel, off the clock."""
    from fourfold.games.dao import solver as dao

    dao.compile_build()


def _dao_build(_: None) -> Answer:
    """Build the table; its value counts (about 10 ms) are on the clock too."""
    from fourfold.games.dao import solver as dao

    packed, _info = dao.build_table()
    _DAO_BUILT[dao.tables().fingerprint()] = packed
    summary = dao.summarize(packed)
    values = {"win": summary.wins, "loss": summary.losses, "draw": summary.draws}
    return Answer(values, hashlib.sha256(packed.tobytes()).hexdigest(), None)


def _dao_table_in_memory() -> None:
    """Give the Dao solver the table this bench built (building it if no set did), in
    memory under the private cache's path."""
    from fourfold.games.dao import solver as dao

    fingerprint = dao.tables().fingerprint()
    if fingerprint not in _DAO_BUILT:
        _DAO_BUILT[fingerprint] = dao.build_table()[0]
    dao.hold_table(_DAO_BUILT[fingerprint])


def _dao_probe(game: Game[Any, Any], state: Any) -> Answer:
    from fourfold.games.dao import solver as dao

    solution = dao.solve(game, state)
    assert solution is not None
    return answer(solution.value.value, solution.distance, solution.nodes)


def dao_build_set() -> SolverSet:
    return SolverSet(
        name="dao-build", game=fourfold.load("dao"),
        method="retrograde build of all 900,900 entries (time only)",
        positions=lambda: [None], solve=_dao_build, setup=_dao_compile,
        session=private_dao_cache,
    )


def dao_probe_positions(count: int) -> list[Any]:
    game = fourfold.load("dao")
    return [played_position(game, i % 40, DAO_SEED + i) for i in range(count)]


def dao_probe_set(count: int) -> SolverSet:
    game = fourfold.load("dao")
    return SolverSet(
        name="dao-probe", game=game,
        method="table value of the position and of every move (nodes: look-ups)",
        positions=partial(dao_probe_positions, count), solve=partial(_dao_probe, game),
        setup=_dao_table_in_memory, session=private_dao_cache,
    )


# -- Ice Dao -------------------------------------------------------------------------------

def _icedao_prove(game: Game[Any, Any], moves: int, state: Any) -> Answer:
    from fourfold.games.icedao import solver as icedao

    proof = icedao.prove(game, state, moves)
    value = "unproven" if proof.value is None else proof.value.value
    return answer(value, proof.moves if proof.value is not None else None, proof.nodes)


def icedao_positions(count: int) -> list[Any]:
    game = fourfold.load("icedao")
    return [played_position(game, 6 + i % 12, ICEDAO_SEED + i) for i in range(count)]


def icedao_set(moves: int, count: int) -> SolverSet:
    game = fourfold.load("icedao")
    return SolverSet(
        name=f"icedao-n{moves}", game=game,
        method=f"proof search: win or loss within {moves} move{'s' if moves > 1 else ''}",
        positions=partial(icedao_positions, count), solve=partial(_icedao_prove, game, moves),
    )


# -- every set -------------------------------------------------------------------------------

def placement_sets(quick: bool) -> list[SolverSet]:
    games = {prefix: fourfold.load(name, variant, **options)
             for prefix, name, variant, options in PLACEMENT_RULESETS}
    out = []
    for prefix, placed, quick_count, full_count in PLACEMENT_SETS:
        count = quick_count if quick else full_count
        game = games[prefix]
        assert isinstance(game, PlacementGame)
        if count:
            out.append(placement_set(prefix, game, placed, count))
    return out


def solver_sets(quick: bool = False) -> list[SolverSet]:
    """Every set of ``fourfold bench --solvers`` (``--quick``: fewer positions, shallower)."""
    mode = 0 if quick else 1
    quarto = fourfold.load("quarto")
    assert isinstance(quarto, PlacementGame)
    return [
        *placement_sets(quick),
        *([] if quick else [start_set("quarto", quarto)]),
        dao_build_set(),
        dao_probe_set(DAO_PROBES[mode]),
        *(icedao_set(n, ICEDAO_POSITIONS[mode]) for n in ICEDAO_MOVES),
    ]


def run_solver_bench(
    quick: bool = False,
    on_progress: Callable[[str], None] | None = None,
    on_row: Callable[[SolverRow], None] | None = None,
) -> list[SolverRow]:
    """Run every set in order; report progress per position and each row when done."""
    rows = []
    for solver_set in solver_sets(quick):
        row = run_set(solver_set, on_progress)
        rows.append(row)
        if on_row is not None:
            on_row(row)
    return rows


# -- the machine ---------------------------------------------------------------------------

def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def machine() -> dict[str, Any]:
    """CPU count and model, Python and numba versions, and the load average now."""
    import numba

    try:
        load: float | None = round(os.getloadavg()[0], 2)
    except OSError:
        load = None
    return {"nproc": os.cpu_count(), "cpu": cpu_model(), "python": platform.python_version(),
            "numba": numba.__version__, "load_average": load}


def machine_text(info: dict[str, Any] | None = None) -> str:
    m = machine() if info is None else info
    return (f"{m['nproc']} cores, {m['cpu']}, Python {m['python']}, numba {m['numba']},"
            f" load average {m['load_average']}")
