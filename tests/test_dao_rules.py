"""Classic Dao (RULES.md §2, sibling ruleset): moves, formations, the corner trap,
repetition, notation and dense actions."""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import fourfold
from fourfold.core.errors import FourfoldError, IllegalMoveError, NotationError
from fourfold.core.game import Game
from fourfold.core.match import Match
from fourfold.core.outcome import Result
from fourfold.core.record import format_record, parse_record
from fourfold.games.dao import DaoState, Slide

START = "O,.,.,X/.,O,X,./.,X,O,./X,.,.,O X"
GAME = fourfold.load("dao")


@pytest.fixture(scope="module")
def game() -> Game[Any, Any]:
    return GAME


def texts(game: Game[Any, Any], state: DaoState) -> set[str]:
    return {game.format_move(state, m) for m in game.legal_moves(state)}


def test_start(game: Game[Any, Any]) -> None:
    state = game.initial_state()
    assert game.format_position(state) == START
    assert [game.player_name(p) for p in (0, 1)] == ["X", "O"]
    assert game.to_move(state) == 0
    assert texts(game, state) == {
        "a1-a3", "a1-c1", "b2-c1", "b2-b1", "b2-a2", "b2-a3",
        "c3-c4", "c3-d3", "c3-d2", "c3-b4", "d4-d2", "d4-b4",
    }


def test_slides_stop_before_any_piece_and_must_move(game: Game[Any, Any]) -> None:
    state = game.initial_state()
    for text, reason in (
        ("a1-a2", "the piece on a1 cannot stop on a2: moving north it slides on to a3, as a"
                  " piece always goes as far as it can (a4 is occupied)"),
        ("a1-a4", "the piece on a1 cannot stop on a4: moving north it slides to a3, because a4"
                  " is occupied"),
        ("a1-b2", "the piece on a1 cannot move north-east at all, because b2 is occupied; a"
                  " piece must move at least one square"),
        ("a4-a2", "a4 holds an O piece, not one of yours"),
        ("a2-a3", "a2 is empty"),
    ):
        assert game.illegal_reason(state, game.parse_move(state, text)) == reason
        with pytest.raises(IllegalMoveError):
            game.play(state, text)
    with pytest.raises(NotationError, match="there is no pass in this game"):
        game.parse_move(state, "pass")
    with pytest.raises(NotationError, match="a piece must move at least one square"):
        game.parse_move(state, "a1-a1")


@pytest.mark.parametrize(
    ("position", "move", "reason"),
    [
        ("X,X,X,./.,.,.,X/.,O,.,O/O,.,O,. X", "d3-d4", "four in a row, a4-d4"),
        (".,X,.,O/.,X,.,O/X,.,.,O/X,.,O,. O", "c1-d1", "four in a column, d1-d4"),
        ("O,.,.,O/O,X,X,./O,X,.,X/.,.,.,. X", "d2-c2", "a 2x2 square, b2-c3"),
        ("X,.,.,X/O,O,.,./O,.,O,./X,.,X,. X", "c1-d1", "all four corners"),
    ],
)
def test_formations_win_for_the_mover(
    game: Game[Any, Any], position: str, move: str, reason: str
) -> None:
    state = game.parse_position(position)
    assert game.outcome(state) is None
    after = game.play(state, move)
    outcome = game.outcome(after)
    assert outcome is not None and outcome.winner == state.to_play
    assert outcome.reason == reason
    assert game.legal_moves(after) == []


def test_a_diagonal_is_no_formation(game: Game[Any, Any]) -> None:
    state = game.parse_position("O,.,.,X/.,O,X,./.,X,O,./.,.,X,O X")
    after = game.play(state, "c1-a1")
    assert game.format_position(after) == START.replace(" X", " O")
    assert game.outcome(after) is None


def test_the_corner_trap_wins_for_the_trapped_piece(game: Game[Any, Any]) -> None:
    # O on a1 has X on a2 and b1; X slides c2 -> b2 and completes the trap: X loses
    state = game.parse_position(".,.,.,O/.,O,.,X/X,.,X,O/O,X,.,. X")
    after = game.play(state, "c2-b2")
    outcome = game.outcome(after)
    assert outcome is not None and outcome.winner == 1
    assert outcome.reason == (
        "the O on a1 is trapped in its corner by three X pieces; the trapper loses"
    )


def test_formation_and_trap_never_coincide(game: Game[Any, Any]) -> None:
    """The ruling's argument: no formation holds a corner's three neighbours without the
    corner, so a formation move cannot also trap."""
    for _mask, squares, _name in game.formations:
        for corner, neighbours in game.traps:
            assert not (set(neighbours) <= set(squares) and corner not in squares)


def test_a_player_always_has_a_move_while_the_game_is_on(game: Game[Any, Any]) -> None:
    """Exhaustive over every placement of four pieces each (the rules.md note)."""
    neighbours = [set(game.board.neighbours(sq)) for sq in range(16)]
    for xs in combinations(range(16), 4):
        rest = [sq for sq in range(16) if sq not in xs]
        for os in combinations(rest, 4):
            occupied = set(xs) | set(os)
            for side, pieces in ((0, xs), (1, os)):
                if all(neighbours[p] <= occupied for p in pieces):
                    board = tuple(0 if sq in xs else 1 if sq in os else None for sq in range(16))
                    try:
                        state = game.parse_position(game.format_position(DaoState(board, side)))
                    except NotationError:
                        continue
                    assert game.outcome(state) is not None, game.format_position(state)


def test_the_third_repetition_draws(game: Game[Any, Any]) -> None:
    state = game.initial_state()
    plies = ["a1-a3", "a4-c4", "a3-a1", "c4-a4"] * 2
    for i, text in enumerate(plies, start=1):
        assert game.outcome(state) is None, f"over before ply {i}"
        state = game.play(state, text)
    outcome = game.outcome(state)
    assert state.repetitions == 3 and game.format_position(state) == START
    assert outcome is not None and outcome.result is Result.DRAW
    assert outcome.reason.startswith("threefold repetition")


def test_length_cap() -> None:
    capped = fourfold.load("dao", max_plies=3)
    state = capped.initial_state()
    for text in ("a1-a3", "a4-c4", "a3-a1"):
        state = capped.play(state, text)
    outcome = capped.outcome(state)
    assert outcome is not None and outcome.reason == "length cap reached"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (START.replace("O,.,.,X/", "O,O,.,X/"), "O has 5 pieces"),
        (START.replace("O,.,.,X/", ".,.,.,X/"), "O has 3 pieces"),
        (START.replace("O,.,.,X/", "Q,.,.,X/"), "square a4: 'Q' is not . or a piece letter"),
        (START[:-1] + "B", "the side to move must be X or O"),
        (START.replace("/.,X,O,.", ""), "expected 4 ranks"),
        ("X,X,X,X/.,.,.,./O,O,.,./O,O,.,. X", "X, to move, already has four in a row, a4-d4"),
        ("O,.,.,./O,X,X,./O,X,X,./.,.,.,O X", "X, to move, already has a 2x2 square"),
    ],
)
def test_impossible_positions_are_refused(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        GAME.parse_position(text)


def test_finished_positions_parse(game: Game[Any, Any]) -> None:
    won = game.parse_position("X,X,X,X/.,.,.,./O,.,O,./O,.,.,O O")
    outcome = game.outcome(won)
    assert outcome is not None and outcome.winner == 0
    trapped = game.parse_position(".,.,.,O/.,O,.,X/X,X,.,O/O,X,.,. O")
    outcome = game.outcome(trapped)
    assert outcome is not None and outcome.winner == 1


def test_trapped_by_the_side_to_move_is_refused(game: Game[Any, Any]) -> None:
    with pytest.raises(NotationError, match="trapped by O, who is to move"):
        game.parse_position(".,.,.,O/.,.,.,X/O,O,.,X/X,O,.,X O")


def test_dense_actions(game: Game[Any, Any]) -> None:
    assert game.num_actions == 16 * 8
    state = game.initial_state()
    for move in game.legal_moves(state):
        assert game.decode(game.encode(move)) == move
    with pytest.raises(FourfoldError):
        game.decode(128)
    with pytest.raises(FourfoldError, match="does not stop there"):
        game.encode(game.parse_move(state, "a1-a2"))
    assert game.parse_move(state, "a1-a3") == Slide(0, 0)


def test_round_trips_and_purity_along_random_games(game: Game[Any, Any]) -> None:
    for seed in range(20):
        rng = random.Random(seed)
        match: Match[Any, Any] = Match(game, date="2026-11-22")
        while match.outcome is None:
            state = match.state
            text = game.format_position(state)
            assert game.parse_position(text) == state
            frozen = (state.board, state.to_play, state.history, state.plies)
            for move in game.legal_moves(state):
                assert game.parse_move(state, game.format_move(state, move)) == move
                assert game.illegal_reason(state, move) is None
                game.next_state(state, move)
            assert (state.board, state.to_play, state.history, state.plies) == frozen
            match.play(rng.choice(game.legal_moves(state)))
        assert game.parse_position(game.format_position(match.state)) == match.state
        replayed = Match.from_record(parse_record(format_record(match.referee_record())))
        assert replayed.state == match.state and replayed.outcome == match.outcome


SQUARE_TEXT = st.sampled_from([".", "X", "O", "x", "o", "", "XO", "B"])
POSITION_LIKE = st.builds(
    lambda squares, side: "/".join(",".join(squares[r * 4:(r + 1) * 4]) for r in range(4))
    + " " + side,
    st.lists(SQUARE_TEXT, min_size=16, max_size=16),
    st.sampled_from(["X", "O", "o", "G", ""]),
)


@given(text=st.one_of(st.text(max_size=60), POSITION_LIKE))
def test_parse_position_raises_only_notation_errors(text: str) -> None:
    try:
        state = GAME.parse_position(text)
    except NotationError:
        return
    assert GAME.parse_position(GAME.format_position(state)) == state


@given(text=st.one_of(st.text(max_size=12), st.text(alphabet="abcde012345-pas ", max_size=7)))
def test_parse_move_raises_only_notation_errors(text: str) -> None:
    state = GAME.initial_state()
    try:
        move = GAME.parse_move(state, text)
    except NotationError:
        return
    if GAME.illegal_reason(state, move) is None:
        assert GAME.parse_move(state, GAME.format_move(state, move)) == move
    else:
        with pytest.raises(IllegalMoveError):
            GAME.apply(state, move)
