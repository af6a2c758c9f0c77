"""``fourfold play --first`` and ``--seat`` name the same thing in a two-player game:
when they disagree the command refuses in one line (exit 2) before any game starts,
instead of ``--seat`` silently winning (``--first them --seat 1`` gave the first seat)."""

from __future__ import annotations

import pytest

from fourfold.cli.main import main


@pytest.mark.parametrize(("argv", "message"), [
    (["--first", "them", "--seat", "1"], "--first them is seat 2, but --seat says 1"),
    (["--first", "me", "--seat", "2"], "--first me is seat 1, but --seat says 2"),
])
def test_first_and_seat_that_disagree_are_refused(
        argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "dao", *argv]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and "give one of them" in captured.err
    assert "Traceback" not in captured.err and captured.out == ""


def test_first_and_seat_that_agree_play(monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    lines = iter(["quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(lines))
    assert main(["play", "dao", "--first", "them", "--seat", "2", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "O (you)" in out
