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


# -- every path checked before any work ---------------------------------------------------

def no_report(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("the games were played before the paths were checked")


def one_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


@pytest.mark.parametrize(
    ("where", "message"),
    [
        (["-o", "{tmp}/missing/r.html"],
         "cannot write the report to {tmp}/missing/r.html: the folder {tmp}/missing does"
         " not exist"),
        (["-o", "{tmp}"], "cannot write the report to {tmp}: it is a directory"),
        (["--json", "--cache", "{tmp}"], "cannot write the cache to {tmp}: it is a directory"),
        (["--json", "--cache", "{tmp}/binary"],
         "cannot read the cache {tmp}/binary: it is not a text file (not UTF-8)"),
        (["--json", "--cache", "{tmp}/notes.txt"],
         "{tmp}/notes.txt:1: not a trace of `fourfold analyze`"),
    ],
)
def test_analyze_checks_its_files_before_playing(
    where: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from fourfold.cli.commands import analyze as analyze_command

    monkeypatch.setattr(analyze_command, "analyze", no_report)
    (tmp_path / "binary").write_bytes(bytes(range(256)))
    (tmp_path / "notes.txt").write_text("some notes\n")
    argv = ["analyze", "quarto", "--games", "1", *(w.format(tmp=tmp_path) for w in where)]
    assert main(argv) == 2
    assert f"fourfold analyze: {message.format(tmp=tmp_path)}" in one_line(capsys)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["render", "quarto", "-o", "{tmp}/missing/p.svg"],
         "cannot write the picture to {tmp}/missing/p.svg: the folder"),
        (["render", "quarto", "--record", "{tmp}"], "cannot read the record {tmp}: it is a"
         " directory"),
        (["render", "quarto", "--record", "{tmp}/binary"], "it is not a text file"),
        (["solve", "quarto", "--record", "{tmp}/nothing.txt"],
         "cannot read the record {tmp}/nothing.txt: no such file"),
        (["play", "--load", "{tmp}/binary"], "cannot read the record {tmp}/binary: it is not"),
        (["play", "quarto", "--save", "{tmp}"], "cannot write the record to {tmp}: it is a"
         " directory"),
        (["solve", "quarto", "--split", "--workers", "0", "--journal", "{tmp}"],
         "cannot write the journal to {tmp}: it is a directory"),
        (["solve", "quarto", "--split", "--workers", "0", "--table-dir", "{tmp}/binary"],
         "the table folder {tmp}/binary is a file, not a folder"),
        (["serve", "--data", "{tmp}/binary"],
         "--data {tmp}/binary: this is a file, and the data directory is a folder"),
        (["serve", "--data", "{tmp}/binary/sub"],
         "--data {tmp}/binary/sub: the data directory cannot be made, as {tmp}/binary is a"
         " file"),
        (["serve", "--database", "nosuch://"],
         "--database nosuch://: the server keeps its tables in SQLite (sqlite:///PATH) or"
         " PostgreSQL (postgresql://USER@HOST/DB), not 'nosuch'"),
        (["serve", "--database", "sqlite:///{tmp}/missing/f.db"],
         "cannot write the database to {tmp}/missing/f.db: the folder {tmp}/missing does"),
        (["serve", "--database", "sqlite://"], "give the SQLite file, as sqlite:///PATH"),
        (["serve", "--database", "mysql"], "--database 'mysql' is not a database URL"),
        (["serve", "--broker", "http://localhost"], "the broker is Redis"),
    ],
)
def test_files_and_places_are_refused_in_one_line(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    (tmp_path / "binary").write_bytes(bytes(range(256)))
    assert main([a.format(tmp=tmp_path) for a in argv]) == 2
    assert message.format(tmp=tmp_path) in one_line(capsys)


# -- numbers: nan, inf, zero and negatives where they mean nothing -----------------------

NUMBERS = [
    (["analyze", "quarto", "--solve-seconds"], ["nan", "inf", "-1"]),
    (["analyze", "quarto", "--max-plies"], ["0", "-5", "nan"]),
    (["analyze", "quarto", "--games"], ["0", "inf"]),
    (["analyze", "quarto", "--workers"], ["0"]),
    (["analyze", "quarto", "--playouts"], ["-1"]),
    (["analyze", "quarto", "--pace"], ["nan", "0"]),
    (["match", "quarto", "--bots", "random,random", "--movetime"], ["nan", "inf", "0", "-2"]),
    (["match", "quarto", "--bots", "random,random", "--max-plies"], ["0", "-1"]),
    (["match", "quarto", "--bots", "random,random", "--games"], ["0", "nan"]),
    (["match", "quarto", "--bots", "random,random", "--workers"], ["-1"]),
    (["tournament", "quarto", "--bots", "random,greedy", "--movetime"], ["nan"]),
    (["tournament", "quarto", "--bots", "random,greedy", "--max-plies"], ["0"]),
    (["solve", "quarto", "--seconds"], ["nan", "inf", "0", "-1"]),
    (["solve", "quarto", "--split", "--stop-after"], ["nan", "0"]),
    (["solve", "quarto", "--split", "--table-bits"], ["3", "33", "nan"]),
    (["play", "quarto", "--pace"], ["nan", "inf", "-1", "61"]),
    (["play", "quarto", "--seat"], ["0", "-1"]),
    (["render", "quarto", "--size"], ["nan", "0", "15"]),
    (["render", "quarto", "--seat"], ["0"]),
    (["perft", "quarto"], ["0", "-1"]),
    (["fit", "0,0 1,0", "--tolerance"], ["nan", "inf"]),
    (["fit", "0,0 1,0", "--table"], ["nan", "inf"]),
    (["serve", "--bot-pace"], ["nan", "-1"]),
    (["serve", "--real-time-bot-pace"], ["nan", "-1"]),
    (["serve", "--idle-hours"], ["nan", "inf", "0"]),
    (["play", "quarto", "--seed"], ["abc", "1.5"]),
    (["match", "quarto", "--seed"], ["abc"]),
    (["review", "record.txt", "--seed"], ["x"]),
    (["puzzles", "dao", "--seed"], ["x"]),
]


@pytest.mark.parametrize(
    ("argv", "value"),
    [(argv, value) for argv, values in NUMBERS for value in values],
    ids=lambda x: " ".join(x) if isinstance(x, list) else x,
)
def test_meaningless_numbers_are_refused(
    argv: list[str], value: str, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from fourfold.cli.commands import analyze as analyze_command

    monkeypatch.setattr(analyze_command, "analyze", no_report)
    monkeypatch.setattr(match_command, "play_match", no_games)
    flag = argv[-1] if argv[-1].startswith("-") else ""
    assert main([*argv, value]) == 2
    err = one_line(capsys)
    assert value in err and (flag in err or argv[0] in ("perft",))
    assert "invalid int value" not in err  # every number is refused in the project's words


# -- empty strings ------------------------------------------------------------------------

@pytest.mark.parametrize(
    "argv",
    [
        ["render", "quarto", "--setup", ""],
        ["render", "quarto", "--variant", " "],
        ["rules", "folio", "--variant", ""],
        ["solve", "quarto", "--setup", ""],
        ["perft", "quarto", "--setup", "", "1"],
        ["play", "quarto", "--vs", ""],
        ["play", "quarto", "--clock", ""],
        ["analyze", "quarto", "--levels", ""],
        ["match", "quarto", "--variant", "", "--bots", "random,random"],
        ["serve", "--database", ""],
        ["serve", "--broker", ""],
        ["serve", "--host", ""],
        ["serve", "--data", ""],
        ["analyze", "quarto", "-o", ""],
        ["render", "quarto", "--record", " "],
        ["play", "--load", ""],
        ["match", "quarto", "--bots", "random,random", "--records", ""],
        ["solve", "quarto", "--split", "--journal", ""],
    ],
    ids=lambda argv: " ".join(a or "''" for a in argv),
)
def test_empty_strings_are_refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert "not an empty string" in one_line(capsys)


def test_rules_variant_needs_a_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--variant", "standard"]) == 2
    assert "--variant standard needs a GAME" in one_line(capsys)
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["analyze", "dao", "--games", "2", "--scheduler", "nosuch"], "scheduler address"),
        (["analyze", "dao", "--games", "2", "--scheduler", "tcp://[::1"], "scheduler address"),
        (["match", "dao", "--bots", "random,random", "--scheduler", "x:y"],
         "scheduler address"),
        (["solve", "quarto", "--split", "--scheduler", ""], "scheduler address"),
        (["serve", "--allow-origin", ""], "an origin"),
        (["serve", "--allow-origin", "example.org"], "an origin"),
        (["serve", "--allow-host", ""], "a host name"),
        (["serve", "--allow-host", "a b"], "a host name"),
    ],
    ids=lambda x: " ".join(a or "''" for a in x) if isinstance(x, list) else x,
)
def test_addresses_and_names_are_checked_before_any_work(
        argv: list[str], expected: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert expected in one_line(capsys)
