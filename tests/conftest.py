"""Shared test settings: hypothesis profiles sized for CI (2 cores, well under 90 minutes)."""

import os

from hypothesis import HealthCheck, settings

from browser_support import browser  # noqa: F401 - one shared Chromium for the whole run

settings.register_profile(
    "default", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "thorough", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("FOURFOLD_HYPOTHESIS", "default"))
