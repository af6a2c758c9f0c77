"""Record files of several games (``fourfold match --records``): read by ``render``,
``solve`` and ``play --load``, one game picked with ``--game N``; without it, one line
says how many games the file holds and which numbers are valid."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from fourfold.cli.main import main
from fourfold.core.errors import RecordError
from fourfold.core.match import Match
from fourfold.core.record import format_record, parse_record, parse_records


@pytest.fixture(scope="module")
def three_games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("records") / "match.txt"
    argv = ["match", "quarto", "--bots", "random,random", "--games", "3", "--seed", "5",
            "--records", str(path)]
    assert main(argv) == 0
    return path


def test_parse_records_reads_every_game_and_round_trips(three_games: Path) -> None:
    text = three_games.read_text(encoding="utf-8")
    records = parse_records(text)
    assert len(records) == 3
    assert "\n".join(format_record(r) for r in records) == text
    for record in records:
        Match.from_record(record)  # each replays


def test_parse_record_says_plainly_that_the_text_holds_several(three_games: Path) -> None:
    text = three_games.read_text(encoding="utf-8")
    second = text.split("\n").index('[Game "quarto"]', 1) + 1
    with pytest.raises(RecordError, match=rf"line {second}: the text holds 3 game records,"
                                          " not one"):
        parse_record(text)


def test_a_fault_in_a_later_record_names_its_line_in_the_file(three_games: Path) -> None:
    lines = three_games.read_text(encoding="utf-8").split("\n")
    third = [i for i, line in enumerate(lines) if line == '[Game "quarto"]'][2]
    lines[third + 1] = "[Variant broken"
    with pytest.raises(RecordError, match=rf"line {third + 2}: expected a tag"):
        parse_records("\n".join(lines))


@pytest.mark.parametrize("command", [["render", "quarto", "--record"],
                                     ["solve", "quarto", "--record"],
                                     ["play", "--load"]])
def test_a_file_of_several_games_is_refused_with_the_valid_numbers(
        command: list[str], three_games: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*command, str(three_games)]) == 2
    err = capsys.readouterr().err
    assert err.endswith(f": {three_games} holds 3 games: choose one with --game N (1 to 3)\n")
    assert err.count("\n") == 1 and "tags must come before" not in err
    assert main([*command, str(three_games), "--game", "4"]) == 2
    assert f"--game 4: {three_games} holds 3 games (1 to 3)" in capsys.readouterr().err


def test_render_draws_the_chosen_game(three_games: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    records = parse_records(three_games.read_text(encoding="utf-8"))
    for number, record in enumerate(records, start=1):
        assert main(["render", "quarto", "--record", str(three_games),
                     "--game", str(number)]) == 0
        svg = capsys.readouterr().out
        last = record.moves[-1].split()[0]  # the cell of the last placement, marked
        assert svg.startswith("<svg") and last in svg


def test_solve_and_play_read_the_chosen_game(three_games: Path, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    records = parse_records(three_games.read_text(encoding="utf-8"))
    finished = max(records, key=lambda r: len(r.moves))  # the fewest empty squares
    unfinished = replace(finished, moves=finished.moves[:-2], result="*", termination="")
    path = tmp_path / "two.txt"
    path.write_text(format_record(finished) + "\n" + format_record(unfinished))
    assert main(["solve", "quarto", "--record", str(path), "--game", "2", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    position = Match.from_record(unfinished).state
    assert answer["position"] == Match.from_record(unfinished).game.format_position(position)
    assert main(["solve", "quarto", "--record", str(path), "--game", "1"]) == 2
    assert "the game is over" in capsys.readouterr().err
    assert main(["play", "--load", str(path), "--game", "1"]) == 0
    assert "Game over." in capsys.readouterr().out


def test_game_goes_with_a_record_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["render", "quarto", "--game", "2"]) == 2
    assert "--game N picks a game of a record file: it goes with --record" in \
        capsys.readouterr().err
