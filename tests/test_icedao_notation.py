"""Ice Dao notation (RULES.md §4): position strings, moves, explanations of illegal moves,
dense actions, round trips along seeded random games, and fuzzed parsers."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import fourfold
from fourfold.core.errors import FourfoldError, IllegalMoveError, NotationError
from fourfold.core.game import Game
from fourfold.core.match import Match
from fourfold.core.record import format_record, parse_record
from fourfold.games.icedao import Pass, Slide

START = "Gl,Bs,Gm,Bs,Gl/.,.,Bm,.,./.,.,.,.,./.,.,Gm,.,./Bl,Gs,Bm,Gs,Bl B"
GAME = fourfold.load("icedao")


@pytest.fixture(scope="module")
def game() -> Game[Any, Any]:
    return GAME


def test_default_start_string(game: Game[Any, Any]) -> None:
    assert game.format_position(game.initial_state()) == START
    assert game.parse_position(START) == game.initial_state()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (START.replace("Gl,Bs,Gm", "BsGl,.,Gm"), "a large cannot stand on a small"),
        (START.replace("Gl,Bs,Gm", "GmBm,Bs,."), "two medium pieces cannot be stacked"),
        (START.replace("Gl,Bs,Gm", "Gl,BsGs,Gm"), "two small pieces cannot be stacked"),
        (START.replace("./.,.,.,.,./", "./Bs,.,.,.,./"), "3 small Blue pieces"),
        (START.replace("Bl,Gs", "BlBl,Gs"), "two large"),
        (START.replace("Gl,Bs,Gm", "Gx,Bs,Gm"), "square a5: 'Gx' in 'Gx' is not a piece"),
        (START.replace("Gl,Bs,Gm", "G,Bs,Gm"), "square a5"),
        (START.replace("Gl,Bs,Gm", ",Bs,Gm"), "square a5: empty; write . for an empty square"),
        (START.replace(".,.,.,.,./", ""), "expected 5 ranks"),
        (START.replace(".,.,.,.,./", ".,.,.,./"), "rank 3 has 4 squares"),
        (START[:-1] + "X", "the side to move must be B or G"),
        (START[:-2], "expected the board, one space and the side to move"),
        (START + " B", "expected the board"),
        ("", "expected the board"),
    ],
)
def test_impossible_positions_are_refused(game: Game[Any, Any], text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message) as info:
        game.parse_position(text)
    assert info.value.kind == "position" and info.value.text == text


def test_position_errors_point_at_the_square(game: Game[Any, Any]) -> None:
    text = START.replace("Gs,Bl B", "Gs,Bx B")
    with pytest.raises(NotationError) as info:
        game.parse_position(text)
    assert "square e1" in str(info.value)
    assert info.value.index == text.index("Bx")


def test_positions_may_leave_pieces_off_the_board(game: Game[Any, Any]) -> None:
    text = ".,.,.,.,./.,.,.,.,./.,.,GlBmGs,.,./.,.,.,.,./Bs,.,.,.,. G"
    state = game.parse_position(text)
    assert game.format_position(state) == text
    assert state.board[12] == (5, 1, 3)  # large green, medium blue, small green
    # letters are read in either case and written canonically
    assert game.format_position(game.parse_position(text.lower().replace(" g", " G"))) == text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty move"),
        ("c4", "write a move as FROM-TO"),
        ("c4-", "'' is not a square"),
        ("c4-f2", "f2 is off the board"),
        ("c0-c2", "c0 is off the board"),
        ("c4-c4", "a move of zero squares is written pass"),
        ("c4-d2", "not a straight line"),
        ("passe", "write a move as FROM-TO"),
        ("c4-e2-e1", "is not a square"),
    ],
)
def test_bad_move_text(game: Game[Any, Any], text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        game.parse_move(game.initial_state(), text)


def test_move_text_is_read_leniently(game: Game[Any, Any]) -> None:
    state = game.initial_state()
    assert game.parse_move(state, " C4-E2 ") == Slide(17, 3)
    assert game.parse_move(state, "PASS") == Pass()


@pytest.mark.parametrize(
    ("position", "move", "reason"),
    [
        (START, "c2-c3", "c2 has no piece of yours on top (the top piece is the medium Green)"),
        (START, "c3-c1", "c3 is empty"),
        (START, "c1-c2", "the medium on c1 cannot move north at all, because c2 holds a medium"
                         " Green, which is not larger than a medium (a zero-square move is the"
                         " move pass)"),
        (START, "a1-a2", "the large on a1 cannot stop on a2: moving north it slides on to a4,"
                         " as a piece always goes as far as it can (a5 holds a large Green,"
                         " which is not larger than a large)"),
        (START, "a1-a5", "the large on a1 cannot stop on a5: moving north it slides to a4,"
                         " because a5 holds a large Green, which is not larger than a large"),
        (START.replace("Gm,.,./Bl", "Gm,.,Gs/Bl").replace("Gs,Bl B", ".,Bl B"), "c4-e2",
         "the medium on c4 cannot stop on e2: moving south-east it slides to d3, because e2"
         " holds a small Green, which is not larger than a medium"),
        (START.replace("Bl B", "Bl G"), "b5-b4",
         "b5 has no piece of yours on top (the top piece is the small Blue)"),
    ],
)
def test_illegal_moves_are_explained(
    game: Game[Any, Any], position: str, move: str, reason: str
) -> None:
    state = game.parse_position(position)
    assert game.illegal_reason(state, game.parse_move(state, move)) == reason
    with pytest.raises(IllegalMoveError) as info:
        game.play(state, move)
    assert info.value.move == move and info.value.position == position
    assert info.value.reason == reason


def test_hand_built_moves_are_explained_not_crashed(game: Game[Any, Any]) -> None:
    state = game.initial_state()
    assert "no square number 25" in str(game.illegal_reason(state, Slide(25, 0)))
    assert "no direction number 8" in str(game.illegal_reason(state, Slide(0, 8)))
    assert "does not lie north of a1" in str(game.illegal_reason(state, Slide(0, 0, 1)))
    with pytest.raises(IllegalMoveError, match=r"'c3 north'.*c3 is empty"):
        game.apply(state, Slide(12, 0))
    with pytest.raises(IllegalMoveError, match=r"'c1 north'.*cannot move north"):
        game.apply(state, Slide(2, 0))


def test_dense_actions(game: Game[Any, Any]) -> None:
    assert game.num_actions == 25 * 8 + 1
    assert game.decode(200) == Pass() and game.encode(Pass()) == 200
    assert game.decode(17 * 8 + 3) == Slide(17, 3)  # c4 south-east
    for bad in (-1, 201, "3"):
        with pytest.raises(FourfoldError, match=r"not in 0\.\.200"):
            game.decode(bad)
    state = game.initial_state()
    wrong = game.parse_move(state, "c4-d3")
    assert wrong == Slide(17, 3, written=13)  # d3
    with pytest.raises(FourfoldError, match="does not stop there"):
        game.encode(wrong)
    mask = game.legal_action_mask(state)
    assert sum(mask) == 22 and mask[200]


def test_round_trips_and_purity_along_random_games(game: Game[Any, Any]) -> None:
    for seed in range(12):
        rng = random.Random(seed)
        match: Match[Any, Any] = Match(game, date="2026-11-22")
        while match.outcome is None and len(match.moves) < 150:
            state = match.state
            text = game.format_position(state)
            assert game.parse_position(text) == state
            assert game.format_position(game.parse_position(text)) == text
            frozen = (state.board, state.to_play, state.history, state.plies, state.line)
            for move in game.legal_moves(state):
                assert game.parse_move(state, game.format_move(state, move)) == move
                assert game.decode(game.encode(move)) == move
                assert game.illegal_reason(state, move) is None
                game.next_state(state, move)
            assert (state.board, state.to_play, state.history, state.plies, state.line) == frozen
            match.play(rng.choice(game.legal_moves(state)))
        record = format_record(match.referee_record())
        replayed = Match.from_record(parse_record(record))
        assert replayed.state == match.state and replayed.state.history == match.state.history
        assert replayed.outcome == match.outcome


SQUARE_TEXT = st.sampled_from([".", "Bs", "Gm", "GlBs", "BlGmBs", "Gl", "BmGs", "Bl", "x", ""])
POSITION_LIKE = st.builds(
    lambda squares, side: "/".join(",".join(squares[r * 5:(r + 1) * 5]) for r in range(5))
    + " " + side,
    st.lists(SQUARE_TEXT, min_size=25, max_size=25),
    st.sampled_from(["B", "G", "b", "X", ""]),
)
MOVE_LIKE = st.text(alphabet="abcdefz0123456-pasPAS ", max_size=8)


@given(text=st.one_of(st.text(max_size=80), POSITION_LIKE,
                      st.text(alphabet="BGsml.,/ 123X", max_size=90)))
def test_parse_position_raises_only_notation_errors(text: str) -> None:
    try:
        state = GAME.parse_position(text)
    except NotationError:
        return
    assert GAME.parse_position(GAME.format_position(state)) == state


@given(text=st.one_of(st.text(max_size=20), MOVE_LIKE))
def test_parse_move_raises_only_notation_errors(text: str) -> None:
    state = GAME.initial_state()
    try:
        move = GAME.parse_move(state, text)
    except NotationError:
        return
    reason = GAME.illegal_reason(state, move)
    if reason is None:
        assert GAME.parse_move(state, GAME.format_move(state, move)) == move
    else:
        with pytest.raises(IllegalMoveError):
            GAME.apply(state, move)
