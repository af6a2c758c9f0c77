"""Tests leave the checkout clean: the browser-app screenshots go to a temporary folder,
and only ``scripts/refresh_screenshots.py`` writes docs/screenshots/, at the sizes the
tests use."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from support.browser_app import DESKTOP, PHONE, SHOTS_ENV, shots_folder

ROOT = Path(__file__).resolve().parent.parent
DOCS_APP = ROOT / "docs" / "screenshots" / "app"


def test_screenshots_go_to_a_temporary_folder(
        tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(SHOTS_ENV, raising=False)
    folder = shots_folder(tmp_path_factory)
    assert not folder.resolve().is_relative_to(ROOT)
    assert folder.resolve().is_relative_to(tmp_path_factory.getbasetemp().resolve())


def test_the_refresh_script_writes_the_docs_at_the_tests_sizes() -> None:
    spec = importlib.util.spec_from_file_location("refresh", ROOT / "scripts" /
                                                  "refresh_screenshots.py")
    assert spec is not None and spec.loader is not None
    refresh = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(refresh)
    assert refresh.APP == DOCS_APP
    assert (refresh.LAPTOP, refresh.PHONE) == (DESKTOP, PHONE) == (
        {"width": 1280, "height": 860}, {"width": 390, "height": 844})
