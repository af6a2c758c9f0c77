"""Puzzles: every mined puzzle (and every shipped one) re-verified with ``fourfold solve
--json``, move by move; playing one in the terminal; refusals in one line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import fourfold
from fourfold.cli.main import main
from fourfold.puzzles.puzzle import Puzzle
from fourfold.puzzles.session import play
from fourfold.puzzles.starter import starter, starter_games
from support import numba_lock
from support.cli import run_json


@pytest.fixture(autouse=True)
def use_cache(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FOURFOLD_CACHE", str(cache))


def solve(puzzle: dict[str, Any], position: str, capsys: pytest.CaptureFixture[str]) -> Any:
    argv = ["solve", puzzle["game"], "--variant", puzzle["variant"], "--setup", position,
            "--json", "--seconds", "120"]
    for key, value in puzzle["options"].items():
        argv += ["--option", f"{key}={value}"]
    return run_json(argv, capsys)


def verify(puzzle: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    """The puzzle's claims, checked against ``fourfold solve --json`` at every step."""
    game = fourfold.load(puzzle["game"], puzzle["variant"], **puzzle["options"])
    state = game.parse_position(puzzle["position"])
    line = puzzle["solution"]
    first = solve(puzzle, puzzle["position"], capsys)
    assert first["exact"] and len(first["moves"]) >= 2
    if puzzle["goal"] == "hold":
        assert first["value"] == "draw" and len(line) == 1 and puzzle["themes"][0] == "defend"
        safe = [m["move"] for m in first["moves"] if m["value"] != "loss"]
        assert safe == line, puzzle
        return
    assert first["value"] == "win" and first["distance"] == len(line)
    assert puzzle["win_in"] == (len(line) + 1) // 2
    assert puzzle["themes"][0] == f"win in {puzzle['win_in']}" and puzzle["bound"] is None
    for ply, text in enumerate(line):
        position = game.format_position(state)
        solved = solve(puzzle, position, capsys)
        if ply % 2 == 0:  # the puzzle's side: exactly one winning move, all proven
            assert all(m["value"] != "unknown" for m in solved["moves"])
            winners = [m["move"] for m in solved["moves"] if m["value"] == "win"]
            assert winners == [text], (puzzle, ply)
        else:  # the defender: lost, and the line plays one of the slowest losses
            assert solved["value"] == "loss"
            assert solved["moves"][0]["distance"] == next(
                m["distance"] for m in solved["moves"] if m["move"] == text)
        state = game.next_state(state, game.parse_move(state, text))
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winner == game.to_move(
        game.parse_position(puzzle["position"]))


def test_every_mined_dao_puzzle_is_certified_by_fourfold_solve(
        capsys: pytest.CaptureFixture[str]) -> None:
    mined = run_json(["puzzles", "dao", "--count", "6", "--seed", "4", "--json"], capsys)
    assert len(mined) == 6
    assert len({p["position"] for p in mined}) == 6
    for puzzle in mined:
        verify(puzzle, capsys)


def test_mining_is_seeded(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["puzzles", "dao", "--count", "3", "--seed", "9", "--json"]
    assert run_json(argv, capsys) == run_json(argv, capsys)


def test_mining_stops_at_its_budget(capsys: pytest.CaptureFixture[str]) -> None:
    import time

    # The budget is about mining, not compiling: the time the run spends in numba's
    # compilations (a cold kernel on a busy machine takes longer than the slack below, and
    # a warm-up run before the clock did not reach every kernel the timed one did), loads
    # from its cache and waits for another worker's compilation is not counted.
    with numba_lock.compiling() as compiled:
        start = time.monotonic()
        assert main(["puzzles", "quarto", "--count", "1000", "--budget", "3",
                     "--seconds", "0.5", "--json"]) == 0
        mining = time.monotonic() - start - compiled()
    out, err = capsys.readouterr()
    mined = json.loads(out)
    # the budget is checked between positions; each costs at most a few solves of 0.5 s
    assert mining < 3 + 30, f"{mining:.1f} s of mining for a budget of 3 s"
    assert len(mined) < 1000
    if mined:  # fewer than asked for: the command says so (on stderr: stdout is the JSON)
        assert f"found {len(mined)} of the 1000 puzzles" in err, err


@pytest.mark.parametrize("game", sorted({p.game for p in starter() if p.bound is None}))
def test_every_shipped_puzzle_is_certified_by_fourfold_solve(
        game: str, capsys: pytest.CaptureFixture[str]) -> None:
    shipped = starter(game)
    assert len(shipped) >= 5
    for puzzle in shipped:
        verify(puzzle.to_json(), capsys)


def test_the_starter_set_covers_the_solved_games() -> None:
    # Ice Dao's, proven within a bound, are re-searched in tests/test_puzzles_icedao.py
    assert {"dao", "quarto", "folio", "icedao"} <= set(starter_games())


def session(puzzle: Puzzle, typed: list[str], tries: int = 3) -> tuple[bool, str]:
    lines: list[str] = []
    feed = iter(typed)

    def read(prompt: str) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    solved = play(puzzle, read, lines.append, tries=tries)
    return solved, "\n".join(lines)


def wrong_move(puzzle: Puzzle) -> str:
    game, state = puzzle.load()
    return next(t for t in (game.format_move(state, m) for m in game.legal_moves(state))
                if t != puzzle.solution[0])


def test_a_puzzle_is_played_with_tries_hint_and_solution() -> None:
    puzzle = next(p for p in starter("dao") if p.goal == "win" and p.win_in >= 2)
    mine = puzzle.solution[0::2]
    game, state = puzzle.load()
    illegal = next(game.format_move(state, m) for m in game.legal_moves(
        game.next_state(state, game.legal_moves(state)[0])) if m not in game.legal_moves(state))
    solved, out = session(puzzle, ["nonsense", illegal, "hint", wrong_move(puzzle), *mine])
    assert solved and "Solved!" in out
    assert "'nonsense':" in out  # unreadable and illegal entries cost no try
    assert f"{illegal}: not a legal move here" in out
    assert f"Hint: {puzzle.solution[0][:3]}" in out
    assert "2 tries left" in out
    assert f"The reply: {puzzle.solution[1]}" in out
    solved, out = session(puzzle, ["solution"])
    assert not solved and " ".join(puzzle.solution) in out
    from fourfold.render import presenter_for

    finish, last = state, None
    for text in puzzle.solution:
        last = game.parse_move(finish, text)
        finish = game.next_state(finish, last)
    assert game.outcome(finish) is not None
    assert out.rstrip().endswith("After the solution.") and "Solved!" not in out
    assert presenter_for(game).draw(game, finish, last) in out  # the finished board
    wrong = wrong_move(puzzle)
    solved, out = session(puzzle, [wrong, wrong], tries=2)
    assert not solved and f"No tries left; the solution: {' '.join(puzzle.solution)}" in out


def test_the_puzzle_command_plays_from_a_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    puzzle = starter("quarto")[0]
    path = tmp_path / "p.json"
    path.write_text(json.dumps([puzzle.to_json()]))
    typed = iter(puzzle.solution[0::2])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(typed))
    assert main(["puzzle", "--file", str(path), "--number", "1"]) == 0
    assert "Solved!" in capsys.readouterr().out


def one_line(capsys: pytest.CaptureFixture[str]) -> str:
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in captured.err, captured.err
    return lines[0]


@pytest.mark.parametrize(("argv", "says"), [
    (["puzzles", "quatrefoil"], "two-player"),
    (["puzzles", "folio", "--variant", "freeform"], "no solver"),
    (["puzzles", "dao", "--count", "0"], "--count"),
    (["puzzles", "dao", "--budget", "-1"], "--budget"),
    (["puzzle", "nosuchgame"], "nosuchgame"),
    (["puzzle", "dao", "--number", "100000"], "--number 100000"),
    (["puzzle", "--file", "{tmp}/missing.json"], "missing.json"),
    (["puzzle", "--file", "{tmp}/bad.json"], "not JSON"),
    (["puzzle", "--file", "{tmp}/wrong.json"], "field 'solution'"),
])
def test_puzzle_commands_refuse_in_one_line(
        argv: list[str], says: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "bad.json").write_text("[{")
    (tmp_path / "wrong.json").write_text(json.dumps([{
        "game": "dao", "variant": "standard", "position": "x", "theme": "t", "goal": "win",
        "rating": 1, "win_in": 1, "solution": []}]))
    assert main([a.format(tmp=tmp_path) for a in argv]) == 2
    assert says in one_line(capsys)


def test_input_ending_mid_puzzle_says_so() -> None:
    puzzle = starter("dao")[0]
    solved, out = session(puzzle, [])
    assert not solved and out.endswith("The input ended before the puzzle was solved.")


def test_a_byte_that_is_not_text_is_a_move_refused() -> None:
    """``fourfold puzzle`` read its moves with ``input``: a byte that is not UTF-8 (a
    Latin-1 terminal's e-acute) ended it with a UnicodeDecodeError's traceback."""
    import subprocess
    import sys

    result = subprocess.run(
        [sys.executable, "-m", "fourfold.cli.main", "puzzle", "dao", "--number", "1"],
        input=b"\xe9\nquit\n", capture_output=True, timeout=60,
        env={"NO_COLOR": "1", "PATH": "", "PYTHONIOENCODING": "utf-8"})
    err = result.stderr.decode()
    assert "Traceback" not in err and err == "", err
    assert "'\ufffd': cannot read move" in result.stdout.decode()
