"""The solve commands' one-line refusals and readable reports: an unknown argument is
refused by the sub-command it was given to, a message does not repeat the command, an
option's choices are listed once, and ``python -m fourfold.solve.pns`` refuses bad
numbers and prints each piece's report as a sentence."""

from __future__ import annotations

from pathlib import Path

import pytest

from fourfold.cli.main import main
from fourfold.solve.pns.__main__ import main as pns_main


def test_an_unknown_argument_names_the_sub_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "dao", "--frobnicate"]) == 2
    err = capsys.readouterr().err
    assert err == ("fourfold solve dao: unrecognized arguments: --frobnicate"
                   " (see `fourfold solve dao --help`)\n")
    assert main(["--frobnicate"]) == 2
    assert capsys.readouterr().err.startswith("fourfold: unrecognized arguments: --frobnicate")


def test_messages_do_not_repeat_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "quatrefoil"]) == 2
    err = capsys.readouterr().err
    assert err == "fourfold solve: quatrefoil needs --start and --solution (or --public)\n"


def test_choices_are_listed_once(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "folio", "--option", "line-rule=x"]) == 2
    err = capsys.readouterr().err
    assert err.count("same-colour-or-size") == 1 and "choices:" not in err
    assert "must be one of colours-or-sizes, same-colour-or-size" in err


@pytest.mark.parametrize("argv, named", [
    (["icedao", "0", "5", "T", "--seconds", "-1"], "--seconds"),
    (["icedao", "0", "5", "T", "--seconds", "nan"], "--seconds"),
    (["icedao", "0", "0", "T"], "moves"),
    (["icedao", "-1", "5", "T"], "side"),
    (["icedao", "0", "5", "T", "--pieces", "0"], "--pieces"),
])
def test_pns_refuses_bad_numbers_in_one_line(argv: list[str], named: str, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    argv = [str(tmp_path / "t.sqlite") if a == "T" else a for a in argv]
    with pytest.raises(SystemExit) as done:
        pns_main(argv)
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {named}" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "t.sqlite").exists()


def test_pns_prints_a_readable_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                      ) -> None:
    table = str(tmp_path / "t.sqlite")
    # Blue cannot win on her first move from the start: refuted at once
    assert pns_main(["icedao", "0", "1", table, "--seconds", "30"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("piece 1: disproven (refuted); this piece ")
    assert "PieceReport" not in out and "table entries" in out
