"""``fourfold render``: one picture to stdout or a file; clear one-line errors."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from fourfold.cli.main import main
from fourfold.core.record import Record, format_record


def test_render_to_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["render", "folio", "--variant", "no-grid"]) == 0
    root = ET.fromstring(capsys.readouterr().out)
    assert root.tag.endswith("svg")


def test_render_to_a_file_with_options_and_setup(tmp_path: Path) -> None:
    out = tmp_path / "quarto.svg"
    assert main(["render", "quarto", "--setup", "a1=TDRH SLQF", "-o", str(out)]) == 0
    assert 'data-cell="a1"' in out.read_text()
    out = tmp_path / "folio.svg"
    assert main(["render", "folio", "--option", "line-rule=same-colour-or-size",
                 "-o", str(out)]) == 0
    ET.parse(out)


def test_render_a_record_marks_the_last_move(tmp_path: Path) -> None:
    record = tmp_path / "game.txt"
    record.write_text(format_record(Record("dao", "standard", players=("X", "O"),
                                           moves=("a1-a3",))))
    out = tmp_path / "dao.svg"
    assert main(["render", "dao", "--record", str(record), "-o", str(out)]) == 0
    assert 'class="last"' in out.read_text()


def test_render_a_seat_of_quatrefoil(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["render", "quatrefoil", "--seat", "2"]) == 0
    assert "Player 2" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["render", "nosuchgame"], "unknown game"),
        (["render", "quatrefoil", "--seat", "5"], "--seat must be 1 to 4"),
        (["render", "dao", "--record", "/no/such/file"], "cannot read"),
        (["render", "dao", "-o", "/no/such/dir/x.svg"], "cannot write"),
        (["render", "dao", "--setup", "junk"], "cannot read position"),
        (["render", "folio", "--option", "bogus"], "NAME=VALUE"),
    ],
)
def test_errors_are_one_clear_line(argv: list[str], message: str,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
