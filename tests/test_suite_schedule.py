"""The suite's own machinery: the order of modules under ``worksteal`` (support/schedule.py)
and the numba locks shared with the processes tests start (support/numba_lock.py)."""

from __future__ import annotations

import hashlib
import itertools
import os
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import pytest

from support import numba_lock, schedule


@dataclass
class Fake:
    path: Path
    name: str


def collected(counts: dict[str, int]) -> list[Any]:
    return [Fake(Path("tests") / module, f"{module}::{i}")
            for module, count in counts.items() for i in range(count)]


@pytest.mark.parametrize("workers", [2, 3, 4])
def test_each_share_starts_with_slow_modules_and_keeps_every_test(workers: int) -> None:
    slow = [name for _, names in schedule.SLOW for name in names]
    counts = {f"test_{i:03}.py": 7 for i in range(120)}
    counts.update(dict.fromkeys(slow, 5))
    items = collected(dict(sorted(counts.items())))
    order = cast(list[Fake], schedule.worksteal_order(items, workers))
    assert sorted(i.name for i in order) == sorted(i.name for i in items)
    for module in counts:  # a module's tests keep their order ...
        at = [n for n, i in enumerate(order) if i.path.name == module]
        assert [order[n].name for n in at] == [i.name for i in items if i.path.name == module]
        # ... and stay together within a share (one module may span two shares' boundary)
        assert len([n for n, m in itertools.pairwise(at) if m != n + 1]) <= 1
    slow_modules = set(slow)
    start = 0
    for share, size in enumerate(schedule.shares(len(order), workers)):
        names = [i.path.name for i in order[start:start + size]]
        start += size
        if share < min(workers, len(schedule.SLOW)):
            assert names[0] in slow_modules  # every share opens with slow modules ...
        quick = [n in slow_modules for n in names].index(False)
        assert not slow_modules & set(names[quick:])  # ... and the quick ones follow


def test_shares_are_what_worksteal_hands_out_first() -> None:
    assert schedule.shares(2541, 2) == [1270, 1271]
    assert sum(schedule.shares(2541, 4)) == 2541


def test_a_process_a_test_starts_takes_the_runs_numba_locks(tmp_path: Path) -> None:
    (tmp_path / "kernels.py").write_text(textwrap.dedent("""
        import numba
        from numba.core.dispatcher import Dispatcher

        @numba.njit(cache=True)
        def twice(x):
            return 2 * x

        print(twice(21), Dispatcher.compile._shared_in, twice._cache._cache_file._index_path)
    """))
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "kernels.py"], cwd=tmp_path, env=env, text=True,
                          capture_output=True, timeout=300, check=True)
    folder = os.environ[numba_lock.ENV]
    value, shared, index = done.stdout.split()
    assert (value, shared) == ("42", folder)
    lock = hashlib.sha256(index.encode()).hexdigest()[:32] + ".lock"
    assert (Path(folder) / lock).exists()  # its compilation took the run's lock


def test_the_summary_counts_compilations_and_waits(tmp_path: Path) -> None:
    assert numba_lock.summary(tmp_path) is None
    (tmp_path / numba_lock.LOG).write_text(
        "compile\t12.00\t10.50\t101\tm.f\ncompile\t3.00\t2.50\t102\tm.g\nwait\t4.25\t0.00\t102\tm.f\n")
    assert numba_lock.summary(tmp_path) == (
        "numba: 2 cold compilations (13 CPU s, 15 s) in 2 processes; 1 waits for another "
        "process's compilation (4 s)")


def test_the_time_spent_compiling_is_counted_once_and_only_inside() -> None:
    import time

    import numba
    from numba.core.dispatcher import Dispatcher

    @numba.njit  # a new function: compiled cold here, whatever numba's cache holds
    def inner(x: int) -> int:
        return x * 3 + 1

    @numba.njit
    def outer(x: int) -> int:
        return inner(x) - 1  # ``inner`` compiled inside ``outer``'s compilation

    before = Dispatcher.compile
    with numba_lock.compiling() as compiled:
        assert compiled() == 0.0
        start = time.monotonic()
        assert outer(2) == 6
        elapsed = time.monotonic() - start
        spent = compiled()
        assert 0.0 < spent <= elapsed  # counted, and the nested compilation not twice
        assert outer(5) == 15  # compiled already: nothing more
        assert compiled() == spent
    assert Dispatcher.compile is before  # put back as it was
    assert getattr(before, "_shared_in", None) == getattr(Dispatcher.compile, "_shared_in",
                                                          None)
