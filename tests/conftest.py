"""Shared test settings: hypothesis profiles sized for CI (2 cores, well under 90 minutes)."""

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from support.browser import browser  # noqa: F401 - one shared Chromium for the whole run
from support.browser_app import pages  # noqa: F401 - browser contexts that fail on console errors
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
