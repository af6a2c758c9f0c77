"""Text renderers of the placement games: edges, letters, marks, hand and pieces left."""

from __future__ import annotations

import random
import re

import pytest

import fourfold
from fourfold.core.errors import ConfigurationError
from fourfold.games.placement import PlacementGame, PlacementState, Ply
from fourfold.games.placement.text import PlacementPresenter
from fourfold.render import Presenter, get_presenter, presenter_for

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def play(game: PlacementGame, *moves: str) -> tuple[PlacementState, Ply | None]:
    """The state after ``moves`` and the last move played."""
    state, move = game.initial_state(), None
    for text in moves:
        move = game.parse_move(state, text)
        state = game.apply(state, move)
    return state, move


def load(name: str, variant: str | None = None, **options: str) -> PlacementGame:
    game = fourfold.load(name, variant, **options)
    assert isinstance(game, PlacementGame)
    return game


def draw(name: str, variant: str | None, *moves: str, colour: bool = False) -> str:
    game = load(name, variant)
    state, move = play(game, *moves)
    return get_presenter(name, variant).draw(game, state, move, colour=colour)


def cell(board: str, column: str, row: str, width: int = 2) -> str:
    """The text of one cell (a piece with its two mark characters, or a mark) of a board
    whose pieces are ``width`` letters long."""
    lines = board.splitlines()
    match = re.search(rf"(?<!\S){re.escape(column)}(?!\S)", lines[0])
    assert match, f"column {column} not on the edge:\n{board}"
    start = match.start() - 1 - (width - len(column)) // 2
    for line in lines[1:]:
        parts = line.split()
        if parts and parts[0] == row and parts[-1] == row:
            return line[start: start + width + 2].strip()
    raise AssertionError(f"row {row} not on the edges:\n{board}")


def test_the_placement_games_bundles_name_the_placement_presenter() -> None:
    for variant in ("standard", "fixed-grid", "no-grid"):
        assert isinstance(get_presenter("folio", variant), PlacementPresenter)
    assert isinstance(get_presenter("quarto"), PlacementPresenter)
    assert isinstance(get_presenter("quarto", "standard"), PlacementPresenter)
    # Folio freeform is not a placement game on a grid: its variant names its own
    assert not isinstance(get_presenter("folio", "freeform"), PlacementPresenter)
    assert presenter_for(load("quarto")) is get_presenter("quarto")


def test_the_generic_presenter_shows_position_strings() -> None:
    presenter = Presenter()
    game = load("quarto")
    state = game.initial_state()
    assert game.format_position(state) in presenter.draw(game, state, None)
    assert presenter.list_moves(game, state)[0] == "16 legal moves:"


def test_an_unknown_game_or_variant_has_no_presenter() -> None:
    with pytest.raises(ConfigurationError, match="unknown game 'no-such-game'"):
        get_presenter("no-such-game")
    with pytest.raises(ConfigurationError, match="unknown folio variant"):
        get_presenter("folio", "some-other-variant")


def test_standard_board_has_files_and_ranks_on_every_edge() -> None:
    lines = draw("folio", "standard").splitlines()
    assert lines[0].split() == list("abcdefgh")
    assert lines[9].split() == list("abcdefgh")
    for i, rank in enumerate(range(8, 0, -1), start=1):
        parts = lines[i].split()
        assert parts[0] == parts[-1] == str(rank)


def test_standard_start_marks_only_the_central_squares() -> None:
    board = draw("folio", "standard")
    marked = {f + r for f in "abcdefgh" for r in "12345678" if cell(board, f, r) == "+"}
    assert marked == {"d4", "e4", "d5", "e5"}
    assert cell(board, "a", "1") == "·"
    assert "+ the next piece may go here" in board


def test_standard_marks_the_floating_box() -> None:
    game = load("folio", "standard")
    state, move = play(game, "Gs", "d4 Rs", "e5 Bl")
    board = presenter_for(game).draw(game, state, move)
    placeable = {game.geometry.format_cell(c) for c in game.geometry.placeable(state.occupied)}
    marked = {f + r for f in "abcdefgh" for r in "12345678" if cell(board, f, r) == "+"}
    assert marked == placeable
    assert cell(board, "d", "4") == "Gs"
    assert cell(board, "e", "5") == "[Rs]"
    assert cell(board, "h", "8") == "·"


def test_hand_and_pieces_left_with_counts_of_doubles() -> None:
    board = draw("folio", "standard", "Gs", "d4 Rs")
    assert "In hand: Rs (small red), for Player 2 to place" in board
    left = next(line for line in board.splitlines() if line.startswith("Pieces left"))
    assert left.startswith("Pieces left to give (14):")
    words = left.split(":", 1)[1].split()
    assert "Rs" in words  # one small red is in hand, one is left
    assert "Ym×2" in words and "Gl×2" in words and "Bl×2" in words
    assert "Gs" not in words


def test_opening_hand_line_names_who_gives() -> None:
    board = draw("folio", "fixed-grid")
    assert "In hand: nothing yet; Player 2 opens by choosing" in board
    assert "Pieces left to give (16): Rs×2 Rm Rl Ys Ym×2" in board


def test_fixed_grid_has_no_placeable_marks() -> None:
    board = draw("folio", "fixed-grid", "Gs", "b2 Rs")
    assert board.splitlines()[0].split() == list("abcd")
    assert "+" not in board.split("\n\n")[0]
    assert cell(board, "b", "2") == "[Gs]"
    assert cell(board, "a", "1") == "·"


def test_winning_line_is_marked_and_hand_is_empty() -> None:
    board = draw("folio", "fixed-grid", "Rs", "a1 Ym", "b1 Gl", "c1 Bm", "d1")
    assert cell(board, "d", "1") == "[Bm]"
    assert [cell(board, f, "1") for f in "abc"] == ["*Rs*", "*Ym*", "*Gl*"]
    assert "winning line" in board
    assert "In hand: nothing (the game is over)" in board


def test_no_grid_shows_coordinates_around_the_occupied_area() -> None:
    game = load("folio", "no-grid")
    state, move = play(game, "Gs", "0,0 Rs", "1,0 Bl")
    board = presenter_for(game).draw(game, state, move)
    lines = board.splitlines()
    assert lines[0].split() == ["-1", "0", "1", "2"]
    assert lines[4].split() == ["-1", "0", "1", "2"]
    assert [line.split()[0] for line in lines[1:4]] == ["1", "0", "-1"]
    assert cell(board, "0", "0") == "Gs"
    assert cell(board, "1", "0") == "[Rs]"
    placeable = {game.geometry.format_cell(c) for c in game.geometry.placeable(state.occupied)}
    marks = {
        f"{x},{y}" for x in range(-1, 3) for y in range(-1, 2) if cell(board, str(x), str(y)) == "+"
    }
    assert marks == placeable
    assert "Cells are x,y" in board


def test_no_grid_start_shows_the_origin() -> None:
    board = draw("folio", "no-grid")
    assert board.splitlines()[0].split() == ["-1", "0", "1"]
    assert cell(board, "0", "0") == "+"
    assert cell(board, "1", "1") == "·"


def test_no_grid_margin_cells_beyond_the_box_are_not_marked() -> None:
    board = draw("folio", "no-grid", "Gs", "0,0 Rs", "1,0 Bl", "2,0 Ym", "3,1 Gl")
    assert board.splitlines()[0].split() == [str(x) for x in range(-1, 5)]
    assert cell(board, "4", "1") == "·"
    assert cell(board, "-1", "0") == "·"
    assert cell(board, "2", "1") == "+"


def test_quarto_pieces_are_four_letters() -> None:
    board = draw("quarto", None, "TDRH", "c3 SLQF")
    assert board.splitlines()[0].split() == list("abcd")
    assert cell(board, "c", "3", width=4) == "[TDRH]"
    assert cell(board, "a", "4", width=4) == "·"
    assert "In hand: SLQF (short light square flat-topped), for Player 2 to place" in board
    assert "Pieces left to give (14):" in board
    assert "×" not in board


def test_colour_only_adds_emphasis() -> None:
    plain = draw("folio", "standard", "Gs", "d4 Rs")
    coloured = draw("folio", "standard", "Gs", "d4 Rs", colour=True)
    assert "\x1b[" not in plain
    assert "\x1b[" in coloured
    assert ANSI.sub("", coloured) == plain


def test_moves_are_grouped_by_cell() -> None:
    game = load("folio", "standard")
    presenter = presenter_for(game)
    state, _ = play(game, "Gs")
    lines = presenter.list_moves(game, state)
    assert lines[0] == "44 legal moves: place the Gs, then give a piece"
    assert lines[1] == "  d4 e4 d5 e5: give any of Rs Rm Rl Ys Ym Yl Gm Gl Bs Bm Bl"
    opening = presenter.list_moves(game, game.initial_state())
    assert opening[0].startswith("12 legal moves: give any of Rs Rm")


def test_winning_cells_are_listed_as_place_only() -> None:
    game = load("folio", "fixed-grid")
    state, _ = play(game, "Rs", "a1 Ym", "b1 Gl", "c1 Bm")
    lines = presenter_for(game).list_moves(game, state)
    assert "  d1: place only, nothing given (this placement wins)" in lines


def test_turn_descriptions_follow_the_give_then_place_rhythm() -> None:
    game = load("folio", "fixed-grid")
    presenter = presenter_for(game)
    assert presenter.describe_turn(game, game.initial_state()).startswith(
        "give Player 1 their first piece, e.g. Rs"
    )
    state, _ = play(game, "Gs")
    text = presenter.describe_turn(game, state)
    assert text.startswith("place the Gs (small green), then give Player 2 a piece, e.g. ")
    example = text.rsplit("e.g. ", 1)[1]
    game.play(state, example)
    assert "Cells: a1..d4" in presenter.move_help(game, state)


def test_last_piece_has_no_give() -> None:
    game = load("folio", "fixed-grid", line_rule="same-colour-or-size")
    presenter = presenter_for(game)
    rng = random.Random(0)
    for _ in range(200):
        state = game.initial_state()
        while game.outcome(state) is None and state.placed < 15:
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        if game.outcome(state) is None:
            break
    assert game.outcome(state) is None and state.placed == 15
    assert "the last piece (nothing to give), e.g. " in presenter.describe_turn(game, state)
    assert "Pieces left to give: none" in presenter.draw(game, state, None)
    assert presenter.list_moves(game, state)[-1].endswith("place only: it is the last piece")
