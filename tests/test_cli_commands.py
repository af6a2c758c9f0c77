"""``fourfold rules`` and ``fourfold perft`` from the command line, and clean errors."""

from __future__ import annotations

import subprocess
import sys

import pytest

from fourfold.cli.main import main


def test_rules_lists_games(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    assert "folio" in out and "quarto" in out and "orientation-matters" in out


def test_rules_marks_rulings_and_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "folio"]) == 0
    out = capsys.readouterr().out
    assert "**Ruling (text lost; option `line-rule`)" in out
    assert "line-rule=VALUE (colours-or-sizes | same-colour-or-size)" in out
    assert "[RULING: replaces lost text]" in out
    assert "## Variant: no-grid" in out


def test_rules_for_one_variant(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "folio", "--variant", "fixed-grid"]) == 0
    out = capsys.readouterr().out
    assert "## Variant: fixed-grid" in out and "## Variant: standard" not in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["rules", "chess"], "unknown game 'chess'"),
        (["perft", "folio", "--variant", "hex", "1"], "valid variants"),
        (["perft", "folio", "--option", "line-rule", "1"], "not of the form NAME=VALUE"),
        (["perft", "folio", "--option", "line-rule=x", "1"], "must be one of"),
        (["perft", "folio", "--setup", "zz", "1"], "cannot read position"),
        (["play", "folio", "--variant", "orientation-matters"], "never defined"),
    ],
)
def test_bad_input_is_one_clear_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_perft_from_a_setup(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "quarto", "--setup", "a1=TDRH;b2=SLQF TDRF", "1"]) == 0
    assert capsys.readouterr().out == f"1 {14 * 13}\n"


def test_console_script_runs() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "fourfold.cli.main", "perft", "quarto", "2"],
        capture_output=True, text=True, check=False,
    )
    assert result.returncode == 0 and result.stdout == "1 16\n2 3840\n"
