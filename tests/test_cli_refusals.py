"""``fourfold bots`` and ``fourfold match --records`` refuse bad input in one line (exit 2)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from fourfold.cli.commands import match as match_command
from fourfold.cli.main import main


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["bots", "chess"], "unknown game 'chess'; valid games: folio, quarto"),
        (["bots", "folio/hex"], "unknown folio variant 'hex'; valid variants:"),
    ],
)
def test_bots_refuses_an_unknown_game(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert message in captured.err and "Traceback" not in captured.err
    assert captured.out == ""  # refused before listing anything


@pytest.mark.parametrize("name", ["dao", "DAO", "folio/freeform", "quarto"])
def test_bots_shows_the_levels_of_a_known_game(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["bots", name]) == 0
    out = capsys.readouterr().out
    assert f"Levels for {name.lower()}:" in out and "level5" in out


def no_games(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("the games were played before the records path was checked")


@pytest.mark.parametrize(
    ("where", "message"),
    [
        ("missing/r.txt", "the folder {tmp}/missing does not exist"),
        (".", "it is a directory"),
    ],
)
def test_match_refuses_an_unwritable_records_path_before_playing(
    where: str,
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(match_command, "play_match", no_games)
    path = tmp_path / where
    argv = ["match", "quarto", "--bots", "random,random", "--games", "2", "--records", str(path)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    reason = message.format(tmp=tmp_path)
    assert f"fourfold match: cannot write the records to {path}: {reason}" in err


def test_match_reports_a_failed_write_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def refuse(self: Path, *args: Any, **kwargs: Any) -> int:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Path, "write_text", refuse)
    path = tmp_path / "r.txt"
    argv = ["match", "quarto", "--bots", "random,random", "--games", "2", "--records", str(path)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"cannot write the records to {path}: No space left on device" in err


def test_match_writes_the_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.txt"
    argv = ["match", "quarto", "--bots", "random,random", "--games", "2", "--records", str(path)]
    assert main(argv) == 0
    assert path.read_text(encoding="utf-8").count('[Game "quarto"]') == 2
