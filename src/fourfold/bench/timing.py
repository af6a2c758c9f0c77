"""Interleaved timing for ``fourfold bench``: every task of a ruleset runs once per round,
in an order that rotates from round to round, so load on a shared machine hits them alike.

A task is a ``Timed`` callable: run a fixed amount of work and return ``(units, wall
seconds, CPU seconds)``. The CPU seconds are those of whichever process did the work (this
one, or a child program): time the machine gave the task, which excludes waiting for a core
on a busy machine. Each task's figures are the best, median and worst run of the rounds, per
wall-clock and per CPU second, and the runs themselves in round order, so two tasks timed
together can be compared round by round (``paired_ratios``).
"""

from __future__ import annotations

import resource
import statistics
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

#: a task: run the work once, return (units done, wall seconds, CPU seconds)
Timed = Callable[[], tuple[int, float, float]]


@dataclass(frozen=True)
class Rates:
    """One task's rates (units per second), one per round, in round order."""

    wall: tuple[float, ...]
    cpu: tuple[float, ...]

    @property
    def best(self) -> float:
        return max(self.wall)

    @property
    def best_cpu(self) -> float:
        return max(self.cpu)

    @property
    def median(self) -> float:
        return statistics.median(self.wall)

    @property
    def low(self) -> float:
        return min(self.wall)


def in_process(work: Callable[[], int]) -> Timed:
    """``work`` (returns its units) timed by the wall clock and this process's CPU time."""

    def timed() -> tuple[int, float, float]:
        wall, cpu = time.perf_counter(), time.process_time()
        units = work()
        return units, time.perf_counter() - wall, time.process_time() - cpu

    return timed


def child_cpu() -> float:
    """CPU seconds (user and system) of this process's finished children so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_child(argv: Sequence[str]) -> tuple[str, float]:
    """Run a program to its end: its standard output and the CPU seconds it used."""
    before = child_cpu()
    out = subprocess.run(list(argv), capture_output=True, text=True, check=True).stdout
    return out, child_cpu() - before


def calibrate(timed_size: Callable[[int], tuple[int, float, float]], seconds: float,
              first: int) -> int:
    """A size for ``timed_size`` whose run lasts about ``seconds`` of CPU time (the size
    doubles from ``first`` until a run lasts a quarter of that, then scales)."""
    size = first
    while True:
        _, _, cpu = timed_size(size)
        if cpu >= seconds / 4:
            return max(1, int(size * seconds / max(cpu, 1e-6)))
        size *= 2


def interleave(tasks: dict[str, Timed], rounds: int) -> dict[str, Rates]:
    """Run every task once per round, ``rounds`` times; round ``r`` starts at task ``r``
    (mod the number of tasks), so no task always runs first or right after another."""
    names = list(tasks)
    wall: dict[str, list[float]] = {name: [] for name in names}
    cpu: dict[str, list[float]] = {name: [] for name in names}
    for r in range(rounds):
        for j in range(len(names)):
            name = names[(r + j) % len(names)]
            units, w, c = tasks[name]()
            wall[name].append(units / max(w, 1e-9))
            cpu[name].append(units / max(c, 1e-9))
    return {name: Rates(tuple(wall[name]), tuple(cpu[name])) for name in names}


def paired_ratios(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """The lowest and highest of ``a[r] / b[r]`` over the rounds both ran."""
    ratios = [x / y for x, y in zip(a, b, strict=False) if y > 0]
    return (min(ratios), max(ratios)) if ratios else (0.0, 0.0)
