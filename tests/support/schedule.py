"""The order of the tests for pytest-xdist's ``worksteal``: the slowest modules first, one
group per worker.

``worksteal`` hands the first worker the first ``len // workers`` tests of the collected
order, the next worker the next share, and so on; a worker that runs out takes the last
half of the longest queue left. In alphabetical order the slow modules (cold numba
compilations, mypy) came late in the first worker's share: the vectorised env's compiles
were the run's last five minutes, and the other worker waited on its compile locks or had
nothing left to take. Here each worker's share starts with slow modules (``SLOW``, dealt
to the least loaded share, biggest first), and the quick ones follow in their usual order,
so the last tests of every share, the ones a worker takes from another, are quick ones, and
modules that compile the same kernels run one after another on one worker instead of
waiting for each other's compilations on two.

The order within a module is kept (its module-scoped fixtures are set up once), and so
is every test: only the order of modules changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TypeVar

import pytest

#: Slow modules, in groups that compile the same numba kernels, with each group's seconds
#: in the last full run on CI's two cores (``--durations``, session 8: the group's slowest
#: tests, mostly cold compilations). A name no longer collected is passed over.
SLOW: list[tuple[int, tuple[str, ...]]] = [
    # the bots: every game's kernel and search root, the placement solver as the endgame
    # (test_ai_levels.py compiles all of them, test_kernels_search.py every search root)
    (320, ("test_ai_bots.py", "test_ai_levels.py", "test_kernels_search.py",
           "test_kernels_placement.py")),
    # the vectorised env's entry points, per game (the compiled encoders share their parts)
    (190, ("test_envs_vector.py", "test_envs_fast_paths.py")),
    # Ice Dao's kernel, proofs and proof search
    (100, ("test_kernels_icedao.py", "test_icedao_proofs.py", "test_puzzles_mined_icedao.py")),
    # mypy over the package, with a cold cache
    (57, ("test_lint_and_types.py",)),
]

Item = TypeVar("Item", bound=pytest.Item)


def shares(total: int, workers: int) -> list[int]:
    """How many of ``total`` tests ``worksteal`` first hands each worker, in order."""
    sizes = []
    for i in range(workers):
        sizes.append(total // (workers - i))
        total -= sizes[-1]
    return sizes


def worksteal_order(items: Sequence[Item], workers: int) -> list[Item]:
    """``items`` reordered so that each worker's first share starts with slow modules."""
    modules: dict[str, list[Item]] = {}
    for item in items:
        modules.setdefault(Path(str(item.path)).name, []).append(item)
    heads: list[list[Item]] = [[] for _ in range(workers)]
    loads = [0] * workers
    for seconds, names in sorted(SLOW, key=lambda group: -group[0]):
        group = [item for name in names for item in modules.pop(name, [])]
        if group:
            least = loads.index(min(loads))
            heads[least] += group
            loads[least] += seconds
    rest = [item for module in modules.values() for item in module]
    order: list[Item] = []
    for head, size in zip(heads, shares(len(items), workers), strict=True):
        fill = max(0, size - len(head))
        order += head + rest[:fill]
        rest = rest[fill:]
    return order + rest
