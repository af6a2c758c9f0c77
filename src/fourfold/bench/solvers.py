"""Solver benchmarks behind ``fourfold bench --solvers``: time and nodes per position set.

Each *set* is a fixed list of positions, generated from explicit seeds, and one way
of solving them. The sets come from the games: a game's ``GameSolvers.bench``
(its ``solver`` extension part) names a function ``(quick: bool) -> list[SolverSet]``;
``solver_sets`` runs every registered game's, in the registry's order. The built-in
games' sets (``games/<game>/solver_bench.py``):

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
import time
from collections import Counter
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from typing import Any

from fourfold.core.extensions import resolve
from fourfold.core.game import Game
from fourfold.core.registry import game_names, get_spec

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


# -- every set ---------------------------------------------------------------------------

def solver_sets(quick: bool = False) -> list[SolverSet]:
    """Every set of ``fourfold bench --solvers`` (``--quick``: fewer positions, shallower):
    each registered game's (``GameSolvers.bench``), in the registry's order."""
    out: list[SolverSet] = []
    for name in game_names():
        reference = get_spec(name).extensions.solver
        solvers = None if reference is None else resolve(reference)
        if solvers is not None and solvers.bench is not None:
            out.extend(resolve(solvers.bench)(quick))
    return out


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
