"""``fourfold explore``: every legal move of a solved game's position with its value and
distance, the same as ``fourfold solve --json`` says; refusals in one line."""

from __future__ import annotations

from pathlib import Path

import pytest

import fourfold
from fourfold.cli.main import main
from support.cli import run_json


@pytest.fixture(autouse=True)
def use_cache(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FOURFOLD_CACHE", str(cache))


def dao_positions() -> list[str]:
    game = fourfold.load("dao")
    state = game.initial_state()
    found = [game.format_position(state)]
    for _ in range(6):
        state = game.next_state(state, game.legal_moves(state)[-1])
        found.append(game.format_position(state))
    return found


def test_explore_gives_every_move_as_solve_does(capsys: pytest.CaptureFixture[str]) -> None:
    game = fourfold.load("dao")
    for position in dao_positions():
        explored = run_json(["explore", "dao", "--position", position, "--json"], capsys)
        solved = run_json(["solve", "dao", "--setup", position, "--json"], capsys)
        assert explored["moves"] == solved["moves"]
        assert (explored["value"], explored["distance"]) == (solved["value"],
                                                             solved["distance"])
        state = game.parse_position(position)
        assert sorted(m["move"] for m in explored["moves"]) == sorted(
            game.format_move(state, m) for m in game.legal_moves(state))


def test_explore_colours_moves_by_value(capsys: pytest.CaptureFixture[str]) -> None:
    position = dao_positions()[3]
    assert main(["explore", "dao", "--position", position]) == 0
    out = capsys.readouterr().out
    assert "legal moves, best first" in out
    explored = run_json(["explore", "dao", "--position", position, "--json"], capsys)
    for m in explored["moves"]:
        assert m["move"] in out


def one_line(capsys: pytest.CaptureFixture[str]) -> str:
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in captured.err, captured.err
    return lines[0]


@pytest.mark.parametrize(("argv", "says"), [
    (["explore", "quatrefoil"], "no solver"),
    (["explore", "folio", "--variant", "freeform"], "no solver"),
    (["explore", "dao", "--position", "xx"], "position"),
    (["explore", "nosuchgame"], "nosuchgame"),
    (["explore", "quarto", "--seconds", "0.2"], "no exact value"),
    (["explore", "dao", "--seconds", "-3"], "--seconds"),
])
def test_explore_refuses_in_one_line(argv: list[str], says: str,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert says in one_line(capsys)


def test_explore_refuses_a_finished_game(capsys: pytest.CaptureFixture[str]) -> None:
    game = fourfold.load("quarto")
    state = game.initial_state()
    while game.outcome(state) is None:
        state = game.next_state(state, game.legal_moves(state)[0])
    assert main(["explore", "quarto", "--position", game.format_position(state)]) == 2
    assert "the game is over" in one_line(capsys)


def test_explore_a_record_as_solve_does(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "dao.rec"
    assert main(["match", "dao", "--bots", "greedy,greedy", "--games", "2", "--max-plies",
                 "9", "--records", str(path), "--json"]) == 0
    explored = run_json(["explore", "dao", "--record", str(path), "--game", "2", "--json"],
                        capsys)
    solved = run_json(["solve", "dao", "--record", str(path), "--game", "2", "--json"],
                      capsys)
    assert explored["moves"] == solved["moves"]
    assert explored["position"] == solved["position"]
    assert main(["explore", "quarto", "--record", str(path), "--game", "1"]) == 2
    assert "a game of dao, not quarto" in one_line(capsys)
