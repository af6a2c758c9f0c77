"""Shared test settings: hypothesis profiles sized for CI (2 cores, well under 90 minutes)."""

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from support import numba_lock, schedule
from support.browser import browser  # noqa: F401 - one shared Chromium for the whole run
from support.browser_app import pages  # noqa: F401 - browser contexts that fail on console errors
from support.server import Postgres, Redis, postgres_cluster, redis_server

#: where ``sitecustomize`` makes the processes tests start take the run's numba locks
NUMBA_SITE = Path(__file__).resolve().parent / "support" / "numba_site"
#: the environment variable holding the run's ``--dist`` mode, for its workers
DIST = "FOURFOLD_TEST_DIST"
#: the lock folder this process made (and removes at the end)
_LOCKS = pytest.StashKey[Path]()

settings.register_profile(
    "default", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "thorough", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("FOURFOLD_HYPOTHESIS", "default"))


@pytest.fixture(scope="module")
def postgres() -> Iterator[Postgres]:
    """A throwaway PostgreSQL cluster for one test module (installed where root on Debian)."""
    with postgres_cluster() as cluster:
        yield cluster


@pytest.fixture(scope="module")
def redis() -> Iterator[Redis]:
    """A throwaway Redis for one test module."""
    with redis_server() as server:
        yield server


@pytest.fixture(scope="session")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One cache directory (FOURFOLD_CACHE) for the whole run: Dao's table is built once.
    Parallel workers (pytest-xdist) share the run's folder above their own; the table is
    written atomically, so a worker reads either no table or a whole one."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent
    return base / "fourfold-cache"


def pytest_configure(config: pytest.Config) -> None:
    """In the process that starts the workers (or runs alone), before they inherit the
    environment: the ``--dist`` mode (pytest-xdist gives its workers ``dist="no"``), and
    the run's numba lock folder; ``sitecustomize`` on ``PYTHONPATH`` makes every process a
    test starts take those locks too (support/numba_lock.py). A worker finds both set."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return
    os.environ[DIST] = str(config.getoption("dist", "no"))
    if os.environ.get(numba_lock.ENV):
        return
    folder = tempfile.mkdtemp(prefix="fourfold-numba-locks-")
    config.stash[_LOCKS] = Path(folder)
    os.environ[numba_lock.ENV] = folder
    path = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join([str(NUMBA_SITE), *filter(None, [path])])


@pytest.hookimpl(trylast=True)  # after ``-k`` and ``-m`` have deselected tests
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under pytest-xdist's ``worksteal`` (the README's command), each worker's share of the
    tests starts with slow modules (support/schedule.py); every worker orders them alike."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1") or "1")
    if workers > 1 and os.environ.get(DIST) == "worksteal":
        items[:] = schedule.worksteal_order(items, workers)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter,
                            config: pytest.Config) -> None:
    """One line: what the run's cold numba compilations cost, and the waits for them."""
    folder = config.stash.get(_LOCKS, None)
    line = numba_lock.summary(folder) if folder is not None else None
    if line:
        terminalreporter.write_line(line)


def pytest_unconfigure(config: pytest.Config) -> None:
    folder = config.stash.get(_LOCKS, None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session", autouse=True)
def one_compilation_per_kernel() -> None:
    """The processes of a run compile each cold numba kernel once between them: the
    second to need it waits for the first and loads it from numba's cache
    (support/numba_lock.py)."""
    numba_lock.share_compilations(Path(os.environ[numba_lock.ENV]))
