"""Shared test settings: hypothesis profiles sized for CI (2 cores, well under 90 minutes)."""

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from support.browser import browser  # noqa: F401 - one shared Chromium for the whole run
from support.browser_app import pages  # noqa: F401 - browser contexts that fail on console errors
from support.numba_lock import share_compilations
from support.server import Postgres, Redis, postgres_cluster, redis_server

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


@pytest.fixture(scope="session", autouse=True)
def one_compilation_per_kernel(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Parallel workers compile each cold numba kernel once between them: the second to
    need it waits for the first and loads it from numba's cache (support/numba_lock.py)."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        share_compilations(tmp_path_factory.getbasetemp().parent / "numba-locks")
