"""Random playouts per second and alpha-beta nodes per second, per ruleset and engine.

Rulesets: every variant of every registered game whose extension bundle gives it a
compiled kernel (``fourfold.kernels.kernel_engine``). Engines: ``reference`` (the
readable rules behind the engine interface), ``kernel`` (the compiled numba kernel)
and ``c`` (a plain C program of the same playout loop, where the kernel's engine
ships one (``Engine.c_playout``), compiled as a C programmer would for speed
(``C_FLAGS``: ``-O3 -march=native``, the host's instructions, as numba compiles for
the host): the speed-of-light reference). The C loop and the kernel use the same
generator and algorithm, so with one seed they play the same games; the bench
checks that their results agree.

How it is timed (``fourfold.bench.timing``): everything is compiled and warmed up
first; then every measurement of a ruleset (reference, kernel and C playouts,
reference and kernel searches) runs once per round, in an order rotating from round
to round, so load on a shared machine hits the kernel and the C loop alike. Each row
gives the best round (the least disturbed), the median and the worst, per wall-clock
second, and the best per CPU second (the time the machine gave the task: on a busy
machine the figure to read). Each run of a task does the same work: playouts run a
count sized once to last about ``seconds``; a search run starts from a forgotten
transposition table and history and searches a fixed number of nodes by iterative
deepening from the same position, so its rate does not depend on the machine's load
(a bigger budget would reach other depths and another mix of nodes). ``--quick``
makes the playout runs shorter and the rounds fewer, not the searches smaller.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import fourfold
from fourfold.bench.timing import (
    Rates,
    Timed,
    calibrate,
    in_process,
    interleave,
    run_child,
)
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
#: alpha-beta nodes per timed search run (the same in quick and full runs)
SEARCH_NODES = {"kernel": 4_000_000, "reference": 15_000}
#: how the C reference is compiled (the first set the compiler accepts)
C_FLAGS: tuple[tuple[str, ...], ...] = (("-O3", "-march=native"), ("-O2",))


@dataclass(frozen=True)
class BenchRow:
    """One figure: ``value`` is the best run (per wall-clock second); ``cpu`` the best per
    CPU second; ``median`` and ``low`` the median and worst run; ``runs`` and ``cpu_runs``
    every run in round order (empty, and the others ``None``, for a single figure)."""

    game: str
    engine: str
    metric: str
    value: float
    cpu: float | None = None
    median: float | None = None
    low: float | None = None
    runs: tuple[float, ...] = ()
    cpu_runs: tuple[float, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        row: dict[str, Any] = {"game": self.game, "engine": self.engine,
                               "metric": self.metric, "value": round(self.value, 1)}
        if self.runs:
            row.update(per_cpu_s=round(self.cpu or 0.0, 1), median=round(self.median or 0.0, 1),
                       low=round(self.low or 0.0, 1), runs=[round(v, 1) for v in self.runs],
                       cpu_runs=[round(v, 1) for v in self.cpu_runs])
        return row


def row_of(game: str, engine: str, metric: str, rates: Rates) -> BenchRow:
    return BenchRow(game, engine, metric, rates.best, rates.best_cpu, rates.median, rates.low,
                    rates.wall, rates.cpu)


@dataclass
class BenchRun:
    """The rows and notes of one bench run, and its timing: each run of a figure lasts
    about ``seconds`` (shorter when ``quick``), ``repeats`` rounds; ``on_row`` sees each
    row as it is measured."""

    quick: bool
    on_row: Callable[[BenchRow], None] | None = None
    rows: list[BenchRow] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def seconds(self) -> float:
        return 0.3 if self.quick else 0.8

    @property
    def repeats(self) -> int:
        return 3 if self.quick else 7

    def add(self, row: BenchRow) -> None:
        self.rows.append(row)
        if self.on_row is not None:
            self.on_row(row)


def playout_task(engine: Engine, seconds: float) -> Timed:
    """Random playouts from the start, as many per run as last about ``seconds``."""
    engine.load(engine.game.initial_state())
    engine.playouts(4, 1)  # compile or warm up

    def timed_size(n: int) -> tuple[int, float, float]:
        return in_process(lambda: (engine.playouts(n, 7), n)[1])()

    size = calibrate(timed_size, seconds, 8)
    return lambda: timed_size(size)


def search_position(game: Any) -> Any:
    rng = random.Random(OPENING_SEED)
    state = game.initial_state()
    for _ in range(SEARCH_OPENING_PLIES):
        moves = game.legal_moves(state)
        state = game.next_state(state, moves[rng.randrange(len(moves))])
    return state


def search_nodes(engine: Engine, state: Any, root: list[int], nodes: int) -> int:
    """Iterative deepening from depth 1 (from the first depth again once a search is
    exact) until ``nodes`` nodes are searched, from a forgotten table and history."""
    engine.forget()
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


def search_task(engine: Engine, nodes: int) -> Timed:
    """Alpha-beta nodes: ``nodes`` per run, the same search every run."""
    state = search_position(engine.game)
    engine.load(state)
    root = engine.legal()
    engine.search(root, 2, 1000)  # compile or warm up
    return in_process(lambda: search_nodes(engine, state, root, nodes))


def c_compiler() -> str | None:
    for name in ("cc", "gcc", "clang"):
        path = shutil.which(name)
        if path:
            return path
    return None


def compile_c(directory: Path, reference: str) -> tuple[Path, tuple[str, ...]] | None:
    """Compile the C program a ``"package:file.c"`` reference names with the first of
    ``C_FLAGS`` the compiler accepts: the binary and its flags (``None``: no compiler, or
    it did not compile)."""
    compiler = c_compiler()
    if compiler is None:
        return None
    package, _, name = reference.partition(":")
    source = directory / name
    shipped = resources.files(package).joinpath(name)
    source.write_text(shipped.read_text(encoding="utf-8"), encoding="utf-8")
    binary = directory / Path(name).stem
    for flags in C_FLAGS:
        done = subprocess.run([compiler, *flags, "-o", str(binary), str(source)],
                              capture_output=True, text=True, check=False)
        if done.returncode == 0:
            return binary, flags
    return None


def run_c(binary: Path, games: int, seed: int) -> tuple[tuple[int, int, int], float, float]:
    """The C loop's results, the seconds its loop took (as it times itself) and the CPU
    seconds the whole program used."""
    text, cpu = run_child([str(binary), str(games), str(seed)])
    out = text.split()
    return (int(out[1]), int(out[2]), int(out[3])), float(out[4]), cpu


def c_playout_task(binary: Path, seconds: float) -> Timed:
    """The C loop's playouts per run: its own loop time, and its CPU time less that of
    starting it (the least of a few runs of no games)."""
    startup = min(run_c(binary, 0, 7)[2] for _ in range(3))

    def timed_size(n: int) -> tuple[int, float, float]:
        _, loop, cpu = run_c(binary, n, 7)
        return n, loop, max(cpu - startup, 1e-6)

    size = calibrate(timed_size, seconds, 1_000)
    return lambda: timed_size(size)


def check_c_matches_kernel(binary: Path, engine: Engine, games: int = 2_000,
                           seed: int = 3) -> bool:
    """The C loop and the kernel play the same games from the same seed."""
    engine.load(engine.game.initial_state())
    c_results, _, _ = run_c(binary, games, seed)
    return engine.playouts(games, seed) == c_results


def run_bench(
    quick: bool = False,
    on_row: Callable[[BenchRow], None] | None = None,
) -> tuple[list[BenchRow], list[str]]:
    """Measure every ruleset; return the rows and notes (C flags, no C compiler, load)."""
    run = BenchRun(quick, on_row)
    seconds, notes = run.seconds, run.notes
    notes.append(f"load average before: {_load()}")
    for label, game in rulesets():
        kernel = kernel_engine(game)
        with tempfile.TemporaryDirectory() as tmp:
            tasks: dict[tuple[str, str], Timed] = {
                ("reference", "playouts_per_s"): playout_task(ReferenceEngine(game),
                                                              seconds / 2),
            }
            if kernel is not None:
                tasks[("kernel", "playouts_per_s")] = playout_task(kernel, seconds)
                c_source = kernel.c_playout()
                if c_source is not None:
                    compiled = compile_c(Path(tmp), c_source)
                    if compiled is None:
                        notes.append(f"{label}: no C compiler (cc, gcc or clang) found, or"
                                     f" {c_source} did not compile: C row skipped")
                    else:
                        binary, flags = compiled
                        notes.append(f"{label}: C loop compiled with {' '.join(flags)}")
                        if not check_c_matches_kernel(binary, kernel):
                            notes.append(f"WARNING: {label}: the C loop and the kernel"
                                         " disagree on results")
                        tasks[("c", "playouts_per_s")] = c_playout_task(binary, seconds)
            tasks[("reference", "nodes_per_s")] = search_task(ReferenceEngine(game),
                                                              SEARCH_NODES["reference"])
            if kernel is not None:
                tasks[("kernel", "nodes_per_s")] = search_task(kernel, SEARCH_NODES["kernel"])
            named = {f"{engine} {metric}": task for (engine, metric), task in tasks.items()}
            rates = interleave(named, run.repeats)
        for engine, metric in tasks:
            run.add(row_of(label, engine, metric, rates[f"{engine} {metric}"]))
    notes.append(f"load average after: {_load()} (figures taken under load are contended:"
                 " read the CPU-second figures and the kernel / C ratio of the same rounds)")
    return run.rows, run.notes


def _load() -> str:
    try:
        return " ".join(f"{v:.2f}" for v in os.getloadavg())
    except OSError:
        return "unknown"
