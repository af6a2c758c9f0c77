"""Tests leave the checkout clean: the browser-app screenshots go to a temporary folder,
and only ``scripts/refresh_screenshots.py`` (by naming it) writes docs/screenshots/."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from support.browser_app import SHOTS_ENV, shots_folder

ROOT = Path(__file__).resolve().parent.parent
DOCS_APP = ROOT / "docs" / "screenshots" / "app"


def test_screenshots_go_to_a_temporary_folder(
        tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(SHOTS_ENV, raising=False)
    folder = shots_folder(tmp_path_factory)
    assert not folder.resolve().is_relative_to(ROOT)
    assert folder.resolve().is_relative_to(tmp_path_factory.getbasetemp().resolve())


def test_the_refresh_script_sends_them_to_the_docs(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = importlib.util.spec_from_file_location("refresh", ROOT / "scripts" /
                                                  "refresh_screenshots.py")
    assert spec is not None and spec.loader is not None
    refresh = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(refresh)
    seen: dict[str, object] = {}

    def fake_run(command: list[str], **kwargs: object) -> object:
        seen["command"], seen["env"] = command, kwargs.get("env")

        class Done:
            returncode = 0
        return Done()

    monkeypatch.setattr(refresh.subprocess, "run", fake_run)
    assert refresh.main(["--app"]) == 0
    env = seen["env"]
    assert isinstance(env, dict) and Path(env[SHOTS_ENV]) == DOCS_APP
    assert str(ROOT / "tests" / "test_browser_app.py") in seen["command"]  # type: ignore[operator]
