"""``fourfold bench``'s timing: interleaved rounds, fixed work per run, the C loop's twin
check. (The speeds themselves are measured by ``fourfold bench``, never by a test.)"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import fourfold
from fourfold.bench import runner, timing
from fourfold.kernels import ReferenceEngine, kernel_engine


def test_interleave_rotates_the_order_and_keeps_every_round() -> None:
    calls: list[str] = []

    def task(name: str, units: int) -> timing.Timed:
        def timed() -> tuple[int, float, float]:
            calls.append(name)
            return units, 2.0, 1.0

        return timed

    rates = timing.interleave({"a": task("a", 10), "b": task("b", 30), "c": task("c", 50)}, 4)
    assert calls == ["a", "b", "c", "b", "c", "a", "c", "a", "b", "a", "b", "c"]
    assert rates["b"].wall == (15.0,) * 4 and rates["b"].cpu == (30.0,) * 4
    assert (rates["c"].best, rates["c"].best_cpu, rates["c"].median) == (25.0, 50.0, 25.0)


def test_paired_ratios_compare_round_by_round() -> None:
    assert timing.paired_ratios([2.0, 3.0, 8.0], [1.0, 3.0, 4.0]) == (1.0, 2.0)
    assert timing.paired_ratios([], []) == (0.0, 0.0)


def test_calibrate_sizes_a_run_to_the_seconds_asked() -> None:
    def timed_size(n: int) -> tuple[int, float, float]:
        return n, n / 1000, n / 1000  # 1,000 units per second

    assert timing.calibrate(timed_size, 0.5, 8) == pytest.approx(500, rel=0.01)


def test_a_search_run_does_the_same_work_each_time() -> None:
    """The search rate's run is a fixed node budget from a forgotten table: the same nodes
    and the same best move every run (a table kept from an earlier run would change both)."""
    game = fourfold.load("quarto")
    kernel = kernel_engine(game)
    assert kernel is not None
    state = runner.search_position(game)
    kernel.load(state)
    root = kernel.legal()
    first = runner.search_nodes(kernel, state, root, 30_000)
    kernel.load(state)
    after = kernel.search(root, 3, 10**9)
    assert runner.search_nodes(kernel, state, root, 30_000) == first
    kernel.load(state)
    assert kernel.search(root, 3, 10**9) == after
    reference = ReferenceEngine(game)
    assert runner.search_nodes(reference, state, root, 300) >= 300


def test_the_c_loop_plays_the_kernels_games(tmp_path: Path) -> None:
    if runner.c_compiler() is None:  # a missing part fails on CI, never skips
        message = "NO C COMPILER (cc, gcc or clang): the bench's C reference cannot be built"
        if os.environ.get("CI", "").strip().lower() == "true":
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    game = fourfold.load("folio", "fixed-grid")
    kernel = kernel_engine(game)
    assert kernel is not None
    source = kernel.c_playout()
    assert source is not None
    compiled = runner.compile_c(tmp_path, source)
    assert compiled is not None
    binary, flags = compiled
    assert flags in runner.C_FLAGS
    assert runner.check_c_matches_kernel(binary, kernel, games=300, seed=11)
    results, loop_seconds, cpu = runner.run_c(binary, 300, 11)
    assert sum(results) == 300 and loop_seconds > 0 and cpu > 0
    # a different seed plays other games: the check can fail
    kernel.load(game.initial_state())
    assert kernel.playouts(300, 12) != results


def test_the_table_gives_the_kernel_c_ratio_of_the_best_runs_and_of_each_round() -> None:
    from fourfold.cli.commands.bench import ratio_notes

    rows = [runner.BenchRow("g", "kernel", "playouts_per_s", 480.0, 478.0, 400.0, 370.0,
                            (480.0, 400.0), (478.0, 401.0)),
            runner.BenchRow("g", "c", "playouts_per_s", 320.0, 337.0, 300.0, 300.0,
                            (320.0, 300.0), (337.0, 300.0)),
            runner.BenchRow("g", "reference", "playouts_per_s", 1.5)]
    assert ratio_notes(rows)[("g", "playouts_per_s")] == (
        "320x reference, 1.50x C (per CPU s 1.42x, rounds 1.34-1.42x)")
