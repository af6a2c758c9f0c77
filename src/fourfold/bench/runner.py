"""Random playouts per second and alpha-beta nodes per second, per ruleset and engine.

Rulesets: every variant of every registered game whose extension bundle gives it a
compiled kernel (``fourfold.kernels.kernel_engine``). Engines: ``reference`` (the
readable rules behind the engine interface), ``kernel`` (the compiled numba kernel)
and ``c`` (a plain C program of the same playout loop, where the kernel's engine
ships one (``Engine.c_playout``), compiled with the system C compiler when there
is one: the speed-of-light reference). The C loop and the kernel use the same
generator and algorithm, so with one seed they play the same games; the bench
checks that their results agree.

Each figure is the best of a few timed runs of at least ``seconds`` each
(the machine may be shared; the best run is the least disturbed).
"""

from __future__ import annotations

import random
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import fourfold
from fourfold.core.game import Game
from fourfold.core.registry import game_names, get_spec
from fourfold.kernels import Engine, ReferenceEngine, kernel_engine


def rulesets() -> list[tuple[str, Game[Any, Any]]]:
    """(label, configured game) of every benchmarked ruleset: each playable variant of
    each registered game that has a compiled kernel (``game-variant`` when the game has
    several variants)."""
    found: list[tuple[str, Game[Any, Any]]] = []
    for name in game_names():
        spec = get_spec(name)
        playable = [v.name for v in spec.variants if not v.unavailable]
        for variant in playable:
            game = fourfold.load(name, variant)
            if kernel_engine(game) is not None:
                found.append((name if len(playable) == 1 else f"{name}-{variant}", game))
    return found


SEARCH_OPENING_PLIES = 3  # alpha-beta is timed from a position this many random plies in
OPENING_SEED = 2026


@dataclass(frozen=True)
class BenchRow:
    game: str
    engine: str
    metric: str
    value: float

    def as_dict(self) -> dict[str, Any]:
        return {"game": self.game, "engine": self.engine, "metric": self.metric,
                "value": round(self.value, 1)}


@dataclass
class BenchRun:
    """The rows and notes of one bench run, and its timing: each run of a figure lasts at
    least ``seconds`` (shorter when ``quick``), best of ``repeats``; ``on_row`` sees each
    row as it is measured."""

    quick: bool
    on_row: Callable[[BenchRow], None] | None = None
    rows: list[BenchRow] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def seconds(self) -> float:
        return 0.5 if self.quick else 2.0

    @property
    def repeats(self) -> int:
        return 2 if self.quick else 3

    def add(self, row: BenchRow) -> None:
        self.rows.append(row)
        if self.on_row is not None:
            self.on_row(row)


def _best_rate(work: Callable[[int], int], seconds: float, repeats: int, first: int) -> float:
    """Best units/second over ``repeats`` runs, each grown until it lasts ``seconds``."""

    def timed(size: int) -> tuple[int, float]:
        start = time.perf_counter()
        units = work(size)
        return units, time.perf_counter() - start

    return _best_timed_rate(timed, seconds, repeats, first)


def _best_timed_rate(timed: Callable[[int], tuple[int, float]], seconds: float, repeats: int,
                     first: int) -> float:
    """``_best_rate`` for work that times itself: ``timed(size)`` is (units, seconds)."""
    size = first
    best = 0.0
    runs = 0
    while runs < repeats:
        units, elapsed = timed(size)
        if elapsed < seconds:
            size = max(size * 2, int(size * seconds * 1.2 / max(elapsed, 1e-6)))
            if elapsed < seconds / 4:
                continue
        best = max(best, units / elapsed)
        runs += 1
    return best


def playout_rate(engine: Engine, seconds: float, repeats: int) -> float:
    engine.load(engine.game.initial_state())
    engine.playouts(4, 1)  # compile or warm up

    def work(n: int) -> int:
        engine.playouts(n, 7)
        return n

    return _best_rate(work, seconds, repeats, 8)


def search_position(game: Any) -> Any:
    rng = random.Random(OPENING_SEED)
    state = game.initial_state()
    for _ in range(SEARCH_OPENING_PLIES):
        moves = game.legal_moves(state)
        state = game.next_state(state, moves[rng.randrange(len(moves))])
    return state


def search_rate(engine: Engine, seconds: float, repeats: int) -> float:
    """Nodes per second of fixed-node searches (iterative deepening from depth 1)."""
    state = search_position(engine.game)
    engine.load(state)
    root = engine.legal()
    engine.search(root, 2, 1000)  # compile or warm up

    def work(nodes: int) -> int:
        engine.load(state)
        done = 0
        depth = 1
        while done < nodes:
            result = engine.search(root, depth, nodes - done)
            done += result.nodes
            if result.best >= 0 and result.exact:
                depth = 1
            else:
                depth += 1
        return done

    return _best_rate(work, seconds, repeats, 2_000)


def c_compiler() -> str | None:
    for name in ("cc", "gcc", "clang"):
        path = shutil.which(name)
        if path:
            return path
    return None


def compile_c(directory: Path, reference: str) -> Path | None:
    """Compile the C program a ``"package:file.c"`` reference names (``None``: no compiler,
    or it did not compile)."""
    compiler = c_compiler()
    if compiler is None:
        return None
    package, _, name = reference.partition(":")
    source = directory / name
    shipped = resources.files(package).joinpath(name)
    source.write_text(shipped.read_text(encoding="utf-8"), encoding="utf-8")
    binary = directory / Path(name).stem
    done = subprocess.run([compiler, "-O2", "-o", str(binary), str(source)],
                          capture_output=True, text=True, check=False)
    return binary if done.returncode == 0 else None


def run_c(binary: Path, games: int, seed: int) -> tuple[tuple[int, int, int], float]:
    out = subprocess.run([str(binary), str(games), str(seed)], capture_output=True, text=True,
                         check=True).stdout.split()
    return (int(out[1]), int(out[2]), int(out[3])), float(out[4])


def c_playout_rate(binary: Path, seconds: float, repeats: int) -> float:
    """Playouts per second of the C loop, as the program itself times them."""
    return _best_timed_rate(lambda n: (n, run_c(binary, n, 7)[1]), seconds, repeats, 1_000)


def check_c_matches_kernel(binary: Path, engine: Engine, games: int = 2_000,
                           seed: int = 3) -> bool:
    """The C loop and the kernel play the same games from the same seed."""
    engine.load(engine.game.initial_state())
    c_results, _ = run_c(binary, games, seed)
    return engine.playouts(games, seed) == c_results


def run_bench(
    quick: bool = False,
    on_row: Callable[[BenchRow], None] | None = None,
) -> tuple[list[BenchRow], list[str]]:
    """Measure every ruleset; return the rows and notes (e.g. no C compiler)."""
    run = BenchRun(quick, on_row)
    seconds, repeats, add, notes = run.seconds, run.repeats, run.add, run.notes
    for label, game in rulesets():
        reference = ReferenceEngine(game)
        kernel = kernel_engine(game)
        add(BenchRow(label, "reference", "playouts_per_s",
                     playout_rate(reference, seconds / 2, repeats)))
        if kernel is not None:
            add(BenchRow(label, "kernel", "playouts_per_s", playout_rate(kernel, seconds, repeats)))
        c_source = None if kernel is None else kernel.c_playout()
        if kernel is not None and c_source is not None:
            with tempfile.TemporaryDirectory() as tmp:
                binary = compile_c(Path(tmp), c_source)
                if binary is None:
                    notes.append(f"{label}: no C compiler (cc, gcc or clang) found, or"
                                 f" {c_source} did not compile: C row skipped")
                else:
                    if not check_c_matches_kernel(binary, kernel):
                        notes.append(f"WARNING: {label}: the C loop and the kernel disagree"
                                     " on results")
                    add(BenchRow(label, "c", "playouts_per_s",
                                 c_playout_rate(binary, seconds, repeats)))
        add(BenchRow(label, "reference", "nodes_per_s", search_rate(reference, seconds / 2,
                                                                    repeats)))
        if kernel is not None:
            add(BenchRow(label, "kernel", "nodes_per_s", search_rate(kernel, seconds, repeats)))
    return run.rows, run.notes
