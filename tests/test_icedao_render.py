"""The Ice Dao / Dao presenter: boards readable without colour, last move and winning
lines marked, repetition counts, move lists, and the draw-by-agreement command."""

from __future__ import annotations

import re
from typing import Any

import fourfold
from fourfold.games.sliding.text import SlidingPresenter
from fourfold.render import get_presenter, presenter_for

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def played(name: str, *moves: str, **options: Any) -> tuple[Any, Any, Any]:
    game = fourfold.load(name, **options)
    state, last = game.initial_state(), None
    for text in moves:
        last = game.parse_move(state, text)
        state = game.apply(state, last)
    return game, state, last


def rows(board: str) -> list[str]:
    return board.splitlines()


def test_registered_for_both_games() -> None:
    assert isinstance(get_presenter("icedao"), SlidingPresenter)
    assert isinstance(get_presenter("dao"), SlidingPresenter)


def test_start_board_with_coordinates_on_every_edge() -> None:
    game, state, _ = played("icedao")
    lines = rows(presenter_for(game).draw(game, state, None))
    assert lines[0].split() == list("abcde") == lines[6].split()
    assert lines[1].split() == ["5", "Gl", "Bs", "Gm", "Bs", "Gl", "5"]
    assert lines[5].split() == ["1", "Bl", "Gs", "Bm", "Gs", "Bl", "1"]
    assert lines[3].split() == ["3", "·", "·", "·", "·", "·", "3"]
    assert "stacks bottom to top" in lines[7]


def test_stacks_bottom_to_top_and_last_move_marked() -> None:
    game, state, last = played("icedao", "b5-c5")
    board = presenter_for(game).draw(game, state, last)
    top = rows(board)[1].split()
    assert top == ["5", "Gl", "(·)", "[GmBs]", "Bs", "Gl", "5"]
    assert "[ ] moved here" in board and "( ) moved from" in board


def test_pass_and_repetition_count_are_shown() -> None:
    game, state, last = played("icedao", "pass", "pass")
    board = presenter_for(game).draw(game, state, last)
    assert "last move: pass" in board
    assert "with Blue to move, has now occurred 2 times; a third time draws." in board
    capped, state, last = played("icedao", "pass", max_plies=10)
    assert "Ply 1 of at most 10" in presenter_for(capped).draw(capped, state, last)


def test_winning_line_marked_and_colour_only_adds_emphasis() -> None:
    game = fourfold.load("icedao")
    state = game.parse_position(".,Gm,.,.,Gs/.,.,.,Gl,./.,.,Gl,.,./.,.,.,.,./.,Bs,.,.,. G")
    move = game.parse_move(state, "b5-b2")
    after = game.apply(state, move)
    presenter = presenter_for(game)
    plain = presenter.draw(game, after, move)
    assert "*Gl*" in plain and "*Gs*" in plain and "[Gm]" in plain
    assert "* * winning line" in plain
    coloured = presenter.draw(game, after, move, colour=True)
    assert "\x1b[" in coloured and "\x1b[" not in plain
    assert ANSI.sub("", coloured) == plain


def test_dao_board() -> None:
    game, state, last = played("dao", "a1-a3")
    lines = rows(presenter_for(game).draw(game, state, last))
    assert lines[0].split() == list("abcd")
    assert lines[1].split() == ["4", "O", "·", "·", "X", "4"]
    assert lines[2].split() == ["3", "[X]", "O", "X", "·", "3"]
    assert lines[4].split() == ["1", "(·)", "·", "·", "O", "1"]


def test_turns_moves_and_explanations() -> None:
    game, state, _ = played("icedao")
    presenter = presenter_for(game)
    assert presenter.describe_turn(game, state).endswith("e.g. a1-a4, or pass")
    lines = presenter.list_moves(game, state)
    assert lines[0] == "22 legal moves:"
    assert "  b5 Bs: b5-c5 b5-e2 b5-b2 b5-a4 b5-a5" in lines
    assert lines[-1].startswith("  pass")
    move = game.parse_move(state, "b5-c5")
    assert presenter.explain_move(game, state, move) == (
        "the small Blue slid east from b5 to c5, onto the medium Green"
    )
    after = game.apply(state, move)
    assert presenter.explain_move(game, after, game.parse_move(after, "pass")) == (
        "passed (a zero-square move)"
    )
    dao, start, _ = played("dao")
    assert presenter_for(dao).explain_move(dao, start, dao.parse_move(start, "d4-b4")) == (
        "slid west from d4 to b4"
    )
    assert "there is no pass" in presenter_for(dao).move_help(dao, start)
