"""Running the ``fourfold`` command in the test's own process."""

from __future__ import annotations

import json
from typing import Any

import pytest

from fourfold.cli.main import main


def run_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> Any:
    """The JSON a ``fourfold`` command prints, after checking that it succeeded."""
    capsys.readouterr()
    assert main(argv) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)
