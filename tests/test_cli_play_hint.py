"""The ``hint`` command of terminal play: move values from the game's solver, or why not."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

import fourfold
from fourfold.cli.play import hint as hint_module
from fourfold.cli.play.console import Console
from fourfold.cli.play.loop import run_turns
from fourfold.cli.play.rules import rules_for
from fourfold.cli.play.session import Session
from fourfold.cli.play.terminal import Terminal
from fourfold.core.match import Match
from fourfold.games.dao import solver as dao
from fourfold.render import get_presenter
from fourfold.solve import position
from fourfold.table import Table

#: a Dao position X wins in 11 plies (the longest forced win; see docs/solutions.md)
DAO_WON = ".,O,O,O/.,X,.,O/X,.,.,X/X,.,.,. X"
#: the reconstructed "no way to stop Blue" position of Ice Dao (tests/test_solve_icedao.py)
ICEDAO_LOST = ".,.,Bm,Gm,Bl/Gs,.,.,.,Gs/Gl,.,.,.,Gl/Bm,Bl,.,Bs,./.,.,Bs,.,Gm G"


def session_output(game_name: str, setup: str | None, lines: str) -> str:
    game = fourfold.load(game_name)
    start: Any = game.parse_position(setup) if setup else None
    out = io.StringIO()
    match: Match[Any, Any] = Match(game, start)
    session = Session(Table(game, match=match), get_presenter(game.name),
                      Console(Terminal(io.StringIO(lines), out)), rules_for(game),
                      frozenset({0, 1}), referee=match)
    session.listen()
    assert run_turns(session) == 0
    return out.getvalue()


def test_hint_lists_every_move_with_its_value(cache: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FOURFOLD_CACHE", str(cache))
    dao.full_table()  # built once per session (or found in the session's cache)
    text = session_output("dao", DAO_WON, "hint\nquit\n")
    game = fourfold.load("dao")
    state = game.parse_position(DAO_WON)
    assert "X to move: win in 11 plies" in text
    hint = text.split("X to move: win in 11 plies", 1)[1].splitlines()
    moves = [line.split()[0] for line in hint[1:len(game.legal_moves(state)) + 1]]
    assert sorted(moves) == sorted(game.format_move(state, m) for m in game.legal_moves(state))
    assert hint[1].split()[1:] == ["win", "in", "11", "plies"]
    assert "Game left unfinished." in text  # a hint is not a move


def test_hint_for_a_bounded_solver_says_so() -> None:
    text = session_output("icedao", ICEDAO_LOST, "hint\nquit\n")
    assert "Green to move: loss in 2 plies (bounded solver:" in text
    assert "  pass   loss in 2 plies" in text or "pass  loss in 2 plies" in text


def test_hint_when_the_solver_cannot_answer_in_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hint_module, "HINT_SECONDS", 0.3)
    # the start after c4-c3 b1-b4: no stored proof covers it (the start itself is answered
    # from them: tests/test_icedao_stored_routes.py)
    far = "Gl,Bs,Gm,Bs,Gl/.,Gs,.,.,./.,.,Bm,.,./.,.,Gm,.,./Bl,.,Bm,Gs,Bl B"
    text = session_output("icedao", far, "hint\nquit\n")
    assert "No hint: the Ice Dao solver found no answer within 0.3 seconds" in text


def test_hint_does_not_start_building_a_table(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FOURFOLD_CACHE", str(tmp_path))
    monkeypatch.setattr(dao, "_TABLE", {})
    text = session_output("dao", None, "hint\nquit\n")
    assert "No hint: the Dao solver found no answer within 5 seconds" in text
    assert "`fourfold solve dao` builds it" in text


def test_hint_without_a_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(position, "game_solvers", lambda game: None)
    text = session_output("dao", None, "hint\nquit\n")
    assert "No hint: Dao has no solver, so move values are not known here." in text


def test_the_first_hint_warms_the_solver_up_untimed(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[float | None] = []

    def solve(game: Any, state: Any, seconds: float | None) -> None:
        calls.append(seconds)

    entry = position.SolverEntry(solve, None, "a test solver")
    monkeypatch.setattr(hint_module, "solver_for", lambda game: entry)
    session_output("dao", None, "hint\nhint\nquit\n")
    assert calls == [hint_module.WARM_UP_SECONDS, hint_module.HINT_SECONDS,
                     hint_module.HINT_SECONDS]


def test_a_slow_hint_says_it_is_thinking(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    from fourfold.cli.play import session

    monkeypatch.setattr(session, "THINKING_DELAY", 0.05)
    said = session.Session.say
    thinking = threading.Event()

    def say(self: Any, text: str) -> None:
        if "is thinking..." in text:
            thinking.set()
        said(self, text)

    monkeypatch.setattr(session.Session, "say", say)

    def solve(game: Any, state: Any, seconds: float | None) -> None:
        # slow for as long as it takes: it answers once the session said it is thinking
        assert thinking.wait(10), "the session never said the solver was thinking"

    monkeypatch.setattr(hint_module, "solver_for",
                        lambda game: position.SolverEntry(solve, None, "slow"))
    text = session_output("dao", None, "hint\nquit\n")
    assert "The Dao solver is thinking...\nNo hint: the Dao solver found no answer" in text


def test_help_lists_hint() -> None:
    text = session_output("dao", None, "help\nquit\n")
    assert "  hint    the value of every legal move for the player to move" in text
